import type { IDataObject } from 'n8n-workflow';

import { mapConcurrent } from './concurrency';

/** Split values into arrays of at most `size`, straight from the iterable (no copy of it all). */
export function chunk<T>(values: Iterable<T>, size: number): T[][] {
	const batches: T[][] = [];
	let current: T[] = [];
	for (const value of values) {
		current.push(value);
		if (current.length === size) {
			batches.push(current);
			current = [];
		}
	}
	if (current.length) batches.push(current);
	return batches;
}

/** A batch that was not confirmed, with the service's reason. */
export interface FailedBatch extends IDataObject {
	batch: number;
	ids: string[];
	error: string;
	httpCode: string | null;
}

export interface BatchRun {
	batchesSent: number;
	/** Ids in batches the service confirmed. */
	idsDone: number;
	failedBatches: FailedBatch[];
}

/**
 * Send every batch with at most `concurrency` in flight and account for each: confirmed, or
 * failed with its reason. Once `fatal` names a reason (401/403/404: every later batch would fail
 * the same way), batches not yet sent are not sent and fail with that reason.
 */
export async function runBatches(
	batches: string[][],
	concurrency: number,
	send: (ids: string[], batch: number) => Promise<void>,
	fatal: (error: Error & { httpCode?: string | null }) => string | undefined,
): Promise<BatchRun> {
	let stopReason: string | undefined;
	let batchesSent = 0;
	const settled = await mapConcurrent(batches, concurrency, async (ids, batch) => {
		if (stopReason) throw new Error(`Not sent: ${stopReason}`);
		batchesSent++;
		const failure = await send(ids, batch).then(
			() => undefined,
			(error: Error) => error,
		);
		if (failure) {
			stopReason ??= fatal(failure);
			throw failure;
		}
	});
	const run: BatchRun = { batchesSent, idsDone: 0, failedBatches: [] };
	settled.forEach((result, batch) => {
		if (result.status === 'fulfilled') {
			run.idsDone += batches[batch].length;
			return;
		}
		const reason = result.reason as Error & { httpCode?: string | null };
		run.failedBatches.push({
			batch,
			ids: batches[batch],
			error: reason.message,
			httpCode: reason.httpCode ?? null,
		});
	});
	return run;
}
