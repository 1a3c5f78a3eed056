/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * Test infrastructure, never shipped: entries are built from node:http requests. */
/** The request log tests assert on, with secrets masked. */
import type { IncomingMessage } from 'node:http';

import type { Fault } from './faults';
import type { RouteId } from './http';

export interface LoggedRequest {
	seq: number;
	at: number;
	method: string;
	/** The raw path as received, percent-encoding intact. */
	path: string;
	route: RouteId | null;
	/** Decoded path parameters. */
	params: Record<string, string>;
	query: Record<string, string | string[]>;
	/** Headers with secrets masked: `authorization` becomes `Bearer ***`, `cookie` `***`. */
	headers: Record<string, string>;
	/** Parsed JSON (or form with secrets masked); the raw text when it does not parse. */
	body: unknown;
	/** Serial number of the Bearer token used, if it was a token this simulator issued. */
	tokenSerial: number | null;
	status?: number;
	fault?: Fault['kind'];
	/** Refused with 429 by the rate limit on requests in flight (SimulatorOptions.rateLimit). */
	rateLimited?: true;
	/** When the status line was written: the earliest moment the client can have the answer. */
	respondedAt?: number;
	/** When the response was sent (or the connection dropped). */
	finishedAt?: number;
}

export class RequestLog {
	/** Kept as one array for the simulator's life: `clear()` empties it in place. */
	readonly requests: LoggedRequest[] = [];
	private seq = 0;

	/** Log an API request as it arrives; the server fills in route, body, status … as it goes. */
	begin(req: IncomingMessage, rawPath: string, query: URLSearchParams): LoggedRequest {
		const entry: LoggedRequest = {
			seq: ++this.seq,
			at: Date.now(),
			method: req.method ?? 'GET',
			path: rawPath,
			route: null,
			params: {},
			query: queryToObject(query),
			headers: maskHeaders(req.headers),
			body: undefined,
			tokenSerial: null,
		};
		this.requests.push(entry);
		return entry;
	}

	clear(): void {
		this.requests.length = 0;
	}

	/** Requests per route and status, e.g. { "DeleteRecords 200": 200 }. */
	stats(): Record<string, number> {
		const counts: Record<string, number> = {};
		for (const r of this.requests) {
			const key = `${r.route ?? 'unrouted'} ${r.status ?? 'pending'}`;
			counts[key] = (counts[key] ?? 0) + 1;
		}
		return counts;
	}

	/** Requests that reached a route (the token endpoint included), optionally one route only. */
	to(route?: RouteId): LoggedRequest[] {
		return this.requests.filter((r) => (route ? r.route === route : r.route !== null));
	}
}

function queryToObject(query: URLSearchParams): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const key of new Set(query.keys())) {
		const all = query.getAll(key);
		out[key] = all.length === 1 ? all[0] : all;
	}
	return out;
}

const SECRET_FORM_FIELDS = ['password', 'client_secret', 'code', 'code_verifier', 'refresh_token'];

function maskHeaders(headers: IncomingMessage['headers']): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		const text = Array.isArray(value) ? value.join(', ') : value;
		out[key] =
			key === 'authorization'
				? text.replace(/^(\w+)\s+.*$/, '$1 ***')
				: key === 'cookie'
					? '***'
					: text;
	}
	return out;
}

/** The body as logged: a form (the token request) with secrets masked, JSON, or the raw text. */
export function logBody(req: IncomingMessage, raw: Buffer, isToken: boolean): unknown {
	if (raw.length === 0) return undefined;
	const text = raw.toString('utf8');
	const type = req.headers['content-type'] ?? '';
	if (isToken || type.startsWith('application/x-www-form-urlencoded')) {
		const form = Object.fromEntries(new URLSearchParams(text));
		for (const field of SECRET_FORM_FIELDS) if (field in form) form[field] = '***';
		return form;
	}
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
