/**
 * The tenant's data catalogs: columns and records, shared by the Catalogs area (../routes/catalogs.ts)
 * and the CatalogRecords area (../routes/records.ts), and seeded directly by the controls.
 */
import { ColumnDto } from '../schemas/catalogs';
import { Columns } from './rows';
import { RecordTable, type RecordFields, type StoredRecord } from './table';

export type { RecordFields, StoredRecord } from './table';

/**
 * What AddRecords does with an id the catalog already holds (not documented by the vendor):
 * 'replace' the record in place (counted as inserted), or 'reject' the row with
 * `RecordAlreadyExists Id: <id>`.
 */
export type RecordUpsert = 'replace' | 'reject';

export interface Catalog {
	/** The vendor's catalog ids are the catalog names. */
	id: string;
	name: string;
	columns: Columns;
	records: RecordTable;
}

export interface AddRecordsResult {
	insertedRowCount: number;
	errorRows: Record<string, string[]>;
}

/** Name (Text, required) and Country (Text): the columns of catalogs added without any. */
export function defaultColumns(): ColumnDto[] {
	return [
		{ name: 'Name', type: 'Text', notEmpty: true },
		{ name: 'Country', type: 'Text', notEmpty: false },
	];
}

/** The columns of the fixture catalog FIXTURE.productCatalogId: one of every type. */
export function productColumns(): ColumnDto[] {
	return [
		{ name: 'Code', type: 'Text', notEmpty: true },
		{ name: 'Name', type: 'Text', notEmpty: true },
		{ name: 'Price', type: 'Double', notEmpty: false },
		{ name: 'Stock', type: 'Integer', notEmpty: false },
		{ name: 'ValidFrom', type: 'Date', notEmpty: false },
	];
}

export class CatalogStore {
	private readonly catalogs = new Map<string, Catalog>();
	/** Rows inserted or replaced through AddRecords. */
	recordsAdded = 0;

	/** Add a catalog, or replace one of the same name (its records are dropped). */
	add(name: string, columns: ColumnDto[] = defaultColumns()): void {
		if (typeof name !== 'string' || name === '') throw new Error('a catalog needs a name');
		const copy = ColumnDto.array().parse(columns);
		const names = new Set(copy.map((c) => c.name));
		if (names.size !== copy.length) throw new Error(`duplicate column names in ${name}`);
		this.catalogs.set(name, {
			id: name,
			name,
			columns: new Columns(copy),
			records: new RecordTable(),
		});
	}

	get(id: string): Catalog | undefined {
		return this.catalogs.get(id);
	}

	/** For the controls: a missing catalog is the caller's mistake. */
	require(id: string): Catalog {
		const catalog = this.catalogs.get(id);
		if (!catalog) throw new Error(`no catalog ${id}`);
		return catalog;
	}

	all(): Catalog[] {
		return [...this.catalogs.values()];
	}

	/** Store records as given (no validation, no limit; existing ids replaced in place). */
	seed(catalogId: string, records: Iterable<StoredRecord>): void {
		const table = this.require(catalogId).records;
		table.putMany(mapIterable(records, ({ id, fields }) => ({ id, fields: cloneFields(fields) })));
	}

	/**
	 * AddRecords: each row is inserted, replaced or rejected on its own (see ./rows.ts for the
	 * reasons and their order: duplicate in the request, field errors, already exists, catalog full).
	 */
	addRecords(
		catalog: Catalog,
		records: StoredRecord[],
		upsert: RecordUpsert,
		maxRecords: number,
	): AddRecordsResult {
		const errorRows = new Map<string, string[]>();
		const seen = new Set<string>();
		let inserted = 0;
		for (const { id, fields } of records) {
			const reasons: string[] = [];
			if (seen.has(id)) {
				reasons.push(`DuplicateRecordId Id: ${id}`);
			} else {
				seen.add(id);
				reasons.push(...catalog.columns.errors(fields));
				const exists = catalog.records.has(id);
				if (exists && upsert === 'reject') reasons.push(`RecordAlreadyExists Id: ${id}`);
				if (!reasons.length && !exists && catalog.records.size >= maxRecords) {
					reasons.push('CatalogIsFull');
				}
			}
			if (reasons.length) {
				errorRows.set(id, [...(errorRows.get(id) ?? []), ...reasons]);
			} else {
				catalog.records.put(id, fields);
				inserted++;
			}
		}
		this.recordsAdded += inserted;
		return { insertedRowCount: inserted, errorRows: Object.fromEntries(errorRows) };
	}
}

export function* mapIterable<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
	for (const item of items) yield map(item);
}

export function cloneFields(fields: RecordFields): RecordFields {
	const copy: RecordFields = {};
	for (const [name, values] of Object.entries(fields)) copy[name] = [...values];
	return copy;
}
