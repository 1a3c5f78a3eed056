import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiError, asNodeError, errorItem } from '../../helpers/errors';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { concurrencyOption, defaultPollSettings, sortedOptions } from '../common';
import { catalogProperty, REINDEX_POLL, startReindex, waitForReindex } from '../catalog/shared';
import { readGroups, type CatalogGroup } from './records';
import {
	batchSizeOption,
	columnsProperty,
	recordIdNotice,
	readWriteSettings,
	WRITE_CONCURRENCY,
} from './shared';
import { addRecords, type AddOutcome } from './writer';

const properties: INodeProperties[] = [
	catalogProperty,
	recordIdNotice,
	columnsProperty,
	{
		displayName: 'Output',
		name: 'mode',
		type: 'options',
		options: [
			{
				name: 'One Item per Record',
				value: 'perItem',
				description: 'Each input item gets its record’s outcome: added, or failed with the reason',
			},
			{
				name: 'One Summary per Catalog',
				value: 'aggregate',
				description: 'Counts of added and failed records, with each failure’s ID and reason',
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

function summaryOf(group: CatalogGroup, outcome: AddOutcome): IDataObject {
	return {
		catalogId: group.catalogId,
		recordsRequested: group.itemIndexes.length,
		uniqueRecords: group.records.size,
		duplicatesRemoved: group.superseded.length,
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

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const settings = readWriteSettings(this, client);
	const mode = requireOption(this, 0, 'Output', this.getNodeParameter('mode', 0), [
		'perItem',
		'aggregate',
	] as const);
	const continueOnFail = this.continueOnFail();
	const out: INodeExecutionData[] = [];
	const groups = await readGroups(this, client, items, out);
	for (const group of groups) {
		const first = group.itemIndexes[0];
		const records = [...group.records.values()];
		const outcome = await addRecords(
			client,
			group.catalogId,
			records,
			settings.batchSize,
			settings.concurrency,
		);
		const summary = summaryOf(group, outcome);
		let reindex: IDataObject | undefined;
		if (settings.options.reindex === true && outcome.added.length + outcome.replaced.length > 0) {
			try {
				const started = await startReindex(this, client, group.catalogId, first);
				reindex = await waitForReindex(
					this,
					client,
					started,
					defaultPollSettings(REINDEX_POLL),
					first,
				);
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
		`Added ${outcome.added.length + outcome.replaced.length} of ${group.records.size} records to catalog "${group.catalogId}"; ${outcome.failed.length} failed, e.g. "${firstFailed.id}": ${firstFailed.reasons.join('; ')}`,
		{
			description:
				'Every failed record is listed with its reasons in the error item (turn on Continue On Fail to get them as items).',
			httpCode: outcome.failedBatches[0]?.httpCode ?? undefined,
			output: summary,
		},
	);
}
