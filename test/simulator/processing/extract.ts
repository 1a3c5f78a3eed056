/**
 * "Extraction": field values read from the uploaded file's text, so tests can tell documents
 * apart. A file (utf-8) with lines `Name: value` for the skill's fields is *structured*: its
 * fields come from those lines and a field without a line is not found. Any other file gets
 * deterministic defaults derived from its name. Recognised lines:
 *
 *   InvoiceNumber: INV-1            a simple field (top level)
 *   InvoiceDate: 03.11.2025         Date fields: Value '2025-11-03', RawValue as written
 *   Total: 1.250,00                 Amount fields: Value '1250.00'
 *   Confidence.Total: 62            that field's confidence (default 95; < 70 needs verification)
 *   PONumbers: A, B                 a repeating field: one value per comma-separated item
 *   Vendor.Name: ACME               a field of a (non-repeating) group
 *   LineItem: Desk; 2; 99,50        a table row (`LineItems` or its singular), cells by column
 *   RuleError: Total does not match a business rule error (see ./results.ts)
 *   Class: Receipt                  the class a Classification skill assigns
 */
import { createHash } from 'node:crypto';

import type { FieldDefinition } from '../skills';

export interface SimpleValue {
	kind: 'simple';
	raw: string;
	value: string;
	confidence: number;
}
export interface GroupValue {
	kind: 'group';
	fields: FieldValues;
}
export type FieldValue = SimpleValue | GroupValue;
/** Field name → its instances (empty: not found). */
export type FieldValues = Map<string, FieldValue[]>;

export const DEFAULT_CONFIDENCE = 95;
/** Confidence of a value that could not be normalised. */
const UNREADABLE_CONFIDENCE = 30;

/** `Key: value` lines, keys in lower case, in order. */
export function readLines(text: string): Map<string, string[]> {
	const lines = new Map<string, string[]>();
	for (const line of text.split(/\r?\n/)) {
		const m = /^\s*([A-Za-z][\w.]*)\s*:\s*(.*?)\s*$/.exec(line);
		if (!m) continue;
		const key = m[1].toLowerCase();
		const list = lines.get(key);
		if (list) list.push(m[2]);
		else lines.set(key, [m[2]]);
	}
	return lines;
}

/** First 6 hex digits of sha256(file name): the seed of default values. */
export function nameHash(fileName: string): string {
	return createHash('sha256').update(fileName).digest('hex').slice(0, 6);
}

const singular = (name: string) => (/s$/i.test(name) ? name.slice(0, -1) : name);
const isGroup = (f: FieldDefinition) => f.type === 'Group';

/** The keys a structured file may use for `fields`. */
function knownKeys(fields: FieldDefinition[], prefix = '', keys = new Set<string>()): Set<string> {
	for (const f of fields) {
		const path = (prefix + f.name).toLowerCase();
		if (!isGroup(f)) keys.add(path);
		else if (f.isRepeatable) {
			keys.add(path);
			keys.add(singular(path));
		} else knownKeys(f.children ?? [], `${path}.`, keys);
	}
	return keys;
}

/**
 * The values of `fields` for a document whose source text is `text` and first file `fileName`.
 * Page 2 of a Process-skill bundle gets `<InvoiceNumber>-2`.
 */
export function extractFields(
	fields: FieldDefinition[],
	text: string,
	fileName: string,
	page = 1,
): FieldValues {
	const lines = readLines(text);
	const keys = knownKeys(fields);
	const structured = [...lines.keys()].some((k) => keys.has(k));
	const ctx = { lines, structured, hash: nameHash(fileName) };
	const values = valuesOf(fields, '', ctx);
	if (page > 1) {
		for (const v of values.get('InvoiceNumber') ?? []) {
			if (v.kind === 'simple') {
				v.value = `${v.value}-${page}`;
				v.raw = `${v.raw}-${page}`;
			}
		}
	}
	return values;
}

interface Ctx {
	lines: Map<string, string[]>;
	structured: boolean;
	hash: string;
}

function valuesOf(fields: FieldDefinition[], prefix: string, ctx: Ctx): FieldValues {
	const out: FieldValues = new Map();
	for (const f of fields) out.set(f.name, fieldValues(f, prefix + f.name, ctx));
	return out;
}

