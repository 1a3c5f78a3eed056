import type { IDataObject } from 'n8n-workflow';

import { mapConcurrent } from '../../helpers/concurrency';
import { recordFields } from '../../helpers/recordValues';
import { endpoints, type VantageClient } from '../../transport';
import { CATALOG_HINTS } from '../catalog/shared';

/** GetRecords' largest `limit` (the vendor's default page size). */
export const RECORDS_PAGE_SIZE = 1000;

export interface StoredRecord {
	id: string;
	fields: Record<string, string[]>;
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
	return (Array.isArray(records) ? records : [])
		.filter((r) => typeof r.id === 'string')
		.map((r) => ({ id: r.id as string, fields: recordFields(r.fields) }));
}

/**
 * Records of a catalog by offset paging (the API has no cursor). With `rowCount` known, the pages
 * up to it are read `concurrency` at a time; reading then goes on until a short page, so records
 * added meanwhile are not missed. Stops early at `limit`.
 */
export async function readRecords(
	client: VantageClient,
	catalogId: string,
	options: { rowCount?: number; limit?: number; concurrency?: number; itemIndex?: number } = {},
): Promise<StoredRecord[]> {
	const { limit, itemIndex } = options;
	const wanted = limit ?? Number.POSITIVE_INFINITY;
	const known = Math.min(options.rowCount ?? 0, wanted);
	const offsets = Array.from(
		{ length: Math.ceil(known / RECORDS_PAGE_SIZE) },
		(_, i) => i * RECORDS_PAGE_SIZE,
	);
	const settled = await mapConcurrent(
		offsets,
		options.concurrency ?? 1,
		async (offset) =>
			await page(
				client,
				catalogId,
				offset,
				Math.min(RECORDS_PAGE_SIZE, wanted - offset),
				itemIndex,
			),
	);
	const out: StoredRecord[] = [];
	let lastFull = true;
	for (const result of settled) {
		if (result.status === 'rejected') throw result.reason;
		out.push(...result.value);
		lastFull = result.value.length === RECORDS_PAGE_SIZE;
	}
	for (
		let offset = offsets.length * RECORDS_PAGE_SIZE;
		lastFull && out.length < wanted;
		offset += RECORDS_PAGE_SIZE
	) {
		const next = await page(
			client,
			catalogId,
			offset,
			Math.min(RECORDS_PAGE_SIZE, wanted - out.length),
			itemIndex,
		);
		out.push(...next);
		lastFull = next.length === RECORDS_PAGE_SIZE;
	}
	// Pages read while records moved may overlap: each id once.
	const seen = new Set<string>();
	return out.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true))).slice(0, wanted);
}
