import { sleep } from 'n8n-workflow';

import { SECOND_MS } from '../constants';
import { count } from './text';

/** Thrown when the execution is cancelled during a wait. */
export class CancelledError extends Error {
	constructor() {
		super('The execution was cancelled');
		this.name = 'CancelledError';
	}
}

/** Longest single sleep: keeps cancellation prompt on hosts whose `sleep` ignores the signal. */
const SLICE_MS = 1000;

/**
 * Wait `ms`, stopping at once when `signal` aborts. `sleep(ms, signal)` is honoured by
 * n8n-workflow ≥ 2.34; older hosts ignore the signal, so the wait is sliced and re-checked.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const end = Date.now() + Math.max(0, ms);
	for (;;) {
		if (signal?.aborted) throw new CancelledError();
		const left = end - Date.now();
		if (left <= 0) return;
		// sleep() rejects when the signal aborts (n8n-workflow ≥ 2.34).
		const slept = await sleep(Math.min(left, SLICE_MS), signal).then(
			() => true,
			() => false,
		);
		if (!slept) throw new CancelledError();
	}
}

/** A duration for messages: "1 second", "90 seconds", "30 minutes", "2 hours". */
export function describeDuration(ms: number): string {
	const seconds = Math.round(ms / SECOND_MS);
	if (seconds >= 3600 && seconds % 3600 === 0) return count(seconds / 3600, 'hour');
	if (seconds >= 120 && seconds % 60 === 0) return count(seconds / 60, 'minute');
	return count(seconds, 'second');
}
