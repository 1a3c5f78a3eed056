/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports --
 * Test infrastructure, never shipped: worker threads, timers and node:http(s) run the scripts. */
/**
 * Runs Custom-activity scripts as Vantage does, for the simulator (./activities.ts) and the
 * script's own tests (test/customActivity/): each run in Node's `vm` inside a worker thread
 * (./worker.js) with a `Context` of the documented members only, `HttpRequest.Send()`
 * synchronous (the worker blocks on `Atomics.wait` while this thread sends the request), and the
 * limits of the object-model page (docs.abbyy.com/vantage/documentation/skill-designer/process/
 * custom-activity/object-model): runtime 600 s × pages, HTTP requests 200 × pages. Memory is
 * capped per worker; the expression, recursion and array-size limits are not simulated.
 *
 * HTTPS only, as Vantage (a certificate of OpenSSL security level 2: the Custom activity page),
 * except that `allowPlainHttpOnLoopback` lets tests call http://127.0.0.1 and friends: a
 * deliberate deviation, so that tests and the e2e suite need no certificates.
 */
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

export interface RunOptions {
	/**
	 * Test-only: real time per simulated time. 0.001 makes HttpRequest.Timeout's minute 60 ms and
	 * the runtime limit 600 ms per page, and the script's clock (Date) runs 1000 times as fast.
	 * Default 1.
	 */
	timeScale?: number;
	/** Let the script call plain http:// on a loopback address (tests only; Vantage: HTTPS only). */
	allowPlainHttpOnLoopback?: boolean;
	/** Certificates (PEM) to trust besides Node's own, for HTTPS tests. */
	trustedCertificates?: string[];
	/** What GetSecret does for a name the tenant does not hold (undocumented): default 'throw'. */
	missingSecret?: 'null' | 'throw';
	/** What reading an absent registration parameter does (undocumented): default 'undefined'. */
	missingRegistrationParameter?: 'undefined' | 'throw';
}

export interface ScriptInput {
	source: string;
	transaction: {
		id: string;
		documentIds: string[];
		registrationParameters: Array<{ key: string; value: string }>;
	};
	/** The tenant's secrets (Configuration → Environment Variables), by name. */
	secrets: Record<string, string>;
	/** Pages in the transaction: the limits are per page (at least 1). */
	pages: number;
	options?: RunOptions;
	/** Each Context.LogMessage line as the script writes it. */
	onLog?: (line: string) => void;
}

export interface SentRequest {
	url: string;
	method: string;
	headers: Record<string, string>;
	body: string | null;
	startedAt: number;
	/** Until the answer or the failure. */
	ms: number;
	status?: number;
	responseText?: string;
	/** Why there was no answer (time-out, refused address, connection failure, request limit). */
	error?: string;
}

export interface ScriptResult {
	/** `failed`: Vantage would interrupt the transaction with `error` (Skill Monitor shows it). */
	outcome: 'completed' | 'failed';
	error?: string;
	log: string[];
	requests: SentRequest[];
	startedAt: number;
	finishedAt: number;
}

/** Vantage's defaults (object-model page), per page of the transaction. */
export const RUNTIME_SECONDS_PER_PAGE = 600;
export const HTTP_REQUESTS_PER_PAGE = 200;
/** The object-model page's memory limit, applied to each worker. */
const MEMORY_MB = 500;
/** The most of an answer kept as ResponseText. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

interface Reply {
	status?: number;
	reason?: string;
	text?: string;
	type?: string | null;
	error?: string;
}

interface Run {
	id: number;
	input: ScriptInput;
	options: Required<Omit<RunOptions, 'trustedCertificates'>> & { trustedCertificates: string[] };
	result: ScriptResult;
	pages: number;
	maxRequests: number;
	/** Set when a limit was exceeded: the run fails even if the script caught the error. */
	limitExceeded: string | null;
	inFlight: Set<AbortController>;
	resolve: (result: ScriptResult) => void;
	watchdog: NodeJS.Timeout | null;
}

interface Slot {
	worker: Worker;
	replies: MessagePort;
	counter: Int32Array;
	run: Run | null;
}

type FromWorker =
	| { type: 'log'; runId: number; message: string }
	| { type: 'done'; runId: number; outcome: 'completed' | 'failed'; error?: string }
	| {
			type: 'send';
			runId: number;
			seq: number;
			request: {
				url: string;
				method: string;
				headers: Array<[string, string]>;
				body: string | null;
				timeoutMinutes: number;
			};
	  };

/** A pool of worker threads running scripts, `concurrency` at a time; the rest wait in turn. */
export class ScriptRunner {
	private readonly slots: Slot[] = [];
	private readonly queue: Run[] = [];
	private nextId = 1;
	private stopped = false;
	// A connection per request: a kept-alive socket that n8n closed while idle (its keep-alive
	// timeout) failed the next script's request with ECONNRESET, a failure of the simulator's
	// client, not of the script (a pooling client, such as .NET's, sends such a request again on a
	// new connection).
	private readonly agents = {
		http: new HttpAgent({ keepAlive: false }),
		https: new HttpsAgent({ keepAlive: false }),
	};

