/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: n8n in queue mode (main, two workers, Redis, PostgreSQL). */
/**
 * The package in n8n's queue mode, as teams run it when one process is not enough: PostgreSQL
 * (Debian's, a private cluster started with pg_ctl), Redis (Debian's), n8n 2.41.1 main with
 * EXECUTIONS_MODE=queue and two `n8n worker` processes, each with its own user folder holding the
 * packed package as n8n's installer lays it out. Work arrives as production sends it: HTTP calls
 * to active Webhook workflows (Process Document, Catalog Record → Delete in aggregate mode,
 * Create → Wait For → Download Export) and an active ABBYY Vantage Trigger workflow (one execution
 * per completed transaction). Proven: 60 executions at once, 40 of them held open by Vantage until
 * all 40 run, so that they are in flight together on both workers; every record ID and document
 * accounted for in the simulator; the stored token shared through the credential in PostgreSQL
 * (one sign-in for all three processes; a token revoked mid-run renewed once per worker, without a
 * failure); tokens that expire by their lifetime during a run (renewed once per worker per
 * expiry); and a worker killed mid-run with n8n's default lock and stalled-job settings: what n8n
 * reports and when, and that a rerun converges; last, the ABBYY Vantage OAuth2 API credential
 * (authorization code with PKCE) on a worker: its expired access token refreshed once, the rotated
 * tokens stored in PostgreSQL and used by the next execution without a refresh. Between them, the
 * ABBYY Vantage Instant Trigger: the simulator's Custom activity runs the shipped script
 * (custom-activity/n8n-events.js) after Review and pushes each transaction to the main process's
 * webhook, which confirms it through the Vantage API; the workers run one execution per
 * transaction; a forged and a replayed event are refused there. Last, Process Document waiting for
 * Manual Review without holding a worker (e2e/durableWaitQueue.ts): 20 executions wait in
 * PostgreSQL while no worker runs anything, a worker is stopped, the reviews end and the other
 * worker finishes all 20.
 * Ends with `N passed, M failed`; exit code 1 if anything failed.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { connect } from '../test/helpers/oauth';
import {
	FIXTURE,
	VantageSimulator,
	fixtureCredentialData,
	fixtureOAuth2CredentialData,
	type ExportScript,
	type LoggedRequest,
} from '../test/simulator/simulator';
import { check, finish } from './lib/checks';
import {
	ensureHost,
	freePort,
	hostVersions,
	installPackage,
	nodesFolder,
	packPackage,
	ROOT,
	WORK,
} from './lib/n8n';
import {
	executionRows,
	output,
	peakOverlap,
	runData,
	runError,
	workerLog,
	type ExecutionRow,
} from './lib/queue/executions';
import { Gate } from './lib/queue/gate';
import { QueueCluster, queueDefaults } from './lib/queue/n8nQueue';
import { startPostgres, type Postgres } from './lib/queue/postgres';
import { kill, killAllNow, sleep, stop, stopAll, waitUntil } from './lib/queue/processes';
import { startRedis } from './lib/queue/redis';
import {
	bearer,
	EVENT_SECRET_TYPE,
	eventBody,
	finished,
	launchTransaction,
	placeScript,
	post,
	productionUrl,
	randomSecret,
	removeScript,
	signedHeaders,
} from './lib/push';
import { CREDENTIAL, PACKAGE } from './lib/setup';
import { durableWaitQueueChecks, QUEUE_WAITING } from './durableWaitQueue';

type Json = Record<string, unknown>;

/** The run's temporary folder (PostgreSQL's cluster, Redis), removed on failure too. */
let tempFolder: string | undefined;

const WORKERS = ['worker-1', 'worker-2'];
/** Executions each worker runs at once (`n8n worker --concurrency`). */
const WORKER_CONCURRENCY = 30;
/**
 * Executions of the burst that Vantage keeps busy (20 documents processing, 20 exports in
 * progress) until all of them run: at that moment they are all in flight, and since a worker runs
 * at most WORKER_CONCURRENCY at once, each worker holds at least HELD - WORKER_CONCURRENCY.
 */
const HELD = 40;
/** The second credential, used only by the token-lifetime phase: its own stored token. */
const SHORT_TOKENS = {
	id: 'vaCred000002',
	name: 'ABBYY Vantage account (short-lived tokens)',
};
/** Token lifetime in the token-lifetime phase (seconds), and how many expiries it runs through. */
const TOKEN_LIFETIME_S = 10;
const EXPIRIES = 3;
/** The simulator's default token lifetime (30 days), restored after that phase. */
const DEFAULT_TOKEN_LIFETIME_S = 2_592_000;
/** Executions of the token-lifetime phase held at the gate before they read the credential. */
const EXPIRY_CALLS = 40;
/** Then executions that keep arriving: one call every FLOW_EVERY_MS for FLOW_FOR_MS, each
 * export advancing a step every FLOW_STEP_MS (Queued → Processing → Succeeded: longer than a
 * token lives). */
const FLOW_EVERY_MS = 500;
const FLOW_FOR_MS = 30_000;
const FLOW_STEP_MS = 8000;
const DEFAULT_EXPORT_SCRIPT: ExportScript = {
	path: ['Queued', 'Processing', 'Succeeded'],
	advanceEvery: { ms: 700 },
};
/** Exports that stay in progress until the suite says they succeeded. */
const HELD_EXPORT_SCRIPT: ExportScript = {
	path: ['Queued', 'Processing'],
	advanceEvery: { ms: 700 },
};
const CATALOG = 'Queue / Vendors';
/** Catalog records no call names: they must survive every phase. */
const UNTOUCHED = Array.from({ length: 500 }, (_, i) => `keep-${i}`);
const WORKFLOWS = {
	process: 'vaQueueProc01',
	delete: 'vaQueueDel001',
	export: 'vaQueueExp001',
	trigger: 'vaQueueTrig01',
	expiry: 'vaQueueTtl001',
	oauth: 'vaQueueOAuth1',
	push: 'vaQueuePush01',
} as const;
/** The OAuth2 credential (authorization code with PKCE), connected once as the SSO user. */
const OAUTH2 = { id: 'vaOAuth00001', name: 'ABBYY Vantage (signed in as me)' };
const WEBHOOK_WORKFLOWS = [WORKFLOWS.process, WORKFLOWS.delete, WORKFLOWS.export];
const FINAL = new Set(['success', 'error', 'crashed', 'canceled']);
/** Completed transactions of the skill the trigger watches, before and after activation. */
const SEEDED_BEFORE = 4;
const SEEDED_AFTER = 4;
const TRIGGER_SKILL = 'Receipt';
/**
 * The ABBYY Vantage Instant Trigger's workflow (e2e/workflows/queue/push.json): its Event Secret
 * credential, its webhook, and the transactions the Custom activity reports to it.
 */
const EVENT_SECRET = { id: 'vaEvents0001', name: 'ABBYY Vantage events' };
const PUSH_WEBHOOK_ID = '5b1f3c2e-7a44-4d0e-9a51-0c0ffee00007';
const PUSHED = 20;

function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

/** Long values in a failure message: their start, and how long they are. */
function brief(text: string): string {
	return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text;
}

function equal(actual: unknown, expected: unknown, what: string): void {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a === e) return;
	if (Array.isArray(actual) && Array.isArray(expected)) {
		const has = new Set(actual.map((v) => JSON.stringify(v)));
		const wanted = new Set(expected.map((v) => JSON.stringify(v)));
		const missing = [...wanted].filter((v) => !has.has(v));
		const extra = [...has].filter((v) => !wanted.has(v));
		throw new Error(
			`${what}: expected ${expected.length} values, got ${actual.length}; missing ${brief(`[${missing.join(',')}]`)}; unexpected ${brief(`[${extra.join(',')}]`)}`,
		);
	}
	throw new Error(`${what}: expected ${brief(e)}, got ${brief(a)}`);
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

// ------------------------------------------------------------------ calls sent to the webhooks

type Kind = 'process' | 'delete' | 'export' | 'expiry' | 'oauth';

interface Call {
	kind: Kind;
	/** A UUID: the webhook passes it on (query or body); workflows save it as custom data. */
	callId: string;
	label: string;
	/** Process: the invoice number in the document. Delete: the IDs, and the unique ones. */
	invoiceNumber?: string;
	parts?: string[][];
	uniqueIds?: string[];
}

function processCall(label: string): Call {
	return { kind: 'process', callId: randomUUID(), label, invoiceNumber: `Q-${label}` };
}

/** Two parts of `size` IDs each, overlapping by `overlap`: aggregate mode pools and dedupes. */
function deleteCall(label: string, prefix: string, size: number, overlap: number): Call {
	const first = Array.from({ length: size }, (_, i) => `${prefix}-${i}`);
	const second = Array.from({ length: size }, (_, i) => `${prefix}-${i + size - overlap}`);
	return {
		kind: 'delete',
		callId: randomUUID(),
		label,
		parts: [first, second],
		uniqueIds: [...new Set([...first, ...second])],
	};
}

function exportCall(label: string): Call {
	return { kind: 'export', callId: randomUUID(), label };
}

/** A call to the token-lifetime phase's workflow (an export with the second credential). */
function expiryCall(label: string): Call {
	return { kind: 'expiry', callId: randomUUID(), label };
}

/** A call to the OAuth2 phase's workflow (Catalog → Get Many as the signed-in user). */
function oauthCall(label: string): Call {
	return { kind: 'oauth', callId: randomUUID(), label };
}

function invoiceText(number: string): string {
	return [
		`InvoiceNumber: ${number}`,
		'InvoiceDate: 03.11.2025',
		'Total: 1.250,00',
		'Vendor.Name: Queue GmbH',
		'',
	].join('\n');
}

