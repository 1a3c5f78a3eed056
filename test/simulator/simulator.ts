/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets --
 * Test infrastructure, never shipped: a real HTTP server needs node:http, timers and sockets, and
 * its fixture tenant has made-up secrets. */
/**
 * ABBYY Vantage simulator: a loopback HTTP server that behaves like the service described in
 * `../shared/reference/vantage-api.md` (auth, Reporting v2 exports, transactions, catalogs, reindex),
 * with programmable faults and a request log. Used by the unit tests, the real-n8n suite, the demo
 * and the benchmarks. Control it in-process through this class, or over HTTP under `/__simulator/`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { z } from 'zod/v4';

import * as S from './schemas';

// ---------------------------------------------------------------- types

export type RouteId =
	| 'Token'
	| 'CreateTransactionStepsExportRequest'
	| 'ListExportRequests'
	| 'GetExportStatus'
	| 'GetExportResult'
	| 'GetAvailableSkills'
	| 'CreateTransaction'
	| 'GetTransactionInfo'
	| 'CreateTransactionDocument'
	| 'GetCatalogs'
	| 'GetCatalog'
	| 'AddRecords'
	| 'GetRecords'
	| 'DeleteRecords'
	| 'StartCatalogReindex'
	| 'GetReindexOperation';

export type Fault =
	/** Answer with this status instead of handling the request (429, 5xx, 401, 403, 404, 400 …). */
	| { kind: 'status'; status: number; retryAfter?: string; body?: unknown }
	/** Destroy the connection; `after: true` handles the request first (the response is lost). */
	| { kind: 'reset'; after?: boolean }
	/** Wait, then handle the request normally. */
	| { kind: 'delay'; ms: number }
	/** Handle the request, then send a truncated JSON body with status 200. */
	| { kind: 'malformedJson' };

export interface FaultRule {
	route: RouteId | '*';
	fault: Fault;
	/** How many matching requests get the fault; `Infinity` (or 'always' over HTTP) for all. */
	times: number;
	hits: number;
}

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
	/** Headers with secrets masked; `authorization` becomes `Bearer <token #serial>`. */
	headers: Record<string, string>;
	/** Parsed JSON (or form with secrets masked); the raw text when it does not parse. */
	body: unknown;
	/** Serial number of the Bearer token used, if it was a token this simulator issued. */
	tokenSerial: number | null;
	status?: number;
	fault?: Fault['kind'];
	/** When the response was sent (or the connection dropped). */
	finishedAt?: number;
}

export interface SimUser {
	username: string;
	password: string;
	tenants: string[];
	/** Reporting needs TenantAdministrator or ProcessingSupervisor. */
	roles: string[];
}

export interface SimClient {
	clientId: string;
	clientSecret: string;
}

export interface ExportScript {
	/** Statuses the export goes through; the last one is kept. Default New → Queued → Processing → Succeeded. */
	path?: S.ReportRequestStatus[];
	/** Advance one step every N status polls (default 1), or every `ms` milliseconds. */
	advanceEvery?: { polls: number } | { ms: number };
	/** Result files (CSV text). Default: one generated file. */
	files?: string[];
}

export interface ReindexScript {
	outcome: 'Completed' | 'Failed' | 'Never';
	/** Finish after this many status polls (default 1), or after `ms` milliseconds. */
	after?: { polls: number } | { ms: number };
}

export interface SimulatorOptions {
	host?: string;
	port?: number;
	users?: SimUser[];
	clients?: SimClient[];
	/** `expires_in` of issued tokens, seconds. */
	tokenLifetimeSeconds?: number;
	/** Added to every API request (not the token endpoint), for latency-sensitive benchmarks. */
	latencyMs?: number;
	/** Keep request bodies in the log (turn off for very large benchmark runs). */
	logBodies?: boolean;
	/** Content type of JSON responses; the vendor declares text/plain too, clients must not care. */
	jsonContentType?: string;
	/** Content type of export result files; not documented by the vendor. */
	resultContentType?: string;
}

interface Token {
	serial: number;
	username: string;
	tenantId: string | null;
	expiresAt: number;
	revoked: boolean;
}

interface ExportRecord {
	requestId: string;
	owner: string;
	createdUtc: string;
	completedUtc: string | null;
	correlationId: string;
	filters: z.infer<typeof S.AsyncStepReportFilters> | null;
	sendEmailNotification: boolean;
	script: Required<Pick<ExportScript, 'path' | 'advanceEvery' | 'files'>>;
	polls: number;
	createdAt: number;
	forced?: S.ReportRequestStatus;
}

interface TransactionRecord {
	id: string;
	skillId: string;
	status: z.infer<typeof S.TransactionStatus>;
	documents: Array<{ id: string; index: number | null; imageProcessingOptions?: unknown }>;
}

interface CatalogRecord {
	id: string;
	name: string;
	columns: Array<z.infer<typeof S.ColumnDto>>;
	records: Map<string, Record<string, string[]>>;
}

interface ReindexRecord {
	catalogId: string;
	result: z.infer<typeof S.ReindexOperationResult>;
	script: ReindexScript;
	polls: number;
	startedAt: number;
}

class HttpProblem extends Error {
	constructor(
		readonly status: number,
		readonly body: Record<string, unknown> | null,
		readonly headers: Record<string, string> = {},
	) {
		super(`HTTP ${status}`);
	}
}

