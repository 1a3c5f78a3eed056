import { MIN_POLL_INTERVAL_MS, POLL_GROWTH } from '../constants';
import { plainMessage } from './errors';
import { pause } from './time';

export interface PollSettings {
	/** The first waits between polls and the shortest; never below one second (the vendor's rule). */
	intervalMs: number;
	/** The longest wait between two polls. */
	maxIntervalMs: number;
	timeoutMs: number;
}

/**
 * The pause before the next poll, `waitedMs` into a wait: POLL_GROWTH of the time waited so far,
 * never less than the interval (nor a second), never more than the maximum. Short jobs are thus
 * checked every interval; a long one is noticed at most POLL_GROWTH of its duration late, at a
 * cost in polls that grows with the logarithm of its duration.
 */
export function nextPollDelay(waitedMs: number, settings: PollSettings): number {
	const least = Math.max(MIN_POLL_INTERVAL_MS, settings.intervalMs);
	return Math.max(least, Math.min(settings.maxIntervalMs, waitedMs * POLL_GROWTH));
}

export interface PollOutcome<T> {
	/** The last answer; undefined only when no poll succeeded before the timeout. */
	value?: T;
	polls: number;
	/** Polls that failed with a passing problem (429, 5xx, network, timeout) and were repeated. */
	failedPolls: number;
	timedOut: boolean;
	/** The last passing problem, when the wait timed out without any answer. */
	lastError?: unknown;
}

/**
 * Poll until `done`, the timeout, or cancellation (which throws CancelledError at once). A poll
 * that fails with a passing problem (`isTransient`) does not end the wait: the next poll comes
 * after the usual pause (nextPollDelay), until the timeout. Any other failure (a definite answer
 * such as 404) is thrown. The first poll is immediate (the job may be done already); the last one
 * may land up to a second after the timeout, so that no two polls are ever less than a second
 * apart.
 */
export async function pollUntil<T>(
	poll: () => Promise<T>,
	done: (value: T) => boolean,
	settings: PollSettings,
	signal?: AbortSignal,
	isTransient: (error: unknown) => boolean = () => false,
): Promise<PollOutcome<T>> {
	const began = Date.now();
	const deadline = began + settings.timeoutMs;
	let value: T | undefined;
	let failedPolls = 0;
	let lastError: unknown;
	for (let polls = 1; ; polls++) {
		const answer = await poll().then(
			(v) => ({ v }),
			(error: unknown) => ({ error }),
		);
		if ('error' in answer) {
			if (!isTransient(answer.error)) throw answer.error;
			failedPolls++;
			lastError = answer.error;
		} else {
			value = answer.v;
			lastError = undefined;
			if (done(value)) return { value, polls, failedPolls, timedOut: false };
		}
		const now = Date.now();
		const left = deadline - now;
		if (left <= 0) return { value, polls, failedPolls, timedOut: true, lastError };
		const delay = nextPollDelay(now - began, settings);
		await pause(Math.min(delay, Math.max(MIN_POLL_INTERVAL_MS, left)), signal);
	}
}

/** The last known state for a timeout message, or why it is unknown. */
export function lastState(state: string | undefined, outcome: PollOutcome<unknown>): string {
	if (outcome.value !== undefined && state !== undefined) return state;
	const reason = outcome.lastError === undefined ? 'no answer' : plainMessage(outcome.lastError);
	return `unknown, no status check succeeded (${reason})`;
}
