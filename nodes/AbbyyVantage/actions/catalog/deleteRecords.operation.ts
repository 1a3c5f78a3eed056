import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { mapConcurrent } from '../../helpers/concurrency';
import { asNodeError, errorItem, runPerItem, withErrorOutput } from '../../helpers/items';
import { invalid, requireInteger, requireOption, requireText } from '../../helpers/validation';
import { apiPath, type VantageClient } from '../../transport';
import { readOptions } from '../common';
import {
	catalogProperty,
	DEFAULT_REINDEX_POLL,
	readCatalogId,
	startReindex,
	waitForReindex,
} from './shared';

/** The vendor's ceiling per delete request. */
export const MAX_BATCH_SIZE = 5000;
const MAX_CONCURRENCY = 8;
/** After one of these, every further batch would fail the same way: stop sending. */
const FATAL_STATUSES = ['401', '403', '404'];

const properties: INodeProperties[] = [
	catalogProperty,
	{
		displayName: 'Record IDs Source',
		name: 'recordIdsSource',
		type: 'options',
		options: [
			{
				name: 'Enter List',
				value: 'list',
				description: 'Type the IDs, or give an expression that returns an array',
			},
			{
				name: 'From Input Field',
				value: 'field',
				description: 'Read the IDs from a field of each input item',
			},
		],
		default: 'list',
	},
	{
		displayName: 'Record IDs',
		name: 'recordIds',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. vendor-1, vendor-2',
		description:
			'IDs separated by commas or new lines, or an expression that returns an array of IDs',
		displayOptions: { show: { recordIdsSource: ['list'] } },
	},
	{
		displayName: 'Input Field',
		name: 'inputField',
		type: 'string',
		required: true,
		default: 'recordIds',
		placeholder: 'e.g. data.records',
		description:
			'Name of the input field that holds one ID or an array of IDs. Use dots for nested fields.',
		displayOptions: { show: { recordIdsSource: ['field'] } },
	},
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		options: [
			{
				name: 'Aggregate All Items',
				value: 'aggregate',
				description:
					'Pool the IDs of all items, remove duplicates, and output one summary. Best for large clean-ups.',
			},
			{
				name: 'Per Item',
				value: 'perItem',
				description: 'Each input item deletes its own IDs and gets its own result',
			},
		],
		default: 'perItem',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
				default: MAX_BATCH_SIZE,
				description: `IDs per request (1–${MAX_BATCH_SIZE}, the most Vantage accepts)`,
			},
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
				default: 1,
				description: `How many delete requests to send at the same time (1–${MAX_CONCURRENCY})`,
			},
			{
				displayName: 'Reindex After Delete',
				name: 'reindexAfterDelete',
				type: 'boolean',
				default: false,
				description:
					'Whether to start a catalog reindex after deleting. Skills only see the change once a reindex has completed.',
			},
			{
				displayName: 'Skip Invalid IDs',
				name: 'skipInvalidIds',
				type: 'boolean',
				default: false,
				description:
					'Whether to skip IDs that are empty or not text and list them in the output, instead of stopping before any request',
			},
			{
				displayName: 'Wait For Reindex',
				name: 'waitForReindex',
				type: 'boolean',
				default: false,
				description:
					'Whether to wait until the reindex started by Reindex After Delete has completed',
			},
		],
	},
	{
		displayName:
			'Vantage ignores IDs that do not exist, so "deleted" counts the IDs it confirmed, not rows removed',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalog'], operation: ['deleteRecords'] } },
	properties,
);

interface InvalidId extends IDataObject {
	item: number;
	position: number;
	value: string;
	reason: string;
}

interface ItemIds {
	itemIndex: number;
	catalogId: string;
	ids: string[];
	invalidIds: InvalidId[];
}

interface Settings {
	batchSize: number;
	concurrency: number;
	reindexAfterDelete: boolean;
	waitForReindex: boolean;
	skipInvalidIds: boolean;
}

function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'undefined';
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

function whyInvalid(value: unknown): string | undefined {
	if (Array.isArray(value)) return 'a nested array, not an ID';
	if (typeof value !== 'string') return `${value === null ? 'null' : typeof value}, not text`;
	if (value === '') return 'empty';
	if (value.trim() === '') return 'only whitespace';
	return undefined;
}

/** Follow a dotted path (`data.ids`) through objects; an exact key with dots wins. */
function readField(json: IDataObject, path: string): unknown {
	if (path in json) return json[path];
	let current: unknown = json;
	for (const key of path.split('.')) {
		if (!current || typeof current !== 'object' || !(key in current)) return undefined;
		current = (current as IDataObject)[key];
	}
	return current;
}

