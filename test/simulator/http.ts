/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * Test infrastructure, never shipped: a request context carries the node:http request. */
/**
 * What a route handler sees and returns: the request context, replies, ProblemDetails errors and
 * JSON bodies checked against the vendor contract in `./schemas`.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod/v4';

import type { SimUser } from './fixture';
import type { Token } from './tokens';

/** The vendor's operationIds (OpenAPI), one group per area in `./routes/`. */
export type RouteId =
	// routes/auth.ts and routes/authorize.ts (not in the OpenAPI documents; docs.abbyy.com,
	// authentication): the token endpoint, the authorize endpoint, its sign-in page's form and the
	// tenant's OIDC discovery document
	| 'Token'
	| 'Authorize'
	| 'SignIn'
	| 'Discovery'
	// routes/reporting.ts (test/fixtures/openapi/vantage-reporting-v2.json)
	| 'CreateTransactionStepsExportRequest'
	| 'ListExportRequests'
	| 'GetExportStatus'
	| 'GetExportResult'
	// routes/qualityReports.ts (Reporting v2, tag Report)
	| 'GetDocumentsAsCsv'
	| 'GetFieldsAsCsv'
	// routes/skills.ts (test/fixtures/openapi/vantage-processing-v1.json, as the rest below)
	| 'GetAvailableSkills'
	| 'GetSkillInfo'
	// routes/transactions.ts
	| 'CreateTransaction'
	| 'LaunchTransaction'
	| 'AddFilesToTransaction'
	| 'StartTransaction'
	| 'GetTransactionInfo'
	| 'DeleteTransaction'
	| 'GetTransactionRegistrationParameters'
	| 'GetTransactionSkillParameters'
	| 'GenerateMobileInputLink'
	// routes/documents.ts
	| 'CreateTransactionDocument'
	| 'GetTransactionDocuments'
	| 'GetTransactionDocument'
	| 'DeleteTransactionDocument'
	| 'AddFilesToTransactionDocument'
	| 'DownloadTransactionDocumentSourceFile'
	// routes/downloads.ts
	| 'DownloadFile'
	// routes/transactionLists.ts
	| 'GetActiveTransactions'
	| 'GetCompletedTransactions'
	// routes/catalogs.ts (tag Catalogs)
	| 'GetCatalogs'
	| 'GetCatalog'
	| 'ClearCatalog'
	| 'StartCatalogReindex'
	| 'GetReindexOperation'
	// routes/records.ts (tag CatalogRecords)
	| 'AddRecords'
	| 'GetRecords'
	| 'GetRecord'
	| 'DeleteRecords'
	// routes/invites.ts (tag Invites)
	| 'CreateInvite';

/**
 * The authorization server's routes: no Bearer token, no simulated latency or rate limit, spared
 * by '*' and random faults (a fault plan aims at the API calls; signing in still works).
 */
export const AUTH_ROUTES: ReadonlySet<RouteId> = new Set<RouteId>([
	'Token',
	'Authorize',
	'SignIn',
	'Discovery',
]);

export type Reply =
	| { status: number; json: unknown }
	| { status: number; empty: true }
	| { status: number; bytes: Buffer; contentType: string; headers?: Record<string, string> }
	/** A body written as it is generated, with backpressure (reports of any size, chunked). */
	| { status: number; stream: Iterable<string | Buffer>; contentType: string };

