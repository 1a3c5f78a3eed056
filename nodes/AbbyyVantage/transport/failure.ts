import type { JsonObject } from 'n8n-workflow';

import { bodyText, jsonObjectOf } from '../../../credentials/AbbyyVantageApi.endpoints';
import { noted } from '../helpers/errors';

/**
 * One home for what a failure is and what may be done about it: what went wrong with one attempt
 * (read from Vantage's answer, or from what n8n threw when there was none), and the predicates the
 * client, the limiter's feedback and the retry decision (./retry.ts) ask of it.
 */

/**
 * What went wrong with one HTTP attempt. Only these facts are kept: n8n's error carries the
 * request config, whose headers hold the access token.
 */
export interface Failure {
	/**
	 * `http`: Vantage answered with an error status. `network`: the socket failed with an error
	 * code. `unclassified`: n8n threw without an answer and without a code to tell why.
	 */
	kind: 'http' | 'network' | 'timeout' | 'malformed' | 'signIn' | 'unclassified' | 'cancelled';
	status?: number;
	/** Parsed error body (ProblemDetails for Vantage), when there was one. */
	body?: JsonObject;
	retryAfter?: string;
	/** The socket's error code (ECONNREFUSED…), only as the error carried it; never assumed. */
	code?: string;
	message?: string;
	/** Vantage had answered (status and headers in), and the body broke off while being read. */
	midAnswer?: boolean;
}

/** Characters of the service's (or n8n's) words kept in a message: its size must not grow with the input. */
export const DETAIL_MAX = 500;

// ------------------------------------------------------------------ how an attempt becomes one

/** What n8n's HTTP helper returns with `returnFullResponse`. */
export interface FullResponse {
	statusCode: number;
	headers?: unknown;
	body?: unknown;
}

function header(headers: unknown, name: string): string | undefined {
	if (!headers || typeof headers !== 'object') return undefined;
	const h = headers as { get?: (n: string) => unknown } & Record<string, unknown>;
	const value = typeof h.get === 'function' ? h.get(name) : h[name.toLowerCase()];
	return value === undefined || value === null ? undefined : String(value);
}

/** An error body as JSON for the error (ProblemDetails), or its text as `message`. */
export function parseJsonBody(data: unknown): JsonObject | undefined {
	const json = jsonObjectOf(data);
	if (json) return json as JsonObject;
	const text = bodyText(data);
	return text.trim() ? { message: text.slice(0, DETAIL_MAX) } : undefined;
}

/** An answer that is not 2xx, read from the response itself: status, body and Retry-After. */
export function httpFailure({ statusCode, headers, body }: FullResponse): Failure {
	return {
		kind: 'http',
		status: statusCode,
		body: parseJsonBody(body),
		retryAfter: header(headers, 'retry-after'),
	};
}

interface ErrorLike {
	code?: unknown;
	httpCode?: unknown;
	message?: unknown;
	cause?: unknown;
}

/** Axios' codes for a request that ran out of time. */
const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT']);

/** A socket or HTTP-client error code (ECONNRESET, ERR_NETWORK), as opposed to a status. */
function errorCode(value: unknown): string | undefined {
	return typeof value === 'string' && /^E[A-Z_]+$/.test(value) ? value : undefined;
}

/**
 * A request that ended without an HTTP answer: n8n's helper threw (every answer, error statuses
 * included, is returned, not thrown). The socket's error code is taken where an error carries
 * one: n8n's NodeApiError keeps it as `httpCode` (n8n-workflow 1.83 – 2.41), and what it wraps as
 * `code` where n8n keeps the wrapped error (not 1.99 – 1.120). Without one the failure stays
 * unclassified, with n8n's own message: no code is ever assumed. A request that ran for the whole
 * timeout timed out, whatever the error says.
 */
export function thrownFailure(
	error: unknown,
	elapsedMs: number,
	timeoutMs: number,
): Failure & { kind: 'network' | 'timeout' | 'unclassified' } {
	let code: string | undefined;
	let current: unknown = error;
	for (let depth = 0; !code && current && typeof current === 'object' && depth < 5; depth++) {
		const e = current as ErrorLike;
		code = errorCode(e.code) ?? errorCode(e.httpCode);
		current = e.cause;
	}
	if ((code && TIMEOUT_CODES.has(code)) || elapsedMs >= timeoutMs) return { kind: 'timeout', code };
	if (code) return { kind: 'network', code };
	const message = (error as ErrorLike | undefined)?.message;
	return {
		kind: 'unclassified',
		message: typeof message === 'string' && message ? message.slice(0, DETAIL_MAX) : undefined,
	};
}

// ------------------------------------------------------------------ what may be done about it

/** Statuses that say "not now" rather than "no": the same request may succeed later. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Statuses worth another try on a read (GET: reports, lists, status polls) only: a 500 is
 * Vantage's own failure, often passing, and reading again changes nothing. A write answered 500
 * may have been applied: a creating request is never resent, and idempotent writes keep the rules
 * above.
 */
const READ_RETRYABLE_STATUSES = new Set([500]);

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

/**
 * Whether a status check that failed so should be repeated by a wait: any passing problem, and
 * any 5xx (the service's own trouble, not an answer about the export or transaction). Only a
 * definite answer (4xx) ends a wait early.
 */
export function isPollHiccup(failure: Failure): boolean {
	return isTransient(failure) || (failure.kind === 'http' && (failure.status ?? 0) >= 500);
}

/**
 * Vantage may have handled the request although it failed: the answer was lost on the way, or
 * Vantage failed itself (5xx). A refused connection never left, and a 429 was not processed.
 */
export function mayHaveBeenApplied(failure: Failure): boolean {
	return answerLost(failure) || (failure.kind === 'http' && (failure.status ?? 0) >= 500);
}

// ------------------------------------------------------------------ behind an error the transport threw

/**
 * An error the transport threw carries the failure it was made from, for callers that decide on a
 * retry; kept on the error as the node keeps its other notes (helpers/errors.ts `noted`).
 */
interface FailureNote {
	vantageFailure?: Failure;
}

/** `error`, made from `failure` (./nodeApiError.ts), carrying it for the predicates below. */
export function withFailure<E extends object>(error: E, failure: Failure): E {
	return noted(error, { vantageFailure: failure } satisfies FailureNote);
}

function failureOf(error: unknown): Failure | undefined {
	return error !== null && typeof error === 'object'
		? (error as FailureNote).vantageFailure
		: undefined;
}

/**
 * Whether an error from the transport says "not now" rather than "no": 429, 502–504, a timeout,
 * a network failure or a malformed answer. Waits keep polling through these; idempotent batches
 * are sent again at the end of a run.
 */
export function isTransientError(error: unknown): boolean {
	const failure = failureOf(error);
	return failure !== undefined && isTransient(failure);
}

/** Whether a wait polls again after a status check failed with this error (isPollHiccup). */
export function isWaitHiccup(error: unknown): boolean {
	const failure = failureOf(error);
	return failure !== undefined && isPollHiccup(failure);
}
