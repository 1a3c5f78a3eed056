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
	/** Batches sent again at the end of the run (see EndOfRunRetry). */
	batchesRetried: number;
	/** Ids in batches the service confirmed. */
	idsDone: number;
	failedBatches: FailedBatch[];
}

type BatchError = Error & { httpCode?: string | null };

/** How one batch ended: its value, or the error that stopped it (never both). */
export type BatchResult<R> = { ok: true; value: R } | { ok: false; error: BatchError };

/**
 * Send every batch with at most `concurrency` in flight; each ends with its value or its error.
 * Once `fatal` names a reason (401/403/404: every later batch would fail the same way), batches
 * not yet sent are not sent and fail with that reason.
 */
/**
 * Sending a failed batch again at the end of a run: only for requests that are safe to repeat,
 * only for passing problems (429, 503, network), at most `rounds` times, each after `pause`.
 */
export interface EndOfRunRetry {
	rounds: number;
	retryable: (error: BatchError) => boolean;
	pause: (round: number) => Promise<void>;
}

export async function sendBatches<T, R>(
	batches: T[][],
	concurrency: number,
	send: (values: T[], batch: number) => Promise<R>,
	fatal: (error: BatchError) => string | undefined,
	retry?: EndOfRunRetry,
): Promise<{ batchesSent: number; batchesRetried: number; results: Array<BatchResult<R>> }> {
	let stopReason: string | undefined;
	let batchesSent = 0;
	// The first batch goes alone: an answer every batch would get (a wrong catalog, no access)
	// then stops the run before the others are sent.
	const order = batches.map((_, batch) => batch);
	const run = async (batch: number) => {
		const values = batches[batch];
		if (stopReason) throw new Error(`Not sent: ${stopReason}`);
		batchesSent++;
		const outcome = await send(values, batch).then(
			(value) => ({ value }),
			(error: BatchError) => ({ error }),
		);
		if ('error' in outcome) {
			stopReason ??= fatal(outcome.error);
			throw outcome.error;
		}
		return outcome.value;
	};
	const settled = [
		...(await mapConcurrent(order.slice(0, 1), 1, run)),
		...(await mapConcurrent(order.slice(1), concurrency, run)),
	];
	const results: Array<BatchResult<R>> = settled.map((result) =>
		result.status === 'fulfilled'
			? { ok: true, value: result.value }
			: { ok: false, error: result.reason as BatchError },
	);
	// A rate-limit storm must not fail a run: batches that failed only with a passing problem are
	// sent again once everything else is done, before anything is reported failed.
	let batchesRetried = 0;
	for (let round = 0; retry && !stopReason && round < retry.rounds; round++) {
		const again = order.filter((batch) => {
			const result = results[batch];
			return !result.ok && retry.retryable(result.error);
		});
		if (!again.length) break;
		await retry.pause(round);
		batchesRetried += again.length;
		const retried = await mapConcurrent(again, concurrency, run);
		retried.forEach((result, i) => {
			results[again[i]] =
				result.status === 'fulfilled'
					? { ok: true, value: result.value }
					: { ok: false, error: result.reason as BatchError };
		});
	}
	return { batchesSent, batchesRetried, results };
}

/** A failed batch as the output lists it. */
export function failedBatch(batch: number, ids: string[], error: BatchError): FailedBatch {
	return { batch, ids, error: error.message, httpCode: error.httpCode ?? null };
}

/** Stop after an answer that every later batch would get too. */
export function stopOnFatalStatus(error: BatchError): string | undefined {
	return ['401', '403', '404'].includes(String(error.httpCode))
		? `an earlier batch failed with HTTP ${error.httpCode}`
		: undefined;
}

/**
 * Send id batches whose answer only confirms them (Delete Records) and account for every id:
 * confirmed, or in a failed batch with the service's reason.
 */
export async function runBatches(
	batches: string[][],
	concurrency: number,
	send: (ids: string[], batch: number) => Promise<void>,
	retry?: EndOfRunRetry,
): Promise<BatchRun> {
	const { batchesSent, batchesRetried, results } = await sendBatches(
		batches,
		concurrency,
		send,
		stopOnFatalStatus,
		retry,
	);
	const run: BatchRun = { batchesSent, batchesRetried, idsDone: 0, failedBatches: [] };
	results.forEach((result, batch) => {
		if (result.ok) run.idsDone += batches[batch].length;
		else run.failedBatches.push(failedBatch(batch, batches[batch], result.error));
	});
	return run;
}
