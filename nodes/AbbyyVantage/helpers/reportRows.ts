import type { IDataObject } from 'n8n-workflow';

import { csvRecords } from './csv';

/**
 * The rows of a CSV report as n8n items with typed values. A column's type comes from its name,
 * once per report, so a column has one type in every row: the QA reports' flags
 * (`HasManualReview`, `Correct`, `NotDetected` …, sent as 1/0 or true/false) become booleans,
 * counts (`NumberOf…`, `…Count`, `Duration`) numbers, and dates (`…Date`, `…Utc`, `…Time`) ISO 8601
 * UTC text. ABBYY documents a subset of the columns (the GetDocumentsAsCsv and GetFieldsAsCsv
 * examples of the Reporting OpenAPI document); any other column is typed by the same name rules.
 * A value that does not read as its column's type is kept as text, never dropped; an empty cell of
 * a typed column is null.
 */
export type ColumnKind = 'boolean' | 'number' | 'date' | 'text';

export interface ReportColumn {
	/** The key in the output item: the header's name (blank or repeated names made unique). */
	key: string;
	kind: ColumnKind;
}

/** Flags of the QA reports (Reporting OpenAPI examples and docs.abbyy.com analytics reporting). */
const BOOLEAN_COLUMNS = new Set(
	[
		'HasManualReview',
		'DocumentSkillChanged',
		'Correct',
		'RecognitionIssue',
		'DetectedIncorrectly',
		'NotDetected',
		'IsInDocument',
	].map((name) => name.toLowerCase()),
);

export function columnKind(name: string): ColumnKind {
	if (BOOLEAN_COLUMNS.has(name.toLowerCase()) || /^(Is|Has|Was)[A-Z]/.test(name)) return 'boolean';
	if (/^NumberOf/i.test(name) || /Count$/.test(name) || /^Duration$/i.test(name)) return 'number';
	if (/(Date|Utc|Time)$/.test(name)) return 'date';
	return 'text';
}

/** The columns of a header row: each name once (a repeat gets `_2`, a blank one `column_<n>`). */
export function reportColumns(header: string[]): ReportColumn[] {
	const seen = new Set<string>();
	return header.map((raw, index) => {
		const name = raw.trim() === '' ? `column_${index + 1}` : raw.trim();
		let key = name;
		for (let n = 2; seen.has(key); n++) key = `${name}_${n}`;
		seen.add(key);
		return { key, kind: columnKind(name) };
	});
}

const TRUE = new Set(['1', 'true', 'yes']);
const FALSE = new Set(['0', 'false', 'no']);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** `MM/dd/yyyy HH:mm:ss`, as the transaction-steps export writes its dates (UTC). */
const US_DATE_TIME = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
/** ISO 8601 date or date-time; without an offset it is UTC, as the reports' times are. */
const ISO_DATE_TIME =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function readDate(text: string): string | undefined {
	let ms = NaN;
	const us = US_DATE_TIME.exec(text);
	if (us) {
		const [month, day, year, hour, minute, second] = us.slice(1).map((part) => Number(part ?? 0));
		ms = Date.UTC(year, month - 1, day, hour, minute, second);
		const check = new Date(ms);
		if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23) return;
	} else {
		const iso = ISO_DATE_TIME.exec(text);
		if (!iso) return;
		const normal = text.replace(' ', 'T');
		ms = Date.parse(iso[1] || normal.length === 10 ? normal : `${normal}Z`);
	}
	return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** One cell as its column's type; text that does not read as that type stays text. */
export function typedValue(kind: ColumnKind, cell: string): string | number | boolean | null {
	if (kind === 'text') return cell;
	const text = cell.trim();
	if (text === '') return null;
	switch (kind) {
		case 'boolean': {
			const lower = text.toLowerCase();
			if (TRUE.has(lower)) return true;
			if (FALSE.has(lower)) return false;
			return cell;
		}
		case 'number':
			return NUMBER.test(text) ? Number(text) : cell;
		default:
			return readDate(text) ?? cell;
	}
}

/**
 * One record as an item's JSON. Cells beyond the header get `column_<n>` keys; a short record's
 * missing cells are null.
 */
export function typedRecord(columns: ReportColumn[], cells: string[]): IDataObject {
	const json: IDataObject = {};
	for (let i = 0; i < columns.length; i++) {
		const cell = cells[i];
		json[columns[i].key] = cell === undefined ? null : typedValue(columns[i].kind, cell);
	}
	for (let i = columns.length; i < cells.length; i++) json[`column_${i + 1}`] = cells[i];
	return json;
}

/** The key of the first of `names` the report has (compared case-insensitively), if any. */
export function findColumn(columns: ReportColumn[], names: string[]): string | undefined {
	for (const name of names) {
		const found = columns.find((c) => c.key.toLowerCase() === name.toLowerCase());
		if (found) return found.key;
	}
	return undefined;
}

/**
 * A CSV report's rows as they stream in: the header's columns to `onHeader`, then each record as
 * typed JSON to `onRow`. Either returning false stops reading (the rest is not downloaded); so
 * does the end of the body.
 */
export async function eachReportRow(
	chunks: AsyncIterable<Uint8Array>,
	onHeader: (columns: ReportColumn[]) => boolean,
	onRow: (row: IDataObject) => boolean | void,
): Promise<void> {
	let columns: ReportColumn[] | undefined;
	for await (const batch of csvRecords(chunks)) {
		for (const cells of batch) {
			if (!columns) {
				columns = reportColumns(cells);
				if (!onHeader(columns)) return;
			} else if (onRow(typedRecord(columns, cells)) === false) return;
		}
	}
}
