import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError, errorItem } from '../../helpers/errors';
import { perItemReader } from '../../helpers/parameters';
import type { VantageClient } from '../../transport';
import { readCatalogId } from '../catalog/catalogId';
import { CatalogColumns, recordReader, type CatalogRecord } from './columns';
import { duplicatesRemoved } from './duplicates';

/** An input item that could not be read as a record (it has its own error item). */
export interface InvalidItem {
	item: number;
	/** Its record id, when that much could be read. */
	id: string | null;
}

/** The records of one catalog from the input items, deduplicated by id (the later item wins). */
export interface CatalogGroup {
	catalogId: string;
	/** Items read as records of this catalog. */
	itemIndexes: number[];
	/** By record id, in the order of the items that first gave each id. */
	records: Map<string, CatalogRecord>;
	/** Items whose record a later item with the same id replaced. */
	superseded: Array<{ item: number; id: string; by: number }>;
	/** Items of this catalog that could not be read (Continue On Fail). */
	invalid: InvalidItem[];
	/** The catalog's row count when it was read (GetCatalog). */
	rowCount: number;
	/** Input fields left out as not columns of the catalog (Ignore Unknown Fields), by name. */
	ignoredFields: Set<string>;
}

export interface SourceGroups {
	groups: CatalogGroup[];
	/** Items whose catalog could not be read: they may belong to any of the groups. */
	unknownCatalog: number[];
}

/**
 * Read every input item as a record of its catalog before any write: bad input stops the run
 * (or, with Continue On Fail, becomes that item's error item) before anything is sent. A failed
 * item is remembered with what could be read of it (catalog, record id), so that Sync does not
 * take its record for one missing from the source.
 */
export async function readGroups(
	ctx: IExecuteFunctions,
	client: VantageClient,
	items: INodeExecutionData[],
	errors: INodeExecutionData[],
	options: { ignoreUnknownFields: boolean; matched?: boolean },
): Promise<SourceGroups> {
	const continueOnFail = ctx.continueOnFail();
	const columns = new CatalogColumns(client);
	const catalogIdOf = perItemReader(ctx, 'catalogId', (i) => readCatalogId(ctx, i));
	const reader = recordReader(ctx, items, options);
	const groups = new Map<string, CatalogGroup>();
	const unknownCatalog: number[] = [];
	const groupOf = (catalogId: string, rowCount: number) => {
		let group = groups.get(catalogId);
		if (!group) {
			group = {
				catalogId,
				itemIndexes: [],
				records: new Map(),
				superseded: [],
				invalid: [],
				rowCount,
				ignoredFields: new Set(),
			};
			groups.set(catalogId, group);
		}
		return group;
	};
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let catalogId: string | undefined;
		let id: string | undefined;
		try {
			catalogId = catalogIdOf(itemIndex);
			const catalog = columns.read(catalogId) ?? (await columns.of(catalogId, itemIndex));
			const values = reader.values(itemIndex);
			id = reader.id(itemIndex, values);
			const record = reader.record(itemIndex, values, id, catalogId, catalog.columns);
			const group = groupOf(catalogId, catalog.rowCount);
			for (const field of record.ignored ?? []) group.ignoredFields.add(field);
			const earlier = group.records.get(record.id);
			if (earlier) group.superseded.push({ item: earlier.item, id: record.id, by: itemIndex });
			group.records.set(record.id, record);
			group.itemIndexes.push(itemIndex);
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			errors.push(errorItem(nodeError, itemIndex));
			const catalog = catalogId === undefined ? undefined : columns.read(catalogId);
			if (catalogId === undefined) unknownCatalog.push(itemIndex);
			// A catalog that could not be read gets no group: nothing is written to it.
			else if (catalog)
				groupOf(catalogId, catalog.rowCount).invalid.push({ item: itemIndex, id: id ?? null });
		}
	}
	return { groups: [...groups.values()], unknownCatalog };
}

/**
 * Items whose record a later item with the same id replaced, for the output (`duplicatesRemoved`):
 * the later item's record is the one kept.
 */
export function duplicatesOf(group: CatalogGroup): IDataObject {
	return duplicatesRemoved(
		group.superseded.length,
		group.superseded.map((s) => s.id),
		group.superseded.map(({ item, id }) => ({
			item,
			id,
			keptItem: group.records.get(id)?.item ?? null,
		})),
	);
}

/** Ignore Unknown Fields: the names left out, for the output (only when the option is on). */
export function ignoredFieldsOf(group: CatalogGroup, ignoring: boolean): IDataObject {
	return ignoring ? { ignoredFields: [...group.ignoredFields].sort() } : {};
}
