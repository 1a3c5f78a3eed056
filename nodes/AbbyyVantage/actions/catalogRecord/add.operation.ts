import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiError, asNodeError, errorItem, invalid } from '../../helpers/errors';
import { MAX_RECORDS_PER_CATALOG } from '../../constants';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { concurrencyOption } from '../../params/concurrency';
import { sortedOptions } from '../../params/collections';
import { catalogProperty } from '../catalog/catalogId';
import { reindexAndWait } from '../catalog/reindexing';
import { count } from '../../helpers/text';
import { duplicatesOf, ignoredFieldsOf, readGroups, type CatalogGroup } from './records';
import { batchSizeOption, readWriteSettings, WRITE_CONCURRENCY } from './batchSettings';
import { columnsProperty, ignoreUnknownFieldsOption, recordIdNotice } from './columns';
import { addRecords, type AddOutcome } from './writer';

const properties: INodeProperties[] = [
	catalogProperty,
	columnsProperty,
	recordIdNotice,
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		options: [
			{
				name: 'Aggregate All Items',
				value: 'aggregate',
				description:
					'One summary per catalog: counts of added and failed records, with each failure’s ID and reason',
			},
			{
				name: 'Per Item',
				value: 'perItem',
				description: 'Each input item gets its record’s outcome: added, or failed with the reason',
			},
		],
		default: 'perItem',
		description: 'Records are always sent in batches; this only shapes the output',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortedOptions([
			batchSizeOption('Records'),
			concurrencyOption(WRITE_CONCURRENCY),
			ignoreUnknownFieldsOption,
			{
				displayName: 'Reindex After Adding',
				name: 'reindex',
				type: 'boolean',
				default: false,
				description:
					'Whether to start a catalog reindex and wait for it. Skills only see the new records once a reindex has completed.',
			},
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalogRecord'], operation: ['add'] } },
	properties,
);

function summaryOf(group: CatalogGroup, outcome: AddOutcome, ignoring: boolean): IDataObject {
	return {
		catalogId: group.catalogId,
		recordsRequested: group.itemIndexes.length,
		uniqueRecords: group.records.size,
		duplicatesRemoved: duplicatesOf(group),
		...ignoredFieldsOf(group, ignoring),
		batchesSent: outcome.batchesSent,
		...(outcome.batchesRetried ? { batchesRetriedAtEnd: outcome.batchesRetried } : {}),
		added: outcome.added.length,
		replaced: outcome.replaced.length,
		failed: outcome.failed.length,
		failedRecords: outcome.failed,
		failedBatches: outcome.failedBatches,
		...(outcome.insertedRowCountMismatches.length
			? { insertedRowCountMismatches: outcome.insertedRowCountMismatches }
			: {}),
	};
}

/**
 * Vantage's record limit, checked before any AddRecords. Whether an id is already in the catalog
 * (replaced, not added) is known only by reading the whole catalog, so every record counts as new:
 * the sum is an upper bound, and the message says so.
 */
function checkRecordLimit(ctx: IExecuteFunctions, group: CatalogGroup): void {
	const upTo = group.rowCount + group.records.size;
	if (upTo <= MAX_RECORDS_PER_CATALOG) return;
	const records = [...group.records.values()];
	const crossing = records[Math.max(0, MAX_RECORDS_PER_CATALOG - group.rowCount)] ?? records[0];
	throw invalid(
		ctx,
		crossing.item,
		`Adding ${count(group.records.size, 'record')} to catalog "${group.catalogId}", which holds ${group.rowCount}, could take it to ${upTo} records, over Vantage’s limit of ${MAX_RECORDS_PER_CATALOG}`,
		'Every record counts as new here: those whose ID is already in the catalog are replaced and add nothing, but telling them apart means reading the whole catalog. Use Sync, which reads it and counts exactly, or delete records first.',
	);
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const settings = readWriteSettings(this, client);
	const mode = requireOption(this, 0, 'Mode', this.getNodeParameter('mode', 0), [
		'perItem',
		'aggregate',
	] as const);
	const continueOnFail = this.continueOnFail();
	const out: INodeExecutionData[] = [];
	const { groups } = await readGroups(this, client, items, out, settings);
	// Every catalog's limit is checked before the first record is sent to any.
	const ready: CatalogGroup[] = [];
	for (const group of groups) {
		if (!group.records.size) continue;
		try {
			checkRecordLimit(this, group);
			ready.push(group);
		} catch (error) {
			const nodeError = asNodeError(this, error, group.itemIndexes[0]);
			if (!continueOnFail) throw nodeError;
			out.push(errorItem(nodeError, group.itemIndexes));
		}
	}
	for (const group of ready) {
		const first = group.itemIndexes[0];
		const records = [...group.records.values()];
		const outcome = await addRecords(
			client,
			group.catalogId,
			records,
			settings.batchSize,
			settings.concurrency,
		);
		const summary = summaryOf(group, outcome, settings.ignoreUnknownFields);
		let reindex: IDataObject | undefined;
		if (settings.options.reindex === true && outcome.added.length + outcome.replaced.length > 0) {
			try {
				reindex = await reindexAndWait(this, client, group.catalogId, first);
			} catch (error) {
				const nodeError = asNodeError(this, error, first);
				if (!continueOnFail) throw nodeError;
				out.push(errorItem(nodeError, group.itemIndexes));
			}
		}
		if (mode === 'aggregate') {
			const json = { ...summary, ...(reindex ? { reindex } : {}), items: group.itemIndexes.length };
			if (outcome.failed.length && !continueOnFail)
				throw failure(this, group, outcome, summary, first);
			out.push({ json, pairedItem: group.itemIndexes.map((item) => ({ item })) });
			continue;
		}
		const failed = new Map(outcome.failed.map((f) => [f.id, f]));
		const replaced = new Set(outcome.replaced);
		const supersededBy = new Map(group.superseded.map((s) => [s.item, s]));
		const recordOf = new Map(records.map((r) => [r.item, r]));
		if (failed.size && !continueOnFail) throw failure(this, group, outcome, summary, first);
		for (const itemIndex of group.itemIndexes) {
			const superseded = supersededBy.get(itemIndex);
			const record = recordOf.get(itemIndex);
			if (superseded || !record) {
				out.push({
					json: {
						catalogId: group.catalogId,
						id: superseded?.id ?? null,
						status: 'skipped',
						reason: `Item ${superseded?.by} has the same record ID and was added instead`,
					},
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			const failure = failed.get(record.id);
			out.push({
				json: {
					catalogId: group.catalogId,
					id: record.id,
					status: failure ? 'failed' : replaced.has(record.id) ? 'replaced' : 'added',
					...(failure
						? { reasons: failure.reasons, error: failure.reasons.join('; ') }
						: { fields: record.fields }),
					...(settings.ignoreUnknownFields ? { ignoredFields: record.ignored ?? [] } : {}),
					...(reindex ? { reindex } : {}),
				},
				pairedItem: { item: itemIndex },
			});
		}
	}
	return out;
}

function failure(
	ctx: IExecuteFunctions,
	group: CatalogGroup,
	outcome: AddOutcome,
	summary: IDataObject,
	itemIndex: number,
) {
	const [firstFailed] = outcome.failed;
	return apiError(
		ctx.getNode(),
		firstFailed.item ?? itemIndex,
		{ ...summary } as JsonObject,
		`Added ${outcome.added.length + outcome.replaced.length} of ${count(group.records.size, 'record')} to catalog "${group.catalogId}"; ${outcome.failed.length} failed, e.g. "${firstFailed.id}": ${firstFailed.reasons.join('; ')}`,
		{
			description:
				'Every failed record is listed with its reasons in the error item (turn on Continue On Fail to get them as items).',
			httpCode: outcome.failedBatches[0]?.httpCode ?? undefined,
			output: summary,
		},
	);
}