export interface RequestContext {
	req: IncomingMessage;
	/** Decoded path parameters. */
	params: Record<string, string>;
	query: URLSearchParams;
	/** Empty for `stream` routes: they read `req` themselves. */
	rawBody: Buffer;
	token: Token | null;
	user: SimUser | null;
	route: Route;
	/** Replace the logged body (multipart routes log a summary, never the bytes). */
	logBody(body: unknown): void;
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

export interface Route {
	id: RouteId;
	method: string;
	segments: string[];
	handler: Handler;
	/** The token endpoint is the only route without a Bearer token. */
	anonymous?: boolean;
	/** Reporting routes answer ProblemDetails with a string `status`, as the Reporting spec types it. */
	reporting?: boolean;
	/**
	 * The handler reads the request body from `ctx.req` itself (uploads of up to 2 GB): the core's
	 * buffered body reader and its 30 MB limit do not apply.
	 */
	stream?: boolean;
}

/** A route on `path`, whose `:name` segments become decoded `ctx.params`. */
export function route(
	id: RouteId,
	method: string,
	path: string,
	handler: Handler,
	extra: Partial<Route> = {},
): Route {
	return { id, method, segments: path.split('/').slice(1), handler, ...extra };
}

/** Thrown by handlers; the server answers with `status`, `body` (or none) and `headers`. */
export class HttpProblem extends Error {
	constructor(
		readonly status: number,
		readonly body: Record<string, unknown> | null,
		readonly headers: Record<string, string> = {},
	) {
		super(`HTTP ${status}`);
	}
}

const RFC9110_SECTIONS: Record<number, string> = {
	400: '15.5.1',
	401: '15.5.2',
	403: '15.5.4',
	404: '15.5.5',
	409: '15.5.10',
	413: '15.5.14',
	415: '15.5.16',
	500: '15.6.1',
	502: '15.6.3',
	503: '15.6.4',
	504: '15.6.5',
};

/** ASP.NET Core's ProblemDetails, as the Processing API declares its errors. */
export function problem(
	status: number,
	title: string,
	detail?: string,
	extra: Record<string, unknown> = {},
): HttpProblem {
	return new HttpProblem(status, {
		type: `https://tools.ietf.org/html/rfc9110#section-${RFC9110_SECTIONS[status] ?? '15.5.1'}`,
		title,
		status,
		...(detail !== undefined ? { detail } : {}),
		...extra,
		traceId: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`,
	});
}

/** A status without a body (Kestrel's 413, 401 …). */
export function bare(status: number, headers: Record<string, string> = {}): HttpProblem {
	return new HttpProblem(status, null, headers);
}

export function notFound(detail: string): HttpProblem {
	return problem(404, 'Not Found', detail);
}

/** A ProblemDetails error for a model-binding failure of one named value (query, form, path). */
export function invalidValue(key: string, message: string): HttpProblem {
	return problem(400, 'One or more validation errors occurred.', undefined, {
		errors: { [key]: [message] },
	});
}

const GUID =
	/^[{(]?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})[})]?$/i;

/**
 * A path id the vendor binds as a Guid (`format: uuid`): the canonical lower-case form; ASP.NET
 * also reads the N, B and P forms. Anything else is a 400 validation problem (inferred: binding).
 */
export function guidParam(ctx: RequestContext, name: string): string {
	const value = ctx.params[name];
	const m = GUID.exec(value);
	const braces = value.startsWith('{') ? '}' : value.startsWith('(') ? ')' : '';
	if (!m || !value.endsWith(braces) || (braces === '' && /[})]$/.test(value))) {
		throw invalidValue(name, `The value '${value}' is not valid.`);
	}
	return m.slice(1).join('-').toLowerCase();
}

/** ASP.NET's ValidationProblemDetails shape for a model-binding failure. */
export function validationProblem(issues: z.core.$ZodIssue[]): HttpProblem {
	const errors: Record<string, string[]> = {};
	for (const issue of issues) {
		const key =
			'$' + issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
		(errors[key] ??= []).push(issue.message);
	}
	return problem(400, 'One or more validation errors occurred.', undefined, { errors });
}

/** The content types ASP.NET's JSON input formatter accepts. */
const JSON_CONTENT_TYPES = [
	'application/json',
	'application/json-patch+json',
	'text/json',
	'application/*+json',
];

/** The request's JSON body, checked against `schema` as the vendor's model binding would. */
export function readJson<T extends z.ZodType>(ctx: RequestContext, schema: T): z.infer<T> {
	const type = (ctx.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	if (ctx.rawBody.length === 0) {
		throw problem(400, 'One or more validation errors occurred.', undefined, {
			errors: { '': ['A non-empty request body is required.'] },
		});
	}
	if (!JSON_CONTENT_TYPES.includes(type) && !/^application\/[^/]+\+json$/.test(type)) {
		throw problem(415, 'Unsupported Media Type');
	}
	let value: unknown;
	try {
		value = JSON.parse(ctx.rawBody.toString('utf8'));
	} catch (error) {
		throw problem(400, 'One or more validation errors occurred.', undefined, {
			errors: { $: [`The JSON value could not be converted: ${(error as Error).message}`] },
		});
	}
	const parsed = schema.safeParse(value);
	if (!parsed.success) throw validationProblem(parsed.error.issues);
	return parsed.data;
}

/** A JSON reply; the simulator checks its own answers against the vendor contract too. */
export function respond<T extends z.ZodType>(status: number, schema: T, value: z.infer<T>): Reply {
	return { status, json: schema.parse(value) };
}
