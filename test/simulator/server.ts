/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports --
 * Test infrastructure, never shipped: a real HTTP server needs node:http, timers and sockets. */
/**
 * The simulator's core: options, the loopback HTTP server, the request log, faults, the token
 * table and route matching. Areas under `./routes/` register their routes here; the core parses
 * each request, logs it, applies faults, checks the Bearer token and sends the handler's reply.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { FaultTable, type Fault } from './faults';
import { defaultUsers, FIXTURE, type SimClient, type SimUser } from './fixture';
import {
	AUTH_ROUTES,
	bare,
	HttpProblem,
	notFound,
	problem,
	type Reply,
	type RequestContext,
	type Route,
} from './http';
import { logBody, RequestLog, type LoggedRequest } from './log';
import { TokenTable, type Token } from './tokens';

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
	/** How long a deleted transaction stays readable before it answers 404 (vendor: asynchronous). */
	deleteGraceMs?: number;
	/**
	 * What AddFilesToTransaction answers: 'empty' (the OpenAPI document: 200, empty body) or 'list'
	 * (docs.abbyy.com's variant: a JSON array of {id, name} of the added files). Clients must accept both.
	 */
	filesResponse?: 'empty' | 'list';
	/** Largest upload request body; bigger ones get 413 (vendor: 2 GB). */
	maxUploadBytes?: number;
	/**
	 * Records one catalog may hold (vendor: 500 000); AddRecords rejects the rows beyond with
	 * `CatalogIsFull`.
	 */
	maxRecordsPerCatalog?: number;
	/**
	 * What AddRecords does with an id the catalog already holds, which the vendor does not document:
	 * 'replace' (default) the record in place, or 'reject' the row (`RecordAlreadyExists Id: <id>`).
	 */
	recordUpsert?: 'replace' | 'reject';
	/**
	 * A rate limit on concurrency, as a gateway in front of the service might apply: an API request
	 * (not the token endpoint) that arrives while `maxInFlight` others are being handled is refused
	 * with 429 (and `Retry-After` when given). Null (default): no limit.
	 */
	rateLimit?: RateLimit | null;
	/**
	 * The columns of each QA report: 'full' (default; see processing/qa.ts) or 'example', exactly
	 * the columns of the OpenAPI document's example, which it calls a subset.
	 */
	qaColumns?: { documents?: QaColumnSet; fields?: QaColumnSet };
}

export type QaColumnSet = 'full' | 'example';

export interface RateLimit {
	/** Requests handled at the same time; one more is refused. */
	maxInFlight: number;
	/** The Retry-After header of the refusals (delta-seconds or an HTTP date); none if absent. */
	retryAfter?: string;
}

export type ResolvedOptions = Required<Omit<SimulatorOptions, 'port' | 'host' | 'qaColumns'>> & {
	qaColumns: { documents: QaColumnSet; fields: QaColumnSet };
	host: string;
	port: number;
};

/** Answers `/__simulator/*` requests (see `./control.ts`); they are not logged. */
export type ControlHandler = (
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	rawBody: Buffer,
) => void;

/** Kestrel's default maximum request body size. */
const MAX_BODY_BYTES = 30_000_000;

export class SimulatorCore {
	readonly options: ResolvedOptions;
	readonly log = new RequestLog();
	readonly faults = new FaultTable();
	readonly tokens = new TokenTable();
	private readonly routes: Route[] = [];
	private server: Server | null = null;
	private readonly sockets = new Set<Socket>();
	/** API requests still to arrive before every access token expires (see `expireTokensAfter`). */
	private expiryCountdown: number | null = null;
	/** API requests being handled now (refusals and the token endpoint not counted). */
	private inFlightNow = 0;
	private inFlightPeak = 0;

