/**
 * Why AddRecords rejects a row. The vendor documents `CannotBeEmpty Column: <name>` and
 * `UnknownColumn Column: <name>` (OpenAPI, AddRecords); the other reasons are inferred from the
 * column types and limits and written in the same style:
 * - `InvalidValue Column: <name>`: a Double or Integer value that is not a number in invariant
 *   culture (`12.5`, `-3`, `1e3`; no `12,5`, no thousands separators; an Integer must be whole and
 *   fit 64 bits), or a Date value that is not ISO `YYYY-MM-DD`, optionally with a time
 *   (`2026-01-31T12:00:00Z`).
 * - `ValueTooLong Column: <name>`: a value longer than 256 characters.
 * - `DuplicateRecordId Id: <id>`: the id already appeared earlier in the same request.
 * - `RecordAlreadyExists Id: <id>`: the id is stored and record upsert is 'reject'.
 * - `CatalogIsFull`: the row would take the catalog past its record limit (vendor: 500 000).
 * Empty strings are no value: they satisfy no notEmpty column and are never invalid.
 */
import type { ColumnDto, ColumnType } from '../schemas/catalogs';
import type { RecordFields } from './table';

export const MAX_VALUE_LENGTH = 256;

const DOUBLE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;
const INT64_MAX = BigInt('9223372036854775807');
const INT64_MIN = BigInt('-9223372036854775808');

/** Whether a non-empty `value` fits a column of `type`. */
export function validValue(type: ColumnType, value: string): boolean {
	switch (type) {
		case 'Text':
			return true;
		case 'Double':
			return DOUBLE.test(value) && Number.isFinite(Number(value));
		case 'Integer': {
			if (!INTEGER.test(value)) return false;
			const n = BigInt(value);
			return n <= INT64_MAX && n >= INT64_MIN;
		}
		case 'Date': {
			const m = DATE.exec(value);
			if (!m) return false;
			const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
			const date = new Date(Date.UTC(year, month - 1, day));
			const dayOk = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && day >= 1;
			const timeOk =
				m[4] === undefined || (Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6] ?? 0) < 60);
			return dayOk && date.getUTCDate() === day && timeOk;
		}
	}
}

/** A catalog's columns, looked up by name. */
export class Columns {
	readonly byName: Map<string, ColumnDto>;

	constructor(readonly list: ColumnDto[]) {
		this.byName = new Map(list.map((c) => [c.name, c]));
	}

	/**
	 * The field-level reasons to reject `fields`, in this order: unknown columns (as sent), then per
	 * column (in catalog order) the first of CannotBeEmpty, ValueTooLong, InvalidValue.
	 */
	errors(fields: RecordFields): string[] {
		const errors: string[] = [];
		for (const name of Object.keys(fields)) {
			if (!this.byName.has(name)) errors.push(`UnknownColumn Column: ${name}`);
		}
		for (const column of this.list) {
			const values = Object.prototype.hasOwnProperty.call(fields, column.name)
				? fields[column.name]
				: [];
			const given = values.filter((v) => v !== '');
			if (column.notEmpty && given.length === 0) {
				errors.push(`CannotBeEmpty Column: ${column.name}`);
			} else if (given.some((v) => v.length > MAX_VALUE_LENGTH)) {
				errors.push(`ValueTooLong Column: ${column.name}`);
			} else if (given.some((v) => !validValue(column.type, v))) {
				errors.push(`InvalidValue Column: ${column.name}`);
			}
		}
		return errors;
	}
}
