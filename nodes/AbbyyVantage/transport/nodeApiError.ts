import type { INode, JsonObject, NodeApiError } from 'n8n-workflow';

import { apiError } from '../helpers/errors';
import { DETAIL_MAX, mayHaveBeenApplied, withFailure, type Failure } from './failure';

/**
 * A failure as the NodeApiError the user reads: what happened (the service's own words where it
 * gave any), while doing what, after how many attempts, and what to check. The message names the
 * item as every error of the node does (helpers/errors.ts); the failure rides along for callers
 * that decide on a retry (./failure.ts).
 */

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
	if (ctx.creates && mayHaveBeenApplied(failure)) {
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
	return withFailure(error, failure);
}