	constructor(private readonly concurrency = 4) {}

	/** Run a script to its end; never rejects (a failing script is a `failed` result). */
	async run(input: ScriptInput): Promise<ScriptResult> {
		if (this.stopped) throw new Error('the script runner is stopped');
		const pages = Math.max(1, Math.floor(input.pages));
		const given = input.options ?? {};
		const timeScale = given.timeScale ?? 1;
		if (!(timeScale > 0)) throw new Error(`timeScale must be more than 0, not ${timeScale}`);
		return await new Promise<ScriptResult>((resolve) => {
			const startedAt = Date.now();
			this.queue.push({
				id: this.nextId++,
				input,
				options: {
					timeScale,
					allowPlainHttpOnLoopback: given.allowPlainHttpOnLoopback ?? false,
					trustedCertificates: given.trustedCertificates ?? [],
					missingSecret: given.missingSecret ?? 'throw',
					missingRegistrationParameter: given.missingRegistrationParameter ?? 'undefined',
				},
				result: { outcome: 'completed', log: [], requests: [], startedAt, finishedAt: startedAt },
				pages,
				maxRequests: HTTP_REQUESTS_PER_PAGE * pages,
				limitExceeded: null,
				inFlight: new Set(),
				resolve,
				watchdog: null,
			});
			this.dispatch();
		});
	}

	/** Stop every worker; runs in progress fail, waiting ones too. */
	async stop(): Promise<void> {
		this.stopped = true;
		for (const run of this.queue.splice(0)) this.settle(run, 'failed', 'The simulator stopped');
		const slots = this.slots.splice(0);
		for (const slot of slots) {
			if (slot.run) this.settle(slot.run, 'failed', 'The simulator stopped');
		}
		await Promise.all(slots.map(async (slot) => await slot.worker.terminate()));
		this.agents.http.destroy();
		this.agents.https.destroy();
	}

	private dispatch(): void {
		while (this.queue.length > 0) {
			let slot = this.slots.find((s) => s.run === null);
			if (!slot && this.slots.length < this.concurrency) slot = this.spawn();
			if (!slot) return;
			this.start(slot, this.queue.shift()!);
		}
	}

	private spawn(): Slot {
		const channel = new MessageChannel();
		const signal = new SharedArrayBuffer(4);
		const worker = new Worker(join(__dirname, 'worker.js'), {
			workerData: { replies: channel.port2, signal },
			transferList: [channel.port2],
			resourceLimits: { maxOldGenerationSizeMb: MEMORY_MB },
		});
		worker.unref();
		const slot: Slot = {
			worker,
			replies: channel.port1,
			counter: new Int32Array(signal),
			run: null,
		};
		worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
		const lost = (why: string) => {
			if (!this.slots.includes(slot)) return;
			this.slots.splice(this.slots.indexOf(slot), 1);
			if (slot.run) this.settle(slot.run, 'failed', `The script engine stopped: ${why}`);
			this.dispatch();
		};
		worker.on('error', (error) => lost(String(error)));
		worker.on('exit', (code) => lost(`exit code ${code}`));
		this.slots.push(slot);
		return slot;
	}

	private start(slot: Slot, run: Run): void {
		slot.run = run;
		const runtimeMs = RUNTIME_SECONDS_PER_PAGE * 1000 * run.pages * run.options.timeScale;
		run.result.startedAt = Date.now();
		// The worker's vm stops the script at the limit; this catches a worker that cannot stop.
		run.watchdog = setTimeout(() => {
			if (slot.run !== run) return;
			this.slots.splice(this.slots.indexOf(slot), 1);
			this.settle(run, 'failed', 'The script ran longer than its runtime limit');
			void slot.worker.terminate();
			this.dispatch();
		}, runtimeMs + 5000);
		run.watchdog.unref();
		slot.worker.postMessage({
			runId: run.id,
			source: run.input.source,
			transaction: run.input.transaction,
			secrets: run.input.secrets,
			runtimeMs,
			timeScale: run.options.timeScale,
			missingSecret: run.options.missingSecret,
			missingRegistrationParameter: run.options.missingRegistrationParameter,
		});
	}

	private onMessage(slot: Slot, message: FromWorker): void {
		const run = slot.run;
		if (!run || run.id !== message.runId) return;
		switch (message.type) {
			case 'log':
				run.result.log.push(message.message);
				run.input.onLog?.(message.message);
				return;
			case 'send':
				void this.send(run, message.request).then((reply) => {
					if (slot.run !== run) return;
					slot.replies.postMessage({ seq: message.seq, ...reply });
					Atomics.add(slot.counter, 0, 1);
					Atomics.notify(slot.counter, 0);
				});
				return;
			case 'done':
				slot.run = null;
				if (run.limitExceeded) this.settle(run, 'failed', run.limitExceeded);
				else this.settle(run, message.outcome, message.error);
				this.dispatch();
				return;
		}
	}

