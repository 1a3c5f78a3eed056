import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiError, asNodeError, errorItem, invalid } from '../../helpers/errors';
import { LISTED_IDS, MAX_RECORDS_PER_CATALOG } from '../../constants';
import { sameFields } from '../../helpers/recordValues';
import { requireInteger } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { concurrencyOption } from '../../params/concurrency';
import { sortedOptions } from '../../params/collections';
import { catalogProperty } from '../catalog/catalogId';
import { reindexAndWait } from '../catalog/reindexing';
import { count } from '../../helpers/text';
import { scanRecords } from './reader';
import { duplicatesOf, ignoredFieldsOf, readGroups, type CatalogGroup } from './records';
import { batchSizeOption, readWriteSettings, WRITE_CONCURRENCY } from './batchSettings';
import { ignoreUnknownFieldsOption, syncColumnsProperty, type CatalogRecord } from './columns';
import { deleteIds } from './deleter';
import { addRecords } from './writer';

/** Max Share to Delete (%) when the option is not set. */
const DEFAULT_MAX_DELETE_SHARE = 50;

const syncOptions: INodeProperties[] = [
	batchSizeOption('Records'),
	concurrencyOption(WRITE_CONCURRENCY),
	ignoreUnknownFieldsOption,
	{
		displayName: 'Max Share to Delete (%)',
		name: 'maxDeleteShare',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
		default: DEFAULT_MAX_DELETE_SHARE,
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
];

const properties: INodeProperties[] = [
	{
		displayName:
			'The input items are the catalog’s complete desired content: records not among them are deleted. A column an item lacks keeps the value the catalog holds; an empty value clears it.',
		name: 'syncNotice',
		type: 'notice',
		default: '',
	},
	catalogProperty,
	syncColumnsProperty,
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description:
			'Whether to only output the plan (what would be added, updated and deleted) without changing the catalog. Turn it on for the first runs.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortedOptions(syncOptions),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalogRecord'], operation: ['sync'] } },
	properties,
);

/** Read once per execution (item 0), before any request: they shape the whole run. */
function readSyncSettings(ctx: IExecuteFunctions, client: VantageClient) {
	const write = readWriteSettings(ctx, client);
	const { options } = write;
	return {
		...write,
		dryRun: ctx.getNodeParameter('dryRun', 0, false) === true,
		reindex: options.reindex !== false,
		maxDeleteShare: requireInteger(
			ctx,
			0,
			'Max Share to Delete',
			options.maxDeleteShare ?? DEFAULT_MAX_DELETE_SHARE,
			0,
			100,
		),
	};
}

type SyncSettings = ReturnType<typeof readSyncSettings>;

interface Plan {
	add: CatalogRecord[];
	update: CatalogRecord[];
	delete: string[];
	unchanged: number;
	/** Records named by source items that could not be read: left as they are. */
	keptAsIs: string[];
	/** Distinct records the catalog held when read. */
	current: number;
}

/**
 * Compare the catalog with the source page by page as the pages arrive, on the columns each
 * source record carries (an update keeps the others): of the current records only the ids to
 * delete are kept, so the catalog is never held whole beside the source. Pages read while records
 * move may repeat an id: each counts once. A record named by a source item that could not be read
 * is kept as it is, never deleted.
 */
async function planOf(
	client: VantageClient,
	group: CatalogGroup,
	options: { concurrency: number; itemIndex: number },
): Promise<Plan> {
	const plan: Plan = { add: [], update: [], delete: [], unchanged: 0, keptAsIs: [], current: 0 };
	// Source records found in the catalog, by item index (a flag each, not a set of 200 000 ids).
	const found = new Uint8Array(
		group.itemIndexes.length ? group.itemIndexes[group.itemIndexes.length - 1] + 1 : 0,
	);
	const toDelete = new Set<string>();
	const invalidIds = new Set(group.invalid.flatMap(({ id }) => (id === null ? [] : [id])));
	const kept = new Set<string>();
	await scanRecords(
		client,
		group.catalogId,
		{ rowCount: group.rowCount, ...options },
		(records) => {
			for (const stored of records) {
				const record = group.records.get(stored.id);
				if (!record) {
					if (invalidIds.has(stored.id)) kept.add(stored.id);
					else toDelete.add(stored.id);
					continue;
				}
				if (found[record.item]) continue;
				found[record.item] = 1;
				if (sameFields(record.fields, stored.fields)) plan.unchanged++;
				else plan.update.push({ ...record, fields: { ...stored.fields, ...record.fields } });
			}
		},
	);
	plan.delete = [...toDelete];
	plan.keptAsIs = [...kept];
	for (const record of group.records.values()) if (!found[record.item]) plan.add.push(record);
	plan.current = plan.unchanged + plan.update.length + plan.delete.length + kept.size;
	return plan;
}

