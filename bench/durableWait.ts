/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * Benchmark driver, never shipped: a real n8n server, the simulator's Custom activity, n8n's own metrics. */
/**
 * Waiting for Manual Review (issue 40), inside a real n8n 2.41.1 started as users run it (`n8n
 * start`, n8n's defaults, its Prometheus metrics on): 200 executions of Process Document wait for
 * review, once with On Manual Review → Keep Waiting and once with Resume When Vantage Pushes.
 * Measured while they wait: n8n's live JavaScript heap (the least `nodejs_heap_size_used_bytes`
 * over 15 s of samples: what survives garbage collection), its resident memory, the executions n8n
 * counts as running (each holds a slot of n8n's concurrency, in queue mode a worker's), the
 * requests to Vantage per minute, and the bytes n8n's database keeps for them. Then every review
 * ends: the time from a review's end (the simulator finishing the transaction, its script posting
 * after Review) to the end of the resumed execution, for 200 reviews ending at once and for 20
 * ending one at a time.
 *
 * `npm run bench` (alone: `BENCH_ONLY=durable npm run bench`) writes it as BENCHMARKS.md's section
 * 16 with its claims; `npx ts-node --transpile-only --prefer-ts-exts bench/durableWait.ts` prints it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';

import { documentArrivesWorkflow, invoiceFileServer } from '../e2e/lib/documentArrives';
import {
	ensureHost,
	freshInstance,
	hostVersions,
	n8n as n8nCli,
	packPackage,
	WORK,
	writeJson,
} from '../e2e/lib/n8n';
import {
	activate,
	createEventSecret,
	deactivate,
	openSession,
	randomSecret,
	SECRET_NAME,
	URL_NAME,
	type CredentialRef,
	type Session,
} from '../e2e/lib/push';
import { startServer, stopServer } from '../e2e/lib/server';
import { CREDENTIAL, PACKAGE } from '../e2e/lib/setup';
import { fixtureCredentialData, VantageSimulator } from '../test/simulator/simulator';
import { readMetrics } from './realN8n';

type Json = Record<string, unknown>;

export const DURABLE = {
	/** Executions waiting for review at once (issue 40). */
	waiting: 200,
	/** Reviews ending one at a time, and the pause between two. */
	oneByOne: 20,
	oneByOneEveryMs: 500,
	/** How long the waits are watched (memory samples, Vantage requests). */
	watchMs: 60_000,
	/** Scripts Vantage runs at once (the simulator's Custom-activity workers). */
	scriptConcurrency: 16,
};

type Mode = 'wait' | 'resume';

export interface ModeFigures {
	mode: Mode;
	/**
	 * Live heap (MB) before the executions, while they wait, and once all have ended; resident
	 * memory likewise.
	 */
	heapBeforeMB: number;
	heapWaitingMB: number;
	heapAfterMB: number;
	rssBeforeMB: number;
	rssWaitingMB: number;
	rssAfterMB: number;
	/** Executions n8n counts as running while they wait (its concurrency slots). */
	running: number;
	/** Executions stored as waiting. */
	waitingStored: number;
	/** Requests to Vantage per minute while they wait. */
	vantagePerMinute: number;
	/** Bytes of n8n's database (SQLite file and its log) the waits added. */
	databaseKB: number;
	/** Review end → execution end (ms): all at once, then one at a time. */
	burst: number[];
	single: number[];
}