async function send(url: string, call: Call): Promise<number> {
	const init: RequestInit =
		call.kind === 'process'
			? {
					method: 'POST',
					headers: {
						'content-type': 'application/pdf',
						'content-disposition': `attachment; filename="${call.invoiceNumber}.pdf"`,
					},
					body: invoiceText(call.invoiceNumber!),
				}
			: {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(
						call.kind === 'delete'
							? { callId: call.callId, parts: call.parts!.map((recordIds) => ({ recordIds })) }
							: { callId: call.callId },
					),
				};
	const path = `vantage-queue/${call.kind}`;
	const query = call.kind === 'process' ? `?callId=${call.callId}` : '';
	const res = await fetch(`${url}/webhook/${path}${query}`, {
		...init,
		signal: AbortSignal.timeout(120_000),
	});
	await res.arrayBuffer();
	return res.status;
}

// ------------------------------------------------------------------ reading n8n's records

interface Suite {
	pg: Postgres;
	sim: VantageSimulator;
	cluster: QueueCluster;
	work: string;
}

function maxExecutionId(pg: Postgres): number {
	return Number(pg.sql('select coalesce(max(id), 0) from execution_entity')[0]);
}

/** The callId a webhook or trigger item carries, if `json` is one. */
function callIdIn(json: unknown): string | undefined {
	const j = json as { query?: Json; body?: Json; transactionId?: unknown } | undefined;
	const id = j?.query?.callId ?? j?.body?.callId ?? j?.transactionId;
	return typeof id === 'string' ? id : undefined;
}

/**
 * The callId of an execution: the custom data it saved when it ran to the end, else the input
 * n8n stored for it (the main process stores the webhook's request with the execution before it
 * enqueues the job: the node on the execution stack, or a node's output once run data exists).
 */
function callIdOf(
	pg: Postgres,
	id: number,
	metadata: Record<string, string> = {},
): string | undefined {
	if (metadata.callId) return metadata.callId;
	const run = runData(pg, id);
	const nodes = ((run?.resultData as Json)?.runData ?? {}) as Record<string, unknown>;
	for (const node of Object.keys(nodes)) {
		const found = callIdIn(output(run, node)[0]?.json);
		if (found) return found;
	}
	const stack = ((run?.executionData as Json)?.nodeExecutionStack ?? []) as Array<{
		data?: { main?: Array<Array<{ json?: Json }> | null> };
	}>;
	for (const entry of stack) {
		const found = callIdIn(entry.data?.main?.[0]?.[0]?.json);
		if (found) return found;
	}
	return undefined;
}

/** Which worker's log says it started each execution. */
function startedBy(suite: Suite): Map<number, string[]> {
	const by = new Map<number, string[]>();
	for (const name of readdirSync(suite.work).filter((f) => /^worker-\d+(-\w+)?\.log$/.test(f))) {
		const worker = name.replace(/(-restarted)?\.log$/, '');
		for (const id of workerLog(join(suite.work, name)).started) {
			by.set(id, [...(by.get(id) ?? []), worker]);
		}
	}
	return by;
}

function inFlightOn(suite: Suite, worker: string, sinceId: number): number[] {
	const log = workerLog(join(suite.work, `${worker}.log`));
	const finished = new Set(log.finished);
	return log.started.filter((id) => id > sinceId && !finished.has(id));
}

/** Wait until `count` executions of `workflowIds` after `sinceId` exist and all have ended. */
async function settle(
	suite: Suite,
	workflowIds: string[],
	sinceId: number,
	count: number,
	timeoutMs: number,
): Promise<ExecutionRow[]> {
	let rows: ExecutionRow[] = [];
	await waitUntil(
		`${count} executions of ${workflowIds.join(', ')} to end`,
		() => {
			rows = executionRows(suite.pg, workflowIds).filter((r) => r.id > sinceId);
			return rows.length >= count && rows.every((r) => FINAL.has(r.status));
		},
		timeoutMs,
		undefined,
		1000,
	).catch((error: Error) => {
		const statuses = rows.reduce<Record<string, number>>((acc, r) => {
			acc[r.status] = (acc[r.status] ?? 0) + 1;
			return acc;
		}, {});
		throw new Error(`${error.message}; seen ${rows.length}: ${JSON.stringify(statuses)}`);
	});
	return rows;
}

function countBy<T>(values: T[]): Record<string, number> {
	const out: Record<string, number> = {};
	for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
	return out;
}

function registrationCallId(sim: VantageSimulator, transactionId: string): string | undefined {
	return sim.transaction(transactionId)?.registrationParameters.find((p) => p.key === 'callId')
		?.value;
}

/**
 * Transactions in the simulator, by the callId they were registered with (the simulator's own
 * state, `GET /__simulator/state`, which is not logged as an API request).
 */
async function transactionsByCall(sim: VantageSimulator): Promise<Map<string, string[]>> {
	const res = await fetch(`${sim.url}/__simulator/state`);
	const state = (await res.json()) as { transactions: Array<{ id: string }> };
	const by = new Map<string, string[]>();
	for (const { id } of state.transactions) {
		const callId = registrationCallId(sim, id);
		if (callId) by.set(callId, [...(by.get(callId) ?? []), id]);
	}
	return by;
}