function readIds(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
	skipInvalid: boolean,
): ItemIds {
	const catalogId = readCatalogId(ctx, itemIndex);
	const source = requireOption(
		ctx,
		itemIndex,
		'Record IDs Source',
		ctx.getNodeParameter('recordIdsSource', itemIndex),
		['list', 'field'] as const,
	);
	let raw: unknown[];
	let label: string;
	if (source === 'list') {
		label = 'Record IDs';
		const value = ctx.getNodeParameter('recordIds', itemIndex);
		if (typeof value === 'string') {
			// Typed text: separators and the spaces around them are formatting, not IDs.
			raw = value
				.split(/[\r\n,]+/)
				.map((id) => id.trim())
				.filter((id) => id !== '');
		} else if (Array.isArray(value)) {
			raw = value;
		} else {
			throw invalid(
				ctx,
				itemIndex,
				`Record IDs must be text or an array, not ${describeValue(value)}`,
			);
		}
	} else {
		const field = requireText(
			ctx,
			itemIndex,
			'Input Field',
			ctx.getNodeParameter('inputField', itemIndex),
		);
		label = `Input Field "${field}"`;
		const value = readField(items[itemIndex].json, field);
		if (value === undefined) {
			throw invalid(
				ctx,
				itemIndex,
				`Input Field "${field}" does not exist in the input item`,
				'Check the field name; use dots for nested fields, e.g. data.ids.',
			);
		}
		raw = Array.isArray(value) ? value : [value];
	}
	const ids: string[] = [];
	const invalidIds: InvalidId[] = [];
	raw.forEach((value, position) => {
		const reason = whyInvalid(value);
		if (reason === undefined) {
			ids.push(value as string);
			return;
		}
		if (!skipInvalid) {
			throw invalid(
				ctx,
				itemIndex,
				`${label}: the ID at position ${position} is ${reason} (${describeValue(value)})`,
				'Record IDs must be non-empty text. Turn on Skip Invalid IDs to skip such values and list them in the output.',
			);
		}
		invalidIds.push({ item: itemIndex, position, value: describeValue(value), reason });
	});
	return { itemIndex, catalogId, ids, invalidIds };
}

function readSettings(ctx: IExecuteFunctions): Settings {
	const options = readOptions(ctx, 0);
	return {
		batchSize:
			options.batchSize === undefined
				? MAX_BATCH_SIZE
				: requireInteger(ctx, 0, 'Batch Size', options.batchSize, 1, MAX_BATCH_SIZE),
		concurrency:
			options.concurrency === undefined
				? 1
				: requireInteger(ctx, 0, 'Concurrency', options.concurrency, 1, MAX_CONCURRENCY),
		reindexAfterDelete: options.reindexAfterDelete === true,
		waitForReindex: options.waitForReindex === true,
		skipInvalidIds: options.skipInvalidIds === true,
	};
}

interface FailedBatch extends IDataObject {
	batch: number;
	ids: string[];
	error: string;
	httpCode: string | null;
}

/** IDs to delete from one catalog: deduplicated as they are read, with the count before. */
interface IdPool {
	unique: Set<string>;
	requested: number;
}

function poolOf(ids: string[]): IdPool {
	return { unique: new Set(ids), requested: ids.length };
}

/**
 * Delete the pooled IDs from one catalog in batches and account for every one: each ends up in
 * `idsDeleted` (a 200 confirmed its batch) or in a failed batch with the service's reason.
 */