export interface DurableFigures {
	host: string;
	modes: ModeFigures[];
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** n8n's Prometheus metrics: the heap in use and the resident memory (MB). */
async function metrics(url: string): Promise<{ heapMB: number; rssMB: number }> {
	const value = await readMetrics(url);
	return {
		heapMB:
			value('n8n_nodejs_heap_size_used_bytes') / 2 ** 20 ||
			value('nodejs_heap_size_used_bytes') / 2 ** 20,
		rssMB:
			value('n8n_process_resident_memory_bytes') / 2 ** 20 ||
			value('process_resident_memory_bytes') / 2 ** 20,
	};
}

/** The least heap in use over `ms` of samples (what garbage collection leaves), and the median RSS. */
async function settledMemory(url: string, ms = 15_000): Promise<{ heapMB: number; rssMB: number }> {
	const samples: Array<{ heapMB: number; rssMB: number }> = [];
	const until = Date.now() + ms;
	while (Date.now() < until) {
		samples.push(await metrics(url));
		await sleep(500);
	}
	const rss = samples.map((s) => s.rssMB).sort((a, b) => a - b);
	return { heapMB: Math.min(...samples.map((s) => s.heapMB)), rssMB: rss[rss.length >> 1] };
}

type Execution = { id: string; status: string; stoppedAt?: string | null };

/**
 * The executions of `workflowId` with `status`, through n8n's public API, page by page (at most
 * 250 a page; its list leaves running executions out unless asked for them by status).
 */
async function executions(
	session: Session,
	workflowId: string,
	status: 'running' | 'waiting' | 'success' | 'error',
): Promise<Execution[]> {
	const out: Execution[] = [];
	let cursor: string | null | undefined;
	do {
		const query = new URLSearchParams({ workflowId, status, limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const res = await fetch(`${session.url}/api/v1/executions?${query.toString()}`, {
			headers: { 'x-n8n-api-key': session.apiKey },
		});
		if (!res.ok) throw new Error(`executions (${status}): HTTP ${res.status} ${await res.text()}`);
		const page = (await res.json()) as { data?: Execution[]; nextCursor?: string | null };
		out.push(...(page.data ?? []));
		cursor = page.nextCursor;
	} while (cursor);
	return out;
}

function databaseBytes(userFolder: string): number {
	let total = 0;
	for (const file of ['database.sqlite', 'database.sqlite-wal']) {
		try {
			total += statSync(join(userFolder, '.n8n', file)).size;
		} catch {
			// not there
		}
	}
	return total;
}

/** One mode: 200 executions wait, are watched, then every review ends. */
async function measureMode(
	mode: Mode,
	ctx: {
		session: Session;
		sim: VantageSimulator;
		files: string;
		eventSecret: CredentialRef;
		userFolder: string;
	},
): Promise<ModeFigures> {
	const { session, sim } = ctx;
	const path = `bench-durable-${mode}-${Date.now()}`;
	const id = await activate(
		session,
		documentArrivesWorkflow({
			name: `bench: ${mode === 'resume' ? 'Resume When Vantage Pushes' : 'Keep Waiting'}`,
			path,
			vantage: CREDENTIAL,
			eventSecret: ctx.eventSecret,
			// Keep Waiting waits as long as the reviews take.
			options: { onManualReview: mode, timeout: 7200 },
		}),
	);
	try {
		const before = await settledMemory(session.url);
		const dbBefore = databaseBytes(ctx.userFolder);
		const labels = Array.from({ length: DURABLE.waiting }, (_, i) => `BENCH-${mode}-${i}`);
		// 20 webhook calls at a time: n8n starts an execution per call.
		for (let i = 0; i < labels.length; i += 20) {
			await Promise.all(
				labels.slice(i, i + 20).map(async (label) => {
					const res = await fetch(`${session.url}/webhook/${path}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ label, url: `${ctx.files}/${label}.txt` }),
					});
					await res.arrayBuffer();
				}),
			);
		}
		// Every transaction in review: the executions wait (durably, or in memory).
		const inReview = async () =>
			(await executions(session, id, mode === 'resume' ? 'waiting' : 'running')).length;
		for (let waited = 0; (await inReview()) < DURABLE.waiting; waited += 1000) {
			if (waited > 300_000)
				throw new Error(
					`${mode}: ${await inReview()} of ${DURABLE.waiting} waiting after 5 minutes`,
				);
			await sleep(1000);
		}
		// A keep-waiting execution has seen its transaction in review once its polls say so.
		await sleep(5000);
		for (const r of sim.requestsTo('GetTransactionInfo')) {
			if (r.params.transactionId) knownTransactions.add(r.params.transactionId);
		}
		sim.clearLog();
		const watchStart = Date.now();
		const waiting = await settledMemory(session.url, DURABLE.watchMs);
		const vantagePerMinute = (sim.requests.length / (Date.now() - watchStart)) * 60_000;
		const running = (await executions(session, id, 'running')).length;
		const waitingStored = (await executions(session, id, 'waiting')).length;
		const databaseKB = (databaseBytes(ctx.userFolder) - dbBefore) / 1024;

		// The reviews end: 20 one at a time, then the other 180 at once.
		const byLabel = transactionsByLabel(sim);
		const transactions = labels.map((label) => {
			const found = byLabel.get(label);
			if (!found) throw new Error(`no transaction for ${label}`);
			return { label, id: found };
		});
		const endedAt = new Map<string, number>();
		const finishReview = (t: { label: string; id: string }) => {
			endedAt.set(t.label, Date.now());
			sim.completeTransaction(t.id);
		};
		const single = transactions.slice(0, DURABLE.oneByOne);
		for (const t of single) {
			finishReview(t);
			await sleep(DURABLE.oneByOneEveryMs);
		}
		const burst = transactions.slice(DURABLE.oneByOne);
		for (const t of burst) finishReview(t);
		let done: Execution[] = [];
		for (let waited = 0; ; waited += 1000) {
			done = await executions(session, id, 'success');
			const failed = await executions(session, id, 'error');
			if (failed.length)
				throw new Error(`${mode}: executions ${failed.map((e) => e.id).join(', ')} failed`);
			if (done.length >= DURABLE.waiting) break;
			if (waited > 600_000) throw new Error(`${mode}: ${done.length} of ${DURABLE.waiting} ended`);
			await sleep(1000);
		}
		// Each execution's label: the transaction it launched is the one with its review's end.
		const labelOf = await executionLabels(
			session,
			done.map((e) => e.id),
		);
		// What n8n holds once nothing waits: the other baseline.
		const after = await settledMemory(session.url);
		const latency = (set: Array<{ label: string }>) =>
			set.map(({ label }) => {
				const execution = done.find((e) => labelOf.get(e.id) === label);
				return Date.parse(String(execution?.stoppedAt)) - endedAt.get(label)!;
			});
		return {
			mode,
			heapBeforeMB: before.heapMB,
			heapWaitingMB: waiting.heapMB,
			heapAfterMB: after.heapMB,
			rssBeforeMB: before.rssMB,
			rssWaitingMB: waiting.rssMB,
			rssAfterMB: after.rssMB,
			running,
			waitingStored,
			vantagePerMinute,
			databaseKB,
			burst: latency(burst),
			single: latency(single),
		};
	} finally {
		await deactivate(session, id);
	}
}

/** Transaction ids the node read (GetTransactionInfo), collected from the simulator's log. */
const knownTransactions = new Set<string>();

/** The transactions the node launched, by their Label registration parameter. */
function transactionsByLabel(sim: VantageSimulator): Map<string, string> {
	const byLabel = new Map<string, string>();
	for (const id of knownTransactions) {
		const label = sim.transaction(id)?.registrationParameters.find((p) => p.key === 'Label')?.value;
		if (label) byLabel.set(label, id);
	}
	return byLabel;
}

/** The label each execution's webhook received (the public API's data of each). */
async function executionLabels(session: Session, ids: string[]): Promise<Map<string, string>> {
	const out = new Map<string, string>();
	for (let i = 0; i < ids.length; i += 20) {
		await Promise.all(
			ids.slice(i, i + 20).map(async (id) => {
				const res = await fetch(`${session.url}/api/v1/executions/${id}?includeData=true`, {
					headers: { 'x-n8n-api-key': session.apiKey },
				});
				const execution = (await res.json()) as {
					data?: {
						resultData?: {
							runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: Json }>> } }>>;
						};
					};
				};
				const body = execution.data?.resultData?.runData?.['Document arrives']?.[0]?.data
					?.main?.[0]?.[0]?.json?.body as Json | undefined;
				if (typeof body?.label === 'string') out.set(id, body.label);
			}),
		);
	}
	return out;
}

export async function durableWaitBench(): Promise<DurableFigures> {
	await ensureHost();
	const sim = new VantageSimulator({ port: 0 });
	await sim.start();
	const files = await invoiceFileServer('Bench GmbH');
	const work = join(WORK, 'bench-durable');
	const instance = await freshInstance(packPackage(join(work, 'pack')), PACKAGE, work);
	writeJson(join(work, 'credentials.json'), [
		{ ...CREDENTIAL, type: 'abbyyVantageApi', data: fixtureCredentialData(sim.url) },
	]);
	const imported = await n8nCli(instance, [
		'import:credentials',
		`--input=${join(work, 'credentials.json')}`,
	]);
	if (imported.code !== 0)
		throw new Error(`import:credentials: ${imported.stdout}${imported.stderr}`);
	const server = await startServer(instance, {
		WEBHOOK_URL: `http://127.0.0.1:${instance.env.N8N_PORT}/`,
		N8N_METRICS: 'true',
	});
	const secret = randomSecret();
	sim.setDefaultTransactionScript({ processing: { ms: 300 }, manualReview: { ms: 3600_000 } });
	sim.configureCustomActivity({
		placements: ['afterReview'],
		allowPlainHttpOnLoopback: true,
		concurrency: DURABLE.scriptConcurrency,
	});
	sim.setSecrets({ [SECRET_NAME]: secret, [URL_NAME]: null });
	// Every transaction the node reads, from the simulator's request log.
	const collect = setInterval(() => {
		for (const r of sim.requestsTo('GetTransactionInfo')) {
			if (r.params.transactionId) knownTransactions.add(r.params.transactionId);
		}
	}, 200);
	try {
		const session = await openSession(server.url);
		const eventSecret = await createEventSecret(session, 'ABBYY Vantage events (bench)', secret);
		const modes: ModeFigures[] = [];
		for (const mode of ['resume', 'wait'] as Mode[]) {
			console.log(
				`[bench] durable wait: ${DURABLE.waiting} executions, ${mode === 'resume' ? 'Resume When Vantage Pushes' : 'Keep Waiting'}`,
			);
			modes.push(
				await measureMode(mode, {
					session,
					sim,
					files: files.url,
					eventSecret,
					userFolder: instance.userFolder,
				}),
			);
		}
		return { host: hostVersions().label, modes };
	} finally {
		clearInterval(collect);
		await stopServer(server);
		files.server.close();
		await sim.stop();
	}
}

const ms = (v: number) => (Number.isFinite(v) ? `${(v / 1000).toFixed(1)} s` : '–');
const mb = (v: number) => (Number.isFinite(v) ? `${Math.round(v) || 0} MB` : '–');
const label = (m: ModeFigures) =>
	m.mode === 'resume' ? 'Resume When Vantage Pushes' : 'Keep Waiting';

/**
 * This bench's bounds on what 200 durable waits may hold: what the measure cannot tell from
 * nothing (the live heap), and what n8n's allocator moves on its own (resident memory).
 */
export const HEAP_BOUND_MB = 5;
export const RSS_BOUND_MB = 50;

/**
 * What the waits hold: while they wait, against the lower of before they started and after they
 * all ended (the stricter baseline: warm-up and the resumes' own garbage count against them).
 */
export function held(m: ModeFigures, what: 'heap' | 'rss'): number {
	return what === 'heap'
		? m.heapWaitingMB - Math.min(m.heapBeforeMB, m.heapAfterMB)
		: m.rssWaitingMB - Math.min(m.rssBeforeMB, m.rssAfterMB);
}
/** Review end → resumed output, one review at a time: the Instant Trigger's target (issue 39). */
export const RESUME_P95_GOAL_MS = 2000;

/** Section 16's table (BENCHMARKS.md): a row per On Manual Review choice. */
export function durableWaitRows(f: DurableFigures): string {
	return f.modes
		.map(
			(m) =>
				`| ${label(m)} | ${mb(held(m, 'heap'))} (${mb(m.heapBeforeMB)} → ${mb(m.heapWaitingMB)} → ${mb(m.heapAfterMB)}) | ${mb(held(m, 'rss'))} (${mb(m.rssBeforeMB)} → ${mb(m.rssWaitingMB)} → ${mb(m.rssAfterMB)}) | ${m.running} running, ${m.waitingStored} waiting | ${m.vantagePerMinute.toFixed(0)} | ${m.databaseKB.toFixed(0)} KB | ${ms(percentile(m.single, 50))} / ${ms(percentile(m.single, 95))} / ${ms(Math.max(...m.single))} | ${ms(percentile(m.burst, 50))} / ${ms(percentile(m.burst, 95))} / ${ms(Math.max(...m.burst))} |`,
		)
		.join('\n');
}

export interface Claim {
	claim: string;
	figure: string;
	holds: boolean;
}

/** Issue 40's claims, from this run's figures. */
export function durableWaitClaims(f: DurableFigures): Claim[] {
	const resume = f.modes.find((m) => m.mode === 'resume');
	const wait = f.modes.find((m) => m.mode === 'wait');
	if (!resume) return [];
	const heap = held(resume, 'heap');
	const rss = held(resume, 'rss');
	const p95 = percentile(resume.single, 95);
	const beside = (text: string) => (wait ? ` (Keep Waiting: ${text})` : '');
	return [
		{
			claim: `Inside n8n 2.41.1: ${DURABLE.waiting} executions waiting for Manual Review with Resume When Vantage Pushes hold no execution slot (none running; in queue mode, no worker) and send Vantage no request while they wait (section 16)`,
			figure: `${resume.running} running, ${resume.waitingStored} waiting in n8n's database; ${resume.vantagePerMinute.toFixed(0)} Vantage requests per minute${beside(`${wait?.running} running, ${wait?.vantagePerMinute.toFixed(0)} per minute`)}`,
			holds:
				resume.running === 0 &&
				resume.waitingStored === DURABLE.waiting &&
				resume.vantagePerMinute === 0,
		},
		{
			claim: `The same ${DURABLE.waiting} waits hold no memory beyond what n8n's database keeps: n8n's live heap ≤ ${HEAP_BOUND_MB} MB and its resident memory ≤ ${RSS_BOUND_MB} MB above the lower of before and after them (section 16; this bench's bounds)`,
			figure: `${mb(heap)} live heap, ${mb(rss)} resident; database +${resume.databaseKB.toFixed(0)} KB${wait ? beside(`${mb(held(wait, 'heap'))} live heap, ${mb(held(wait, 'rss'))} resident`) : ''}`,
			holds: heap <= HEAP_BOUND_MB && rss <= RSS_BOUND_MB,
		},
		{
			claim: `From a review's end to the resumed execution's end (Resume When Vantage Pushes), reviews ending one at a time: p95 ≤ ${RESUME_P95_GOAL_MS / 1000} s on this machine, the Instant Trigger's target (section 16)`,
			figure: `p95 ${ms(p95)}; ${DURABLE.waiting - DURABLE.oneByOne} ending at once: p95 ${ms(percentile(resume.burst, 95))}${beside(`p95 ${ms(percentile(wait?.single ?? [], 95))}, at once ${ms(percentile(wait?.burst ?? [], 95))}`)}`,
			holds: p95 <= RESUME_P95_GOAL_MS,
		},
	];
}

/** The section as the standalone run prints it. */
export function durableWaitSection(f: DurableFigures): string {
	return [
		`### Waiting for Manual Review: ${DURABLE.waiting} executions (${f.host})`,
		'',
		"| On Manual Review | Live heap held (before → waiting → after) | Resident memory held (before → waiting → after) | n8n's executions | Vantage requests / min | Database added | Review end → execution end, one at a time (p50 / p95 / max) | All at once (p50 / p95 / max) |",
		'|---|---|---|---|---|---|---|---|',
		durableWaitRows(f),
		'',
		...durableWaitClaims(f).map(
			(c) => `- ${c.claim}: ${c.figure} (${c.holds ? 'holds' : 'does not hold'})`,
		),
		'',
	].join('\n');
}

if (require.main === module) {
	durableWaitBench().then(
		(f) => {
			console.log(`\n${durableWaitSection(f)}`);
			console.log(JSON.stringify(f));
			process.exit(0);
		},
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
