/** Bounded exponential backoff with jitter, honouring Retry-After. */

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

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined if absent or unreadable. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
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
