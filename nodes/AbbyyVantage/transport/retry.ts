/** Bounded exponential backoff with jitter, honouring Retry-After. */
import { SECOND_MS } from '../constants';
import { isReadHiccup, isTooMany, isTransient, notProcessed, type Failure } from './failure';

export interface RetrySettings {
	/** Attempts after the first one. */
	maxRetries: number;
	/** Delay before the first retry, milliseconds. */
	initialDelayMs: number;
	/** Ceiling for any single wait, Retry-After included, milliseconds. */
	maxDelayMs: number;
	/** Per-request timeout, milliseconds. */
	timeoutMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
	maxRetries: 3,
	initialDelayMs: 1000,
	maxDelayMs: 30000,
	timeoutMs: 60000,
};

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined if absent or unreadable. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * SECOND_MS);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Delay before retry number `attempt` (0-based): base·2^attempt, capped, minus up to 25 % jitter so parallel callers spread out. */
export function backoffDelay(
	attempt: number,
	settings: RetrySettings,
	random = Math.random,
): number {
	const exponential = settings.initialDelayMs * 2 ** attempt;
	const capped = Math.min(settings.maxDelayMs, exponential);
	return Math.round(capped * (0.75 + random() * 0.25));
}

/** One failed attempt, as the retry decision sees it. */
export interface FailedAttempt {
	failure: Failure;
	/** 0 for the first attempt. */
	attempt: number;
	/** Whether the request may be sent twice (reads, deletes by ID). */
	idempotent: boolean;
	/** A GET: it only reads (reports, lists, status polls), so a 500 is worth another try. */
	read?: boolean;
	/** Concurrency Auto: the limiter halved on this refusal. */
	adaptive: boolean;
	/** Other requests of the same limiter were in flight with it. */
	crowded: boolean;
}

/**
 * Milliseconds to wait before sending again, or undefined to give up now. A 429 means the request
 * was not processed, and a refused connection means it never left: both are sent again even when
 * they create something. Other failures of creating requests may have reached Vantage and are
 * never resent. A read is also sent again after a 500.
 */
export function retryDelay(
	{ failure, attempt, idempotent, read, adaptive, crowded }: FailedAttempt,
	settings: RetrySettings,
	random = Math.random,
): number | undefined {
	if (attempt >= settings.maxRetries) return undefined;
	const worthAnotherTry = isTransient(failure) || (read === true && isReadHiccup(failure));
	if (!worthAnotherTry || (!idempotent && !notProcessed(failure))) return undefined;
	const asked = parseRetryAfter(failure.retryAfter);
	if (asked !== undefined) {
		// Waiting less than asked would only be refused again; more than the ceiling is not allowed.
		return asked <= settings.maxDelayMs ? asked : undefined;
	}
	// Auto, refused among others in flight with no time named: the limiter has just halved, and
	// waiting for a slot under the new limit is the back-off. A second refusal waits the delay.
	if (attempt === 0 && adaptive && crowded && isTooMany(failure)) return 0;
	return backoffDelay(attempt, settings, random);
}
