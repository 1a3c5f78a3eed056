import type { INode, JsonObject, NodeApiError } from 'n8n-workflow';

import {
	bodyText,
	jsonObjectOf,
	SIGN_IN_ERROR_NAME,
} from '../../../credentials/AbbyyVantageApi.endpoints';
import { apiError } from '../helpers/errors';
import { isTransient, notProcessed } from './retry';

/**
 * What went wrong with one HTTP attempt, read from whatever n8n threw. Only these facts survive:
 * the original error carries the request config, whose headers hold the access token.
 */
export interface Failure {
	kind: 'http' | 'network' | 'timeout' | 'malformed' | 'signIn' | 'cancelled';
	status?: number;
	/** Parsed error body (ProblemDetails for Vantage), when there was one. */
	body?: JsonObject;
	retryAfter?: string;
	code?: string;
	message?: string;
}

interface ErrorLike {
	name?: string;
	code?: string;
	message?: string;
	cause?: unknown;
	response?: { status?: number; data?: unknown; headers?: unknown };
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

/** Walk n8n's wrappers (NodeApiError → AxiosError → …) to the facts of the failure. */
export function describeFailure(error: unknown): Failure {
	const chain: ErrorLike[] = [];
	let current: unknown = error;
	for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
		chain.push(current as ErrorLike);
		current = (current as ErrorLike).cause;
	}
	const signIn = chain.find((e) => e.name === SIGN_IN_ERROR_NAME);
	if (signIn) return { kind: 'signIn', message: signIn.message };
	const withResponse = chain.find((e) => e.response && typeof e.response.status === 'number');
	if (withResponse?.response) {
		const { status, data, headers } = withResponse.response;
		return {
			kind: 'http',
			status,
			body: parseJsonBody(data),
			retryAfter: header(headers, 'retry-after'),
		};
	}
	const code = chain.map((e) => e.code).find((c) => typeof c === 'string');
	const message = chain.map((e) => e.message).find((m) => typeof m === 'string' && m !== '');
	if (
		code === 'ERR_CANCELED' ||
		chain.some((e) => e.name === 'CanceledError' || e.name === 'AbortError')
	) {
		return { kind: 'cancelled', code };
	}
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message ?? '')) {
		return { kind: 'timeout', code };
	}
	return { kind: 'network', code: code ?? 'ECONNRESET', message };
}

const STATUS_SUMMARY: Record<number, string> = {
	400: 'ABBYY Vantage rejected the request',
	401: 'ABBYY Vantage did not accept the access token, even after signing in again',
	403: 'ABBYY Vantage denied access',
	404: 'ABBYY Vantage could not find it',
	409: 'ABBYY Vantage reported a conflict',
	429: 'ABBYY Vantage is limiting the request rate',
};

/** Characters of the service's own words kept in a message: its size must not grow with the input. */
const DETAIL_MAX = 500;

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
			summary = 'ABBYY Vantage did not answer in time';
			break;
		case 'malformed':
			summary = 'ABBYY Vantage sent a response that is not valid JSON';
			break;
		default:
			summary = `Could not reach ABBYY Vantage: ${NETWORK_SUMMARY[failure.code ?? ''] ?? 'the connection failed'}`;
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