	private settle(run: Run, outcome: 'completed' | 'failed', error?: string): void {
		if (run.watchdog) clearTimeout(run.watchdog);
		for (const controller of run.inFlight) controller.abort();
		run.result.outcome = outcome;
		if (error !== undefined) run.result.error = error;
		run.result.finishedAt = Date.now();
		run.resolve(run.result);
	}

	/** Send one request of a script and say what Send() gets: the answer or why there is none. */
	private async send(
		run: Run,
		request: Extract<FromWorker, { type: 'send' }>['request'],
	): Promise<Reply> {
		const record: SentRequest = {
			url: request.url,
			method: request.method,
			headers: Object.fromEntries(request.headers),
			body: request.body,
			startedAt: Date.now(),
			ms: 0,
		};
		run.result.requests.push(record);
		const done = (reply: Reply): Reply => {
			record.ms = Date.now() - record.startedAt;
			if (reply.error !== undefined) record.error = reply.error;
			else {
				record.status = reply.status;
				record.responseText = reply.text;
			}
			return reply;
		};
		if (run.result.requests.length > run.maxRequests) {
			run.limitExceeded = `The script sent more than ${run.maxRequests} HTTP requests (${HTTP_REQUESTS_PER_PAGE} per page)`;
			return done({ error: run.limitExceeded });
		}
		let url: URL;
		try {
			url = new URL(request.url);
		} catch {
			return done({ error: `Invalid URI: ${JSON.stringify(request.url)} is not an absolute URL` });
		}
		const plain = url.protocol === 'http:';
		if (
			url.protocol !== 'https:' &&
			!(plain && run.options.allowPlainHttpOnLoopback && loopback(url))
		) {
			return done({
				error: `Only HTTPS addresses can be called from a Custom activity, not ${url.protocol}//${url.host}`,
			});
		}
		const minutes = request.timeoutMinutes;
		const controller = new AbortController();
		run.inFlight.add(controller);
		const cancel = abortAfter(controller, minutes * 60_000 * run.options.timeScale);
		try {
			return done(
				await this.exchange(url, request, controller.signal, run.options.trustedCertificates),
			);
		} catch (error) {
			return done({
				error: controller.signal.aborted
					? `The request was canceled due to the configured Timeout of ${minutes} minute(s) elapsing`
					: `The connection failed: ${(error as Error).message}`,
			});
		} finally {
			cancel();
			run.inFlight.delete(controller);
		}
	}

	private async exchange(
		url: URL,
		request: Extract<FromWorker, { type: 'send' }>['request'],
		signal: AbortSignal,
		trusted: string[],
	): Promise<Reply> {
		const body = request.body === null ? null : Buffer.from(request.body, 'utf8');
		const headers: Record<string, string | number> = Object.fromEntries(request.headers);
		if (body) headers['content-length'] = body.length;
		const res = await new Promise<IncomingMessage>((resolve, reject) => {
			const req =
				url.protocol === 'https:'
					? httpsRequest(url, {
							method: request.method,
							headers,
							signal,
							agent: trusted.length ? undefined : this.agents.https,
							// Vantage asks for a certificate of "security level 2" (Custom activity page).
							ciphers: 'DEFAULT@SECLEVEL=2',
							...(trusted.length ? { ca: trusted } : {}),
						})
					: httpRequest(url, { method: request.method, headers, signal, agent: this.agents.http });
			req.on('response', resolve);
			req.on('error', reject);
			req.end(body ?? undefined);
		});
		const chunks: Buffer[] = [];
		let size = 0;
		for await (const chunk of res) {
			size += (chunk as Buffer).length;
			if (size > MAX_RESPONSE_BYTES) {
				res.destroy();
				break;
			}
			chunks.push(chunk as Buffer);
		}
		const type = res.headers['content-type'];
		return {
			status: res.statusCode ?? 0,
			reason: res.statusMessage ?? '',
			text: Buffer.concat(chunks).toString('utf8'),
			type: type ? type.split(';')[0].trim() : null,
		};
	}
}

/**
 * Abort after `ms`, measured with the monotonic clock: a timer can fire up to a millisecond early,
 * which a scaled test clock would turn into a second. Returns the cancel.
 */
function abortAfter(controller: AbortController, ms: number): () => void {
	const began = performance.now();
	let timer: NodeJS.Timeout;
	const arm = (delay: number) => {
		timer = setTimeout(() => {
			const left = ms - (performance.now() - began);
			if (left > 0) arm(left);
			else controller.abort();
		}, Math.ceil(delay));
	};
	arm(ms);
	return () => clearTimeout(timer);
}

function loopback(url: URL): boolean {
	const host = url.hostname.replace(/^\[|\]$/g, '');
	if (host === 'localhost') return true;
	if (isIP(host) === 4) return host.startsWith('127.');
	return host === '::1';
}
