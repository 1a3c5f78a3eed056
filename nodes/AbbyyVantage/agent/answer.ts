import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { ANSWER_MAX_CHARS, ANSWER_MAX_RESULTS } from '../constants';
import { boundText } from '../helpers/documentText';
import type { AnswerKind } from './tools';

/**
 * The answer a model gets from the tool: one JSON object, at most ANSWER_MAX_CHARS characters
 * (n8n hands the agent JSON.stringify of the items' `json`, @n8n/nodes-langchain buildSteps /
 * core makeHandleToolInvocation), at most ANSWER_MAX_RESULTS results.
 */
/** Room kept for the envelope and the note that says how to narrow the question. */
const ENVELOPE_CHARS = 1_000;

export type OutputMode = 'simplified' | 'raw' | 'selected';

export interface AnswerOptions {
	kind: AnswerKind;
	mode: OutputMode;
	/** Selected Fields: dot paths. */
	fields: string[];
	/** What to tell a model whose question matched more than fits. */
	narrow?: string;
	/** The Limit the operation read with, when it has one. */
	limit?: number;
}

/** Kinds whose answer is a list, even of one. */
const LISTS: ReadonlySet<AnswerKind> = new Set<AnswerKind>([
	'list',
	'records',
	'catalogs',
	'skills',
	'transactions',
	'documents',
	'summary',
]);

/** Bookkeeping of the node's workflow output a model has no use for. */
const NOISE = new Set([
	'polls',
	'failedPolls',
	'uploadMethod',
	'pairing',
	'resultFiles',
	'renamedFiles',
	'sourceFiles',
	'skill',
]);

/** The tool's answer from the node's output items. */
export function buildAnswer(items: INodeExecutionData[], options: AnswerOptions): IDataObject {
	let shaped = items.map((item) => shapeItem(item.json, options));
	if (options.kind === 'documents') shaped = withTextsThatFit(shaped);
	const binaries = items.filter((item) => item.binary && Object.keys(item.binary).length).length;
	const extra: IDataObject = {};
	if (binaries) {
		extra.filesLeftOut = `${binaries} file${binaries === 1 ? '' : 's'} (binary data) cannot be given to a model and were left out`;
	}
	if (!LISTS.has(options.kind) && shaped.length === 1) {
		return fit({ ...shaped[0], ...extra });
	}
	return listAnswer(shaped, options, extra);
}

/** What a document whose text was cut to fit the answer says about it. */
const TEXT_CUT_NOTE = `The text was cut to fit this answer (${ANSWER_MAX_CHARS.toLocaleString('en-US')} characters for all documents); the end of the text says how much is left out.`;

/** Least room a document's text keeps in an answer, however many documents share it. */
const MIN_TEXT_CHARS = 1_000;

/**
 * Documents whose `text` (Include Document Text) is cut so that all of them fit one answer: the
 * room the rest of the answer leaves, shared equally among the documents that have a text. A cut
 * text ends with a marker saying how much the model did not see, and `textNote` says why. The
 * room is counted in JSON characters (a line break costs two), so a cut is measured and shortened
 * again where escapes made it longer.
 */
export function withTextsThatFit(results: IDataObject[]): IDataObject[] {
	// Only the results an answer can list share the room.
	const listed = results.slice(0, ANSWER_MAX_RESULTS);
	const withText = listed.filter((r) => typeof r.text === 'string' && r.text !== '');
	if (!withText.length) return results;
	// Counted as if every text were cut: its note takes room too.
	const without = listed.map((r) =>
		withText.includes(r) ? { ...r, text: '', textNote: TEXT_CUT_NOTE } : r,
	);
	const room = ANSWER_MAX_CHARS - ENVELOPE_CHARS - JSON.stringify(without).length;
	const share = Math.max(MIN_TEXT_CHARS, Math.floor(room / withText.length));
	return results.map((result) => {
		if (!withText.includes(result)) return result;
		const text = result.text as string;
		if (JSON.stringify(text).length <= share) return result;
		let max = share;
		let cut = boundText(text, max).text;
		for (let round = 0; round < 5 && JSON.stringify(cut).length > share; round++) {
			max = Math.floor((max * share) / JSON.stringify(cut).length) - 1;
			cut = boundText(text, max).text;
		}
		return { ...result, text: cut, textNote: TEXT_CUT_NOTE };
	});
}

function listAnswer(results: IDataObject[], options: AnswerOptions, extra: IDataObject) {
	const listed: IDataObject[] = [];
	let size = 0;
	for (const result of results) {
		if (listed.length >= ANSWER_MAX_RESULTS) break;
		const one = fit(result, ANSWER_MAX_CHARS - ENVELOPE_CHARS);
		const length = JSON.stringify(one).length + 1;
		if (size + length > ANSWER_MAX_CHARS - ENVELOPE_CHARS) break;
		listed.push(one);
		size += length;
	}
	const answer: IDataObject = { returned: listed.length, ...extra };
	const notes: string[] = [];
	if (listed.length < results.length) {
		answer.found = results.length;
		notes.push(
			`Only ${listed.length} of the ${results.length} results fit in this answer (at most ${ANSWER_MAX_RESULTS} results and ${ANSWER_MAX_CHARS.toLocaleString('en-US')} characters).`,
		);
	} else if (options.limit !== undefined && results.length >= options.limit) {
		notes.push(`There may be more than ${options.limit}: this is as many as the limit asked for.`);
	}
	if (notes.length) {
		notes.push(
			options.narrow
				? `To see others, ${options.narrow}.`
				: 'Ask a narrower question to see others.',
		);
		answer.note = notes.join(' ');
	}
	answer.results = listed;
	return answer;
}

