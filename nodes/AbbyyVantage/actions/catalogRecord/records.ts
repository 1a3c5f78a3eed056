import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError, errorItem, invalid } from '../../helpers/errors';
import { perItemReader } from '../../helpers/parameters';
import { MAX_RECORDS_PER_CATALOG } from '../../helpers/recordValues';
import type { VantageClient } from '../../transport';
import { readCatalogId } from '../catalog/shared';
import { CatalogColumns, recordReader, type CatalogRecord } from './shared';

/** The records of one catalog from the input items, deduplicated by id (the later item wins). */
export interface CatalogGroup {
	catalogId: string;
	itemIndexes: number[];
	/** By record id, in the order of the items that first gave each id. */
	records: Map<string, CatalogRecord>;
	/** Items whose record a later item with the same id replaced. */
	superseded: Array<{ item: number; id: string; by: number }>;
	/** Columns some item mapped (the ones Sync compares). */
	mapped: Set<string>;
	rowCount: number;
}

/**
 * Read every input item as a record of its catalog before any write: bad input stops the run
 * (or, with Continue On Fail, becomes that item's error item) before anything is sent.
 */
export async function readGroups(
	ctx: IExecuteFunctions,
	client: VantageClient,
	items: INodeExecutionData[],
	errors: INodeExecutionData[],
): Promise<CatalogGroup[]> {
	const continueOnFail = ctx.continueOnFail();
	const columns = new CatalogColumns(client);
	const catalogIdOf = perItemReader(ctx, 'catalogId', (i) => readCatalogId(ctx, i));
	const readRecord = recordReader(ctx, items);
	const groups = new Map<string, CatalogGroup>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const catalogId = catalogIdOf(itemIndex);
			const catalog = columns.read(catalogId) ?? (await columns.of(catalogId, itemIndex));
			const record = readRecord(itemIndex, catalog.columns);
			let group = groups.get(catalogId);
			if (!group) {
				group = {
					catalogId,
					itemIndexes: [],
					records: new Map(),
					superseded: [],
					mapped: new Set(),
					rowCount: catalog.rowCount,
				};
				groups.set(catalogId, group);
			}
			const earlier = group.records.get(record.id);
			if (earlier) group.superseded.push({ item: earlier.item, id: record.id, by: itemIndex });
			group.records.set(record.id, record);
			group.itemIndexes.push(itemIndex);
			for (const column in record.fields) group.mapped.add(column);
			if (group.records.size > MAX_RECORDS_PER_CATALOG) {
				throw invalid(
					ctx,
					itemIndex,
					`More than ${MAX_RECORDS_PER_CATALOG} records for catalog "${catalogId}"; a Vantage catalog holds at most ${MAX_RECORDS_PER_CATALOG}`,
				);
			}
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			errors.push(errorItem(nodeError, itemIndex));
		}
	}
	return [...groups.values()];
}
