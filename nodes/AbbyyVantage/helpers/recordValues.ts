import type { IDataObject } from 'n8n-workflow';

import { MAX_VALUE_LENGTH } from '../constants';
import { wallClock } from './dates';

/**
 * Catalog values: the API stores every column value as an array of strings (RecordModel
 * `fields: { [column]: string[] }`). Columns are Text, Double, Integer or Date (ColumnType).
 */
export type ColumnType = 'Text' | 'Double' | 'Integer' | 'Date';

export interface CatalogColumn {
	name: string;
	type: ColumnType | string;
	notEmpty: boolean;
}

/**
 * Why a value cannot be stored, or its strings. A list value becomes several strings. A JS Date
 * in a Date column is the day it is in `timeZone` (the workflow's); a Luxon DateTime (what n8n's
 * expressions give) is the day in its own zone.
 */
export function toColumnStrings(
	value: unknown,
	column: CatalogColumn,
	timeZone = 'UTC',
): string[] | { problem: string } {
	if (value === undefined || value === null || value === '') return [];
	if (!Array.isArray(value)) {
		const text = checkedText(value, column.type, timeZone);
		return typeof text === 'string' ? [text] : text;
	}
	const strings: string[] = [];
	for (const one of value as unknown[]) {
		if (one === undefined || one === null || one === '') continue;
		const text = checkedText(one, column.type, timeZone);
		if (typeof text !== 'string') return text;
		strings.push(text);
	}
	return strings;
}

function checkedText(value: unknown, type: string, timeZone: string): string | { problem: string } {
	const text = toText(value, type, timeZone);
	if (typeof text === 'string' && text.length > MAX_VALUE_LENGTH) {
		return {
			problem: `is ${text.length} characters long; Vantage stores at most ${MAX_VALUE_LENGTH}`,
		};
	}
	return text;
}

function isDateLike(value: unknown): value is { toISO: () => string | null } | Date {
	return (
		value instanceof Date ||
		(!!value &&
			typeof value === 'object' &&
			typeof (value as { toISO?: unknown }).toISO === 'function')
	);
}

function isValidDate(value: { toISO: () => string | null } | Date): boolean {
	return value instanceof Date ? Number.isFinite(value.getTime()) : value.toISO() !== null;
}

/** The calendar day (YYYY-MM-DD) of an instant in `timeZone`. */
function dayIn(date: Date, timeZone: string): string {
	const { year, month, day } = wallClock(date.getTime(), timeZone);
	const two = (n: number) => String(n).padStart(2, '0');
	return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`;
}

/** One value as the column type expects it: invariant numbers, ISO dates (inferred format). */
function toText(value: unknown, type: string, timeZone: string): string | { problem: string } {
	if (isDateLike(value) && !isValidDate(value)) return { problem: 'is an invalid date' };
	if (type === 'Double' || type === 'Integer') {
		const number =
			typeof value === 'number'
				? value
				: typeof value === 'string' && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value)
					? Number(value)
					: NaN;
		if (!Number.isFinite(number))
			return { problem: `must be a number, not ${JSON.stringify(value)}` };
		if (type === 'Integer' && !Number.isInteger(number))
			return { problem: `must be a whole number, not ${number}` };
		return String(number);
	}
	if (type === 'Date') {
		if (isDateLike(value)) {
			return value instanceof Date ? dayIn(value, timeZone) : String(value.toISO()).slice(0, 10);
		}
		if (
			typeof value === 'string' &&
			/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())
		) {
			return value.trim().slice(0, 10);
		}
		return { problem: `must be a date (e.g. 2026-11-23), not ${JSON.stringify(value)}` };
	}
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (isDateLike(value)) return value instanceof Date ? value.toISOString() : String(value.toISO());
	return JSON.stringify(value);
}

/**
 * Whether `stored` already holds what `given` says, on the columns `given` carries (value order
 * matters; a stored column that is absent counts as empty). A column `given` lacks is not compared:
 * an update keeps its stored value, so comparing it would plan the same update on every run.
 */
export function sameFields(
	given: Record<string, string[]>,
	stored: Record<string, string[]>,
): boolean {
	for (const column in given) {
		const x = given[column];
		const y = stored[column] ?? [];
		if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
	}
	return true;
}

/** A record as the API returns it (RecordDto), with fields as string arrays (kept when they are). */
export function recordFields(fields: unknown): Record<string, string[]> {
	if (!fields || typeof fields !== 'object') return {};
	const given = fields as IDataObject;
	let out: Record<string, string[]> | undefined;
	for (const column in given) {
		const values = given[column];
		if (Array.isArray(values) && values.every((v) => typeof v === 'string')) continue;
		// The first value out of shape: copy the record (its well-formed columns with it) and fix.
		out ??= { ...(given as Record<string, string[]>) };
		out[column] = Array.isArray(values)
			? values.map(String)
			: values == null
				? []
				: [String(values)];
	}
	return out ?? (given as Record<string, string[]>);
}