function shapeItem(json: IDataObject, options: AnswerOptions): IDataObject {
	if (options.mode === 'raw') return json;
	if (options.mode === 'selected') return selected(json, options.fields);
	if (typeof json.error === 'string') return compact(json);
	switch (options.kind) {
		case 'records':
		case 'record':
			return { id: json.id as string, fields: recordValues(json.fields) };
		case 'catalogs':
			return json.name && json.name !== json.id
				? { id: json.id as string, name: json.name as string }
				: { id: json.id as string };
		case 'skills':
			return compact({ id: json.id, name: json.name, type: json.type });
		case 'documents':
			return documentOf(json);
		default:
			return compact(json);
	}
}

/**
 * A document's extracted data: `fields` exactly as the node outputs them (a field Vantage did not
 * find stays `null`, which tells the model so), the rest compact.
 */
function documentOf(json: IDataObject): IDataObject {
	const { fields, ...rest } = json;
	const shaped = compact(rest);
	const first: IDataObject = {};
	for (const key of ['transactionId', 'documentId', 'status']) {
		if (key in shaped) first[key] = shaped[key];
	}
	if (fields !== undefined) first.fields = fields as IDataObject;
	return { ...first, ...shaped };
}

/** A catalog record's `{ column: string[] }` as `{ column: value }`, one value kept as it is. */
function recordValues(fields: unknown): IDataObject {
	const out: IDataObject = {};
	if (!fields || typeof fields !== 'object') return out;
	for (const [column, values] of Object.entries(fields as Record<string, unknown>)) {
		if (Array.isArray(values)) {
			const kept = values.filter((v) => v !== '' && v !== null && v !== undefined);
			if (kept.length === 1) out[column] = kept[0] as string;
			else if (kept.length > 1) out[column] = kept as string[];
		} else if (values !== null && values !== undefined && values !== '') {
			out[column] = values as string;
		}
	}
	return out;
}

/** Without empty values (null, '', [], {}) and the workflow's bookkeeping, at every depth. */
export function compact(value: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, entry] of Object.entries(value)) {
		if (NOISE.has(key)) continue;
		const kept = compactValue(entry);
		if (kept !== undefined) out[key] = kept as IDataObject[keyof IDataObject];
	}
	return out;
}

function compactValue(value: unknown): unknown {
	if (value === null || value === undefined || value === '') return undefined;
	if (Array.isArray(value)) {
		const kept = value.map(compactValue).filter((v) => v !== undefined);
		return kept.length ? kept : undefined;
	}
	if (typeof value === 'object') {
		const kept = compact(value as IDataObject);
		return Object.keys(kept).length ? kept : undefined;
	}
	return value;
}

function selected(json: IDataObject, paths: string[]): IDataObject {
	const out: IDataObject = {};
	for (const path of paths) {
		let current: unknown = json;
		for (const part of path.split('.')) {
			current = current && typeof current === 'object' ? (current as IDataObject)[part] : undefined;
		}
		if (current !== undefined) out[path] = current as IDataObject[keyof IDataObject];
	}
	return out;
}

/**
 * A value cut to `max` characters of JSON: the longest list inside is halved (a marker says how
 * many entries were left out) until it fits, then long texts are shortened.
 */
export function fit(value: IDataObject, max = ANSWER_MAX_CHARS): IDataObject {
	let current = value;
	for (let round = 0; JSON.stringify(current).length > max && round < 200; round++) {
		const next = halveLongestList(current);
		if (next === undefined) break;
		current = next;
	}
	if (JSON.stringify(current).length > max) current = shortenTexts(current, 500) as IDataObject;
	if (JSON.stringify(current).length > max) {
		return {
			truncated: `The answer was ${JSON.stringify(value).length} characters, too long for a model; ask for less.`,
		};
	}
	return current;
}

const LEFT_OUT = /^… (\d+) more not shown$/;

function halveLongestList(value: IDataObject): IDataObject | undefined {
	let longest: { list: unknown[]; length: number } | undefined;
	const visit = (node: unknown) => {
		if (Array.isArray(node)) {
			const length = JSON.stringify(node).length;
			const last = node[node.length - 1];
			const entries = node.length - (typeof last === 'string' && LEFT_OUT.test(last) ? 1 : 0);
			if (entries > 1 && (!longest || length > longest.length)) longest = { list: node, length };
			node.forEach(visit);
		} else if (node && typeof node === 'object') Object.values(node).forEach(visit);
	};
	visit(value);
	if (!longest) return undefined;
	const target = longest.list;
	const copy = (node: unknown): unknown => {
		if (node === target) {
			const marker = target[target.length - 1];
			const earlier = typeof marker === 'string' ? LEFT_OUT.exec(marker) : null;
			const entries = earlier ? target.slice(0, -1) : target;
			const keep = Math.max(1, Math.floor(entries.length / 2));
			const leftOut = entries.length - keep + (earlier ? Number(earlier[1]) : 0);
			return [...entries.slice(0, keep).map(copy), `… ${leftOut} more not shown`];
		}
		if (Array.isArray(node)) return node.map(copy);
		if (node && typeof node === 'object') {
			return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, copy(v)]));
		}
		return node;
	};
	return copy(value) as IDataObject;
}

function shortenTexts(node: unknown, max: number): unknown {
	if (typeof node === 'string')
		return node.length > max
			? `${node.slice(0, max)}… (${node.length - max} more characters)`
			: node;
	if (Array.isArray(node)) return node.map((n) => shortenTexts(n, max));
	if (node && typeof node === 'object') {
		return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, shortenTexts(v, max)]));
	}
	return node;
}
