import { MIN_POLL_INTERVAL_MS } from '../constants';
import { plainMessage } from './errors';
import { pause } from './time';

export interface PollSettings {
	/** First wait between polls; never below one second (the vendor's polling rule). */
	intervalMs: number;
	/** The wait grows by half each poll up to this. */
	maxIntervalMs: number;
	timeoutMs: number;
}

const BACKOFF_FACTOR = 1.5;

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
 * after the usual interval, until the timeout. Any other failure (a definite answer such as 404)
 * is thrown. The first poll is immediate; the last one may land up to a second after the timeout,
 * so that no two polls are ever less than a second apart.
 */
export async function pollUntil<T>(
	poll: () => Promise<T>,
	done: (value: T) => boolean,
	settings: PollSettings,
	signal?: AbortSignal,
	isTransient: (error: unknown) => boolean = () => false,
): Promise<PollOutcome<T>> {
	const deadline = Date.now() + settings.timeoutMs;
	let interval = Math.max(MIN_POLL_INTERVAL_MS, settings.intervalMs);
	const ceiling = Math.max(interval, settings.maxIntervalMs);
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
		const left = deadline - Date.now();
		if (left <= 0) return { value, polls, failedPolls, timedOut: true, lastError };
		await pause(Math.min(interval, Math.max(MIN_POLL_INTERVAL_MS, left)), signal);
		interval = Math.min(ceiling, interval * BACKOFF_FACTOR);
	}
}

/** The last known state for a timeout message, or why it is unknown. */
export function lastState(state: string | undefined, outcome: PollOutcome<unknown>): string {
	if (outcome.value !== undefined && state !== undefined) return state;
	const reason = outcome.lastError === undefined ? 'no answer' : plainMessage(outcome.lastError);
	return `unknown, no status check succeeded (${reason})`;
}
