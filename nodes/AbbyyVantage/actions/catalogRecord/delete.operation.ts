import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LISTED_IDS, NAMED_IN_ERROR } from '../../constants';
import type { PollSettings } from '../../helpers/polling';
import { apiError, asNodeError, errorItem, invalid } from '../../helpers/errors';
import { runPreparedPerItem } from '../../helpers/items';
import { count } from '../../helpers/text';
import { readRecordIds, type InvalidId } from '../../helpers/recordIds';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { batchSizeOption, readBatchSize } from './batchSettings';
import { duplicatesRemoved, type Duplicate } from './duplicates';
import { deleteIds } from './deleter';
import { concurrencyOption, readConcurrency } from '../../params/concurrency';
import { POLL_GROWTH_TEXT, readPollSettings, WAIT_OPTION_NAMES } from '../../params/wait';
import { readCollection } from '../../params/collections';
import { catalogProperty, readCatalogId } from '../catalog/catalogId';
import { REINDEX_POLL, reindexAndWait } from '../catalog/reindexing';

const CONCURRENCY = { max: 16, what: 'delete requests' };

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
			batchSizeOption('IDs'),
			concurrencyOption(CONCURRENCY),
			{
				displayName: 'Reindex After Delete',
				name: 'reindexAfterDelete',
				type: 'boolean',
				default: false,
				description:
					'Whether to start a catalog reindex after deleting. Skills only see the change once a reindex has completed.',
			},
			{
				displayName: `Reindex ${WAIT_OPTION_NAMES.pollInterval} (Seconds)`,
				name: 'reindexPollInterval',
				type: 'number',
				typeOptions: { minValue: 1 },
				// REINDEX_POLL.intervalSeconds (the linter asks for a literal).
				default: 1,
				description: `With Wait For Reindex: the wait between the first status checks; ${POLL_GROWTH_TEXT}, up to ${REINDEX_POLL.maxIntervalSeconds} seconds`,
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
	{ show: { resource: ['catalogRecord'], operation: ['delete'] } },
	properties,
);

/** Read once per execution (item 0): they shape the whole run. */
interface Settings {
	batchSize: number;
	concurrency: number;
	reindexAfterDelete: boolean;
	waitForReindex: boolean;
	reindexPoll: PollSettings;
	skipInvalidIds: boolean;
}

function readSettings(ctx: IExecuteFunctions, client: VantageClient): Settings {
	const options = readCollection(ctx, 0, 'options');
	return {
		batchSize: readBatchSize(ctx, options),
		concurrency: readConcurrency(ctx, options, CONCURRENCY, client),
		reindexAfterDelete: options.reindexAfterDelete === true,
		waitForReindex: options.waitForReindex === true,
		reindexPoll: readPollSettings(
			ctx,
			0,
			{ pollInterval: options.reindexPollInterval },
			REINDEX_POLL,
		),
		skipInvalidIds: options.skipInvalidIds === true,
	};
}

/**
 * IDs to delete from one catalog: deduplicated as they are read, with the count before. (Removing
 * duplicates while the batches are sent was measured slower: the sends are CPU-bound too.)
 */
interface IdPool {
	/** Each ID once, with the item of its first occurrence: that one is sent. */
	unique: Map<string, number>;
	requested: number;
	invalidIds: InvalidId[];
	/** IDs that came more than once. */
	duplicateIds: Set<string>;
	/** The first LISTED_IDS later occurrences, in item order (all that the output lists). */
	duplicates: Duplicate[];
}

function emptyPool(): IdPool {
	return {
		unique: new Map(),
		requested: 0,
		invalidIds: [],
		duplicateIds: new Set(),
		duplicates: [],
	};
}

