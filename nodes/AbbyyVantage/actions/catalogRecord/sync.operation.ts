import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiError, asNodeError, errorItem, invalid } from '../../helpers/errors';
import { sameFields } from '../../helpers/recordValues';
import type { VantageClient } from '../../transport';
import { concurrencyOption, defaultPollSettings, sortedOptions } from '../common';
import { catalogProperty, REINDEX_POLL, startReindex, waitForReindex } from '../catalog/shared';
import { scanRecords } from './reader';
import { readGroups, type CatalogGroup } from './records';
import {
	batchSizeOption,
	columnsProperty,
	recordIdNotice,
	readWriteSettings,
	WRITE_CONCURRENCY,
	type CatalogRecord,
} from './shared';
import { deleteIds } from './deleter';
import { addRecords } from './writer';

/** Ids listed per action in a dry run's plan; the counts are always complete. */
const PLAN_ID_LIMIT = 100;

const properties: INodeProperties[] = [
	{
		displayName:
			'The input items are the catalog’s complete desired content: records not among them are deleted',
		name: 'syncNotice',
		type: 'notice',
		default: '',
	},
	catalogProperty,
	recordIdNotice,
	columnsProperty,
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
				displayName: 'Dry Run',
				name: 'dryRun',
				type: 'boolean',
				default: false,
				description:
					'Whether to only output the plan (what would be added, updated and deleted) without changing the catalog',
			},
			{
				displayName: 'Max Share to Delete (%)',
				name: 'maxDeleteShare',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 100 },
				default: 50,
				description:
					'Refuse to run when more than this share of the catalog’s records would be deleted, so that an empty or partial source cannot wipe the catalog by accident',
			},
			{
				displayName: 'Reindex After Sync',
				name: 'reindex',
				type: 'boolean',
				default: true,
				description:
					'Whether to start a catalog reindex after changes and wait for it. Skills only see the changes once it has completed.',
			},
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalogRecord'], operation: ['sync'] } },
	properties,
);

interface Plan {
	add: CatalogRecord[];
	update: CatalogRecord[];
	delete: string[];
	unchanged: number;
	current: number;
}

/**
 * Compare the catalog with the source page by page as the pages arrive, on the mapped columns
 * (an update keeps the unmapped ones): of the current records only the ids to delete are kept,
 * so the catalog is never held whole beside the source. Pages read while records move may
 * repeat an id: each counts once.
 */
async function planOf(
	client: VantageClient,
	group: CatalogGroup,
	options: { concurrency: number; itemIndex: number },
): Promise<Plan> {
	const plan: Plan = { add: [], update: [], delete: [], unchanged: 0, current: 0 };
	// Source records found in the catalog, by item index (a flag each, not a set of 200 000 ids).
	const found = new Uint8Array(group.itemIndexes[group.itemIndexes.length - 1] + 1);
	const toDelete = new Set<string>();
	await scanRecords(
		client,
		group.catalogId,
		{ rowCount: group.rowCount, ...options },
		(records) => {
			for (const stored of records) {
				const record = group.records.get(stored.id);
				if (!record) {
					toDelete.add(stored.id);
					continue;
				}
				if (found[record.item]) continue;
				found[record.item] = 1;
				if (sameFields(record.fields, stored.fields, group.mapped)) plan.unchanged++;
				else plan.update.push({ ...record, fields: { ...stored.fields, ...record.fields } });
			}
		},
	);
	plan.delete = [...toDelete];
	for (const record of group.records.values()) if (!found[record.item]) plan.add.push(record);
	plan.current = plan.unchanged + plan.update.length + plan.delete.length;
	return plan;
}

/** Pages arrive in any order: the ids listed are the first by sort order, the same every run. */
const capped = (ids: string[]) => [...ids].sort().slice(0, PLAN_ID_LIMIT);

