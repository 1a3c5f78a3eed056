/**
 * One home for the limits the node enforces and the numbers it reuses. Vendor limits cite where
 * ABBYY states them; the rest are this node's choices.
 */

/** Largest int32: the OpenAPI `format: int32` fields (document index, file index). */
export const INT32_MAX = 2147483647;

export const SECOND_MS = 1000;
export const DAY_SECONDS = 86400;
/** Longest a wait (Timeout) may be set to. */
export const MAX_WAIT_SECONDS = 7 * DAY_SECONDS;

/**
 * Record ids per AddRecords / DeleteRecords request: the `maxItems` of those request bodies in the
 * Processing API's OpenAPI document.
 */
export const MAX_RECORDS_PER_REQUEST = 5000;

/** "Poll the status not more often than once per second" (docs.abbyy.com, processing documents). */
export const MIN_POLL_INTERVAL_MS = 1000;

/**
 * The wait schedule of every status wait: a check at once, then one every Wait Interval (default
 * 1 s) until each pause may be this share of the time waited so far, up to Wait Interval Limit. A job
 * is noticed at most this share of its duration late (at least Wait Interval, at most Wait
 * Interval Limit); the checks a job costs grow with the logarithm of its duration: a 1.5-s job is noticed
 * at 2 s, a 60-s job costs 13 checks, where a client that checks again a second after each answer
 * costs 58 (BENCHMARKS.md, section 11b).
 */
export const POLL_GROWTH = 0.4;

/** The first waits of every status wait (Wait Interval's default), the least Vantage allows. */
export const DEFAULT_POLL_INTERVAL_SECONDS = 1;

/** Ids an output lists per list (Sync's plan, records kept as they are, duplicates); counts are complete. */
export const LISTED_IDS = 100;