function fieldValues(f: FieldDefinition, path: string, ctx: Ctx): FieldValue[] {
	const key = path.toLowerCase();
	if (!isGroup(f)) {
		if (!ctx.structured) return [simple(f, path, defaultRaw(f, path, ctx.hash), ctx)];
		const found = ctx.lines.get(key) ?? [];
		const raws = f.isRepeatable
			? found.flatMap((line) => line.split(',').map((s) => s.trim()))
			: found.slice(0, 1);
		return raws.filter((raw) => raw !== '').map((raw) => simple(f, path, raw, ctx));
	}
	const children = f.children ?? [];
	if (f.isRepeatable) {
		if (!ctx.structured) return [{ kind: 'group', fields: valuesOf(children, `${path}.`, ctx) }];
		const rows = [...(ctx.lines.get(key) ?? []), ...(ctx.lines.get(singular(key)) ?? [])];
		return rows.map((row) => {
			const cells = row.split(';').map((c) => c.trim());
			const fields: FieldValues = new Map();
			children.forEach((child, i) => {
				const cell = cells[i] ?? '';
				const childPath = `${path}.${child.name}`;
				fields.set(
					child.name,
					cell && !isGroup(child) ? [simple(child, childPath, cell, ctx)] : [],
				);
			});
			return { kind: 'group', fields };
		});
	}
	const groupKeys = knownKeys(children, `${key}.`);
	if (ctx.structured && ![...ctx.lines.keys()].some((k) => groupKeys.has(k))) return [];
	return [{ kind: 'group', fields: valuesOf(children, `${path}.`, ctx) }];
}

function simple(f: FieldDefinition, path: string, raw: string, ctx: Ctx): SimpleValue {
	const given = ctx.lines.get(`confidence.${path.toLowerCase()}`)?.[0];
	const confidence =
		given !== undefined && /^\d+$/.test(given) ? Math.min(100, Number(given)) : null;
	const value = normalise(raw, f.textFormat ?? 'Text');
	return {
		kind: 'simple',
		raw,
		value: value ?? raw,
		confidence: confidence ?? (value === null ? UNREADABLE_CONFIDENCE : DEFAULT_CONFIDENCE),
	};
}

/** Default raw values: known fields by their path, others by their format. */
const DEFAULTS: Record<string, (hash: string) => string> = {
	invoicenumber: (h) => `INV-${h}`,
	invoicedate: () => '15.01.2025',
	date: () => '15.01.2025',
	total: () => '1,250.00',
	currency: () => 'EUR',
	ponumbers: (h) => `PO-${h}`,
	'vendor.name': () => 'ACME Corporation',
	'vendor.vatid': () => 'DE123456789',
	'lineitems.description': (h) => `Item ${h}`,
	'lineitems.quantity': () => '1',
	'lineitems.amount': () => '1,250.00',
	merchant: () => 'Corner Shop',
};

function defaultRaw(f: FieldDefinition, path: string, hash: string): string {
	const known = DEFAULTS[path.toLowerCase()];
	if (known) return known(hash);
	switch (f.textFormat) {
		case 'Date':
			return '2025-01-15';
		case 'Amount':
			return '100.00';
		case 'Number':
			return '1';
		default:
			return `${f.name}-${hash}`;
	}
}

/** The normalised Value of `raw` (ISO dates, amounts with two decimals), or null if unreadable. */
export function normalise(raw: string, format: string): string | null {
	if (format === 'Date') return isoDate(raw);
	if (format === 'Amount') {
		const n = parseNumber(raw);
		return n === null ? null : n.toFixed(2);
	}
	if (format === 'Number') {
		const n = parseNumber(raw);
		return n === null ? null : String(n);
	}
	return raw;
}

function isoDate(raw: string): string | null {
	const s = raw.trim();
	let y: number, m: number, d: number;
	let match: RegExpExecArray | null;
	if ((match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s))) [y, m, d] = nums(match, 1, 2, 3);
	else if ((match = /^(\d{1,2})[.-](\d{1,2})[.-](\d{4})$/.exec(s)))
		[d, m, y] = nums(match, 1, 2, 3);
	// Slashes read the US way, as the vendor's own example (01/15/2024).
	else if ((match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s))) [m, d, y] = nums(match, 1, 2, 3);
	else return null;
	const date = new Date(Date.UTC(y, m - 1, d));
	if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
		return null;
	}
	return date.toISOString().slice(0, 10);
}

function nums(match: RegExpExecArray, ...groups: number[]): [number, number, number] {
	return groups.map((g) => Number(match[g])) as [number, number, number];
}

/** "1.250,00", "1,250.00", "€ 99,5", "(12.00)" → a number; the last separator followed by 1-2 digits is the decimal one. */
function parseNumber(raw: string): number | null {
	const negative = /^\s*[-(]/.test(raw);
	const s = raw.replace(/[^\d.,]/g, '');
	if (!/\d/.test(s)) return null;
	const m = /^(.*?)[.,](\d{1,2})$/.exec(s);
	const whole = (m ? m[1] : s).replace(/[.,]/g, '');
	const n = Number(`${whole || '0'}.${m ? m[2] : '0'}`);
	if (!Number.isFinite(n)) return null;
	return negative ? -n : n;
}