async function syncCatalog(
	ctx: IExecuteFunctions,
	client: VantageClient,
	group: CatalogGroup,
	settings: ReturnType<typeof readWriteSettings>,
): Promise<IDataObject> {
	const itemIndex = group.itemIndexes[0];
	const { options } = settings;
	const share = options.maxDeleteShare === undefined ? 50 : Number(options.maxDeleteShare);
	if (!Number.isFinite(share) || share < 0 || share > 100) {
		throw invalid(
			ctx,
			0,
			`Max Share to Delete must be between 0 and 100, not ${JSON.stringify(options.maxDeleteShare)}`,
		);
	}
	const plan = await planOf(client, group, { concurrency: settings.concurrency, itemIndex });
	const limitExceeded = plan.current > 0 && plan.delete.length > (plan.current * share) / 100;
	const summary: IDataObject = {
		catalogId: group.catalogId,
		dryRun: options.dryRun === true,
		sourceRecords: group.records.size,
		duplicatesRemoved: group.superseded.length,
		currentRecords: plan.current,
		toAdd: plan.add.length,
		toUpdate: plan.update.length,
		toDelete: plan.delete.length,
		unchanged: plan.unchanged,
	};
	if (options.dryRun === true) {
		return {
			...summary,
			deleteLimitExceeded: limitExceeded,
			plan: {
				add: capped(plan.add.map((r) => r.id)),
				update: capped(plan.update.map((r) => r.id)),
				delete: capped(plan.delete),
				idsListedPerAction: PLAN_ID_LIMIT,
			},
		};
	}
	if (limitExceeded) {
		throw invalid(
			ctx,
			itemIndex,
			`Sync would delete ${plan.delete.length} of the ${plan.current} records in catalog "${group.catalogId}" (${Math.round((plan.delete.length / plan.current) * 100)} %), more than Max Share to Delete (${share} %)`,
			'Check that the source is complete. If the deletions are intended, raise Max Share to Delete, or run with Dry Run to see the plan.',
		);
	}

	// Deletes first: they make room under the catalog's record limit.
	const deleted = await deleteIds(
		client,
		group.catalogId,
		plan.delete,
		settings.batchSize,
		settings.concurrency,
	);
	const written = await addRecords(
		client,
		group.catalogId,
		[...plan.update, ...plan.add],
		settings.batchSize,
		settings.concurrency,
	);
	const updates = new Set(plan.update.map((r) => r.id));
	const done = [...written.added, ...written.replaced];
	const failures = [
		...deleted.failedBatches.flatMap((b) =>
			b.ids.map((id) => ({ id, action: 'delete', reasons: [b.error] })),
		),
		...written.failed.map((f) => ({ ...f, action: updates.has(f.id) ? 'update' : 'add' })),
	];
	Object.assign(summary, {
		added: done.filter((id) => !updates.has(id)).length,
		updated: done.filter((id) => updates.has(id)).length,
		deleted: deleted.idsDone,
		...(deleted.batchesRetried + written.batchesRetried
			? { batchesRetriedAtEnd: deleted.batchesRetried + written.batchesRetried }
			: {}),
		failed: failures.length,
		failures,
		failedBatches: [
			...deleted.failedBatches.map((b) => ({ ...b, action: 'delete' })),
			...written.failedBatches.map((b) => ({ ...b, action: 'add' })),
		],
		...(written.insertedRowCountMismatches.length
			? { insertedRowCountMismatches: written.insertedRowCountMismatches }
			: {}),
	});
	if (failures.length) {
		throw apiError(
			ctx.getNode(),
			itemIndex,
			{ ...summary } as JsonObject,
			`Sync of catalog "${group.catalogId}" left ${failures.length} record${failures.length === 1 ? '' : 's'} not done, e.g. ${failures[0].action} "${failures[0].id}": ${failures[0].reasons.join('; ')}`,
			{
				description:
					'Everything else was applied. Every failure is listed with its reason in the error item; running the sync again applies what is still missing.',
				httpCode:
					(summary.failedBatches as Array<{ httpCode: string | null }>)[0]?.httpCode ?? undefined,
				output: summary,
			},
		);
	}
	const changes = done.length + deleted.idsDone;
	if (options.reindex !== false && changes > 0) {
		const started = await startReindex(ctx, client, group.catalogId, itemIndex);
		summary.reindex = await waitForReindex(
			ctx,
			client,
			started,
			defaultPollSettings(REINDEX_POLL),
			itemIndex,
		);
	}
	return summary;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const settings = readWriteSettings(this, client);
	const out: INodeExecutionData[] = [];
	const continueOnFail = this.continueOnFail();
	const groups = await readGroups(this, client, items, out);
	for (const group of groups) {
		const pairedItem = group.itemIndexes.map((item) => ({ item }));
		try {
			out.push({ json: await syncCatalog(this, client, group, settings), pairedItem });
		} catch (error) {
			const nodeError = asNodeError(this, error, group.itemIndexes[0]);
			if (!continueOnFail) throw nodeError;
			out.push(errorItem(nodeError, group.itemIndexes));
		}
	}
	return out;
}
