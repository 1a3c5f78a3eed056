import { MIN_POLL_INTERVAL_MS } from '../constants';
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
	value: T;
	polls: number;
	timedOut: boolean;
}

/**
 * Poll until `done`, the timeout, or cancellation (which throws CancelledError at once).
 * The first poll is immediate; the last one may land up to a second after the timeout, so that
 * no two polls are ever less than a second apart.
 */
export async function pollUntil<T>(
	poll: () => Promise<T>,
	done: (value: T) => boolean,
	settings: PollSettings,
	signal?: AbortSignal,
): Promise<PollOutcome<T>> {
	const deadline = Date.now() + settings.timeoutMs;
	let interval = Math.max(MIN_POLL_INTERVAL_MS, settings.intervalMs);
	const ceiling = Math.max(interval, settings.maxIntervalMs);
	for (let polls = 1; ; polls++) {
		const value = await poll();
		if (done(value)) return { value, polls, timedOut: false };
		const left = deadline - Date.now();
		if (left <= 0) return { value, polls, timedOut: true };
		await pause(Math.min(interval, Math.max(MIN_POLL_INTERVAL_MS, left)), signal);
		interval = Math.min(ceiling, interval * BACKOFF_FACTOR);
	}
}
