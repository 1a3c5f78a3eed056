import type { IDataObject } from 'n8n-workflow';

import { RECORDS_PAGE_SIZE } from '../../constants';
import { mapConcurrent } from '../../helpers/concurrency';
import { recordFields } from '../../helpers/recordValues';
import { endpoints, type VantageClient } from '../../transport';
import { CATALOG_HINTS } from '../../vantage/catalogs';

export interface StoredRecord {
	id: string;
	fields: Record<string, string[]>;
}

interface ScanOptions {
	/** The catalog's row count (GetCatalog): the pages up to it are read `concurrency` at a time. */
	rowCount?: number;
	/** Stop after this many records. */
	limit?: number;
	concurrency?: number;
	itemIndex?: number;
}

async function page(
	client: VantageClient,
	catalogId: string,
	offset: number,
	limit: number,
	itemIndex?: number,
): Promise<StoredRecord[]> {
	const records = await client.request<IDataObject[] | undefined>({
		...endpoints.getRecords(catalogId),
		qs: { offset, limit },
		itemIndex,
		action: `reading records ${offset}–${offset + limit - 1} of catalog "${catalogId}"`,
		hints: CATALOG_HINTS,
	});
	const out: StoredRecord[] = [];
	for (const record of Array.isArray(records) ? records : []) {
		if (typeof record.id !== 'string') continue;
		const fields = recordFields(record.fields);
		// A page of 1000 records: the parsed objects are kept as they are when already in shape.
		out.push(
			fields === record.fields ? (record as unknown as StoredRecord) : { id: record.id, fields },
		);
	}
	return out;
}

/**
 * Every page of a catalog's records by offset paging (the API has no cursor), handed to `onPage`
 * as it arrives, so a caller that does not keep the records holds one page per request in
 * flight. With `rowCount` known, the pages up to it are read `concurrency` at a time (they arrive
 * in any order); reading then goes on until a short page, so records added meanwhile are not
 * missed. Records can move between pages while they are read: an id may come twice.
 */
export async function scanRecords(
	client: VantageClient,
	catalogId: string,
	options: ScanOptions,
	onPage: (records: StoredRecord[], offset: number) => void | boolean,
): Promise<void> {
	const { itemIndex } = options;
	const wanted = options.limit ?? Number.POSITIVE_INFINITY;
	const known = Math.min(options.rowCount ?? 0, wanted);
	const offsets = Array.from(
		{ length: Math.ceil(known / RECORDS_PAGE_SIZE) },
		(_, i) => i * RECORDS_PAGE_SIZE,
	);
	const read = async (offset: number) => {
		const records = await page(
			client,
			catalogId,
			offset,
			Math.min(RECORDS_PAGE_SIZE, wanted - offset),
			itemIndex,
		);
		if (onPage(records, offset) === false) stopped = true;
		return records.length;
	};
	// `onPage` returning false stops the reading that goes on page after page (a search that has
	// found enough); pages already asked for in parallel still arrive.
	let stopped = false;
	const settled = await mapConcurrent(offsets, options.concurrency ?? 1, read);
	for (const result of settled) if (result.status === 'rejected') throw result.reason;
	const last = settled[settled.length - 1];
	let lastFull = !last || (last.status === 'fulfilled' && last.value === RECORDS_PAGE_SIZE);
	for (
		let offset = offsets.length * RECORDS_PAGE_SIZE;
		lastFull && !stopped && offset < wanted;
		offset += RECORDS_PAGE_SIZE
	) {
		lastFull = (await read(offset)) === RECORDS_PAGE_SIZE;
	}
}

/**
 * The records of a catalog that `matches` accepts, in offset order, each id once, at most
 * `limit`: pages are read one after another until enough have matched or the catalog ends.
 */
export async function searchRecords(
	client: VantageClient,
	catalogId: string,
	matches: (record: StoredRecord) => boolean,
	limit: number | undefined,
	itemIndex?: number,
): Promise<StoredRecord[]> {
	const found: StoredRecord[] = [];
	const seen = new Set<string>();
	const wanted = limit ?? Number.POSITIVE_INFINITY;
	await scanRecords(client, catalogId, { itemIndex }, (records) => {
		for (const record of records) {
			if (found.length >= wanted) break;
			if (seen.has(record.id) || !matches(record)) continue;
			seen.add(record.id);
			found.push(record);
		}
		return found.length < wanted;
	});
	return found;
}

/** Records of a catalog in offset order, each id once, at most `limit`. */
export async function readRecords(
	client: VantageClient,
	catalogId: string,
	options: ScanOptions = {},
): Promise<StoredRecord[]> {
	const pages: StoredRecord[][] = [];
	await scanRecords(client, catalogId, options, (records, offset) => {
		pages[offset / RECORDS_PAGE_SIZE] = records;
	});
	const seen = new Set<string>();
	return pages
		.flat()
		.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)))
		.slice(0, options.limit ?? Number.POSITIVE_INFINITY);
}