	constructor(
		options: SimulatorOptions,
		private readonly control: ControlHandler,
	) {
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
			deleteGraceMs: options.deleteGraceMs ?? 100,
			filesResponse: options.filesResponse ?? 'empty',
			maxUploadBytes: options.maxUploadBytes ?? 2 * 1024 ** 3,
			maxRecordsPerCatalog: options.maxRecordsPerCatalog ?? 500_000,
			recordUpsert: options.recordUpsert ?? 'replace',
			rateLimit: options.rateLimit ?? null,
			qaColumns: {
				documents: options.qaColumns?.documents ?? 'full',
				fields: options.qaColumns?.fields ?? 'full',
			},
		};
	}

	/** Add an area's routes; the first route whose method and path match handles a request. */
	register(routes: Route[]): void {
		this.routes.push(...routes);
	}

	routeIds(): Route['id'][] {
		return this.routes.map((r) => r.id);
	}

	/** API requests being handled now, and the most at once since the last `resetInFlightPeak`. */
	inFlight(): { now: number; peak: number } {
		return { now: this.inFlightNow, peak: this.inFlightPeak };
	}

	/**
	 * Every access token issued so far expires as the `requests`-th API request from now arrives:
	 * that request and every one still being handled (they check their token after the simulated
	 * latency) or sent after it get 401, as when a token runs out in the middle of a run.
	 */
	expireTokensAfter(requests: number): void {
		if (!Number.isInteger(requests) || requests < 1)
			throw new Error(`requests must be a whole number of at least 1, not ${requests}`);
		this.expiryCountdown = requests;
	}

	resetInFlightPeak(): void {
		this.inFlightPeak = this.inFlightNow;
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

	// ------------------------------------------------------------ request handling

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const rawUrl = req.url ?? '/';
		const q = rawUrl.indexOf('?');
		const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
		const query = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));

		if (rawPath.startsWith('/__simulator/')) {
			let body: Buffer;
			try {
				body = await readBody(req);
			} catch {
				return this.send(res, { status: 413, empty: true });
			}
			return this.control(req, res, rawPath, body);
		}

		const entry = this.log.begin(req, rawPath, query);
		const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
		res.writeHead = ((...args: unknown[]) => {
			entry.respondedAt ??= Date.now();
			return writeHead(...args);
		}) as typeof res.writeHead;
		try {
			await this.handleApi(req, res, entry, rawPath, query);
		} finally {
			entry.finishedAt = Date.now();
		}
	}

	private async handleApi(
		req: IncomingMessage,
		res: ServerResponse,
		entry: LoggedRequest,
		rawPath: string,
		query: URLSearchParams,
	): Promise<void> {
		let route: Route | null = null;
		let admitted = false;
		try {
			const match = this.match(entry.method, rawPath);
			route = match?.route ?? null;
			if (match) {
				entry.route = match.route.id;
				entry.params = match.params;
			}
			const authRoute = route !== null && AUTH_ROUTES.has(route.id);
			if (!authRoute) {
				const limit = this.options.rateLimit;
				if (limit && this.inFlightNow >= limit.maxInFlight) {
					await this.refuseForLoad(req, entry, limit);
				}
				admitted = true;
				if (this.expiryCountdown !== null && --this.expiryCountdown === 0) {
					this.expiryCountdown = null;
					this.tokens.expireAll();
				}
				this.inFlightNow++;
				this.inFlightPeak = Math.max(this.inFlightPeak, this.inFlightNow);
			}
			// Streaming routes (uploads) read the body themselves and log a summary of it.
			let rawBody: Buffer = Buffer.alloc(0);
			if (!route?.stream) {
				try {
					rawBody = await readBody(req);
				} catch {
					throw bare(413);
				}
			}
			entry.body = this.options.logBodies ? logBody(req, rawBody, authRoute) : '(not logged)';
			const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
			const token = bearer ? this.tokens.find(bearer) : undefined;
			entry.tokenSerial = token?.serial ?? null;

			const fault = this.faults.take(route?.id ?? null);
			if (fault) entry.fault = fault.kind;
			if (fault?.kind === 'delay') await sleep(fault.ms);
			if (this.options.latencyMs > 0 && !authRoute) await sleep(this.options.latencyMs);
			if (fault?.kind === 'reset' && !fault.after && fault.afterBytes === undefined) {
				entry.status = 0;
				req.socket.destroy();
				return;
			}
			if (fault?.kind === 'status') throw faultProblem(fault);

			if (!match) throw notFound(`No route for ${entry.method} ${rawPath}`);
			const ctx: RequestContext = {
				req,
				params: match.params,
				query,
				rawBody,
				token: null,
				user: null,
				route: match.route,
				logBody: (body) => {
					if (this.options.logBodies) entry.body = body;
				},
			};
			if (!match.route.anonymous) this.authorize(ctx, token);
			const reply = await match.route.handler(ctx);

			if (fault?.kind === 'reset' && !('stream' in reply && fault.afterBytes !== undefined)) {
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
			if ('stream' in reply) {
				const cut =
					fault?.kind === 'reset' && fault.afterBytes !== undefined
						? { at: fault.afterBytes, stall: false }
						: fault?.kind === 'stall'
							? { at: fault.afterBytes, stall: true }
							: undefined;
				const stream = fault?.kind === 'garble' ? garbled(reply.stream, fault) : reply.stream;
				await this.sendStream(req, res, { ...reply, stream }, cut);
				return;
			}
			this.send(res, reply);
		} catch (error) {
			if (error instanceof HttpProblem) {
				entry.status = error.status;
				const body =
					error.body && route?.reporting
						? { ...error.body, status: String(error.status) }
						: error.body;
				this.send(
					res,
					body ? { status: error.status, json: body } : { status: error.status, empty: true },
					error.headers,
				);
				return;
			}
			entry.status = 500;
			this.send(res, {
				status: 500,
				json: { title: 'Internal Server Error', status: 500, detail: String(error) },
			});
		} finally {
			if (admitted) this.inFlightNow--;
		}
	}

	/**
	 * Refuse a request over the rate limit: its body is discarded unread, and the 429 takes the
	 * simulated latency like any answer (it is a network round trip), then throws the problem.
	 */
	private async refuseForLoad(
		req: IncomingMessage,
		entry: LoggedRequest,
		limit: RateLimit,
	): Promise<never> {
		entry.rateLimited = true;
		entry.body = '(refused unread)';
		req.resume();
		if (this.options.latencyMs > 0) await sleep(this.options.latencyMs);
		throw new HttpProblem(
			429,
			{
				title: 'Too Many Requests',
				status: 429,
				detail: `More than ${limit.maxInFlight} requests at the same time`,
			},
			limit.retryAfter !== undefined ? { 'retry-after': limit.retryAfter } : {},
		);
	}

	private send(res: ServerResponse, reply: Reply, headers: Record<string, string> = {}): void {
		if ('json' in reply) {
			const text = JSON.stringify(reply.json);
			res.writeHead(reply.status, {
				// A problem may name its own content type (downloads declare application/octet-stream).
				'content-type': this.options.jsonContentType,
				...headers,
				'content-length': Buffer.byteLength(text),
			});
			res.end(text);
		} else if ('bytes' in reply) {
			res.writeHead(reply.status, {
				...headers,
				...reply.headers,
				'content-type': reply.contentType,
				'content-length': reply.bytes.length,
			});
			res.end(reply.bytes);
		} else {
			res.writeHead(reply.status, { ...headers, 'content-length': 0 });
			res.end();
		}
	}

	/**
	 * A streamed body: chunks written as the client takes them (the generator runs only as fast as
	 * the client reads). A `cut` fault sends `at` bytes, then destroys the connection, or with
	 * `stall` sends nothing more until the client goes away. A client that goes away stops the
	 * generator.
	 */
	private async sendStream(
		req: IncomingMessage,
		res: ServerResponse,
		reply: Extract<Reply, { stream: unknown }>,
		cut?: { at: number; stall: boolean },
	): Promise<void> {
		res.writeHead(reply.status, { 'content-type': reply.contentType });
		let sent = 0;
		let closed = false;
		const gone = new Promise<void>((resolve) => res.on('close', resolve));
		res.on('close', () => (closed = true));
		const breakOff = async () => {
			if (cut?.stall) await gone;
			else {
				// Let the bytes leave before the connection goes.
				await new Promise((resolve) => setTimeout(resolve, 20));
				req.socket.destroy();
			}
		};
		for (const piece of reply.stream) {
			if (closed) return;
			let chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
			if (cut && sent + chunk.length >= cut.at) {
				chunk = chunk.subarray(0, Math.max(0, cut.at - sent));
				if (chunk.length) res.write(chunk);
				await breakOff();
				return;
			}
			sent += chunk.length;
			if (!res.write(chunk)) {
				await new Promise<void>((resolve) => {
					const done = () => {
						res.off('drain', done);
						res.off('close', done);
						resolve();
					};
					res.on('drain', done);
					res.on('close', done);
				});
			}
		}
		if (cut && !closed) {
			// The whole body was shorter than the cut: break off at its end instead.
			await breakOff();
			return;
		}
		if (!closed) await new Promise<void>((resolve) => res.end(resolve));
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
}

/** The answer to a `status` fault: its body, or a small ProblemDetails; 401 comes bare. */
function faultProblem(fault: Extract<Fault, { kind: 'status' }>): HttpProblem {
	const headers: Record<string, string> = {};
	if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
	if (fault.status === 401) headers['www-authenticate'] = 'Bearer';
	const body =
		fault.body !== undefined
			? (fault.body as Record<string, unknown> | null)
			: fault.status === 401
				? null
				: { title: 'Simulated fault', status: fault.status, detail: `Simulated ${fault.status}` };
	return new HttpProblem(fault.status, body, headers);
}

async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	// Keep the request alive on overflow: the rest is discarded so that the 413 reaches the client.
	for await (const chunk of req.iterator({ destroyOnReturn: false })) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY_BYTES) {
			req.resume();
			throw new Error('body too large');
		}
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** The body of a `garble` fault: the real body up to the cut, then the fault's bytes, then the end. */
function* garbled(
	stream: Iterable<string | Buffer>,
	fault: Extract<Fault, { kind: 'garble' }>,
): Generator<Buffer> {
	let keep = fault.afterBytes ?? Infinity;
	let lines = fault.afterLines ?? Infinity;
	for (const piece of stream) {
		const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
		let end = Math.min(chunk.length, keep);
		for (let at = 0; lines > 0 && at < end; ) {
			const lf = chunk.indexOf(0x0a, at);
			if (lf === -1 || lf >= end) break;
			at = lf + 1;
			if (--lines === 0) end = at;
		}
		yield chunk.subarray(0, end);
		keep -= end;
		if (end < chunk.length || keep <= 0 || lines <= 0) break;
	}
	if (fault.text) yield Buffer.from(fault.text, 'utf8');
	if (fault.base64) yield Buffer.from(fault.base64, 'base64');
}