// ---------------------------------------------------------------- fixture

/** The default tenant the tests, demo and examples use. None of these are real secrets. */
export const FIXTURE = {
	clientId: 'sim-client',
	clientSecret: 'sim-client-secret-4f1c',
	username: 'admin@example.com',
	password: 'sim-password-9b7e',
	tenantId: '6b0b1c9e-1f1d-4a7e-9c38-1f2a3b4c5d6e',
	/** A user whose e-mail belongs to two tenants: needs the tenant-specific endpoint. */
	multiTenantUsername: 'shared@example.com',
	secondTenantId: 'c0a80101-0000-4000-8000-000000000002',
	/** A user without reporting roles. */
	operatorUsername: 'operator@example.com',
	scope: 'openid permissions global.wildcard',
	processSkillId: 'process-skill',
	documentSkillId: 'invoice-skill',
	catalogId: 'Vendors',
} as const;

/** The ABBYY Vantage API credential's fields for the fixture tenant on a simulator at `baseUrl`. */
export function fixtureCredentialData(baseUrl: string): Record<string, string> {
	return {
		region: 'custom',
		baseUrl,
		tenantId: '',
		clientId: FIXTURE.clientId,
		clientSecret: FIXTURE.clientSecret,
		username: FIXTURE.username,
		password: FIXTURE.password,
		scope: FIXTURE.scope,
		accessToken: '',
	};
}

const ALLOWED_SCOPES = new Set([
	'openid',
	'permissions',
	'global.wildcard',
	'publicapi.all',
	'offline_access',
]);
const REPORTING_ROLES = ['TenantAdministrator', 'ProcessingSupervisor'];
const JSON_CONTENT_TYPES = [
	'application/json',
	'application/json-patch+json',
	'text/json',
	'application/*+json',
];
/** Kestrel's default maximum request body size. */
const MAX_BODY_BYTES = 30_000_000;
const CSV_HEADER =
	'SkillId,SkillVersion,SkillName,TransactionId,StepName,StepType,ManualReviewOperatorName,ManualReviewOperatorEmail,StartedUtc,CompletedUtc,Status,Duration,DocumentsCount,PagesCount,document_SourceFileName,document_SourceType,transaction_App';

export function sampleCsv(rows: number, seed = 'a'): string {
	const lines = [CSV_HEADER];
	for (let i = 0; i < rows; i++) {
		lines.push(
			`${FIXTURE.processSkillId},3,Invoices,${seed}-${i},Extract,Automatic,,,11/17/2025 10:00:0${i % 10},11/17/2025 10:00:1${i % 10},FinishedSuccessfully,${i + 1},1,${i + 2},invoice-${i}.pdf,Api,n8n`,
		);
	}
	return lines.join('\r\n') + '\r\n';
}

function defaultUsers(): SimUser[] {
	return [
		{
			username: FIXTURE.username,
			password: FIXTURE.password,
			tenants: [FIXTURE.tenantId],
			roles: ['TenantAdministrator'],
		},
		{
			username: FIXTURE.multiTenantUsername,
			password: FIXTURE.password,
			tenants: [FIXTURE.tenantId, FIXTURE.secondTenantId],
			roles: ['ProcessingSupervisor'],
		},
		{
			username: FIXTURE.operatorUsername,
			password: FIXTURE.password,
			tenants: [FIXTURE.tenantId],
			roles: ['Operator'],
		},
	];
}

// ---------------------------------------------------------------- routing

type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;
interface Route {
	id: RouteId;
	method: string;
	segments: string[];
	handler: Handler;
	/** The token endpoint is the only route without a Bearer token. */
	anonymous?: boolean;
	/** Reporting routes answer ProblemDetails with a string `status`, as the Reporting spec types it. */
	reporting?: boolean;
}

interface RequestContext {
	req: IncomingMessage;
	params: Record<string, string>;
	query: URLSearchParams;
	rawBody: Buffer;
	token: Token | null;
	user: SimUser | null;
	route: Route;
}

