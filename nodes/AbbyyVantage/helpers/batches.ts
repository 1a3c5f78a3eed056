import type { IDataObject } from 'n8n-workflow';

import { mapConcurrent, mapConcurrentFrom } from './concurrency';

/** Arrays of at most `size` values, cut from the iterable as they are asked for. */
export function* chunksOf<T>(values: Iterable<T>, size: number): Generator<T[]> {
	let current: T[] = [];
	for (const value of values) {
		current.push(value);
		if (current.length === size) {
			yield current;
			current = [];
		}
	}
	if (current.length) yield current;
}

/** Split values into arrays of at most `size`, straight from the iterable (no copy of it all). */
export function chunk<T>(values: Iterable<T>, size: number): T[][] {
	return [...chunksOf(values, size)];
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
 * Sending a failed batch again at the end of a run: only for requests that are safe to repeat,
 * only for passing problems (429, 503, network), at most `rounds` times, each after `pause`.
 */
export interface EndOfRunRetry {
	rounds: number;
	retryable: (error: BatchError) => boolean;
	pause: (round: number) => Promise<void>;
}

/**
 * Send every batch with at most `concurrency` in flight; each ends with its value or its error.
 * Batches are taken from `source` as they can be sent (a generator's work overlaps the waiting);
 * the ones taken are returned with the results. Once `fatal` names a reason (401/403/404: every
 * later batch would fail the same way), batches not yet sent are not sent and fail with it.
 */
export async function sendBatches<T, R>(
	source: Iterable<T[]>,
	concurrency: number,
	send: (values: T[], batch: number) => Promise<R>,
	fatal: (error: BatchError) => string | undefined,
	retry?: EndOfRunRetry,
): Promise<{
	batches: T[][];
	batchesSent: number;
	batchesRetried: number;
	results: Array<BatchResult<R>>;
}> {
	let stopReason: string | undefined;
	let batchesSent = 0;
	const batches: T[][] = [];
	const taken = source[Symbol.iterator]();
	const take: Iterator<number> = {
		next: () => {
			const next = taken.next();
			if (next.done) return { done: true, value: undefined };
			batches.push(next.value);
			return { done: false, value: batches.length - 1 };
		},
	};
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
	const toResult = (result: PromiseSettledResult<R>): BatchResult<R> =>
		result.status === 'fulfilled'
			? { ok: true, value: result.value }
			: { ok: false, error: result.reason as BatchError };
	// The first batch goes alone: an answer every batch would get (a wrong catalog, no access)
	// then stops the run before the others are sent.
	const first = take.next();
	const results: Array<BatchResult<R>> = [];
	if (!first.done) {
		results.push(...(await mapConcurrent([first.value], 1, run)).map(toResult));
		results.push(...(await mapConcurrentFrom(take, concurrency, run)).map(toResult));
	}
	// A rate-limit storm must not fail a run: batches that failed only with a passing problem are
	// sent again once everything else is done, before anything is reported failed.
	let batchesRetried = 0;
	for (let round = 0; retry && !stopReason && round < retry.rounds; round++) {
		const again = results
			.map((_, batch) => batch)
			.filter((batch) => {
				const result = results[batch];
				return !result.ok && retry.retryable(result.error);
			});
		if (!again.length) break;
		await retry.pause(round);
		batchesRetried += again.length;
		const retried = await mapConcurrent(again, concurrency, run);
		retried.forEach((result, i) => (results[again[i]] = toResult(result)));
	}
	return { batches, batchesSent, batchesRetried, results };
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
	source: Iterable<string[]>,
	concurrency: number,
	send: (ids: string[], batch: number) => Promise<void>,
	retry?: EndOfRunRetry,
): Promise<BatchRun> {
	const { batches, batchesSent, batchesRetried, results } = await sendBatches(
		source,
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