async function deleteFromCatalog(
	ctx: IExecuteFunctions,
	client: VantageClient,
	catalogId: string,
	pool: IdPool,
	invalidIds: InvalidId[],
	settings: Settings,
	itemIndex: number,
): Promise<IDataObject> {
	// Batches straight from the set: no intermediate copy of a million IDs.
	const batches: string[][] = [];
	let current: string[] = [];
	for (const id of pool.unique) {
		current.push(id);
		if (current.length === settings.batchSize) {
			batches.push(current);
			current = [];
		}
	}
	if (current.length) batches.push(current);
	const uniqueCount = pool.unique.size;
	let fatal: string | undefined;
	let batchesSent = 0;
	const settled = await mapConcurrent(batches, settings.concurrency, async (ids, batch) => {
		if (fatal) throw new NodeOperationError(ctx.getNode(), `Not sent: ${fatal}`);
		batchesSent++;
		try {
			await client.request({
				method: 'POST',
				path: apiPath`/api/publicapi/v1/catalogs/${catalogId}/records/delete`,
				body: ids,
				idempotent: true,
				ignoreBody: true,
				itemIndex,
				action: `deleting batch ${batch + 1} of ${batches.length} (${ids.length} IDs) from catalog "${catalogId}"`,
				hints: { 404: 'Check the Catalog: its ID is the catalog’s name.' },
			});
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (
				nodeError instanceof NodeApiError &&
				FATAL_STATUSES.includes(String(nodeError.httpCode))
			) {
				fatal = `an earlier batch failed with HTTP ${nodeError.httpCode}`;
			}
			throw nodeError;
		}
	});
	const failedBatches: FailedBatch[] = [];
	let idsDeleted = 0;
	settled.forEach((result, batch) => {
		if (result.status === 'fulfilled') {
			idsDeleted += batches[batch].length;
			return;
		}
		const reason = result.reason as Error & { httpCode?: string | null };
		failedBatches.push({
			batch,
			ids: batches[batch],
			// The summary names the item once; each batch keeps the service's words.
			error: reason.message.replace(/ \[item \d+\]$/, ''),
			httpCode: reason.httpCode ?? null,
		});
	});
	const summary: IDataObject = {
		catalogId,
		idsRequested: pool.requested,
		uniqueIdsSent: uniqueCount,
		duplicatesRemoved: pool.requested - uniqueCount,
		batchesSent,
		idsDeleted,
		idsFailed: uniqueCount - idsDeleted,
		failedBatches,
	};
	if (settings.skipInvalidIds) summary.invalidIds = invalidIds;

	if (failedBatches.length) {
		const notDeleted = failedBatches.flatMap((b) => b.ids);
		throw withErrorOutput(
			new NodeApiError(ctx.getNode(), { ...summary } as JsonObject, {
				message: `Deleted ${idsDeleted} of ${uniqueCount} record IDs from catalog "${catalogId}"; ${notDeleted.length} in ${failedBatches.length} failed batch${failedBatches.length === 1 ? '' : 'es'} were not deleted: ${failedBatches[0].error} [item ${itemIndex}]`,
				description: `Not deleted (${notDeleted.length}): ${notDeleted.join(', ')}`,
				httpCode: failedBatches[0].httpCode ?? undefined,
				itemIndex,
			}),
			summary,
		);
	}
	if (settings.reindexAfterDelete && idsDeleted > 0) {
		const started = await startReindex(ctx, client, catalogId, itemIndex);
		summary.reindex = settings.waitForReindex
			? await waitForReindex(ctx, client, started, DEFAULT_REINDEX_POLL, itemIndex)
			: started;
	}
	return summary;
}

function requireSomeIds(
	ctx: IExecuteFunctions,
	itemIndex: number,
	count: number,
	invalidCount: number,
) {
	if (count === 0) {
		throw invalid(
			ctx,
			itemIndex,
			invalidCount
				? `No valid record IDs to delete: all ${invalidCount} were skipped as invalid`
				: 'No record IDs to delete: Record IDs is empty',
		);
	}
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const settings = readSettings(this);
	const mode = requireOption(this, 0, 'Mode', this.getNodeParameter('mode', 0), [
		'perItem',
		'aggregate',
	] as const);

	if (mode === 'perItem') {
		return await runPerItem(this, items, async (itemIndex) => {
			const { catalogId, ids, invalidIds } = readIds(
				this,
				items,
				itemIndex,
				settings.skipInvalidIds,
			);
			requireSomeIds(this, itemIndex, ids.length, invalidIds.length);
			return {
				json: await deleteFromCatalog(
					this,
					client,
					catalogId,
					poolOf(ids),
					invalidIds,
					settings,
					itemIndex,
				),
			};
		});
	}

	// Aggregate: read and check every item before the first request, then one run per catalog.
	const continueOnFail = this.continueOnFail();
	const out: INodeExecutionData[] = [];
	const groups = new Map<
		string,
		{ itemIndexes: number[]; pool: IdPool; invalidIds: InvalidId[] }
	>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let read: ItemIds;
		try {
			read = readIds(this, items, itemIndex, settings.skipInvalidIds);
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			out.push(errorItem(nodeError, itemIndex));
			continue;
		}
		const group = groups.get(read.catalogId) ?? {
			itemIndexes: [],
			pool: { unique: new Set<string>(), requested: 0 },
			invalidIds: [],
		};
		group.itemIndexes.push(itemIndex);
		for (const id of read.ids) group.pool.unique.add(id);
		group.pool.requested += read.ids.length;
		for (const bad of read.invalidIds) group.invalidIds.push(bad);
		groups.set(read.catalogId, group);
	}
	for (const [catalogId, group] of groups) {
		const first = group.itemIndexes[0];
		try {
			requireSomeIds(this, first, group.pool.requested, group.invalidIds.length);
			const summary = await deleteFromCatalog(
				this,
				client,
				catalogId,
				group.pool,
				group.invalidIds,
				settings,
				first,
			);
			out.push({
				json: { ...summary, items: group.itemIndexes.length },
				pairedItem: group.itemIndexes.map((item) => ({ item })),
			});
		} catch (error) {
			const nodeError = asNodeError(this, error, first);
			if (!continueOnFail) throw nodeError;
			out.push(errorItem(nodeError, group.itemIndexes));
		}
	}
	return out;
}