type Reply =
	| { status: number; json: unknown }
	| { status: number; empty: true }
	| { status: number; bytes: Buffer; contentType: string };

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
function problem(
	status: number,
	title: string,
	detail?: string,
	extra: Record<string, unknown> = {},
) {
	return new HttpProblem(status, {
		type: `https://tools.ietf.org/html/rfc9110#section-${RFC9110_SECTIONS[status] ?? '15.5.1'}`,
		title,
		status,
		...(detail !== undefined ? { detail } : {}),
		...extra,
		traceId: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`,
	});
}

function notFound(detail: string) {
	return problem(404, 'Not Found', detail);
}

/** ASP.NET's ValidationProblemDetails shape for a model-binding failure. */
function validationProblem(issues: z.core.$ZodIssue[]) {
	const errors: Record<string, string[]> = {};
	for (const issue of issues) {
		const key =
			'$' + issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
		(errors[key] ??= []).push(issue.message);
	}
	return problem(400, 'One or more validation errors occurred.', undefined, { errors });
}

// ---------------------------------------------------------------- the simulator

export class VantageSimulator {
	readonly options: Required<Omit<SimulatorOptions, 'port' | 'host'>> & {
		host: string;
		port: number;
	};
	readonly requests: LoggedRequest[] = [];
	private server: Server | null = null;
	private readonly sockets = new Set<Socket>();
	private faults: FaultRule[] = [];
	private randomFaults: { rate: number; faults: Fault[]; next: () => number } | null = null;
	private readonly tokens = new Map<string, Token>();
	private tokenSerial = 0;
	private seq = 0;
	private readonly exports = new Map<string, ExportRecord>();
	private exportScripts: ExportScript[] = [];
	private defaultExportScript: ExportScript = {};
	private readonly transactions = new Map<string, TransactionRecord>();
	private readonly skills = new Map<string, z.infer<typeof S.SkillListItemDto>>();
	private readonly catalogs = new Map<string, CatalogRecord>();
	private readonly reindexOps = new Map<string, ReindexRecord>();
	private reindexScripts: ReindexScript[] = [];
	private defaultReindexScript: ReindexScript = { outcome: 'Completed', after: { polls: 1 } };
	private readonly routes: Route[];

	constructor(options: SimulatorOptions = {}) {
		this.options = {
			host: options.host ?? '127.0.0.1',
			port: options.port ?? 0,
			users: options.users ?? defaultUsers(),
			clients: options.clients ?? [
				{ clientId: FIXTURE.clientId, clientSecret: FIXTURE.clientSecret },
			],
			tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 2592000,
			latencyMs: options.latencyMs ?? 0,
			logBodies: options.logBodies ?? true,
			jsonContentType: options.jsonContentType ?? 'application/json; charset=utf-8',
			resultContentType: options.resultContentType ?? 'text/csv',
		};
		this.addSkill({ id: FIXTURE.processSkillId, name: 'Invoice Processing', type: 'Process' });
		this.addSkill({ id: FIXTURE.documentSkillId, name: 'Invoice', type: 'Document' });
		this.addCatalog(FIXTURE.catalogId);
		this.routes = this.buildRoutes();
	}

	// ------------------------------------------------------------ lifecycle

	get url(): string {
		if (!this.server) throw new Error('simulator not started');
		const { port } = this.server.address() as AddressInfo;
		return `http://${this.options.host}:${port}`;
	}

	async start(): Promise<string> {
		const server = createServer((req, res) => {
			void this.handle(req, res);
		});
		server.keepAliveTimeout = 60_000;
		server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(this.options.port, this.options.host, () => resolve());
		});
		this.server = server;
		return this.url;
	}

	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = null;
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	// ------------------------------------------------------------ test controls

	/** Inject a fault for the next `times` requests to `route` (default: once). */
	injectFault(route: RouteId | '*', fault: Fault, times = 1): void {
		this.faults.push({ route, fault, times, hits: 0 });
	}

	clearFaults(): void {
		this.faults = [];
		this.randomFaults = null;
	}

	/**
	 * From now on each API request (not the token endpoint) gets one of `faults` with probability
	 * `rate`, drawn from a generator seeded with `seed`, so a soak run can be repeated exactly.
	 */
	injectRandomFaults(rate: number, faults: Fault[], seed: number): void {
		this.randomFaults = { rate, faults, next: mulberry32(seed) };
	}

	/** How many things were created: duplicates here mean a create was processed twice. */
	createdCounts(): { exports: number; documents: number; reindexes: number; tokens: number } {
		let documents = 0;
		for (const tx of this.transactions.values()) documents += tx.documents.length;
		return {
			exports: this.exports.size,
			documents,
			reindexes: this.reindexOps.size,
			tokens: this.tokenSerial,
		};
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

	clearLog(): void {
		this.requests.length = 0;
	}

	/** Requests that reached a route (the token endpoint included), optionally one route only. */
	requestsTo(route?: RouteId): LoggedRequest[] {
		return this.requests.filter((r) => (route ? r.route === route : r.route !== null));
	}

	/** Invalidate every issued token, as when they expire: the next API call gets 401. */
	revokeTokens(): void {
		for (const token of this.tokens.values()) token.revoked = true;
	}

	/** Every access token issued so far, for "no secret leaked" assertions. */
	issuedTokens(): string[] {
		return [...this.tokens.keys()];
	}

	setTokenLifetime(seconds: number): void {
		this.options.tokenLifetimeSeconds = seconds;
	}

	setLatency(ms: number): void {
		this.options.latencyMs = ms;
	}

	/** The next created export follows this script (queued, first in first out). */
	scriptNextExport(script: ExportScript): void {
		this.exportScripts.push(script);
	}

	/** Every export created without a queued script follows this one. */
	setDefaultExportScript(script: ExportScript): void {
		this.defaultExportScript = script;
	}

	/** Force an export into a status now (e.g. to measure how fast a waiting client notices). */
	setExportStatus(requestId: string, status: S.ReportRequestStatus): void {
		const record = this.exports.get(requestId);
		if (!record) throw new Error(`no export ${requestId}`);
		record.forced = status;
	}

	/** A Succeeded export with one small file, owned by the fixture user, created directly. */
	createFinishedExport(owner: string = FIXTURE.username): string {
		const requestId = randomUUID();
		this.exports.set(requestId, {
			requestId,
			owner,
			createdUtc: new Date().toISOString(),
			completedUtc: new Date().toISOString(),
			correlationId: randomUUID(),
			filters: { startDate: '2025-11-01T00:00:00Z' },
			sendEmailNotification: false,
			script: {
				path: ['Succeeded'],
				advanceEvery: { polls: 1 },
				files: [sampleCsv(1, requestId.slice(0, 8))],
			},
			polls: 0,
			createdAt: Date.now(),
		});
		return requestId;
	}

	exportIds(): string[] {
		return [...this.exports.keys()];
	}

	scriptNextReindex(script: ReindexScript): void {
		this.reindexScripts.push(script);
	}

	setDefaultReindexScript(script: ReindexScript): void {
		this.defaultReindexScript = script;
	}

	addSkill(skill: z.infer<typeof S.SkillListItemDto>): void {
		this.skills.set(skill.id, skill);
	}

	/** Create a transaction directly (as another client would), returning its id. */
	createTransaction(skillId: string): string {
		const id = randomUUID();
		this.transactions.set(id, { id, skillId, status: 'New', documents: [] });
		return id;
	}

	transaction(id: string): TransactionRecord | undefined {
		return this.transactions.get(id);
	}

	addCatalog(
		name: string,
		columns: Array<z.infer<typeof S.ColumnDto>> = [
			{ name: 'Name', type: 'Text', notEmpty: true },
			{ name: 'Country', type: 'Text', notEmpty: false },
		],
	): void {
		this.catalogs.set(name, { id: name, name, columns, records: new Map() });
	}

	/** Seed records `prefix0 … prefix{count-1}` (or the given ids) into a catalog. */
	seedRecords(catalogId: string, ids: Iterable<string>): void {
		const catalog = this.catalogs.get(catalogId);
		if (!catalog) throw new Error(`no catalog ${catalogId}`);
		for (const id of ids) catalog.records.set(id, { Name: [id] });
	}

	recordIds(catalogId: string): string[] {
		return [...(this.catalogs.get(catalogId)?.records.keys() ?? [])];
	}

	// ------------------------------------------------------------ request handling

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const rawUrl = req.url ?? '/';
		const q = rawUrl.indexOf('?');
		const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
		const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));

		let rawBody: Buffer;
		try {
			rawBody = await readBody(req);
		} catch {
			return this.send(res, null, { status: 413, empty: true });
		}

		if (rawPath.startsWith('/__simulator/')) return this.handleControl(req, res, rawPath, rawBody);

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
		try {
			await this.handleApi(req, res, entry, rawPath, rawBody, query);
		} finally {
			entry.finishedAt = Date.now();
		}
	}

	private async handleApi(
		req: IncomingMessage,
		res: ServerResponse,
		entry: LoggedRequest,
		rawPath: string,
		rawBody: Buffer,
		query: URLSearchParams,
	): Promise<void> {
		let route: Route | null = null;
		try {
			const match = this.match(entry.method, rawPath);
			route = match?.route ?? null;
			if (match) {
				entry.route = match.route.id;
				entry.params = match.params;
			}
			entry.body = this.options.logBodies
				? logBody(req, rawBody, route?.id === 'Token')
				: '(not logged)';
			const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
			const token = bearer ? this.tokens.get(bearer) : undefined;
			entry.tokenSerial = token?.serial ?? null;

			const fault = this.takeFault(route?.id ?? null);
			if (fault) entry.fault = fault.kind;
			if (fault?.kind === 'delay') await sleep(fault.ms);
			if (this.options.latencyMs > 0 && route?.id !== 'Token') await sleep(this.options.latencyMs);
			if (fault?.kind === 'reset' && !fault.after) {
				entry.status = 0;
				req.socket.destroy();
				return;
			}
			if (fault?.kind === 'status') {
				const headers: Record<string, string> = {};
				if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
				if (fault.status === 401) headers['www-authenticate'] = 'Bearer';
				throw new HttpProblem(
					fault.status,
					fault.body === undefined
						? fault.status === 401
							? null
							: {
									title: 'Simulated fault',
									status: fault.status,
									detail: `Simulated ${fault.status}`,
								}
						: (fault.body as Record<string, unknown> | null),
					headers,
				);
			}

			if (!match) throw notFound(`No route for ${entry.method} ${rawPath}`);
			const ctx: RequestContext = {
				req,
				params: match.params,
				query,
				rawBody,
				token: null,
				user: null,
				route: match.route,
			};
			if (!match.route.anonymous) this.authorize(ctx, token);
			const reply = await match.route.handler(ctx);

			if (fault?.kind === 'reset') {
				entry.status = 0;
				req.socket.destroy();
				return;
			}
			if (fault?.kind === 'malformedJson') {
				entry.status = 200;
				res.writeHead(200, { 'content-type': this.options.jsonContentType });
				res.end('{"requestId": "7c1e');
				return;
			}
			entry.status = reply.status;
			this.send(res, match.route, reply);
		} catch (error) {
			if (error instanceof HttpProblem) {
				entry.status = error.status;
				const body =
					error.body && route?.reporting
						? { ...error.body, status: String(error.status) }
						: error.body;
				this.send(
					res,
					route,
					body ? { status: error.status, json: body } : { status: error.status, empty: true },
					error.headers,
				);
				return;
			}
			entry.status = 500;
			this.send(res, route, {
				status: 500,
				json: { title: 'Internal Server Error', status: 500, detail: String(error) },
			});
		}
	}

	private send(
		res: ServerResponse,
		_route: Route | null,
		reply: Reply,
		headers: Record<string, string> = {},
	): void {
		if ('json' in reply) {
			const text = JSON.stringify(reply.json);
			res.writeHead(reply.status, {
				...headers,
				'content-type': this.options.jsonContentType,
				'content-length': Buffer.byteLength(text),
			});
			res.end(text);
		} else if ('bytes' in reply) {
			res.writeHead(reply.status, {
				...headers,
				'content-type': reply.contentType,
				'content-length': reply.bytes.length,
			});
			res.end(reply.bytes);
		} else {
			res.writeHead(reply.status, { ...headers, 'content-length': 0 });
			res.end();
		}
	}

	private takeFault(route: RouteId | null): Fault | null {
		const rule = this.faults.find(
			(f) => (f.route === '*' ? route !== 'Token' : f.route === route) && f.hits < f.times,
		);
		if (rule) {
			rule.hits++;
			return rule.fault;
		}
		const random = this.randomFaults;
		if (random && route !== null && route !== 'Token' && random.next() < random.rate) {
			return random.faults[Math.floor(random.next() * random.faults.length)];
		}
		return null;
	}

	private match(
		method: string,
		rawPath: string,
	): { route: Route; params: Record<string, string> } | null {
		const segments = rawPath.split('/').slice(1);
		for (const route of this.routes) {
			if (route.method !== method || route.segments.length !== segments.length) continue;
			const params: Record<string, string> = {};
			let ok = true;
			for (let i = 0; i < segments.length && ok; i++) {
				const pattern = route.segments[i];
				if (pattern.startsWith(':')) {
					let value: string;
					try {
						value = decodeURIComponent(segments[i]);
					} catch {
						throw problem(
							400,
							'Bad Request',
							`Malformed percent-encoding in path segment "${segments[i]}".`,
						);
					}
					if (value === '') ok = false;
					else params[pattern.slice(1)] = value;
				} else if (pattern !== segments[i]) {
					ok = false;
				}
			}
			if (ok) return { route, params };
		}
		return null;
	}

	private authorize(ctx: RequestContext, token: Token | undefined): void {
		if (!token || token.revoked || token.expiresAt <= Date.now()) {
			throw new HttpProblem(401, null, {
				'www-authenticate': token
					? 'Bearer error="invalid_token", error_description="The token expired"'
					: 'Bearer',
			});
		}
		ctx.token = token;
		ctx.user = this.options.users.find((u) => u.username === token.username) ?? null;
	}

	private json<T extends z.ZodType>(ctx: RequestContext, schema: T): z.infer<T> {
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

	private respond<T extends z.ZodType>(status: number, schema: T, value: z.infer<T>): Reply {
		// The simulator checks its own answers against the vendor contract too.
		return { status, json: schema.parse(value) };
	}

	// ------------------------------------------------------------ routes

	private buildRoutes(): Route[] {
		const r = (
			id: RouteId,
			method: string,
			path: string,
			handler: Handler,
			extra: Partial<Route> = {},
		): Route => ({ id, method, segments: path.split('/').slice(1), handler, ...extra });
		const reporting = { reporting: true };
		return [
			r('Token', 'POST', '/auth2/connect/token', (c) => this.token(c), { anonymous: true }),
			r('Token', 'POST', '/auth2/:tenantId/connect/token', (c) => this.token(c), {
				anonymous: true,
			}),
			r(
				'CreateTransactionStepsExportRequest',
				'POST',
				'/api/reporting/v2/exports/transaction-steps',
				(c) => this.createExport(c),
				reporting,
			),
			r(
				'ListExportRequests',
				'GET',
				'/api/reporting/v2/exports/transaction-steps',
				(c) => this.listExports(c),
				reporting,
			),
			r(
				'GetExportStatus',
				'GET',
				'/api/reporting/v2/exports/transaction-steps/:requestId/status',
				(c) => this.exportStatus(c),
				reporting,
			),
			r(
				'GetExportResult',
				'GET',
				'/api/reporting/v2/exports/transaction-steps/:requestId/result/:fileIndex',
				(c) => this.exportResult(c),
				reporting,
			),
			r('GetAvailableSkills', 'GET', '/api/publicapi/v1/skills', () =>
				this.respond(200, S.SkillListItemDto.array(), [...this.skills.values()]),
			),
			r('CreateTransaction', 'POST', '/api/publicapi/v1/transactions', (c) =>
				this.createTransactionRoute(c),
			),
			r('GetTransactionInfo', 'GET', '/api/publicapi/v1/transactions/:transactionId', (c) =>
				this.getTransaction(c),
			),
			r(
				'CreateTransactionDocument',
				'POST',
				'/api/publicapi/v1/transactions/:transactionId/documents',
				(c) => this.addDocument(c),
			),
			r('GetCatalogs', 'GET', '/api/publicapi/v1/catalogs', () =>
				this.respond(
					200,
					S.CatalogListItemDto.array(),
					[...this.catalogs.values()].map((c) => ({ id: c.id, name: c.name })),
				),
			),
			r('GetCatalog', 'GET', '/api/publicapi/v1/catalogs/:catalogId', (c) => {
				const catalog = this.catalog(c);
				return this.respond(200, S.CatalogDto, {
					id: catalog.id,
					name: catalog.name,
					columns: catalog.columns,
					rowCount: catalog.records.size,
				});
			}),
			r('AddRecords', 'POST', '/api/publicapi/v1/catalogs/:catalogId/records', (c) =>
				this.addRecords(c),
			),
			r('GetRecords', 'GET', '/api/publicapi/v1/catalogs/:catalogId/records', (c) =>
				this.getRecords(c),
			),
			r('DeleteRecords', 'POST', '/api/publicapi/v1/catalogs/:catalogId/records/delete', (c) =>
				this.deleteRecords(c),
			),
			r('StartCatalogReindex', 'POST', '/api/publicapi/v1/catalogs/:catalogId/reindex', (c) =>
				this.startReindex(c),
			),
			r(
				'GetReindexOperation',
				'GET',
				'/api/publicapi/v1/catalogs/:catalogId/reindex/:operationId',
				(c) => this.getReindex(c),
			),
		];
	}

	/** OAuth2 token endpoint, IdentityServer style (RFC 6749 §5.2 errors). */
	private token(ctx: RequestContext): Reply {
		const oauthError = (status: number, error: string, description?: string) =>
			new HttpProblem(status, {
				error,
				...(description ? { error_description: description } : {}),
			});
		const type = (ctx.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		if (type !== 'application/x-www-form-urlencoded') {
			throw oauthError(
				400,
				'invalid_request',
				'The request body must be application/x-www-form-urlencoded',
			);
		}
		const form = new URLSearchParams(ctx.rawBody.toString('utf8'));
		const client = this.options.clients.find((c) => c.clientId === form.get('client_id'));
		if (!client || client.clientSecret !== form.get('client_secret'))
			throw oauthError(400, 'invalid_client');
		const grantType = form.get('grant_type');
		if (grantType !== 'password') throw oauthError(400, 'unsupported_grant_type');
		const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
		const unknownScope = scopes.find((s) => !ALLOWED_SCOPES.has(s));
		if (unknownScope) throw oauthError(400, 'invalid_scope', `Invalid scope: ${unknownScope}`);
		const user = this.options.users.find((u) => u.username === form.get('username'));
		if (!user || user.password !== form.get('password')) {
			throw oauthError(400, 'invalid_grant', 'invalid_username_or_password');
		}
		const tenantId = ctx.params.tenantId ?? null;
		if (tenantId !== null && !user.tenants.includes(tenantId)) {
			throw oauthError(400, 'invalid_grant', 'invalid_username_or_password');
		}
		if (tenantId === null && user.tenants.length > 1) {
			// Inferred: the vendor says the tenant endpoint is needed when one e-mail has several tenants.
			throw oauthError(
				400,
				'invalid_grant',
				'The user belongs to several tenants; use the tenant-specific token endpoint',
			);
		}
		const accessToken = randomBytes(24).toString('base64url');
		const lifetime = this.options.tokenLifetimeSeconds;
		this.tokens.set(accessToken, {
			serial: ++this.tokenSerial,
			username: user.username,
			tenantId: tenantId ?? user.tenants[0],
			expiresAt: Date.now() + lifetime * 1000,
			revoked: false,
		});
		return {
			status: 200,
			json: {
				access_token: accessToken,
				expires_in: lifetime,
				token_type: 'Bearer',
				scope: scopes.length ? scopes.join(' ') : FIXTURE.scope,
			},
		};
	}

	private requireReportingRole(ctx: RequestContext): SimUser {
		const user = ctx.user;
		if (!user || !user.roles.some((role) => REPORTING_ROLES.includes(role))) {
			throw problem(
				403,
				'Forbidden',
				'Only Tenant Administrators and Processing Supervisors can access reports.',
			);
		}
		return user;
	}

	private createExport(ctx: RequestContext): Reply {
		const user = this.requireReportingRole(ctx);
		const body = this.json(ctx, S.CreateTransactionStepsCsvRequest);
		const script = this.exportScripts.shift() ?? this.defaultExportScript;
		const requestId = randomUUID();
		this.exports.set(requestId, {
			requestId,
			owner: user.username,
			createdUtc: new Date().toISOString(),
			completedUtc: null,
			correlationId: randomUUID(),
			filters: body.filters ?? null,
			sendEmailNotification: body.sendEmailNotification ?? false,
			script: {
				path: script.path ?? ['New', 'Queued', 'Processing', 'Succeeded'],
				advanceEvery: script.advanceEvery ?? { polls: 1 },
				files: script.files ?? [sampleCsv(3, requestId.slice(0, 8))],
			},
			polls: 0,
			createdAt: Date.now(),
		});
		return this.respond(200, S.CreateReportRequestResponse, { requestId });
	}

	private exportState(record: ExportRecord): S.ReportRequestStatus {
		if (record.forced) return record.forced;
		const { path, advanceEvery } = record.script;
		const step =
			'polls' in advanceEvery
				? Math.floor(record.polls / Math.max(1, advanceEvery.polls))
				: Math.floor((Date.now() - record.createdAt) / Math.max(1, advanceEvery.ms));
		return path[Math.min(step, path.length - 1)];
	}

	private exportView(record: ExportRecord) {
		const status = this.exportState(record);
		const terminal = status === 'Succeeded' || status === 'Failed' || status === 'Cancelled';
		if (terminal && !record.completedUtc) record.completedUtc = new Date().toISOString();
		return {
			status,
			totalFileCount: status === 'Succeeded' ? String(record.script.files.length) : null,
			correlationId: record.correlationId,
			filters: record.filters,
		};
	}

	private findExport(ctx: RequestContext): ExportRecord {
		const user = this.requireReportingRole(ctx);
		const record = this.exports.get(ctx.params.requestId.toLowerCase());
		if (!record || record.owner !== user.username) throw notFound('Report request not found');
		return record;
	}

	private exportStatus(ctx: RequestContext): Reply {
		const record = this.findExport(ctx);
		const view = this.exportView(record);
		record.polls++;
		return this.respond(200, S.ReportRequestStatusResponse, view);
	}

	private listExports(ctx: RequestContext): Reply {
		const user = this.requireReportingRole(ctx);
		const statuses = ctx.query.getAll('statusFilter');
		const requests = [...this.exports.values()]
			.filter((e) => e.owner === user.username)
			.map((e) => ({
				...this.exportView(e),
				requestId: e.requestId,
				createdUtc: e.createdUtc,
				completedUtc: e.completedUtc,
			}))
			.filter((e) => statuses.length === 0 || statuses.includes(e.status))
			.map((e) => {
				// The list item has no correlationId (ListReportRequestsResponseReportRequestDto).
				delete (e as { correlationId?: string }).correlationId;
				return e;
			});
		return this.respond(200, S.ListReportRequestsResponse, { requests });
	}

	private exportResult(ctx: RequestContext): Reply {
		const record = this.findExport(ctx);
		if (!/^-?\d+$/.test(ctx.params.fileIndex)) {
			throw problem(400, 'One or more validation errors occurred.', undefined, {
				errors: { fileIndex: [`The value '${ctx.params.fileIndex}' is not valid.`] },
			});
		}
		const status = this.exportState(record);
		if (status !== 'Succeeded') {
			// Inferred: the vendor documents no error for this case.
			throw problem(
				400,
				'Bad Request',
				`The export request has not succeeded (status: ${status}).`,
			);
		}
		const file = record.script.files[Number(ctx.params.fileIndex)];
		if (file === undefined) throw notFound('Result file not found');
		return {
			status: 200,
			bytes: Buffer.from(file, 'utf8'),
			contentType: this.options.resultContentType,
		};
	}

	private createTransactionRoute(ctx: RequestContext): Reply {
		const body = this.json(ctx, S.TransactionCreateRequest);
		if (!this.skills.has(body.skillId)) {
			throw notFound('Skill with specified skillId not found or not published');
		}
		const transactionId = this.createTransaction(body.skillId);
		return this.respond(201, S.NewTransactionResult, {
			transactionId,
			...(body.generateMobileInputLink
				? { mobileInputLink: `${this.url}/mobile/${transactionId}` }
				: {}),
		});
	}

	private findTransaction(ctx: RequestContext): TransactionRecord {
		const tx = this.transactions.get(ctx.params.transactionId.toLowerCase());
		if (!tx) throw notFound('Transaction not found');
		return tx;
	}

	private getTransaction(ctx: RequestContext): Reply {
		const tx = this.findTransaction(ctx);
		return this.respond(200, S.TransactionDto, {
			id: tx.id,
			status: tx.status,
			documents: tx.documents.map((d) => ({ id: d.id })),
			sourceFiles: [],
		});
	}

	private addDocument(ctx: RequestContext): Reply {
		const tx = this.findTransaction(ctx);
		const body = this.json(ctx, S.TransactionDocumentCreateRequest);
		const skill = this.skills.get(tx.skillId);
		if (skill?.type !== 'Process' && tx.documents.length >= 1) {
			throw problem(400, 'Bad Request', 'Non-process skills allow only one document');
		}
		if (tx.status !== 'New')
			throw problem(400, 'Bad Request', 'Transaction has already been started');
		const documentId = randomUUID();
		tx.documents.push({
			id: documentId,
			index: body.index ?? null,
			imageProcessingOptions: body.imageProcessingOptions,
		});
		return this.respond(201, S.NewTransactionDocumentResult, { documentId });
	}

	private catalog(ctx: RequestContext): CatalogRecord {
		const catalog = this.catalogs.get(ctx.params.catalogId);
		if (!catalog) throw notFound('Catalog not found');
		return catalog;
	}

	private addRecords(ctx: RequestContext): Reply {
		const catalog = this.catalog(ctx);
		const records = this.json(ctx, S.AddRecordsRequest);
		const errorRows: Record<string, string[]> = {};
		let inserted = 0;
		for (const record of records) {
			const errors: string[] = [];
			for (const column of Object.keys(record.fields)) {
				if (!catalog.columns.some((c) => c.name === column))
					errors.push(`UnknownColumn Column: ${column}`);
			}
			for (const column of catalog.columns) {
				if (column.notEmpty && !(record.fields[column.name] ?? []).some((v) => v !== '')) {
					errors.push(`CannotBeEmpty Column: ${column.name}`);
				}
			}
			if (errors.length) errorRows[record.id] = errors;
			else {
				catalog.records.set(record.id, record.fields);
				inserted++;
			}
		}
		return this.respond(200, S.AddRecordsResultResult, { insertedRowCount: inserted, errorRows });
	}

	private getRecords(ctx: RequestContext): Reply {
		const catalog = this.catalog(ctx);
		const offset = Number(ctx.query.get('offset') ?? 0);
		const limit = Number(ctx.query.get('limit') ?? 1000);
		if (
			!Number.isInteger(offset) ||
			offset < 0 ||
			!Number.isInteger(limit) ||
			limit < 1 ||
			limit > 1000
		) {
			throw problem(400, 'One or more validation errors occurred.', undefined, {
				errors: { limit: ['offset must be ≥ 0 and limit between 1 and 1000.'] },
			});
		}
		const page = [...catalog.records.entries()]
			.slice(offset, offset + limit)
			.map(([id, fields]) => ({ id, fields }));
		return this.respond(200, S.RecordDto.array(), page);
	}

	private deleteRecords(ctx: RequestContext): Reply {
		const catalog = this.catalog(ctx);
		const ids = this.json(ctx, S.DeleteRecordsRequest);
		// Ids that do not exist are ignored; the vendor sends no per-record report.
		for (const id of ids) catalog.records.delete(id);
		return { status: 200, empty: true };
	}

	private startReindex(ctx: RequestContext): Reply {
		const catalog = this.catalog(ctx);
		const id = randomUUID();
		const result = {
			id,
			indexModelId: randomUUID(),
			workflowProcessingId: randomUUID(),
			created: new Date().toISOString(),
			completed: null,
			currentState: 'InProgress' as const,
		};
		this.reindexOps.set(id, {
			catalogId: catalog.id,
			result,
			script: this.reindexScripts.shift() ?? this.defaultReindexScript,
			polls: 0,
			startedAt: Date.now(),
		});
		return this.respond(200, S.ReindexOperationResult, result);
	}

	private getReindex(ctx: RequestContext): Reply {
		const catalog = this.catalog(ctx);
		const op = this.reindexOps.get(ctx.params.operationId.toLowerCase());
		if (!op || op.catalogId !== catalog.id) throw notFound('Reindex operation not found');
		const { outcome, after = { polls: 1 } } = op.script;
		const done = 'polls' in after ? op.polls >= after.polls : Date.now() - op.startedAt >= after.ms;
		op.polls++;
		if (done && outcome !== 'Never' && op.result.currentState === 'InProgress') {
			op.result = { ...op.result, currentState: outcome, completed: new Date().toISOString() };
		}
		return this.respond(200, S.ReindexOperationResult, op.result);
	}

	// ------------------------------------------------------------ HTTP control (for other processes)

	private handleControl(
		req: IncomingMessage,
		res: ServerResponse,
		path: string,
		rawBody: Buffer,
	): void {
		const body = rawBody.length
			? (JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>)
			: {};
		const ok = (value: unknown = { ok: true }) => {
			const text = JSON.stringify(value);
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(text);
		};
		try {
			switch (`${req.method} ${path}`) {
				case 'GET /__simulator/requests':
					return ok(this.requests);
				case 'DELETE /__simulator/requests':
					this.clearLog();
					return ok();
				case 'POST /__simulator/faults':
					this.injectFault(
						body.route as RouteId | '*',
						body.fault as Fault,
						body.times === 'always' ? Infinity : Number(body.times ?? 1),
					);
					return ok();
				case 'DELETE /__simulator/faults':
					this.clearFaults();
					return ok();
				case 'POST /__simulator/revoke-tokens':
					this.revokeTokens();
					return ok();
				case 'POST /__simulator/export-script':
					this.scriptNextExport(body as ExportScript);
					return ok();
				case 'POST /__simulator/default-export-script':
					this.setDefaultExportScript(body as ExportScript);
					return ok();
				case 'POST /__simulator/reindex-script':
					this.scriptNextReindex(body as unknown as ReindexScript);
					return ok();
				case 'POST /__simulator/catalogs':
					this.addCatalog(String(body.name));
					if (Array.isArray(body.recordIds))
						this.seedRecords(String(body.name), body.recordIds as string[]);
					return ok();
				case 'POST /__simulator/transactions':
					return ok({ transactionId: this.createTransaction(String(body.skillId)) });
				case 'POST /__simulator/exports': {
					// Many finished exports at once, owned by the fixture user (benchmarks).
					const ids: string[] = [];
					for (let i = 0; i < Number(body.count ?? 1); i++) ids.push(this.createFinishedExport());
					return ok({ requestIds: ids });
				}
				case 'POST /__simulator/latency':
					this.setLatency(Number(body.ms));
					return ok();
				case 'GET /__simulator/stats':
					return ok({ requests: this.stats(), created: this.createdCounts() });
				case 'GET /__simulator/state':
					return ok({
						catalogs: [...this.catalogs.values()].map((c) => ({
							id: c.id,
							recordCount: c.records.size,
						})),
						exports: [...this.exports.values()].map((e) => ({
							requestId: e.requestId,
							status: this.exportState(e),
						})),
						transactions: [...this.transactions.values()],
						tokensIssued: this.tokenSerial,
					});
				default:
					res.writeHead(404).end();
			}
		} catch (error) {
			res.writeHead(400, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: String(error) }));
		}
	}
}

// ---------------------------------------------------------------- helpers

/** A small seeded PRNG (mulberry32): the same seed gives the same fault sequence. */
function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY_BYTES) throw new Error('body too large');
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

function queryToObject(query: URLSearchParams): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const key of new Set(query.keys())) {
		const all = query.getAll(key);
		out[key] = all.length === 1 ? all[0] : all;
	}
	return out;
}

const SECRET_FORM_FIELDS = ['password', 'client_secret'];

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

function logBody(req: IncomingMessage, raw: Buffer, isToken: boolean): unknown {
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
