/**
 * One home for the limits the node enforces and the numbers it reuses. Vendor limits cite where
 * ABBYY states them; the rest are this node's choices. A bound that one parameter shows and checks
 * from its own definition (an operation's Concurrency, the trigger's Look Back) stays with it.
 */

export const SECOND_MS = 1000;
export const DAY_SECONDS = 86400;

// ------------------------------------------------------------------ Vantage's limits

/** Largest int32: the OpenAPI `format: int32` fields (document index, file index). */
export const INT32_MAX = 2147483647;

/**
 * Record ids per AddRecords / DeleteRecords request: the `maxItems` of those request bodies in the
 * Processing API's OpenAPI document.
 */
export const MAX_RECORDS_PER_REQUEST = 5000;

/** Catalogs: characters per value, and records per catalog. */
export const MAX_VALUE_LENGTH = 256;
export const MAX_RECORDS_PER_CATALOG = 500_000;

/** GetRecords' largest `limit` (the vendor's default page size). */
export const RECORDS_PAGE_SIZE = 1000;

/** `Limit` of GetActiveTransactions / GetCompletedTransactions: required, 1–1000. */
export const LIST_PAGE_SIZE = 1000;

/** Registration and skill parameters: at most 10 each (OpenAPI `maxItems`), key and value non-empty. */
export const MAX_PARAMETERS = 10;

/**
 * AddFilesToTransaction in the OpenAPI document: "The maximum size of processed files should not
 * exceed 2 GB. The maximum count per transaction should not exceed 1000".
 */
export const MAX_FILES_PER_TRANSACTION = 1000;
export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

/** The vendor suggests launch for one small file, separate calls for large or multi-file jobs. */
export const LAUNCH_MAX_BYTES = 30 * 1024 * 1024;

/** "Poll the status not more often than once per second" (docs.abbyy.com, processing documents). */
export const MIN_POLL_INTERVAL_MS = 1000;

// ------------------------------------------------------------------ the node's own limits

/** Longest a wait (Timeout) may be set to. */
export const MAX_WAIT_SECONDS = 7 * DAY_SECONDS;

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

/**
 * The largest value each of Request Options accepts, by its parameter name: resends of one
 * request, and seconds for the first delay, the longest delay and each response.
 */
export const REQUEST_OPTIONS_MAX = {
	maxRetries: 10,
	retryDelay: 600,
	maxRetryDelay: 3600,
	timeout: 3600,
} as const;

/** Tenant → Create Invite: the longest validity the node accepts; Vantage states none (its example: 14 days). */
export const MAX_INVITE_VALID_DAYS = 365;

/** Ids an output lists per list (Sync's plan, records kept as they are, duplicates); counts are complete. */
export const LISTED_IDS = 100;

/** Ids or things named in an error's description; the rest are counted (all are in the error item). */
export const NAMED_IN_ERROR = 20;

// ------------------------------------------------------------------ the trigger's limits

/** Ids one trigger's cursor remembers; beyond, the oldest are dropped and its floor moves up past them. */
export const MAX_REMEMBERED = 10_000;

/** Events one poll hands over at most; the rest wait for the next poll, oldest first. */
export const MAX_EVENTS_PER_POLL = 1_000;

/**
 * One Execution per Event: executions of one trigger running at once, at most. n8n's default
 * (unlimited production concurrency) would otherwise run a poll's thousand executions at once,
 * which a small n8n does not survive.
 */
export const MAX_RUNNING = 10;

/**
 * An execution n8n has not reported finished after this long stops counting as running (n8n 1.x
 * never settles the done promise of an execution it failed to start).
 */
export const RUNNING_AT_MOST_MS = 10 * 60_000;

/**
 * One Execution per Event: how long one poll waits for room to hand over more, at most. n8n stops
 * gracefully within 30 s (N8N_GRACEFUL_SHUTDOWN_TIMEOUT) and goes on running a poll that has
 * begun: what it hands over meanwhile must still be stored and run before n8n exits.
 */
export const HAND_OVER_MS = 10_000;

/**
 * The answer a model gets from the tool: at most this many characters (n8n hands the agent
 * JSON.stringify of the items' `json`; MCP clients get the same text). A catalog of 5 000
 * vendors would otherwise be half a million characters in the model's context.
 */
export const ANSWER_MAX_CHARS = 40_000;
/** Results listed in one tool answer, however small. */
export const ANSWER_MAX_RESULTS = 50;

/** Input Files → File URL: Max File Size's default (MB). */
export const FILE_URL_DEFAULT_MAX_MB = 100;
/** A link may redirect (storage services do) this often before the node gives up. */
export const FILE_URL_MAX_REDIRECTS = 5;
/**
 * The longest link the node fetches, in characters (a redirect's target too). Presigned links
 * carrying a session token run to 2–3 KB; 8 KB is what common servers accept in a request line
 * (nginx's and Apache's default limits), so a longer link is nothing storage hands out.
 */
export const FILE_URL_MAX_CHARS = 8192;