/** A command to the simulator's HTTP control plane (`/__simulator/…`), as other processes send it. */
async function control(sim: VantageSimulator, path: string, body: unknown): Promise<void> {
	const res = await fetch(`${sim.url}/__simulator/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`POST /__simulator/${path} → ${res.status} ${text}`);
}

/** The serial of the token a request carried, if this simulator issued it. */
function serialOf(request: { tokenSerial: number | null }): number {
	return request.tokenSerial ?? 0;
}

/** When each token was issued: the token endpoint's answers, in order, are serials 1, 2, … */
function tokenIssueTimes(sim: VantageSimulator): Map<number, number> {
	return new Map(
		sim
			.requestsTo('Token')
			.filter((r) => r.status === 200)
			.map((r, i) => [i + 1, r.finishedAt ?? r.at]),
	);
}

interface TokenUse {
	/** Token requests in the window. */
	signIns: LoggedRequest[];
	/** Tokens issued in the window (but `first`), by the worker whose execution used it first. */
	renewals: Array<{ serial: number; worker: string }>;
	perWorker: Record<string, number>;
	/** Requests refused with 401, and the tokens they carried. */
	refused: LoggedRequest[];
	refusedSerials: number[];
	/** 401s for a token whose lifetime had not run out (0.25 s allowed for the clocks). */
	early: string[];
	/** Requests with the window's tokens that no execution of `rows` sent. */
	foreign: LoggedRequest[];
	/** API requests that failed for another reason than 401. */
	failed: LoggedRequest[];
}

/**
 * The sign-ins of a window of the request log (from `fromLog`, tokens after `tokensBefore`),
 * attributed to workers: a new token's first use is the request sent again right after the
 * sign-in. Requests name their export (status, result) or carry the callId (create); the
 * executions `rows` name their worker.
 */
function tokenUse(
	pg: Postgres,
	sim: VantageSimulator,
	rows: ExecutionRow[],
	fromLog: number,
	tokensBefore: number,
	lifetimeMs: number,
	first?: number,
): TokenUse {
	const requests = sim.requests.slice(fromLog);
	const workerOfCall = new Map(rows.map((r) => [r.metadata.callId, r.metadata.worker]));
	const workerOfExport = new Map<string, string>();
	for (const row of rows) {
		const requestId = output(runData(pg, row.id), 'Create export')[0]?.json.requestId;
		if (typeof requestId === 'string') workerOfExport.set(requestId, row.metadata.worker);
	}
	const workerOf = (r: LoggedRequest): string | undefined => {
		if (r.params.requestId) return workerOfExport.get(r.params.requestId);
		const callId = (r.body as { filters?: { transactionId?: string } } | undefined)?.filters
			?.transactionId;
		return callId ? workerOfCall.get(callId) : undefined;
	};
	const firstUse = new Map<number, LoggedRequest>();
	for (const r of requests) {
		const serial = serialOf(r);
		if (r.route !== 'Token' && serial > tokensBefore && !firstUse.has(serial))
			firstUse.set(serial, r);
	}
	const renewals = [...firstUse.entries()]
		.filter(([serial]) => serial !== first)
		.map(([serial, r]) => ({ serial, worker: workerOf(r) ?? `unknown (${r.route})` }));
	const refused = requests.filter((r) => r.status === 401);
	const issued = tokenIssueTimes(sim);
	const early = refused
		.filter((r) => {
			const at = issued.get(serialOf(r));
			return at === undefined || (r.finishedAt ?? r.at) - at < lifetimeMs - 250;
		})
		.map((r) => `token ${serialOf(r)} refused ${r.route} ${r.path}`);
	return {
		signIns: requests.filter((r) => r.route === 'Token'),
		renewals,
		perWorker: countBy(renewals.map((r) => r.worker)),
		refused,
		refusedSerials: [...new Set(refused.map(serialOf))].sort((a, b) => a - b),
		early,
		foreign: requests.filter(
			(r) => r.route !== 'Token' && serialOf(r) > tokensBefore && !workerOf(r),
		),
		failed: requests.filter(
			(r) => r.route !== 'Token' && (r.status ?? 0) >= 400 && r.status !== 401,
		),
	};
}

/**
 * The checks of a window in which tokens expired by their lifetime: each 401 for a token whose
 * lifetime had run out, sent again, nothing else failing, every request from the workers'
 * executions (the main process runs no node with that credential); and token requests ≤
 * `firstSignIns` + one per worker per expiry (`lifetimes`: how often a token could run out).
 */
async function expiryChecks(
	use: TokenUse,
	o: {
		waited: string;
		tokens: number;
		spanMs: number;
		lifetimes: number;
		firstSignIns: number;
		details: () => void;
	},
): Promise<void> {
	await check(
		`tokens expired by their ${TOKEN_LIFETIME_S} s lifetime ${o.waited}: ${use.refused.length} requests refused with 401 for ${use.refusedSerials.length} expired tokens, each sent again, no execution failed`,
		() => {
			assert(use.refused.length >= 1, 'no request was refused');
			equal(use.early, [], '401s for tokens still within their lifetime');
			equal(use.failed.length, 0, 'API requests failing for other reasons');
			equal(
				use.foreign.map((r) => `${r.route} ${r.path}`),
				[],
				'requests not from the workers',
			);
		},
	);
	const bound = o.firstSignIns + WORKERS.length * o.lifetimes;
	await check(
		`token requests ≤ one per worker per expiry: ${o.tokens} in ${seconds(o.spanMs)} with tokens living ${TOKEN_LIFETIME_S} s (${o.firstSignIns ? `${o.firstSignIns} first sign-in + ` : ''}renewals ${JSON.stringify(use.perWorker)}; ≤ ${o.firstSignIns ? `${o.firstSignIns} + ` : ''}${WORKERS.length} × ${o.lifetimes} = ${bound})`,
		() => {
			o.details();
			equal(use.signIns.length, o.tokens, 'token requests, all answered');
			equal(
				use.renewals.filter((r) => !WORKERS.includes(r.worker)).map((r) => r.worker),
				[],
				'renewals not attributed to a worker',
			);
			assert(
				o.tokens <= bound,
				`${o.tokens} token requests for ${o.lifetimes} expiries on ${WORKERS.length} workers (≤ ${bound})`,
			);
			for (const w of WORKERS) {
				assert(
					(use.perWorker[w] ?? 0) <= o.lifetimes,
					`${w} signed in ${use.perWorker[w]} times in ${o.lifetimes} lifetimes`,
				);
			}
		},
	);
}

// ------------------------------------------------------------------ the suite

async function main(): Promise<void> {
	const started = Date.now();
	const timings: Record<string, string> = {};
	await ensureHost();
	const host = hostVersions();

	// --- servers
	const tmp = mkdtempSync(join(tmpdir(), 'n8n-queue-'));
	tempFolder = tmp;
	const work = join(WORK, 'queue');
	rmSync(work, { recursive: true, force: true });
	let t = Date.now();
	const pg = await startPostgres(tmp, await freePort());
	const redis = await startRedis(tmp, await freePort());
	timings['PostgreSQL (initdb + pg_ctl start) and Redis'] = seconds(Date.now() - t);
	console.log(
		`[queue] PostgreSQL ${pg.version} on 127.0.0.1:${pg.port} (pg_ctl start; postmaster pid ${pg.proc.pid} from postmaster.pid, as ${pg.runAs}), Redis ${redis.version} on 127.0.0.1:${redis.port} (pid ${redis.proc.pid}), folder ${tmp}`,
	);
	const defaults = queueDefaults();
	const gate = new Gate();
	await gate.start();

	const sim = new VantageSimulator({ port: 0 });
	await sim.start();
	sim.addCatalog(CATALOG);
	sim.setDefaultExportScript(DEFAULT_EXPORT_SCRIPT);
	sim.setDefaultTransactionScript({ processing: { ms: 2500 } });
	sim.setLatency(40);
	const seededBefore = sim.seedCompletedTransactions(SEEDED_BEFORE, { skillId: TRIGGER_SKILL });
	// The OAuth2 credential's tenant: a simulator of its own, so that its sign-in and refreshes stay
	// out of the token counts of the phases above. Connect my account as n8n completes it: the SSO
	// user signs in, the code and verifier give the token set n8n stores as `oauthTokenData`.
	const ssoSim = new VantageSimulator({ port: 0 });
	await ssoSim.start();
	const connected = await connect(ssoSim.url, { username: FIXTURE.ssoUsername });
	const connectedSerial = ssoSim.createdCounts().tokens;
	// The Event Secret: n8n's credential and the tenant's n8n-events-secret.
	const eventsSecret = randomSecret();

	// --- the package for every process, the credential and the workflows in PostgreSQL
	t = Date.now();
	console.log('[queue] building and packing the package');
	// The token-lifetime phase's workflow calls the gate ($env.QUEUE_GATE_URL); WEBHOOK_URL is added
	// once the main process has its port.
	const clusterEnv: NodeJS.ProcessEnv = { QUEUE_GATE_URL: gate.url };
	const tarball = packPackage(join(work, 'pack'));
	for (const name of ['main', ...WORKERS]) installPackage(join(work, name), tarball, PACKAGE);
	const cluster = new QueueCluster({
		work,
		packageName: PACKAGE,
		postgresPort: pg.port,
		redisPort: redis.port,
		env: clusterEnv,
	});
	await cluster.importCredentials([
		...[CREDENTIAL, SHORT_TOKENS].map((c) => ({
			...c,
			type: 'abbyyVantageApi',
			data: fixtureCredentialData(sim.url),
		})),
		{
			...OAUTH2,
			type: 'abbyyVantageOAuth2Api',
			data: { ...fixtureOAuth2CredentialData(ssoSim.url), oauthTokenData: connected },
		},
		{ ...EVENT_SECRET, type: EVENT_SECRET_TYPE, data: { secret: eventsSecret } },
	]);
	const dir = join(ROOT, 'e2e', 'workflows', 'queue');
	const workflows = readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { id: string; name: string });
	await cluster.importWorkflows(
		workflows,
		workflows.map((w) => w.id),
	);
	timings[
		`pack, install for 3 processes, import 4 credentials and ${workflows.length} workflows, publish (n8n CLI on PostgreSQL)`
	] = seconds(Date.now() - t);

	t = Date.now();
	const main = await cluster.startMain();
	timings['n8n main ready'] = seconds(main.startedInMs);
	// Workers build a waiting execution's resume URL from WEBHOOK_URL: the main process's.
	clusterEnv.WEBHOOK_URL = `${cluster.url}/`;
	const workers = await Promise.all(
		WORKERS.map(async (name) => await cluster.startWorker(name, WORKER_CONCURRENCY)),
	);
	timings['two workers ready'] = seconds(Math.max(...workers.map((w) => w.startedInMs)));
	console.log(
		`[queue] ${host.label}: main pid ${main.proc.pid} (${cluster.url}), ${workers.map((w) => `${w.name} pid ${w.proc.pid} (concurrency ${WORKER_CONCURRENCY})`).join(', ')}`,
	);
	console.log(`[queue] logs in ${work}`);
	const suite: Suite = { pg, sim, cluster, work };

	await check(
		`queue mode is what runs: main + ${WORKERS.length} workers on PostgreSQL and Redis, the package in every user folder as n8n's installer lays it out`,
		() => {
			const mainLog = readFileSync(main.proc.log, 'utf8');
			assert(/Editor is now accessible/.test(mainLog), 'main did not start its editor');
			for (const worker of workers) {
				const log = readFileSync(worker.proc.log, 'utf8');
				assert(/n8n worker is now ready/.test(log), `${worker.name} not ready`);
				assert(new RegExp(`Concurrency: ${WORKER_CONCURRENCY}`).test(log), 'concurrency');
			}
			for (const name of ['main', ...WORKERS]) {
				const nodes = nodesFolder(join(work, name));
				const manifest = JSON.parse(
					readFileSync(join(nodes, 'node_modules', PACKAGE, 'package.json'), 'utf8'),
				) as Json;
				equal(manifest.name, PACKAGE, `package in ${name}'s user folder`);
				// What n8n's installer leaves: the package without the dependencies npm must not
				// install there, and the folder's ledger naming its version (read back after startup:
				// n8n rewrites a ledger it finds unusable).
				equal(
					[manifest.devDependencies, manifest.peerDependencies, manifest.optionalDependencies],
					[undefined, undefined, undefined],
					`dependencies stripped in ${name}'s copy`,
				);
				equal(
					JSON.parse(readFileSync(join(nodes, 'package.json'), 'utf8')),
					{ name: 'installed-nodes', private: true, dependencies: { [PACKAGE]: manifest.version } },
					`${name}'s .n8n/nodes/package.json`,
				);
			}
			for (const log of [main.proc.log, ...workers.map((w) => w.proc.log)]) {
				const text = readFileSync(log, 'utf8');
				for (const warning of [
					'Community package ledger is unusable',
					'some packages are missing',
					'Skipping package',
					'Failed to load package',
				]) {
					assert(!text.includes(warning), `${log}: "${warning}"`);
				}
			}
			const tables = pg.sql(
				"select count(*) from information_schema.tables where table_name in ('execution_entity','credentials_entity','workflow_entity')",
			);
			equal(tables, ['3'], "n8n's tables in PostgreSQL");
			equal(
				pg.sql(`select count(*) from credentials_entity where id = '${CREDENTIAL.id}'`),
				['1'],
				'the credential, stored once in PostgreSQL',
			);
			// n8n loads every n8n-nodes-* folder of .n8n/nodes/node_modules at startup; its
			// installed_packages table only feeds Settings › Community nodes.
			equal(pg.sql('select count(*) from installed_packages'), ['0'], 'installed_packages rows');
		},
	);

	// --- the ABBYY Vantage Trigger, first poll: the completions seeded before activation
	t = Date.now();
	console.log(
		`\nABBYY Vantage Trigger (Transaction Completed, skill ${TRIGGER_SKILL}, Start From 2020): the main process polls, the workers run`,
	);
	const triggerFirst = await settle(suite, [WORKFLOWS.trigger], 0, SEEDED_BEFORE, 120_000);
	timings['trigger: first poll to 4 executions done'] = seconds(Date.now() - t);
	const tokensAfterActivation = sim.createdCounts().tokens;
	await check(
		`activation polled once on the main process: ${SEEDED_BEFORE} completed transactions → ${SEEDED_BEFORE} executions on the workers, all success`,
		() => {
			equal(
				triggerFirst.map((r) => r.status),
				triggerFirst.map(() => 'success'),
				'statuses',
			);
			equal(
				triggerFirst.map((r) => r.metadata.callId).sort(),
				[...seededBefore].sort(),
				'one execution per transaction',
			);
			const by = startedBy(suite);
			for (const row of triggerFirst) {
				assert(by.get(row.id)?.length === 1, `execution ${row.id} run by ${by.get(row.id)}`);
			}
		},
	);

	// --- 60 webhook executions at once, 40 held in flight across both workers, a token revoked
	console.log(
		`\n60 webhook calls at once (20 Process Document, 20 Catalog Record → Delete in aggregate mode, 20 Create → Wait For → Download Export); Vantage keeps the 20 documents processing and the 20 exports in progress until all ${HELD} run; token revoked in the middle`,
	);
	const burst: Call[] = [];
	for (let i = 0; i < 20; i++) {
		const n = String(i).padStart(2, '0');
		burst.push(
			processCall(`B${n}`),
			deleteCall(`B${n}`, `burst-${n}`, 60, 10),
			exportCall(`B${n}`),
		);
	}
	const burstIds = burst.flatMap((c) => c.uniqueIds ?? []);
	sim.seedRecords(CATALOG, [...burstIds, ...UNTOUCHED]);
	// Completions the next poll must find (once each), while the burst runs.
	const seededAfter = sim.seedCompletedTransactions(SEEDED_AFTER, { skillId: TRIGGER_SKILL });
	const burstSince = maxExecutionId(pg);
	const countsBefore = sim.createdCounts();
	const exportsBefore = new Set(sim.exportIds());
	const logBefore = sim.requests.length;
	// Vantage holds the work: documents stay in processing, exports in progress, until released.
	sim.setDefaultTransactionScript({ outcome: 'Never' });
	sim.setDefaultExportScript(HELD_EXPORT_SCRIPT);
	t = Date.now();
	const accepted = Promise.all(burst.map(async (call) => await send(cluster.url, call)));
	const failedEarly = () => {
		const failed = executionRows(pg, WEBHOOK_WORKFLOWS).filter(
			(r) => r.id > burstSince && FINAL.has(r.status) && r.status !== 'success',
		);
		if (failed.length) throw new Error(`executions ${failed.map((r) => r.id).join(', ')} failed`);
	};
	// Revoke once ten have finished (deletes: the only ones Vantage does not hold), while the
	// others create, upload and poll on both workers.
	await waitUntil(
		'ten webhook executions to finish',
		() => {
			failedEarly();
			return (
				executionRows(pg, WEBHOOK_WORKFLOWS).filter(
					(r) => r.id > burstSince && r.status === 'success',
				).length >= 10
			);
		},
		240_000,
		undefined,
		300,
	);
	const inFlightAtRevoke = Object.fromEntries(
		WORKERS.map((w) => [w, inFlightOn(suite, w, burstSince).length]),
	);
	const tokensAtRevoke = sim.createdCounts().tokens;
	const revokedAt = sim.requests.length;
	sim.revokeTokens();
	console.log(
		`[queue] revoked every token after ${seconds(Date.now() - t)}: executions in flight ${JSON.stringify(inFlightAtRevoke)}`,
	);
	// Wait until Vantage holds all 40: each document's transaction processing, each export created.
	const processCalls = burst.filter((c) => c.kind === 'process');
	let heldTransactions: string[] = [];
	let heldExports: string[] = [];
	await waitUntil(
		`the ${HELD} held executions to run (20 documents processing, 20 exports in progress)`,
		async () => {
			failedEarly();
			const byCallNow = await transactionsByCall(sim);
			heldTransactions = processCalls
				.flatMap((c) => byCallNow.get(c.callId) ?? [])
				.filter((id) => sim.transaction(id)?.status === 'Processing');
			heldExports = sim.exportIds().filter((id) => !exportsBefore.has(id));
			return heldTransactions.length === 20 && heldExports.length === 20;
		},
		240_000,
		undefined,
		300,
	);
	const heldAt = Date.now();
	const inFlightHeld = Object.fromEntries(
		WORKERS.map((w) => [w, inFlightOn(suite, w, burstSince).length]),
	);
	for (const id of heldTransactions) sim.completeTransaction(id);
	for (const id of heldExports) sim.setExportStatus(id, 'Succeeded');
	sim.setDefaultTransactionScript({ processing: { ms: 2500 } });
	sim.setDefaultExportScript(DEFAULT_EXPORT_SCRIPT);
	console.log(
		`[queue] all ${HELD} held executions running after ${seconds(heldAt - t)} (workers' logs: in flight ${JSON.stringify(inFlightHeld)}); Vantage released them`,
	);
	const statuses = await accepted;
	const burstRows = await settle(suite, WEBHOOK_WORKFLOWS, burstSince, burst.length, 300_000);
	timings['60 webhook executions, first call to last end'] = seconds(Date.now() - t);
	const burstRequests = sim.requests.slice(logBefore);
	const afterRevoke = sim.requests.slice(revokedAt);
	const by = startedBy(suite);
	const byCall = new Map(burstRows.map((r) => [r.metadata.callId, r]));

	await check('every webhook call was accepted (HTTP 200)', () => {
		equal(countBy(statuses), { 200: burst.length }, 'statuses');
	});
	await check('60 executions, one per call, all success', () => {
		equal(burstRows.length, burst.length, 'executions');
		equal(countBy(burstRows.map((r) => r.status)), { success: burst.length }, 'statuses');
		equal(
			burstRows.map((r) => r.metadata.callId).sort(),
			burst.map((c) => c.callId).sort(),
			'callIds',
		);
	});
	const perWorker: Record<string, number> = {};
	await check(
		"each worker ran some: the workers' logs and the worker name each execution saved agree",
		() => {
			for (const row of burstRows) {
				const ranOn = by.get(row.id) ?? [];
				equal(ranOn.length, 1, `workers that started execution ${row.id}`);
				equal(row.metadata.worker, ranOn[0], `worker saved by execution ${row.id}`);
				perWorker[ranOn[0]] = (perWorker[ranOn[0]] ?? 0) + 1;
			}
			for (const w of WORKERS) assert((perWorker[w] ?? 0) > 0, `${w} ran none`);
			console.log(`      executions per worker: ${JSON.stringify(perWorker)}`);
		},
	);
	const runningAt = (when: number, worker?: string): number =>
		burstRows.filter(
			(r) =>
				(!worker || r.metadata.worker === worker) && r.startedAt <= when && r.stoppedAt >= when,
		).length;
	const burstIntervals = (worker?: string): Array<[number, number]> =>
		burstRows
			.filter((r) => !worker || r.metadata.worker === worker)
			.map((r): [number, number] => [r.startedAt, r.stoppedAt]);
	const burstPeak = peakOverlap(burstIntervals());
	const burstPeaks = Object.fromEntries(WORKERS.map((w) => [w, peakOverlap(burstIntervals(w))]));
	const runningWhenHeld = Object.fromEntries(WORKERS.map((w) => [w, runningAt(heldAt, w)]));
	const perWorkerFloor = HELD - WORKER_CONCURRENCY;
	await check(
		`${HELD} executions in flight at once across both workers (Vantage held them until all ran; a worker runs at most ${WORKER_CONCURRENCY}, so each held at least ${perWorkerFloor}): n8n's start and stop times and the workers' logs agree`,
		() => {
			const total = runningAt(heldAt);
			console.log(
				`      running when all ${HELD} were held: ${total} by n8n's start/stop times (${WORKERS.map((w) => `${w} ${runningWhenHeld[w]}`).join(', ')}), workers' logs ${JSON.stringify(inFlightHeld)}; most at once during the burst: ${burstPeak} (${WORKERS.map((w) => `${w} ${burstPeaks[w]}`).join(', ')})`,
			);
			assert(total >= HELD, `${total} running when ${HELD} were held`);
			for (const w of WORKERS) {
				assert(
					runningWhenHeld[w] >= perWorkerFloor,
					`${w}: ${runningWhenHeld[w]} running by n8n's times (at least ${perWorkerFloor} expected)`,
				);
				assert(
					inFlightHeld[w] >= perWorkerFloor,
					`${w}: ${inFlightHeld[w]} in flight by its log (at least ${perWorkerFloor} expected)`,
				);
				assert(
					burstPeaks[w] <= WORKER_CONCURRENCY,
					`${w} ran ${burstPeaks[w]} at once, more than --concurrency ${WORKER_CONCURRENCY}`,
				);
			}
			assert(burstPeak >= HELD, `peak ${burstPeak}`);
		},
	);
	await check(
		'Process Document: each execution extracted its own document; one transaction per call, registered with its callId',
		async () => {
			const transactions = await transactionsByCall(sim);
			for (const call of burst.filter((c) => c.kind === 'process')) {
				const row = byCall.get(call.callId);
				assert(row, `no execution for ${call.label}`);
				const items = output(runData(pg, row.id), 'Extract invoice');
				equal(items.length, 1, `items of ${call.label}`);
				const json = items[0].json;
				equal(
					[json.status, (json.fields as Json | undefined)?.InvoiceNumber, json.sourceFiles],
					['Processed', call.invoiceNumber, [`${call.invoiceNumber}.pdf`]],
					`status, invoice number and file of ${call.label}`,
				);
				equal(transactions.get(call.callId), [json.transactionId], `transactions of ${call.label}`);
			}
			equal(
				sim.createdCounts().transactions - countsBefore.transactions,
				20,
				'transactions created',
			);
		},
	);
	await check(
		'Catalog Record → Delete (aggregate): every record ID accounted for, each sent once, the rest untouched',
		() => {
			for (const call of burst.filter((c) => c.kind === 'delete')) {
				const row = byCall.get(call.callId)!;
				const [summary] = output(runData(pg, row.id), 'Delete records');
				const json = summary?.json ?? {};
				const duplicates = json.duplicatesRemoved as Json | undefined;
				equal(
					[
						json.idsRequested,
						json.uniqueIdsSent,
						duplicates?.count,
						json.idsDeleted,
						json.idsFailed,
					],
					[120, 110, 10, 110, 0],
					`summary of ${call.label}`,
				);
				const [first, second] = call.parts!;
				equal(
					duplicates?.ids,
					first.filter((id) => second.includes(id)).sort(),
					`duplicate IDs of ${call.label}`,
				);
			}
			const sent = burstRequests
				.filter((r) => r.route === 'DeleteRecords' && r.status === 200)
				.flatMap((r) => r.body as string[]);
			equal(sent.length, burstIds.length, 'IDs in successful delete requests');
			equal(new Set(sent).size, burstIds.length, 'distinct IDs sent');
			equal(sim.recordIds(CATALOG).sort(), [...UNTOUCHED].sort(), 'records left');
		},
	);
	await check(
		'Create → Wait For → Download Export: one export per call, each Succeeded and downloaded',
		() => {
			for (const call of burst.filter((c) => c.kind === 'export')) {
				const run = runData(pg, byCall.get(call.callId)!.id);
				const waited = output(run, 'Wait for export')[0]?.json ?? {};
				equal(waited.status, 'Succeeded', `status of ${call.label}`);
				const files = output(run, 'Download CSV files');
				assert(files.length >= 1 && files.every((f) => f.binary?.data), `files of ${call.label}`);
			}
			equal(sim.createdCounts().exports - countsBefore.exports, 20, 'exports created');
		},
	);
	const refreshes = sim.createdCounts().tokens - tokensAtRevoke;
	const refused = afterRevoke.filter((r) => r.status === 401).length;
	const inFlight = Object.values(inFlightAtRevoke).reduce((a, b) => a + b, 0);
	await check(
		`the token is shared through the credential: before the revoke ${tokensAtRevoke} token request(s) for 3 n8n processes (≤ one each)`,
		() => {
			assert(tokensAtRevoke >= 1, 'no token was requested');
			assert(tokensAtRevoke <= 1 + WORKERS.length, `${tokensAtRevoke} token requests`);
			equal(tokensAfterActivation, tokensAtRevoke, 'no sign-in by a worker before the revoke');
			// Every API request so far, from the main process's poll and both workers' executions,
			// carried the one token the credential stores.
			const serials = new Set(
				sim.requests
					.slice(0, revokedAt)
					.filter((r) => r.route !== 'Token')
					.map((r) => r.tokenSerial),
			);
			equal([...serials].length, 1, `tokens used before the revoke (${[...serials].join(', ')})`);
			assert(!serials.has(null), 'a request without a token this simulator issued');
		},
	);
	await check(
		`token revoked mid-run with ${inFlight} executions in flight: ${refused} requests refused with 401 and sent again, no execution failed`,
		() => {
			assert(refused >= 1, 'no request saw the revoked token');
			assert(refreshes >= 1, 'nobody signed in again');
			const again = afterRevoke.filter(
				(r) => r.route !== 'Token' && (r.status ?? 0) >= 400 && r.status !== 401,
			);
			equal(again.length, 0, 'API requests failing for other reasons');
		},
	);
	await check(
		`one sign-in per worker after the revoke (≤ ${WORKERS.length}): ${refreshes} token request(s)`,
		() => {
			assert(
				refreshes <= WORKERS.length,
				`${refreshes} sign-ins for ${WORKERS.length} workers: each execution in flight signed in on its own`,
			);
		},
	);

	// --- tokens that expire by their lifetime during a run (the second credential)
	console.log(
		`\ntokens expire by their lifetime: ${TOKEN_LIFETIME_S} s (POST /__simulator/token-lifetime) for "${SHORT_TOKENS.name}"; ${EXPIRY_CALLS} executions held at a gate before they read it, one first sign-in, then ${EXPIRIES} expiries with all ${EXPIRY_CALLS} waiting for their exports`,
	);
	const ttlSince = maxExecutionId(pg);
	const ttlTokensBefore = sim.createdCounts().tokens;
	const ttlExportsBefore = new Set(sim.exportIds());
	const ttlLog = sim.requests.length;
	await control(sim, 'token-lifetime', { seconds: TOKEN_LIFETIME_S });
	sim.setDefaultExportScript(HELD_EXPORT_SCRIPT);
	gate.close();
	const ttlCalls = Array.from({ length: EXPIRY_CALLS }, (_, i) =>
		expiryCall(`T${String(i).padStart(2, '0')}`),
	);
	t = Date.now();
	const ttlAccepted = Promise.all(ttlCalls.map(async (call) => await send(cluster.url, call)));
	await waitUntil(
		`${EXPIRY_CALLS} executions at the gate`,
		() => gate.held().length >= EXPIRY_CALLS,
		240_000,
		undefined,
		200,
	);
	const atGate = countBy(gate.held().map((c) => c.worker));
	// The credential's first sign-in: one execution passes the gate alone (its export succeeds at once).
	const first = expiryCall('T-first');
	gate.pass(first.callId);
	sim.scriptNextExport({ path: ['Succeeded'] });
	const firstAccepted = send(cluster.url, first);
	let firstSerial = 0;
	await waitUntil(
		'the first sign-in to be used',
		() => {
			const used = sim.requests
				.slice(ttlLog)
				.find((r) => r.route !== 'Token' && serialOf(r) > ttlTokensBefore && r.status === 200);
			firstSerial = used ? serialOf(used) : 0;
			return firstSerial > 0;
		},
		120_000,
		undefined,
		50,
	);
	// Signed in (n8n stored the token in the credential before sending with it): let all through.
	gate.release();
	const gateOpenedAt = Date.now();
	const signIns = () => sim.requests.slice(ttlLog).filter((r) => r.route === 'Token');
	const firstSignIn = signIns()[0];
	const t0 = firstSignIn.finishedAt ?? firstSignIn.at;
	// Keep the exports in progress through EXPIRIES expiries: the first token's, then each
	// worker's renewed one, EXPIRIES - 1 times.
	let expiriesReached = true;
	await waitUntil(
		`${EXPIRIES} expiries (${1 + WORKERS.length * EXPIRIES} token requests)`,
		() => {
			const failed = executionRows(pg, [WORKFLOWS.expiry]).filter(
				(r) => r.id > ttlSince && FINAL.has(r.status) && r.status !== 'success',
			);
			if (failed.length) throw new Error(`executions ${failed.map((r) => r.id).join(', ')} failed`);
			return sim.createdCounts().tokens - ttlTokensBefore >= 1 + WORKERS.length * EXPIRIES;
		},
		EXPIRIES * (TOKEN_LIFETIME_S + 5) * 1000 + 30_000,
		undefined,
		100,
	).catch(() => (expiriesReached = false));
	const ttlExports = sim.exportIds().filter((id) => !ttlExportsBefore.has(id));
	for (const id of ttlExports) sim.setExportStatus(id, 'Succeeded');
	const exportsReleasedAt = Date.now();
	sim.setDefaultExportScript(DEFAULT_EXPORT_SCRIPT);
	await control(sim, 'token-lifetime', { seconds: DEFAULT_TOKEN_LIFETIME_S });
	const ttlStatuses = [...(await ttlAccepted), await firstAccepted];
	const ttlRows = await settle(suite, [WORKFLOWS.expiry], ttlSince, EXPIRY_CALLS + 1, 300_000);
	timings[`token-lifetime phase (${EXPIRY_CALLS + 1} executions)`] = seconds(Date.now() - t);
	const ttlRequests = sim.requests.slice(ttlLog);
	const ttlTokens = sim.createdCounts().tokens - ttlTokensBefore;
	const ttlSpan = Math.max(...ttlRows.map((r) => r.stoppedAt)) - t0;
	const lifetimesRun = Math.floor(ttlSpan / (TOKEN_LIFETIME_S * 1000));
	const ttlUse = tokenUse(
		pg,
		sim,
		ttlRows,
		ttlLog,
		ttlTokensBefore,
		TOKEN_LIFETIME_S * 1000,
		firstSerial,
	);
	const waitsStartedWith = countBy(
		ttlExports
			.map((id) =>
				ttlRequests.find((r) => r.route === 'GetExportStatus' && r.params.requestId === id),
			)
			.map((r) => (r ? serialOf(r) : 'none')),
	);
	await check(
		`${EXPIRY_CALLS} executions held at the gate at once before reading the credential (${WORKERS.map((w) => `${w} ${atGate[w] ?? 0}`).join(', ')}), then all ${EXPIRY_CALLS + 1} succeeded`,
		() => {
			equal(countBy(ttlStatuses), { 200: EXPIRY_CALLS + 1 }, 'HTTP');
			equal(ttlRows.length, EXPIRY_CALLS + 1, 'executions');
			equal(countBy(ttlRows.map((r) => r.status)), { success: EXPIRY_CALLS + 1 }, 'statuses');
			for (const w of WORKERS) {
				assert(
					(atGate[w] ?? 0) >= EXPIRY_CALLS - WORKER_CONCURRENCY,
					`${w} held ${atGate[w] ?? 0} at the gate`,
				);
			}
			for (const row of ttlRows) {
				const files = output(runData(pg, row.id), 'Download CSV files');
				assert(files.length >= 1 && files.every((f) => f.binary?.data), `files of ${row.id}`);
			}
		},
	);
	await expiryChecks(ttlUse, {
		waited: `while ${EXPIRY_CALLS} executions waited`,
		tokens: ttlTokens,
		spanMs: ttlSpan,
		lifetimes: lifetimesRun,
		firstSignIns: 1,
		details: () => {
			assert(
				expiriesReached,
				`fewer than ${EXPIRIES} expiries in time: ${ttlTokens} token requests`,
			);
			console.log(
				`      the ${ttlExports.length} waits started with token(s) ${JSON.stringify(waitsStartedWith)}; first sign-in (token ${firstSerial}) ${seconds(gateOpenedAt - t0)} before the gate opened; exports released ${seconds(exportsReleasedAt - t0)} after it`,
			);
			console.log(
				`      sign-ins at ${ttlUse.signIns.map((r) => seconds((r.finishedAt ?? r.at) - t0)).join(', ')} (from the first); renewals: ${ttlUse.renewals.map((r) => `token ${r.serial} by ${r.worker}`).join(', ')}`,
			);
		},
	});

	// Executions that keep arriving, each waiting longer than a token lives: a worker runs
	// executions that started with different tokens (its own renewal, or the other worker's,
	// read from the credential), and they expire at different moments.
	console.log(
		`\ntokens expiring while executions keep arriving: a call every ${FLOW_EVERY_MS / 1000} s for ${FLOW_FOR_MS / 1000} s, each export in progress ~${(2 * FLOW_STEP_MS) / 1000} s (tokens live ${TOKEN_LIFETIME_S} s)`,
	);
	const flowSince = maxExecutionId(pg);
	const flowTokensBefore = sim.createdCounts().tokens;
	const flowLog = sim.requests.length;
	await control(sim, 'token-lifetime', { seconds: TOKEN_LIFETIME_S });
	sim.setDefaultExportScript({
		path: ['Queued', 'Processing', 'Succeeded'],
		advanceEvery: { ms: FLOW_STEP_MS },
	});
	t = Date.now();
	const flowStart = Date.now();
	const flowSent: Array<Promise<number>> = [];
	for (let i = 0; Date.now() - flowStart < FLOW_FOR_MS; i++) {
		flowSent.push(send(cluster.url, expiryCall(`F${String(i).padStart(2, '0')}`)));
		await sleep(FLOW_EVERY_MS);
	}
	const flowStatuses = await Promise.all(flowSent);
	const flowRows = await settle(suite, [WORKFLOWS.expiry], flowSince, flowSent.length, 300_000);
	sim.setDefaultExportScript(DEFAULT_EXPORT_SCRIPT);
	await control(sim, 'token-lifetime', { seconds: DEFAULT_TOKEN_LIFETIME_S });
	timings[`tokens expiring while ${flowSent.length} executions arrive`] = seconds(Date.now() - t);
	const flowTokens = sim.createdCounts().tokens - flowTokensBefore;
	const flowSpan = Math.max(...flowRows.map((r) => r.stoppedAt)) - flowStart;
	// Each worker's token, renewed when it runs out, can run out at most this often in the span.
	const flowLifetimes = Math.ceil(flowSpan / (TOKEN_LIFETIME_S * 1000));
	const flowUse = tokenUse(pg, sim, flowRows, flowLog, flowTokensBefore, TOKEN_LIFETIME_S * 1000);
	await check(`all ${flowSent.length} executions succeeded`, () => {
		equal(countBy(flowStatuses), { 200: flowSent.length }, 'HTTP');
		equal(countBy(flowRows.map((r) => r.status)), { success: flowSent.length }, 'statuses');
	});
	await expiryChecks(flowUse, {
		waited: `while executions kept arriving`,
		tokens: flowTokens,
		spanMs: flowSpan,
		lifetimes: flowLifetimes,
		firstSignIns: 0,
		details: () => {
			console.log(
				`      sign-ins at ${flowUse.signIns.map((r) => seconds((r.finishedAt ?? r.at) - flowStart)).join(', ')} (from the first call); per worker ${JSON.stringify(flowUse.perWorker)}`,
			);
		},
	});

	// --- pushed events: the main process receives them, the workers run the executions
	t = Date.now();
	console.log(
		`\nABBYY Vantage Instant Trigger: the simulator's Custom activity (the shipped script, after Review) reports ${PUSHED} transactions to the main process's webhook; the workers run the executions`,
	);
	const pushSince = maxExecutionId(pg);
	const pushUrl = productionUrl(cluster.url, PUSH_WEBHOOK_ID);
	placeScript(sim, ['afterReview'], { secret: eventsSecret, url: pushUrl });
	const pushBearer = await bearer(sim);
	const pushed: string[] = [];
	try {
		for (let i = 0; i < PUSHED; i++)
			pushed.push(
				await launchTransaction(sim, pushBearer, `QP-${i}`, {
					batch: 'queue-push',
					processingMs: 300 + 50 * i,
				}),
			);
		await finished(sim, pushed);
	} finally {
		removeScript(sim);
	}
	const pushRows = await settle(suite, [WORKFLOWS.push], pushSince, PUSHED, 120_000);
	// Requests the script never sends, to the main process: another secret, a captured one again.
	const forged = eventBody(randomUUID());
	const forgedAnswer = await post(
		pushUrl,
		JSON.stringify(forged),
		signedHeaders(forged, randomSecret()),
	);
	const captured = sim.customActivityRuns(pushed[0])[0].requests[0];
	const replayAnswer = await post(pushUrl, captured.body!, captured.headers);
	// A duplicate would show by now.
	await sleep(2000);
	// A worker saves an execution's custom data (Tag execution's callId, worker, invoice) in a
	// handler after the one that saves its status (n8n's execution-lifecycle-hooks.js): read the
	// rows once each has it (seen once without: two finished executions read between the two).
	const pushRowsNow = () => executionRows(pg, [WORKFLOWS.push]).filter((r) => r.id > pushSince);
	await waitUntil(
		'the pushed executions’ custom data',
		() => pushRowsNow().every((r) => r.metadata.callId !== undefined),
		30_000,
	).catch(() => undefined);
	const pushAll = pushRowsNow();
	timings[`Instant Trigger: ${PUSHED} pushed transactions, first launch to last execution`] =
		seconds(Math.max(...pushRows.map((r) => r.stoppedAt)) - t);
	const pushBy = startedBy(suite);
	const pushLabels = new Map(pushed.map((id, i) => [id, `QP-${i}`]));
	await check(
		`${PUSHED} transactions pushed to the main process's webhook: ${PUSHED} executions (webhook mode), one per transaction, each run by one worker with its invoice's fields (Include Results)`,
		() => {
			equal(
				sim
					.customActivityRuns()
					.filter((r) => pushLabels.has(r.transactionId))
					.map((r) => r.requests.map((q) => q.status)),
				pushed.map(() => [202]),
				"the script's answers",
			);
			equal(pushAll.length, PUSHED, 'executions');
			equal(
				countBy(pushAll.map((r) => `${r.mode} ${r.status}`)),
				{ 'webhook success': PUSHED },
				'mode and status',
			);
			const ids = pushAll.map((r) => r.metadata.callId).sort();
			const expected = [...pushed].sort();
			if (JSON.stringify(ids) !== JSON.stringify(expected)) {
				// Seen once under CI's load (two transactions twice, two never): what each execution's
				// trigger output held against what its Tag execution node saved, to tell n8n's
				// metadata from the trigger's items.
				for (const row of pushAll) {
					const items = output(runData(pg, row.id), 'Vantage pushed').map((i) => i.json);
					console.log(
						`      execution ${row.id} (${row.metadata.worker ?? '?'}, started ${new Date(row.startedAt).toISOString()}): metadata callId ${row.metadata.callId}, invoice ${row.metadata.invoice}; trigger items ${JSON.stringify(items.map((j) => [j.transactionId, (j.fields as Json | undefined)?.InvoiceNumber]))}`,
					);
				}
			}
			equal(ids, expected, 'transactions');
			for (const row of pushAll) {
				const by = pushBy.get(row.id);
				assert(
					by?.length === 1 && WORKERS.includes(by[0]),
					`execution ${row.id} run by ${JSON.stringify(by)}`,
				);
				equal(row.metadata.worker, by[0], `the worker execution ${row.id} names`);
				equal(
					row.metadata.invoice,
					pushLabels.get(row.metadata.callId),
					`invoice of ${row.metadata.callId}`,
				);
			}
			console.log(
				`      per worker ${JSON.stringify(countBy(pushAll.map((r) => r.metadata.worker)))}; from the transaction's completion to its execution's start ${pushAll
					.map((r) =>
						seconds(
							r.startedAt - Date.parse(String(sim.transaction(r.metadata.callId)?.completedUtc)),
						),
					)
					.join(', ')}`,
			);
		},
	);
	await check(
		'the main process refuses a forged event (another secret: 401) and a captured one sent again (409); neither starts an execution; the Event Secret is in no log',
		() => {
			equal([forgedAnswer.status, replayAnswer.status], [401, 409], 'statuses');
			equal(pushAll.length, PUSHED, 'executions');
			for (const f of readdirSync(work).filter((name) => name.endsWith('.log'))) {
				assert(
					!readFileSync(join(work, f), 'utf8').includes(eventsSecret),
					`the secret is in ${f}`,
				);
			}
		},
	);

	// --- the trigger's next poll
	t = Date.now();
	const triggerAll = await settle(
		suite,
		[WORKFLOWS.trigger],
		0,
		SEEDED_BEFORE + SEEDED_AFTER,
		150_000,
	);
	await check(
		`the next poll (n8n's minimum: every minute) found the ${SEEDED_AFTER} new completions: one execution per completed transaction, each transaction once`,
		() => {
			equal(triggerAll.length, SEEDED_BEFORE + SEEDED_AFTER, 'executions');
			equal(countBy(triggerAll.map((r) => r.status)), { success: triggerAll.length }, 'statuses');
			const seeded = [...seededBefore, ...seededAfter].sort();
			equal(triggerAll.map((r) => r.metadata.callId).sort(), seeded, 'transactions');
			equal([...sim.deletedTransactionIds()].sort(), seeded, 'deleted transactions, once each');
			console.log(
				`      trigger executions per worker: ${JSON.stringify(countBy(triggerAll.map((r) => r.metadata.worker)))}`,
			);
		},
	);

	// --- a worker killed mid-run
	// A killed worker's job is failed by a surviving worker's stalled-job check once its lock has
	// lapsed (lock duration after the last renewal) and a check has seen it without one twice: the
	// first marks it, the next fails it. Bull runs a check at most once per interval across all
	// workers (a Redis key that lives one interval), so a worker's timer can find the key still
	// there and skip a round: up to two intervals between checks.
	const reportFrom = defaults.lockDurationMs - defaults.lockRenewMs;
	const reportTo = defaults.lockDurationMs + 2 * defaults.stalledIntervalMs;
	console.log(
		`\nworker-2 killed (SIGKILL) while it runs deletes and documents; n8n's defaults: Bull lock ${defaults.lockDurationMs / 1000} s renewed every ${defaults.lockRenewMs / 1000} s, stalled-job check every ${defaults.stalledIntervalMs / 1000} s, queue recovery every ${defaults.recoveryIntervalMin} min (n8n can report the killed executions ${reportFrom / 1000}–${reportTo / 1000} s after the kill)`,
	);
	const killCalls: Call[] = [];
	for (let i = 0; i < 10; i++) {
		const n = String(i).padStart(2, '0');
		killCalls.push(processCall(`K${n}`), deleteCall(`K${n}`, `kill-${n}`, 300, 50));
	}
	const killIds = killCalls.flatMap((c) => c.uniqueIds ?? []);
	sim.seedRecords(CATALOG, killIds);
	sim.setDefaultTransactionScript({ processing: { ms: 8000 } });
	sim.injectFault('DeleteRecords', { kind: 'delay', ms: 2500 }, Infinity);
	const killSince = maxExecutionId(pg);
	const countsBeforeKill = sim.createdCounts();
	const killLog = sim.requests.length;
	const killAccepted = await Promise.all(
		killCalls.map(async (call) => await send(cluster.url, call)),
	);
	const victim = cluster.workers.get('worker-2')!;
	await waitUntil(
		'worker-2 to run three executions',
		() => inFlightOn(suite, 'worker-2', killSince).length >= 3,
		120_000,
		undefined,
		200,
	);
	await sleep(2000);
	const killedIds = inFlightOn(suite, 'worker-2', killSince);
	await kill(victim.proc);
	const killedAt = Date.now();
	// The input of each killed execution, as the main process stored it when it enqueued the job.
	const callOfKilled = new Map(killedIds.map((id) => [id, callIdOf(pg, id)]));
	const statusRightAfter = countBy(
		executionRows(pg, WEBHOOK_WORKFLOWS)
			.filter((r) => killedIds.includes(r.id))
			.map((r) => r.status),
	);
	console.log(
		`[queue] killed worker-2 (pid ${victim.proc.pid}) with executions ${killedIds.join(', ')} in flight; n8n reports right after: ${JSON.stringify(statusRightAfter)}`,
	);
	const killRows = await settle(suite, WEBHOOK_WORKFLOWS, killSince, killCalls.length, 300_000);
	const reportedAfterMs = Date.now() - killedAt;
	timings['kill → n8n reports every execution of the phase ended (polled every second)'] =
		seconds(reportedAfterMs);
	const killedRows = killRows.filter((r) => killedIds.includes(r.id));
	const killedErrors = killedRows.map((r) => String(runError(runData(pg, r.id))?.message ?? ''));
	// When n8n stored each killed execution as ended, after the kill.
	const reportedMs = killedRows.map((r) => r.stoppedAt - killedAt);
	const reportedMin = Math.min(...reportedMs);
	const reportedMax = Math.max(...reportedMs);
	await check(
		`n8n reports the killed worker's ${killedIds.length} executions as ended without success: not ended right after the kill (${JSON.stringify(statusRightAfter)}), then ${JSON.stringify(countBy(killedRows.map((r) => r.status)))} ${seconds(reportedMin)}–${seconds(reportedMax)} after it (n8n's defaults: ${reportFrom / 1000}–${reportTo / 1000} s)`,
		() => {
			// 'new' for one the worker had just taken (its log says started; n8n had not yet stored it
			// as running).
			equal(
				Object.keys(statusRightAfter).filter((s) => s !== 'running' && s !== 'new'),
				[],
				'statuses right after the kill',
			);
			equal(
				Object.values(statusRightAfter).reduce((a, b) => a + b, 0),
				killedIds.length,
				'killed executions stored',
			);
			assert(killedIds.length >= 1, 'nothing was in flight');
			assert(
				reportedMs.every((ms) => Number.isFinite(ms)),
				`stop times ${JSON.stringify(killedRows.map((r) => r.stoppedAt))}`,
			);
			// Not before the killed worker's lock could lapse, nor long after the checks that follow
			// (5 s and 30 s for timers on a loaded machine).
			assert(
				reportedMin >= reportFrom - 5000,
				`reported ${seconds(reportedMin)} after the kill, before the lock could lapse`,
			);
			assert(reportedMax <= reportTo + 30_000, `reported ${seconds(reportedMax)} after the kill`);
			for (const row of killedRows) {
				// 'error' when Bull's stalled check fails the job first (MaxStalledCountError), 'crashed'
				// when the main process's queue recovery finds the execution without a job first.
				assert(
					row.status === 'error' || row.status === 'crashed',
					`execution ${row.id} reported ${row.status}`,
				);
			}
			const messages = [...new Set(killedErrors.filter(Boolean))];
			console.log(
				`      n8n's error: ${messages.map((m) => JSON.stringify(m.slice(0, 160))).join(' | ') || '(none stored)'}`,
			);
		},
	);
	const killBy = startedBy(suite);
	await check('n8n did not run a killed execution again by itself (maxStalledCount 0)', () => {
		for (const id of killedIds) equal(killBy.get(id), ['worker-2'], `workers that started ${id}`);
	});
	await check("the other worker's executions of that phase all succeeded", () => {
		const others = killRows.filter((r) => !killedIds.includes(r.id));
		equal(
			countBy(others.map((r) => r.status)),
			{ success: killCalls.length - killedIds.length },
			'statuses',
		);
		for (const row of others)
			assert(killBy.get(row.id)?.[0] === 'worker-1', `${row.id} on worker-1`);
	});

	// What the killed executions had done, as Vantage shows it.
	const crashedCalls = killCalls.filter((c) =>
		killedIds.some((id) => callOfKilled.get(id) === c.callId),
	);
	// What n8n still holds about them once it has reported them failed.
	const inputKept = killedRows.filter(
		(r) => callIdOf(pg, r.id, r.metadata) === callOfKilled.get(r.id),
	);
	const succeededCalls = new Set(
		killRows.filter((r) => r.status === 'success').map((r) => r.metadata.callId),
	);
	const unfinishedCalls = killCalls.filter((c) => !succeededCalls.has(c.callId));
	const launchedBeforeKill = await transactionsByCall(sim);
	const partial = crashedCalls
		.filter((c) => c.kind === 'delete')
		.map((c) => {
			const left = new Set(sim.recordIds(CATALOG));
			return `${c.label}: ${c.uniqueIds!.filter((id) => !left.has(id)).length}/${c.uniqueIds!.length} deleted`;
		});
	const orphans = crashedCalls.filter(
		(c) => c.kind === 'process' && (launchedBeforeKill.get(c.callId)?.length ?? 0) > 0,
	);
	await check(
		'what the killed executions did is visible in Vantage, attributable to their calls',
		() => {
			equal(crashedCalls.length, killedIds.length, 'calls identified from the stored executions');
			equal(
				crashedCalls.map((c) => c.label).sort(),
				unfinishedCalls.map((c) => c.label).sort(),
				'the killed executions are exactly the calls without a successful execution',
			);
			console.log(
				`      n8n's failed record still holds the webhook's input for ${inputKept.length} of ${killedRows.length} (read right after the kill: ${[...callOfKilled.values()].filter(Boolean).length})`,
			);
			console.log(
				`      killed calls: ${crashedCalls.map((c) => `${c.kind} ${c.label}`).join(', ')}`,
			);
			console.log(`      deletes before the kill: ${partial.join('; ') || 'none'}`);
			console.log(
				`      documents whose transaction Vantage had already received: ${orphans.map((c) => `${c.label} → ${launchedBeforeKill.get(c.callId)!.join(', ')}`).join('; ') || 'none'}`,
			);
			for (const c of orphans) {
				for (const id of launchedBeforeKill.get(c.callId)!) {
					equal(registrationCallId(sim, id), c.callId, `callId registered with ${id}`);
				}
			}
		},
	);

	// The machine comes back; the operator reruns what n8n reported as failed.
	sim.clearFaults();
	sim.setDefaultTransactionScript({ processing: { ms: 1000 } });
	t = Date.now();
	const restarted = await cluster.startWorker('worker-2', WORKER_CONCURRENCY);
	timings['worker-2 restarted'] = seconds(restarted.startedInMs);
	const rerunSince = maxExecutionId(pg);
	const tokensBeforeRerun = sim.createdCounts().tokens;
	const rerunAccepted = await Promise.all(
		crashedCalls.map(async (call) => await send(cluster.url, call)),
	);
	const rerunRows = await settle(
		suite,
		WEBHOOK_WORKFLOWS,
		rerunSince,
		crashedCalls.length,
		300_000,
	);
	timings['rerun of the failed calls'] = seconds(Date.now() - t);
	await check(
		`a rerun of the ${crashedCalls.length} failed calls succeeds (worker-2 restarted with the same user folder)`,
		() => {
			equal(
				countBy([...killAccepted, ...rerunAccepted]),
				{ 200: killCalls.length + crashedCalls.length },
				'HTTP',
			);
			equal(countBy(rerunRows.map((r) => r.status)), { success: crashedCalls.length }, 'statuses');
			equal(
				rerunRows.map((r) => r.metadata.callId).sort(),
				crashedCalls.map((c) => c.callId).sort(),
				'calls rerun',
			);
		},
	);
	await check(
		'the run converges: every record ID of the phase deleted, nothing else; each document processed, nothing created twice except what the kill left',
		async () => {
			equal(sim.recordIds(CATALOG).sort(), [...UNTOUCHED].sort(), 'records left');
			const transactions = await transactionsByCall(sim);
			const succeeded = new Map(
				[...killRows, ...rerunRows]
					.filter((r) => r.status === 'success')
					.map((r) => [r.metadata.callId, r]),
			);
			for (const call of killCalls) {
				const row = succeeded.get(call.callId);
				assert(row, `${call.label} never succeeded`);
				if (call.kind === 'process') {
					const [item] = output(runData(pg, row.id), 'Extract invoice');
					equal(
						[item?.json.status, (item?.json.fields as Json | undefined)?.InvoiceNumber],
						['Processed', call.invoiceNumber],
						`result of ${call.label}`,
					);
					const expected = orphans.includes(call) ? 2 : 1;
					equal(transactions.get(call.callId)?.length, expected, `transactions of ${call.label}`);
					assert(
						transactions.get(call.callId)!.includes(String(item.json.transactionId)),
						`${call.label}'s output names its transaction`,
					);
				} else {
					const [summary] = output(runData(pg, row.id), 'Delete records');
					equal(summary?.json.idsFailed, 0, `failed IDs of ${call.label}`);
				}
			}
			const created = sim.createdCounts();
			equal(
				created.transactions - countsBeforeKill.transactions,
				10 + orphans.length,
				'transactions created in the phase',
			);
			equal(created.exports - countsBeforeKill.exports, 0, 'exports created in the phase');
			equal(created.recordsAdded, 0, 'records added');
			const deletes = sim.requests
				.slice(killLog)
				.filter((r) => r.route === 'DeleteRecords' && r.status === 200)
				.flatMap((r) => r.body as string[]);
			equal(
				[...new Set(deletes)].sort(),
				[...killIds].sort(),
				'IDs sent in delete requests (the rerun resends the killed calls)',
			);
			equal(
				created.tokens,
				tokensBeforeRerun,
				'no sign-in for the restarted worker: it read the stored token',
			);
		},
	);

	// --- the OAuth2 credential on the workers: its access token expired before the first run
	console.log(
		`\nThe ABBYY Vantage OAuth2 API credential ("${OAUTH2.name}", authorization code with PKCE) on the workers: Catalog → Get Many as the signed-in user, the access token expired before the first execution`,
	);
	t = Date.now();
	const storedOAuth = () =>
		pg.sql(`select data from credentials_entity where id = '${OAUTH2.id}'`).join('');
	const oauthStoredBefore = storedOAuth();
	const oauthIssuedBefore = ssoSim.createdCounts().tokens;
	ssoSim.clearLog();
	ssoSim.expireTokens();
	const oauthSince = maxExecutionId(pg);
	const oauthFirst = oauthCall('O1');
	const oauthFirstStatus = await send(cluster.url, oauthFirst);
	const [oauthFirstRow] = await settle(suite, [WORKFLOWS.oauth], oauthSince, 1, 120_000);
	const oauthFirstLog = [...ssoSim.requests];
	const oauthStoredAfter = storedOAuth();
	const oauthMiddle = maxExecutionId(pg);
	ssoSim.clearLog();
	const oauthSecond = oauthCall('O2');
	const oauthSecondStatus = await send(cluster.url, oauthSecond);
	const [oauthSecondRow] = await settle(suite, [WORKFLOWS.oauth], oauthMiddle, 1, 120_000);
	const oauthSecondLog = [...ssoSim.requests];
	timings['OAuth2 credential: two executions on the workers'] = seconds(Date.now() - t);
	const oauthBy = startedBy(suite);
	const refreshSerial = oauthIssuedBefore + 1;
	const grantsIn = (log: LoggedRequest[]) =>
		log
			.filter((r) => r.route === 'Token')
			.map((r) => `${(r.body as Record<string, string>)?.grant_type} ${r.status}`);
	const catalogsIn = (log: LoggedRequest[]) =>
		log.filter((r) => r.route === 'GetCatalogs').map((r) => `${r.status} #${r.tokenSerial}`);
	const listedAsMe = (row: ExecutionRow) =>
		output(runData(pg, row.id), 'List catalogs as me').map((i) => i.json.id);
	const ranOn = (row: ExecutionRow | undefined) =>
		(row && oauthBy.get(row.id)?.join(', ')) ?? 'a worker';
	await check(
		`an execution with the OAuth2 credential on ${ranOn(oauthFirstRow)}: the expired access token refused (401), refreshed once (refresh_token grant), the catalogs listed as the signed-in user`,
		() => {
			equal([oauthFirstStatus, oauthSecondStatus], [200, 200], 'HTTP');
			equal(oauthFirstRow?.status, 'success', 'status');
			equal(oauthFirstRow.metadata.callId, oauthFirst.callId, 'call');
			const by = oauthBy.get(oauthFirstRow.id);
			assert(by?.length === 1 && WORKERS.includes(by[0]), `run by ${JSON.stringify(by)}`);
			equal(oauthFirstRow.metadata.worker, by[0], 'the worker the execution names');
			assert(listedAsMe(oauthFirstRow).includes(FIXTURE.catalogId), 'catalog list');
			equal(grantsIn(oauthFirstLog), ['refresh_token 200'], 'token requests');
			equal(
				catalogsIn(oauthFirstLog),
				[`401 #${connectedSerial}`, `200 #${refreshSerial}`],
				'catalog list requests (status, token)',
			);
			equal(ssoSim.createdCounts().tokens, refreshSerial, 'tokens issued');
		},
	);
	await check(
		`the rotated tokens are stored in the credential in PostgreSQL: the next execution (${ranOn(oauthSecondRow)}) uses them without a refresh`,
		() => {
			assert(oauthStoredAfter !== oauthStoredBefore, 'the stored credential did not change');
			equal(oauthSecondRow?.status, 'success', 'status');
			equal(oauthSecondRow.metadata.callId, oauthSecond.callId, 'call');
			assert(listedAsMe(oauthSecondRow).includes(FIXTURE.catalogId), 'catalog list');
			equal(grantsIn(oauthSecondLog), [], 'token requests');
			equal(catalogsIn(oauthSecondLog), [`200 #${refreshSerial}`], 'catalog list requests');
		},
	);
	await check("no OAuth2 token or client secret in the executions or the processes' logs", () => {
		const text = [
			JSON.stringify(runData(pg, oauthFirstRow.id)),
			JSON.stringify(runData(pg, oauthSecondRow.id)),
			...readdirSync(work)
				.filter((f) => f.endsWith('.log'))
				.map((f) => readFileSync(join(work, f), 'utf8')),
		].join('\n');
		for (const secret of [FIXTURE.clientSecret, connected.refresh_token!, ...ssoSim.issuedTokens()])
			assert(!text.includes(secret), `a secret (${secret.slice(0, 3)}…) is in the output`);
	});

	// --- Process Document waiting for Manual Review (e2e/durableWaitQueue.ts); last: it stops a worker
	t = Date.now();
	await durableWaitQueueChecks({
		url: cluster.url,
		pg,
		redisPort: redis.port,
		sim,
		credential: CREDENTIAL,
		workers: WORKERS.map((name) => ({ name, log: join(work, `${name}.log`) })),
		stopWorker: async (name) => {
			const worker = cluster.workers.get(name);
			if (worker) await stop(worker.proc, 30_000);
		},
	});
	timings[
		`durable waits: ${QUEUE_WAITING} executions wait for review, a worker stopped, the other finishes them`
	] = seconds(Date.now() - t);

	// --- stop everything by process id
	t = Date.now();
	await cluster.stopAll();
	await sim.stop();
	await ssoSim.stop();

	await gate.stop();
	await stop(redis.proc);
	await stop(pg.proc);
	timings['stop (workers, main, Redis, PostgreSQL)'] = seconds(Date.now() - t);
	await check('every process the suite started has ended', () => {
		for (const proc of [
			...cluster.main.map((m) => m.proc),
			...workers.map((w) => w.proc),
			restarted.proc,
			redis.proc,
			pg.proc,
		]) {
			assert(proc.ended(), `${proc.name} (pid ${proc.pid}) still running`);
		}
		// A clean shutdown: the postmaster removed its pid file.
		assert(!existsSync(join(pg.data, 'postmaster.pid')), 'postmaster.pid left behind');
	});
	rmSync(tmp, { recursive: true, force: true });

	const counts = sim.createdCounts();
	console.log('\nmeasured');
	console.log(
		`  executions in flight at once: ${HELD} held by Vantage until all ran (running then by n8n's times: ${WORKERS.map((w) => `${w} ${runningWhenHeld[w]}`).join(', ')}); most running at once during the burst ${burstPeak}`,
	);
	console.log(
		`  token requests: ${counts.tokens} in all (${tokensAtRevoke} before the revoke, ${refreshes} after it with ${inFlight} executions in flight; credential with ${TOKEN_LIFETIME_S} s tokens: ${ttlTokens} while ${EXPIRY_CALLS} executions waited ${seconds(ttlSpan)} (1 first sign-in + ${JSON.stringify(ttlUse.perWorker)}, ${lifetimesRun} lifetimes), ${flowTokens} while ${flowRows.length} executions kept arriving for ${seconds(flowSpan)} (${JSON.stringify(flowUse.perWorker)}, ${flowLifetimes} lifetimes))`,
	);
	console.log(
		`  killed worker: n8n reported its ${killedIds.length} executions ended (${JSON.stringify(countBy(killedRows.map((r) => r.status)))}) ${seconds(reportedMin)}–${seconds(reportedMax)} after the SIGKILL, with n8n's default lock ${defaults.lockDurationMs / 1000} s (renewed every ${defaults.lockRenewMs / 1000} s) and stalled-job check every ${defaults.stalledIntervalMs / 1000} s`,
	);
	console.log(
		`  executions: ${burstRows.length} webhook (per worker ${JSON.stringify(perWorker)}), ${ttlRows.length + flowRows.length} in the token-lifetime phase (per worker ${JSON.stringify(countBy([...ttlRows, ...flowRows].map((r) => r.metadata.worker)))}), ${triggerAll.length} trigger, ${killCalls.length} in the kill phase (${killedIds.length} killed), ${crashedCalls.length} rerun`,
	);
	console.log(
		`  created in Vantage: ${counts.transactions} transactions, ${counts.exports} exports; ${burstIds.length + killIds.length} record IDs deleted`,
	);
	console.log(
		`  most API requests in flight at Vantage at once: ${sim.inFlight().peak} (${WORKERS.length} workers × --concurrency ${WORKER_CONCURRENCY}, each execution's Concurrency Auto limiter on its own)`,
	);
	for (const [what, time] of Object.entries(timings)) console.log(`  ${what}: ${time}`);
	console.log(`\n[queue] finished in ${seconds(Date.now() - started)}`);
	finish();
}

function interrupted(code: number): void {
	killAllNow();
	if (tempFolder) rmSync(tempFolder, { recursive: true, force: true });
	process.exit(code);
}
process.on('SIGINT', () => interrupted(130));
process.on('SIGTERM', () => interrupted(143));

main().catch(async (error) => {
	console.error(error);
	await stopAll().catch(() => killAllNow());
	// PostgreSQL's cluster and Redis's folder; n8n's logs stay in e2e/.work/queue.
	if (tempFolder) rmSync(tempFolder, { recursive: true, force: true });
	finish(1);
});