/** Pages arrive in any order: the ids listed are the first by sort order, the same every run. */
const capped = (ids: string[]) => [...ids].sort().slice(0, LISTED_IDS);

const itemList = (items: number[]) =>
	`${items.length === 1 ? 'item' : 'items'} ${items.slice(0, 10).join(', ')}${items.length > 10 ? ` and ${items.length - 10} more` : ''}`;

/**
 * Why deletions must wait: a source item whose record ID (or catalog) could not be read may stand
 * for any record, so no record can be proven missing from the source.
 */
function deleteBlocker(group: CatalogGroup, unknownCatalog: number[]): string | undefined {
	const noId = group.invalid.filter(({ id }) => id === null).map(({ item }) => item);
	if (noId.length) {
		return `The record ID of source ${itemList(noId)} could not be read, so no record can be proven missing from the source; nothing was deleted. Fix those items and run again.`;
	}
	if (unknownCatalog.length) {
		return `The catalog of source ${itemList(unknownCatalog)} could not be read, so no record can be proven missing from the source; nothing was deleted. Fix those items and run again.`;
	}
	return undefined;
}

/** One catalog, planned and checked: nothing has been written yet. */
interface Planned {
	group: CatalogGroup;
	plan: Plan;
	summary: IDataObject;
	deleteSkipped?: string;
}

async function planCatalog(
	ctx: IExecuteFunctions,
	client: VantageClient,
	group: CatalogGroup,
	settings: SyncSettings,
	unknownCatalog: number[],
): Promise<Planned> {
	const itemIndex = group.itemIndexes[0] ?? group.invalid[0].item;
	const plan = await planOf(client, group, { concurrency: settings.concurrency, itemIndex });
	const deleteSkipped = plan.delete.length ? deleteBlocker(group, unknownCatalog) : undefined;
	const deleting = deleteSkipped ? 0 : plan.delete.length;
	const limitExceeded =
		deleting > 0 && plan.current > 0 && deleting > (plan.current * settings.maxDeleteShare) / 100;
	// Exact: what the catalog will hold once the plan is applied.
	const after = plan.current + plan.add.length - deleting;
	const summary: IDataObject = {
		catalogId: group.catalogId,
		dryRun: settings.dryRun,
		sourceRecords: group.records.size,
		duplicatesRemoved: duplicatesOf(group),
		...ignoredFieldsOf(group, settings.ignoreUnknownFields),
		currentRecords: plan.current,
		toAdd: plan.add.length,
		toUpdate: plan.update.length,
		toDelete: plan.delete.length,
		unchanged: plan.unchanged,
		...(group.invalid.length
			? {
					invalidSourceItems: group.invalid.length,
					keptAsIs: {
						records: plan.keptAsIs.length,
						ids: capped(plan.keptAsIs),
						reason:
							'Their source items could not be read (see those items’ errors): these records were neither updated nor deleted.',
					},
				}
			: {}),
		...(deleteSkipped
			? { deleteSkipped: { records: plan.delete.length, reason: deleteSkipped } }
			: {}),
	};
	if (settings.dryRun) {
		return {
			group,
			plan,
			deleteSkipped,
			summary: {
				...summary,
				deleteLimitExceeded: limitExceeded,
				...(after > MAX_RECORDS_PER_CATALOG ? { recordLimitExceeded: true } : {}),
				plan: {
					add: capped(plan.add.map((r) => r.id)),
					update: capped(plan.update.map((r) => r.id)),
					delete: capped(plan.delete),
					idsListedPerAction: LISTED_IDS,
				},
			},
		};
	}
	if (limitExceeded) {
		throw invalid(
			ctx,
			itemIndex,
			`Sync would delete ${deleting} of the ${count(plan.current, 'record')} in catalog "${group.catalogId}" (${Math.round((deleting / plan.current) * 100)} %), more than Max Share to Delete (${settings.maxDeleteShare} %)`,
			'Check that the source is complete. If the deletions are intended, raise Max Share to Delete, or run with Dry Run to see the plan.',
		);
	}
	if (after > MAX_RECORDS_PER_CATALOG) {
		throw invalid(
			ctx,
			itemIndex,
			`Sync would leave catalog "${group.catalogId}" with ${after} records (${plan.current} now, ${plan.add.length} to add, ${deleting} to delete), over Vantage’s limit of ${MAX_RECORDS_PER_CATALOG}`,
			deleteSkipped ?? 'The input items are the catalog’s whole content: reduce them.',
		);
	}
	return { group, plan, summary, deleteSkipped };
}

