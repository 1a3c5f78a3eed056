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
import { CATALOG_HINTS } from '../catalog/shared';
import type { CatalogRecord } from './shared';

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

export interface AddOutcome {
	batchesSent: number;
	batchesRetried: number;
	/** Ids Vantage accepted. */
	added: string[];
	/** Ids that already existed, were rejected as such, and were deleted and added again. */
	replaced: string[];
	failed: FailedRecord[];
	failedBatches: FailedBatch[];
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

/**
 * Add (or replace) records in batches of `batchSize` with at most `concurrency` in flight.
 * AddRecords answers 200 even when rows are rejected, so every record is accounted for from
 * `errorRows`: added, replaced, or failed with its reasons.
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
	const { batchesSent, batchesRetried, results } = await sendBatches(
		batches,
		concurrency,
		async (batch, index) => {
			const label = `batch ${index + 1} of ${batches.length} (${batch.length} records) to catalog "${catalogId}"`;
			const first = await post(client, catalogId, batch, `adding ${label}`);
			const reasons = reasonsById(first?.errorRows, batch);
			const accepted = batch.filter((r) => !reasons.has(r.id));
			const reported =
				typeof first?.insertedRowCount === 'number' ? first.insertedRowCount : accepted.length;
			const existing = batch.filter((r) =>
				reasons.get(r.id)?.every((reason) => EXISTS.test(reason)),
			);
			let replaced: string[] = [];
			const stillFailed = new Map(
				[...reasons].filter(([id]) => !existing.some((r) => r.id === id)),
			);
			if (existing.length) {
				await client.request({
					...endpoints.deleteRecords(catalogId),
					body: existing.map((r) => r.id),
					ignoreBody: true,
					action: `deleting ${existing.length} existing records of ${label} to add them again`,
					hints: CATALOG_HINTS,
				});
				const second = await post(
					client,
					catalogId,
					existing,
					`adding again ${existing.length} records of ${label}`,
				);
				const again = reasonsById(second?.errorRows, existing);
				replaced = existing.filter((r) => !again.has(r.id)).map((r) => r.id);
				for (const [id, list] of again) stillFailed.set(id, list);
			}
			return { accepted: accepted.map((r) => r.id), replaced, stillFailed, reported, index };
		},
		stopOnFatalStatus,
		endOfRunRetry(client),
	);
	outcome.batchesSent = batchesSent;
	outcome.batchesRetried = batchesRetried;
	results.forEach((result, index) => {
		if (!result.ok) {
			const ids = batches[index].map((r) => r.id);
			outcome.failedBatches.push(failedBatch(index, ids, result.error));
			for (const id of ids) fail(id, [result.error.message]);
			return;
		}
		const { accepted, replaced, stillFailed, reported } = result.value;
		outcome.added.push(...accepted);
		outcome.replaced.push(...replaced);
		for (const [id, reasons] of stillFailed) fail(id, reasons);
		if (reported !== accepted.length) {
			outcome.insertedRowCountMismatches.push({
				batch: index,
				reported,
				accepted: accepted.length,
			});
		}
	});
	return outcome;
}
