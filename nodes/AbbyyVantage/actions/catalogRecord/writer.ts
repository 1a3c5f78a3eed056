import type { IDataObject } from 'n8n-workflow';

import {
	chunk,
	failedBatch,
	sendBatches,
	stopOnFatalStatus,
	type EndOfRunRetry,
	type FailedBatch,
} from '../../helpers/batches';
import { pause } from '../../helpers/time';
import { endpoints, isTransientError, type VantageClient } from '../../transport';
import { backoffDelay } from '../../transport/retry';
import { CATALOG_HINTS } from '../../vantage/catalogs';
import { count } from '../../helpers/text';
import type { CatalogRecord } from './columns';

/** Adding and deleting records is safe to repeat: failed batches get the run's retry budget again. */
export function endOfRunRetry(client: VantageClient): EndOfRunRetry {
	return {
		rounds: client.settings.maxRetries,
		retryable: isTransientError,
		pause: async (round) => await pause(backoffDelay(round, client.settings), client.signal),
	};
}

/** A record Vantage did not take, with its reasons (errorRows) or its batch's failure. */
export interface FailedRecord extends IDataObject {
	id: string;
	item: number | null;
	reasons: string[];
}

/** A failed batch; `step: 'replace'` when it was deleting and adding again existing records. */
export type WriteFailedBatch = FailedBatch & { step: 'add' | 'replace' };

export interface AddOutcome {
	/** AddRecords batches sent (the first POST of each batch). */
	batchesSent: number;
	batchesRetried: number;
	/** Ids Vantage accepted. */
	added: string[];
	/** Ids that already existed, were rejected as such, and were deleted and added again. */
	replaced: string[];
	failed: FailedRecord[];
	failedBatches: WriteFailedBatch[];
	/** When `insertedRowCount` disagrees with the rows not in errorRows (reported, not guessed). */
	insertedRowCountMismatches: Array<{ batch: number; reported: number; accepted: number }>;
}

/**
 * "Already exists" in errorRows: whether re-adding an id replaces the record is not documented,
 * so a row refused for existing is deleted and added again.
 */
const EXISTS = /already\s*exist|exists|duplicate\s*key/i;

/** errorRows keyed by record id (inferred); a numeric key that is no id is read as a row index. */
function reasonsById(errorRows: unknown, batch: CatalogRecord[]): Map<string, string[]> {
	const reasons = new Map<string, string[]>();
	if (!errorRows || typeof errorRows !== 'object') return reasons;
	const ids = new Set(batch.map((r) => r.id));
	for (const [key, value] of Object.entries(errorRows as IDataObject)) {
		const id = ids.has(key)
			? key
			: /^\d+$/.test(key) && Number(key) < batch.length
				? batch[Number(key)].id
				: key;
		const list = Array.isArray(value) ? value.map(String) : [String(value)];
		reasons.set(id, [...(reasons.get(id) ?? []), ...list]);
	}
	return reasons;
}

/**
 * DeleteRecords: one batch of record ids (Vantage ignores ids it does not hold). Sent without the
 * item: a batch's reason is reported once, in the item's summary.
 */
export async function deleteRecordBatch(
	client: VantageClient,
	catalogId: string,
	ids: string[],
	action: string,
): Promise<void> {
	await client.request({
		...endpoints.deleteRecords(catalogId),
		body: ids,
		ignoreBody: true,
		action,
		hints: CATALOG_HINTS,
	});
}

/** AddRecords: one batch of records. */
async function post(
	client: VantageClient,
	catalogId: string,
	records: CatalogRecord[],
	action: string,
): Promise<IDataObject | undefined> {
	return await client.request<IDataObject | undefined>({
		...endpoints.addRecords(catalogId),
		body: records.map(({ id, fields }) => ({ id, fields })),
		action,
		hints: CATALOG_HINTS,
	});
}

/** "batch 2 of 5 (5000 records)" */
const label = (index: number, batches: number, size: number) =>
	`batch ${index + 1} of ${batches} (${count(size, 'record')})`;

