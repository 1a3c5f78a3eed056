/** Bounded exponential backoff with jitter, honouring Retry-After. */
import { SECOND_MS } from '../constants';
import type { Failure } from './errors';

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

/** Statuses that say "not now" rather than "no": the same request may succeed later. */
export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Statuses worth another try on a read (GET: reports, lists, status polls) only: a 500 is
 * Vantage's own failure, often passing, and reading again changes nothing. A write answered 500
 * may have been applied: a creating request is never resent, and idempotent writes keep the rules
 * above.
 */
export const READ_RETRYABLE_STATUSES = new Set([500]);

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

/** 429: Vantage refused the request unprocessed. */
export function isTooMany(failure: Failure): boolean {
	return failure.kind === 'http' && failure.status === 429;
}

/** 404: Vantage has no such thing (any more). */
export function isNotFound(failure: Failure): boolean {
	return failure.kind === 'http' && failure.status === 404;
}

const ANSWER_LOST = new Set<Failure['kind']>(['network', 'timeout', 'unclassified', 'malformed']);

/** The request left, but its answer never came whole: Vantage may have handled it. */
export function answerLost(failure: Failure): boolean {
	return ANSWER_LOST.has(failure.kind) && !notProcessed(failure);
}

/** Vantage cannot have processed it: a 429 (refused unprocessed) or a refused connection (never left). */
export function notProcessed(failure: Failure): boolean {
	return isTooMany(failure) || (failure.kind === 'network' && failure.code === 'ECONNREFUSED');
}

/**
 * "Not now" rather than "no": the same request may succeed later. A failure without an answer
 * that n8n gave no code for is most likely the network too; only requests safe to repeat are
 * sent again for it.
 */
export function isTransient(failure: Failure): boolean {
	return (
		notProcessed(failure) ||
		failure.kind === 'network' ||
		failure.kind === 'unclassified' ||
		failure.kind === 'timeout' ||
		failure.kind === 'malformed' ||
		(failure.kind === 'http' && RETRYABLE_STATUSES.has(failure.status ?? 0))
	);
}

/** Answers that say the service is under load: the limiter halves. */
export function isLoadSignal(failure: Failure): boolean {
	return (
		failure.kind === 'timeout' ||
		(failure.kind === 'http' && (failure.status === 429 || failure.status === 503))
	);
}

/** A failure a read (GET) is sent again for, besides the transient ones: a 500. */
export function isReadHiccup(failure: Failure): boolean {
	return failure.kind === 'http' && READ_RETRYABLE_STATUSES.has(failure.status ?? 0);
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