function addToPool(pool: IdPool, itemIndex: number, ids: string[], invalidIds: InvalidId[]): void {
	for (const id of ids) {
		const keptItem = pool.unique.get(id);
		if (keptItem === undefined) {
			pool.unique.set(id, itemIndex);
			continue;
		}
		pool.duplicateIds.add(id);
		if (pool.duplicates.length < LISTED_IDS)
			pool.duplicates.push({ item: itemIndex, id, keptItem });
	}
	pool.requested += ids.length;
	for (const bad of invalidIds) pool.invalidIds.push(bad);
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
	settings: Settings,
	itemIndex: number,
	reindexNow = true,
): Promise<IDataObject> {
	if (pool.requested === 0) {
		throw invalid(
			ctx,
			itemIndex,
			pool.invalidIds.length
				? `No valid record IDs to delete: ${pool.invalidIds.length === 1 ? 'the only ID was' : `all ${pool.invalidIds.length} were`} skipped as invalid`
				: 'No record IDs to delete: Record IDs is empty',
		);
	}
	const uniqueCount = pool.unique.size;
	const run = await deleteIds(
		client,
		catalogId,
		pool.unique.keys(),
		settings.batchSize,
		settings.concurrency,
	);
	const { failedBatches } = run;
	const summary: IDataObject = {
		catalogId,
		idsRequested: pool.requested,
		uniqueIdsSent: uniqueCount,
		duplicatesRemoved: duplicatesRemoved(
			pool.requested - uniqueCount,
			pool.duplicateIds,
			pool.duplicates,
		),
		batchesSent: run.batchesSent,
		idsDeleted: run.idsDone,
		idsFailed: uniqueCount - run.idsDone,
		failedBatches,
		...(run.batchesRetried ? { batchesRetriedAtEnd: run.batchesRetried } : {}),
	};
	if (settings.skipInvalidIds) summary.invalidIds = pool.invalidIds;

	if (failedBatches.length) {
		const notDeleted = failedBatches.flatMap((b) => b.ids);
		const shown = notDeleted.slice(0, NAMED_IN_ERROR);
		throw apiError(
			ctx.getNode(),
			itemIndex,
			// The full lists go to the error item only: an error's size must not grow with the ids.
			{
				catalogId,
				idsFailed: notDeleted.length,
				failedBatchCount: failedBatches.length,
			} as JsonObject,
			`Deleted ${run.idsDone} of ${count(uniqueCount, 'record ID')} from catalog "${catalogId}"; ${notDeleted.length} in ${count(failedBatches.length, 'failed batch', 'failed batches')} ${notDeleted.length === 1 ? 'was' : 'were'} not deleted: ${failedBatches[0].error}`,
			{
				description: `Not deleted (${notDeleted.length}): ${shown.join(', ')}${notDeleted.length > shown.length ? `, and ${notDeleted.length - shown.length} more` : ''}. Every ID not deleted is in failedBatches of the error item (turn on Continue On Fail to get it).`,
				httpCode: failedBatches[0].httpCode ?? undefined,
				output: summary,
			},
		);
	}
	if (reindexNow && settings.reindexAfterDelete && run.idsDone > 0) {
		summary.reindex = await reindexCatalog(ctx, client, catalogId, settings, itemIndex);
	}
	return summary;
}

/** Reindex After Delete: start a reindex, and wait for it with Wait For Reindex. */
async function reindexCatalog(
	ctx: IExecuteFunctions,
	client: VantageClient,
	catalogId: string,
	settings: Settings,
	itemIndex: number,
): Promise<IDataObject> {
	const poll = settings.waitForReindex ? settings.reindexPoll : false;
	return await reindexAndWait(ctx, client, catalogId, itemIndex, poll);
}

/**
 * Per Item: each catalog is reindexed once, after all items (not once per item); its outcome is
 * added to every item of that catalog. A failed reindex fails the run, or with Continue On Fail
 * is reported on those items.
 */
async function reindexOncePerCatalog(
	ctx: IExecuteFunctions,
	client: VantageClient,
	out: INodeExecutionData[],
	settings: Settings,
): Promise<void> {
	const byCatalog = new Map<string, INodeExecutionData[]>();
	for (const item of out) {
		const { catalogId, idsDeleted } = item.json;
		if (typeof catalogId !== 'string' || !(Number(idsDeleted) > 0)) continue;
		byCatalog.set(catalogId, [...(byCatalog.get(catalogId) ?? []), item]);
	}
	for (const [catalogId, catalogItems] of byCatalog) {
		const first = (catalogItems[0].pairedItem as { item: number }).item;
		try {
			const reindex = await reindexCatalog(ctx, client, catalogId, settings, first);
			for (const item of catalogItems) item.json.reindex = reindex;
		} catch (error) {
			const nodeError = asNodeError(ctx, error, first);
			if (!ctx.continueOnFail()) throw nodeError;
			for (const item of catalogItems) item.json.reindexError = nodeError.message;
		}
	}
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const settings = readSettings(this, client);
	const mode = requireOption(this, 0, 'Mode', this.getNodeParameter('mode', 0), [
		'perItem',
		'aggregate',
	] as const);

	if (mode === 'perItem') {
		// Every item is read and checked before the first request, then items run concurrently.
		const out = await runPreparedPerItem(
			this,
			items,
			(itemIndex) => {
				const catalogId = readCatalogId(this, itemIndex);
				const read = readRecordIds(this, items, itemIndex, settings.skipInvalidIds);
				const pool = emptyPool();
				addToPool(pool, itemIndex, read.ids, read.invalidIds);
				return { catalogId, pool };
			},
			async ({ catalogId, pool }, itemIndex) => ({
				json: await deleteFromCatalog(this, client, catalogId, pool, settings, itemIndex, false),
			}),
			settings.concurrency,
		);
		if (settings.reindexAfterDelete) await reindexOncePerCatalog(this, client, out, settings);
		return out;
	}

	// Aggregate: read and check every item before the first request, then one run per catalog.
	const continueOnFail = this.continueOnFail();
	const out: INodeExecutionData[] = [];
	const groups = new Map<string, { itemIndexes: number[]; pool: IdPool }>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let catalogId: string;
		let read: ReturnType<typeof readRecordIds>;
		try {
			catalogId = readCatalogId(this, itemIndex);
			read = readRecordIds(this, items, itemIndex, settings.skipInvalidIds);
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			out.push(errorItem(nodeError, itemIndex));
			continue;
		}
		const group = groups.get(catalogId) ?? { itemIndexes: [], pool: emptyPool() };
		group.itemIndexes.push(itemIndex);
		addToPool(group.pool, itemIndex, read.ids, read.invalidIds);
		groups.set(catalogId, group);
	}
	for (const [catalogId, group] of groups) {
		const first = group.itemIndexes[0];
		try {
			const summary = await deleteFromCatalog(this, client, catalogId, group.pool, settings, first);
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