/**
 * Add (or replace) records in batches of `batchSize` with at most `concurrency` in flight.
 * AddRecords (OpenAPI operation AddRecords) answers 200 even when rows are rejected, so every
 * record is accounted for from `errorRows`: added, replaced, or failed with its reasons.
 *
 * Two steps: every batch is added once; then the rows refused only for already existing are
 * deleted and added again, in batches of their own. What the first step accepted is settled
 * before the second starts, so a failure while replacing fails only the rows being replaced, and
 * a batch sent again never meets its own accepted rows as "existing".
 */
export async function addRecords(
	client: VantageClient,
	catalogId: string,
	records: CatalogRecord[],
	batchSize: number,
	concurrency: number,
): Promise<AddOutcome> {
	const batches = chunk(records, batchSize);
	const outcome: AddOutcome = {
		batchesSent: 0,
		batchesRetried: 0,
		added: [],
		replaced: [],
		failed: [],
		failedBatches: [],
		insertedRowCountMismatches: [],
	};
	const itemOf = new Map(records.map((r) => [r.id, r.item]));
	const fail = (id: string, reasons: string[]) =>
		outcome.failed.push({ id, item: itemOf.get(id) ?? null, reasons });

	const first = await sendBatches(
		batches,
		concurrency,
		async (batch, index) => {
			const body = await post(
				client,
				catalogId,
				batch,
				`adding ${label(index, batches.length, batch.length)} to catalog "${catalogId}"`,
			);
			return { reasons: reasonsById(body?.errorRows, batch), reported: body?.insertedRowCount };
		},
		stopOnFatalStatus,
		endOfRunRetry(client),
	);
	outcome.batchesSent = first.batchesSent;
	outcome.batchesRetried = first.batchesRetried;
	/** Rows refused only for already existing, with the reasons Vantage gave. */
	const existing: CatalogRecord[] = [];
	const existsReasons = new Map<string, string[]>();
	first.results.forEach((result, index) => {
		const batch = batches[index];
		if (!result.ok) {
			const ids = batch.map((r) => r.id);
			outcome.failedBatches.push({ ...failedBatch(index, ids, result.error), step: 'add' });
			for (const id of ids) fail(id, [result.error.message]);
			return;
		}
		const { reasons, reported } = result.value;
		let accepted = 0;
		for (const record of batch) {
			const refused = reasons.get(record.id);
			if (!refused) {
				accepted++;
				outcome.added.push(record.id);
			} else if (refused.every((reason) => EXISTS.test(reason))) {
				existing.push(record);
				existsReasons.set(record.id, refused);
			}
		}
		// Rows refused for any other reason (and keys naming no row) fail with Vantage's reasons.
		for (const [id, list] of reasons) if (!existsReasons.has(id)) fail(id, list);
		if (typeof reported === 'number' && reported !== accepted) {
			outcome.insertedRowCountMismatches.push({ batch: index, reported, accepted });
		}
	});
	if (!existing.length) return outcome;

	const replacing = chunk(existing, batchSize);
	/** Per replace batch, whether its last attempt got as far as deleting the rows. */
	const deletedFirst = new Set<number>();
	const second = await sendBatches(
		replacing,
		concurrency,
		async (batch, index) => {
			const what = `${label(index, replacing.length, batch.length)} of existing records`;
			deletedFirst.delete(index);
			await deleteRecordBatch(
				client,
				catalogId,
				batch.map((r) => r.id),
				`deleting ${what} from catalog "${catalogId}" to add them again`,
			);
			deletedFirst.add(index);
			const body = await post(
				client,
				catalogId,
				batch,
				`adding again ${what} to catalog "${catalogId}"`,
			);
			return reasonsById(body?.errorRows, batch);
		},
		stopOnFatalStatus,
		endOfRunRetry(client),
	);
	outcome.batchesRetried += second.batchesRetried;
	second.results.forEach((result, index) => {
		const batch = replacing[index];
		if (!result.ok) {
			const ids = batch.map((r) => r.id);
			outcome.failedBatches.push({ ...failedBatch(index, ids, result.error), step: 'replace' });
			const why = deletedFirst.has(index)
				? `It was deleted to be added again, and adding it again failed: ${result.error.message}`
				: `Deleting it to add it again failed: ${result.error.message}`;
			for (const id of ids) fail(id, [...(existsReasons.get(id) ?? []), why]);
			return;
		}
		for (const record of batch) {
			const again = result.value.get(record.id);
			if (again) fail(record.id, again);
			else outcome.replaced.push(record.id);
		}
	});
	return outcome;
}