/** Apply a checked plan: deletes, then adds and updates, then the reindex; failures last. */
async function applyPlan(
	ctx: IExecuteFunctions,
	client: VantageClient,
	{ group, plan, summary, deleteSkipped }: Planned,
	settings: SyncSettings,
): Promise<IDataObject> {
	const itemIndex = group.itemIndexes[0] ?? group.invalid[0].item;
	// Deletes first: they make room under the catalog's record limit.
	const deleted = await deleteIds(
		client,
		group.catalogId,
		deleteSkipped ? [] : plan.delete,
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
			...written.failedBatches.map((b) => ({ ...b, action: b.step })),
		],
		...(written.insertedRowCountMismatches.length
			? { insertedRowCountMismatches: written.insertedRowCountMismatches }
			: {}),
	});
	// What was applied is reindexed even when some records failed: skills should see it.
	const changes = done.length + deleted.idsDone;
	if (settings.reindex && changes > 0) {
		try {
			summary.reindex = await reindexAndWait(ctx, client, group.catalogId, itemIndex);
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!failures.length) throw nodeError;
			summary.reindexError = nodeError.message;
		}
	}
	if (failures.length) {
		const reindexed = summary.reindex
			? ' and reindexed'
			: summary.reindexError
				? '; the reindex failed (see reindexError)'
				: '';
		throw apiError(
			ctx.getNode(),
			itemIndex,
			{ ...summary } as JsonObject,
			`Sync of catalog "${group.catalogId}" left ${count(failures.length, 'record')} not done, e.g. ${failures[0].action} "${failures[0].id}": ${failures[0].reasons.join('; ')}`,
			{
				description: `Everything else was applied${reindexed}. Every failure is listed with its reason in the error item; running the sync again applies what is still missing.`,
				httpCode:
					(summary.failedBatches as Array<{ httpCode: string | null }>)[0]?.httpCode ?? undefined,
				output: summary,
			},
		);
	}
	return summary;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const settings = readSyncSettings(this, client);
	const out: INodeExecutionData[] = [];
	const continueOnFail = this.continueOnFail();
	// Records are matched on the field chosen under Record ID From.
	const { groups, unknownCatalog } = await readGroups(this, client, items, out, {
		...settings,
		matched: true,
	});
	const pairedItemOf = (group: CatalogGroup) =>
		(group.itemIndexes.length ? group.itemIndexes : group.invalid.map((i) => i.item)).map(
			(item) => ({ item }),
		);
	const fail = (group: CatalogGroup, error: unknown) => {
		const [first] = pairedItemOf(group);
		const nodeError = asNodeError(this, error, first.item);
		if (!continueOnFail) throw nodeError;
		out.push(
			errorItem(
				nodeError,
				pairedItemOf(group).map(({ item }) => item),
			),
		);
	};
	// Every catalog is planned and checked before any is written: a refusal of the second must
	// not come after the first was changed.
	const planned: Planned[] = [];
	for (const group of groups) {
		try {
			planned.push(await planCatalog(this, client, group, settings, unknownCatalog));
		} catch (error) {
			fail(group, error);
		}
	}
	for (const one of planned) {
		try {
			const json = settings.dryRun ? one.summary : await applyPlan(this, client, one, settings);
			out.push({ json, pairedItem: pairedItemOf(one.group) });
		} catch (error) {
			fail(one.group, error);
		}
	}
	return out;
}
