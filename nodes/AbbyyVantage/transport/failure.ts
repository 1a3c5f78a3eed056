import type { INode, JsonObject, NodeApiError } from 'n8n-workflow';

import { bodyText, jsonObjectOf } from '../../../credentials/AbbyyVantageApi.endpoints';
import { apiError } from '../helpers/errors';

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
const DETAIL_MAX = 500;

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
	return text.trim() ? { message: text.slice(0, 500) } : undefined;
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

const STATUS_SUMMARY: Record<number, string> = {
	400: 'ABBYY Vantage rejected the request',
	401: 'ABBYY Vantage did not accept the access token, even after signing in again',
	403: 'ABBYY Vantage denied access',
	404: 'ABBYY Vantage could not find it',
	409: 'ABBYY Vantage reported a conflict',
	429: 'ABBYY Vantage is limiting the request rate',
};

/**
 * The service's own words: ProblemDetails `detail`, else `title` plus validation `errors`, cut
 * at DETAIL_MAX characters (a 400 may list every one of 5000 ids).
 */
export function serviceDetail(body: JsonObject | undefined): string | undefined {
	const detail = fullDetail(body);
	if (detail === undefined || detail.length <= DETAIL_MAX) return detail;
	return `${detail.slice(0, DETAIL_MAX)}… (${detail.length - DETAIL_MAX} more characters)`;
}

function fullDetail(body: JsonObject | undefined): string | undefined {
	if (!body) return undefined;
	if (typeof body.detail === 'string' && body.detail) return body.detail;
	const parts: string[] = [];
	if (typeof body.title === 'string' && body.title) parts.push(body.title);
	if (body.errors && typeof body.errors === 'object') {
		for (const [field, messages] of Object.entries(body.errors as Record<string, unknown>)) {
			parts.push(`${field}: ${Array.isArray(messages) ? messages.join('; ') : String(messages)}`);
		}
	}
	if (!parts.length && typeof body.message === 'string') parts.push(body.message);
	return parts.length ? parts.join(' — ') : undefined;
}

export interface ErrorContext {
	itemIndex?: number;
	/** What the node was doing, e.g. "deleting records"; starts the description. */
	action: string;
	attempts: number;
	/** The request creates something: say it may have been applied instead of retrying. */
	creates: boolean;
	/** Extra advice for particular statuses (e.g. the one-document rule). */
	hints?: Partial<Record<number, string>>;
	/** How often Vantage answered 429 (not processed) before the last attempt. */
	refusedForLoad?: number;
}

/** The failure behind each error the transport threw, for callers that decide on a retry. */
const failures = new WeakMap<object, Failure>();

/**
 * Whether an error from the transport says "not now" rather than "no": 429, 502–504, a timeout,
 * a network failure or a malformed answer. Waits keep polling through these; idempotent batches
 * are sent again at the end of a run.
 */
export function isTransientError(error: unknown): boolean {
	const failure = failureOf(error);
	return failure !== undefined && isTransient(failure);
}

/**
 * Whether a status check that failed so should be repeated by a wait: any passing problem, and
 * any 5xx (the service's own trouble, not an answer about the export or transaction). Only a
 * definite answer (4xx) ends a wait early.
 */
export function isWaitHiccup(error: unknown): boolean {
	const failure = failureOf(error);
	if (!failure) return false;
	return isTransient(failure) || (failure.kind === 'http' && (failure.status ?? 0) >= 500);
}

function failureOf(error: unknown): Failure | undefined {
	return error && typeof error === 'object' ? failures.get(error) : undefined;
}

const NETWORK_SUMMARY: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection was closed unexpectedly',
	EPIPE: 'the connection was closed unexpectedly',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved',
};

/**
 * One NodeApiError with the service's detail, the status and the item; never a secret. A
 * cancelled execution never gets here: the client reports it before deciding on a retry.
 */
export function toNodeApiError(
	node: INode,
	failure: Failure & { kind: Exclude<Failure['kind'], 'cancelled'> },
	ctx: ErrorContext,
): NodeApiError {
	const detail = serviceDetail(failure.body);
	let summary: string;
	switch (failure.kind) {
		case 'http': {
			const status = failure.status ?? 0;
			summary = STATUS_SUMMARY[status] ?? `ABBYY Vantage answered HTTP ${status}`;
			if (detail) summary += `: ${detail}`;
			break;
		}
		case 'signIn':
			summary = failure.message ?? 'Signing in to ABBYY Vantage failed';
			break;
		case 'timeout':
			summary = failure.midAnswer
				? 'ABBYY Vantage answered, but stopped sending while the answer was being read (no data within the timeout)'
				: 'ABBYY Vantage did not answer in time';
			break;
		case 'malformed':
			summary = 'ABBYY Vantage sent a response that is not valid JSON';
			break;
		case 'unclassified':
			summary = failure.midAnswer
				? `ABBYY Vantage answered, but reading the answer failed: ${failure.message ?? 'n8n gave no reason'}`
				: `The request to ABBYY Vantage failed without an answer: ${failure.message ?? 'n8n gave no reason'}`;
			break;
		default:
			// Reached, then broken: "could not reach" would send people to check the host and network.
			summary = failure.midAnswer
				? 'ABBYY Vantage answered, but the connection broke while reading the answer'
				: `Could not reach ABBYY Vantage: ${NETWORK_SUMMARY[failure.code ?? ''] ?? 'the connection failed'}`;
	}
	const notes: string[] = [`While ${ctx.action}`];
	if (ctx.attempts > 1) notes.push(`after ${ctx.attempts} attempts`);
	if (failure.code) notes.push(`network code ${failure.code}`);
	const hint = failure.status !== undefined ? ctx.hints?.[failure.status] : undefined;
	let description = notes.join(', ') + '.';
	if (hint) description += ` ${hint}`;
	// A refused connection never left; anything else may have reached Vantage.
	const ambiguous =
		(failure.kind === 'network' && !notProcessed(failure)) ||
		failure.kind === 'unclassified' ||
		failure.kind === 'timeout' ||
		failure.kind === 'malformed' ||
		(failure.kind === 'http' && (failure.status ?? 0) >= 500);
	if (ctx.creates && ambiguous) {
		description +=
			' The request may have reached ABBYY Vantage and been applied; it was not sent again so that nothing is created twice. Check in Vantage before running it again.';
	}
	if (ctx.refusedForLoad) {
		description += ` ${ctx.refusedForLoad} of the ${ctx.attempts} attempts were answered 429 (too many requests), which means not processed, so the request was sent again.`;
	}
	if (failure.kind === 'http' && failure.status === 403) {
		description += ' Access depends on the Vantage role of the credential’s user.';
	}
	const response: JsonObject = {
		...(failure.body ?? {}),
		...(failure.status !== undefined ? { status: failure.status } : {}),
	};
	const error = apiError(node, ctx.itemIndex, response, summary, {
		description,
		httpCode: failure.status !== undefined ? String(failure.status) : undefined,
	});
	failures.set(error, failure);
	return error;
}
