/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * Benchmark driver, never shipped: a real n8n server, the simulator's Custom activity, the executions n8n stored. */
/**
 * Pushed events (issue 39) inside a real n8n 2.41.1 started as users run it (`n8n start`, n8n's
 * defaults): the simulator's Custom activity runs the shipped script (custom-activity/n8n-events.js)
 * after Review and pushes to the ABBYY Vantage Instant Trigger's production URL. Measured, from the
 * executions n8n stored and the simulator's records:
 *
 * (a) how long after Vantage completed a transaction its workflow started: the Instant Trigger
 *     against the ABBYY Vantage Trigger polling at its shortest Poll Times (Every Minute), side by
 *     side in one n8n, transactions completing at a steady pace;
 * (b) the Vantage API requests each costs while nothing happens, per hour;
 * (c) 1 000 transactions completing within a minute, pushed: executions stored (each transaction
 *     exactly once), the script's answers, the time to drain, and the peak memory of n8n's main
 *     process, in a 1 GiB memory cgroup and without a limit (section 13's burst, polled, beside it).
 *
 * BENCH_PUSH_PARTS (comma-separated; default `latency,burst,isolates`): `latency` is (a) and (b),
 * `burst` is (c), `control` is (c)'s control: the same minute of requests posted straight to n8n's
 * own Webhook node, what n8n itself takes at that rate; `isolates` is (d), the expression isolates
 * n8n acquires per request, from its own metrics; `postgres` is (c) with n8n's database on
 * PostgreSQL (Debian's, started on loopback) instead of SQLite.
 *
 * Diagnostics (not in the report's defaults): BENCH_N8N_ENV, a JSON object of environment
 * variables for the burst's n8n (for example `{"N8N_EXPRESSION_ENGINE":"legacy"}`);
 * BENCH_WEBHOOK_VERSION=1 runs the control with the Webhook node's version 1, whose requests n8n
 * 2.x gives an expression isolate as it does every other trigger's; BENCH_CONTROL_GROUP=16 sends
 * the control's posts 16 at a time at the same average rate.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort, type N8nInstance } from '../e2e/lib/n8n';
import { n8nDatabaseEnv, postgresBin, startPostgres } from '../e2e/lib/queue/postgres';
import { stop } from '../e2e/lib/queue/processes';
import { publicApi, rest, storedExecutions, type StoredExecution } from '../e2e/lib/server';
import { CREDENTIAL } from '../e2e/lib/setup';
import {
	EVENT_SECRET_TYPE,
	INSTANT_NODE,
	instantWorkflow,
	openSession,
	triggerItems,
	productionUrl,
	randomSecret,
	SECRET_NAME,
	URL_NAME,
	type Session,
} from '../e2e/lib/push';
import { FIXTURE } from '../test/simulator/simulator';
import { control, fmt, requestLog, type LogEntry } from './measure';
import {
	importBenchCredential,
	readMetrics,
	startInPlacement,
	startN8nServer,
	stopN8nServer,
	type HeapSetting,
	type Placement,
} from './realN8n';

type Json = Record<string, unknown>;

export const PUSH = {
	/** (a): how long transactions keep completing, one pushed every `pushEveryMs`, one polled every `pollEveryMs`. */
	latencyForMs: 150_000,
	pushEveryMs: 2_000,
	pollEveryMs: 7_500,
	/** (b): how long nothing happens. */
	idleMs: 125_000,
	/** (c): transactions completing within `burstForMs`. */
	burst: 1000,
	burstForMs: 60_000,
	/** Scripts Vantage runs at once (the simulator's Custom-activity workers). */
	scriptConcurrency: 16,
	/** Goal of issue 39: push p95 ≤ 2 s on 2 cores. */
	p95GoalMs: 2000,
};

const POLLED = 'Completed, polled';

/** `label` with what BENCH_N8N_ENV sets, if anything. */
function withEnv(label: string): string {
	const set = Object.entries(extraEnv()).map(([name, value]) => `${name}=${value}`);
	return set.length ? `${label}, ${set.join(', ')}` : label;
}

/** BENCH_N8N_ENV: more environment for the burst's n8n (a diagnostic; see the header). */
function extraEnv(): Record<string, string> {
	return JSON.parse(process.env.BENCH_N8N_ENV ?? '{}') as Record<string, string>;
}
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or a rejection after `ms`: an n8n whose database is jammed may never answer. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	try {
		return await Promise.race([
			promise,
			new Promise<never>((_, reject) => {
				timer = setTimeout(() => reject(new Error(`n8n did not answer within ${ms} ms`)), ms);
			}),
		]);
	} finally {
		clearTimeout(timer);
	}
}

export function percentile(values: number[], p: number): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** An Edit Fields node after each trigger, as section 13's burst workflow has one. */
function fields(name: string, value = '={{ $json.transactionId }}'): Json {
	return {
		id: `${name}-fields`,
		name: 'Fields',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			assignments: {
				assignments: [{ id: 'a1', name: 'transaction', type: 'string', value }],
			},
			options: {},
		},
	};
}

/**
 * The push set up in a running n8n: its Event Secret credential, an active workflow (the Instant
 * Trigger, Transaction Completed, then Edit Fields), and the simulator's Custom activity (after
 * Review, the shipped script) pointed at its production URL. The workflow's id.
 */
async function setUpPush(simUrl: string, session: Session): Promise<string> {
	const secret = randomSecret();
	const credential = await publicApi<Json>(session.url, session.apiKey, 'POST', '/credentials', {
		name: 'ABBYY Vantage events (bench)',
		type: EVENT_SECRET_TYPE,
		data: { secret },
	});
	const { workflow, webhookId } = instantWorkflow({
		name: 'Bench: pushed',
		vantage: CREDENTIAL,
		eventSecret: { id: String(credential.id), name: 'ABBYY Vantage events (bench)' },
		then: [fields('push')],
	});
	const created = await publicApi<Json>(
		session.url,
		session.apiKey,
		'POST',
		'/workflows',
		workflow,
	);
	const id = String(created.id);
	await publicApi(session.url, session.apiKey, 'POST', `/workflows/${id}/activate`);
	await control(simUrl, 'POST', 'custom-activity', {
		placements: ['afterReview'],
		allowPlainHttpOnLoopback: true,
		concurrency: PUSH.scriptConcurrency,
	});
	await control(simUrl, 'POST', 'secrets', {
		secrets: { [SECRET_NAME]: secret, [URL_NAME]: productionUrl(session.url, webhookId) },
	});
	return id;
}

async function tearDownPush(simUrl: string): Promise<void> {
	await control(simUrl, 'DELETE', 'custom-activity');
	await control(simUrl, 'DELETE', 'secrets', {});
	await control(simUrl, 'DELETE', 'custom-activity/runs');
}

/**
 * A transaction completing in Vantage with the Custom activity after Review: created, then run to
 * the end of its flow at once (the script pushes, the transaction is Processed when it returns).
 */
async function completePushed(simUrl: string): Promise<string> {
	const { transactionId } = (await control(simUrl, 'POST', 'transactions', {
		skillId: FIXTURE.documentSkillId,
	})) as { transactionId: string };
	await control(simUrl, 'POST', 'complete-transaction', { transactionId });
	return transactionId;
}

interface Run {
	transactionId: string;
	placement: string;
	outcome: string;
	finishedAt: number | null;
	log: string[];
	requests: Array<{ status?: number; error?: string }>;
}

/** The Custom-activity runs so far, by transaction: when each transaction completed, what n8n answered. */
async function runsByTransaction(simUrl: string): Promise<Map<string, Run>> {
	const runs = (await control(simUrl, 'GET', 'custom-activity/runs')) as unknown as Run[];
	return new Map(runs.map((r) => [r.transactionId, r]));
}

/** Executions of `workflowId` n8n stored with `statuses` (the editor's count). */
async function count(session: Session, workflowId: string, statuses: string[]): Promise<number> {
	const filter = JSON.stringify({ workflowId, status: statuses });
	const page = await within(
		15_000,
		rest<{ count: number }>(
			session.url,
			session.cookie,
			'GET',
			`/executions?filter=${encodeURIComponent(filter)}&limit=1`,
		),
	);
	return page.count;
}

/** The executions of `workflowId` with their data, or none when n8n does not answer in 2 minutes. */
async function executionsOf(
	session: Session,
	workflowId: string,
): Promise<StoredExecution[] | undefined> {
	return await within(
		120_000,
		storedExecutions(session.url, session.apiKey, workflowId, true),
	).catch(() => undefined);
}

/** How many states the workflow's record of deliveries (its static data) says were delivered. */
async function recorded(session: Session, workflowId: string): Promise<number | undefined> {
	const workflow = await within(
		30_000,
		publicApi<Json>(session.url, session.apiKey, 'GET', `/workflows/${workflowId}`),
	).catch(() => undefined);
	const record = ((workflow?.staticData as Json | undefined)?.global as Json | undefined)
		?.abbyyVantageDeliveries as Json | undefined;
	return record ? Object.keys((record.delivered as Json | undefined) ?? {}).length : undefined;
}

const ALL = ['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting'];
const PENDING = ['new', 'running'];

/** The transaction each execution was started for, and when it started. */
function starts(
	executions: StoredExecution[],
	node: string,
	idOf: (json: Json) => unknown = (json) => json.transactionId,
): Map<string, number[]> {
	const by = new Map<string, number[]>();
	for (const execution of executions) {
		// An execution n8n stored and has not run yet counts: its transaction was handed over.
		for (const json of triggerItems(execution, node)) {
			const id = String(idOf(json));
			by.set(id, [...(by.get(id) ?? []), Date.parse(String(execution.startedAt))]);
		}
	}
	return by;
}

export interface Latencies {
	push: number[];
	poll: number[];
	/** Transactions without an execution (either way). */
	missing: { push: number; poll: number };
}

export interface Idle {
	minutes: number;
	pollRequests: number;
	polls: number;
	pushRequests: number;
}

export interface PushBurst {
	where: string;
	survived: boolean;
	mainPeakMB: number;
	childPeakMB: number;
	containerPeakMB?: number;
	executions: number;
	statuses: Record<string, number>;
	missing: number;
	twice: number;
	foreign: number;
	/** Seconds the 1 000 took to complete in the simulator (the scripts' last return). */
	completedInMs: number;
	drainMs: number;
	pendingPeak: number;
	latency: number[];
	/** What n8n answered the script, per transaction ('202', '409', 'gave up: …'). */
	answers: Record<string, number>;
	/** Vantage API requests n8n sent per pushed transaction, by route. */
	requestsPer: Record<string, number>;
	/** Whether n8n answered the list of its executions at the end. */
	answered: boolean;
	/** States the workflow's record of deliveries says were delivered, when n8n gave it. */
	recorded?: number;
}

export interface PushResult {
	latencies?: Latencies;
	idle?: Idle;
	bursts: PushBurst[];
	isolates?: IsolateCounts;
	rows: { latency: string; idle: string; burst: string; isolates: string };
}

/**
 * (a) and (b) in one fresh `n8n start` (n8n's defaults, no memory limit): the push workflow and a
 * polling one (Transaction Completed of the bench's batch, Every Minute), transactions completing
 * at a steady pace for both, then nothing for two polls.
 */
export async function latencyAndIdle(
	simUrl: string,
	instance: N8nInstance,
): Promise<{ latencies: Latencies; idle: Idle }> {
	const env = { ...instance.env };
	delete env.DB_SQLITE_POOL_SIZE;
	const server = await startN8nServer({ ...instance, env }, {});
	const batch = `bench-push-poll-${Date.now()}`;
	try {
		const session = await openSession(server.url);
		await control(simUrl, 'DELETE', 'custom-activity/runs');
		const pushId = await setUpPush(simUrl, session);
		const polled = await publicApi<Json>(session.url, session.apiKey, 'POST', '/workflows', {
			name: 'Bench: polled every minute',
			nodes: [
				{
					id: 'poll-trigger',
					name: POLLED,
					type: 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {
						pollTimes: { item: [{ mode: 'everyMinute' }] },
						event: 'transactionCompleted',
						transactionParameters: { parameter: [{ key: 'Batch', value: batch }] },
					},
					credentials: { abbyyVantageApi: CREDENTIAL },
				},
				{ ...fields('poll'), position: [200, 0] },
			],
			connections: { [POLLED]: { main: [[{ node: 'Fields', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		const pollId = String(polled.id);
		await control(simUrl, 'DELETE', 'requests');
		await publicApi(session.url, session.apiKey, 'POST', `/workflows/${pollId}/activate`);
		const isPoll = (r: LogEntry) =>
			r.route === 'GetCompletedTransactions' &&
			r.query?.['TransactionParameters[0].Value'] === batch;
		const activated = Date.now() + 60_000;
		while (!(await requestLog(simUrl)).some(isPoll) && Date.now() < activated) await sleep(200);

		// (a) Transactions complete for both triggers at a steady pace.
		const seeded = new Map<string, number>();
		const pushed: string[] = [];
		const began = Date.now();
		let nextPoll = began;
		while (Date.now() - began < PUSH.latencyForMs) {
			pushed.push(await completePushed(simUrl));
			if (Date.now() >= nextPoll) {
				const at = Date.now();
				const { transactionIds } = (await control(simUrl, 'POST', 'completed-transactions', {
					count: 1,
					registrationParameters: [{ key: 'Batch', value: batch }],
				})) as { transactionIds: string[] };
				seeded.set(transactionIds[0], at);
				nextPoll += PUSH.pollEveryMs;
			}
			await sleep(PUSH.pushEveryMs);
		}
		// The last seeded waits for the next minute's poll.
		const deadline = Date.now() + 75_000;
		let pollStarts = new Map<string, number[]>();
		let pushStarts = new Map<string, number[]>();
		do {
			await sleep(2000);
			pollStarts = starts((await executionsOf(session, pollId)) ?? [], POLLED);
			pushStarts = starts((await executionsOf(session, pushId)) ?? [], INSTANT_NODE);
		} while (
			Date.now() < deadline &&
			([...seeded.keys()].some((id) => !pollStarts.has(id)) ||
				pushed.some((id) => !pushStarts.has(id)))
		);
		const runs = await runsByTransaction(simUrl);
		const latencies: Latencies = {
			push: pushed
				.filter((id) => pushStarts.has(id))
				.map((id) => pushStarts.get(id)![0] - Number(runs.get(id)?.finishedAt))
				.filter(Number.isFinite),
			poll: [...seeded]
				.filter(([id]) => pollStarts.has(id))
				.map(([id, at]) => pollStarts.get(id)![0] - at)
				.filter(Number.isFinite),
			missing: {
				push: pushed.filter((id) => !pushStarts.has(id)).length,
				poll: [...seeded.keys()].filter((id) => !pollStarts.has(id)).length,
			},
		};

		// (b) Nothing happens: two polls.
		await control(simUrl, 'DELETE', 'requests');
		await sleep(PUSH.idleMs);
		// Every API request of the two minutes: the polling workflow's are its list reads (its
		// batch's filter); anything else would be the Instant Trigger's (a token, a read).
		const log = (await requestLog(simUrl)).filter((r) => r.route !== null);
		const idle: Idle = {
			minutes: PUSH.idleMs / 60_000,
			pollRequests: log.filter(isPoll).length,
			polls: log.filter(isPoll).length,
			pushRequests: log.filter((r) => !isPoll(r)).length,
		};
		await publicApi(session.url, session.apiKey, 'POST', `/workflows/${pollId}/deactivate`);
		await publicApi(session.url, session.apiKey, 'POST', `/workflows/${pushId}/deactivate`);
		console.log(`\n   (push, (a) and (b): ${JSON.stringify({ latencies, idle })})`);
		return { latencies, idle };
	} finally {
		await tearDownPush(simUrl).catch(() => undefined);
		await stopN8nServer(server);
	}
}

/**
 * Read n8n's counts of workflow `workflowId`'s executions (all, pending) every second until
 * `settled(total, pending, ms the counts have stood still)` says so, n8n has not answered for two
 * minutes, `alive()` is false, or `limitMs` after `began`. While `waiting()` is true, the counts
 * count as moving. The most executions pending at once.
 */
async function awaitSettled(
	session: Session,
	workflowId: string,
	o: {
		began: number;
		limitMs: number;
		alive: () => boolean;
		settled: (total: number, pending: number, stillMs: number) => boolean;
		waiting?: () => Promise<boolean>;
	},
): Promise<number> {
	let last = -1;
	let lastPending = -1;
	let stableSince = Date.now();
	let answeredAt = Date.now();
	let pendingPeak = 0;
	while (o.alive() && Date.now() - o.began < o.limitMs) {
		await sleep(1000);
		const counted = await Promise.all([
			count(session, workflowId, ALL),
			count(session, workflowId, PENDING),
		]).catch(() => undefined);
		if (!counted) {
			if (Date.now() - answeredAt > 120_000) break;
			continue;
		}
		answeredAt = Date.now();
		const [total, pending] = counted;
		pendingPeak = Math.max(pendingPeak, pending);
		const waiting = (await o.waiting?.()) ?? false;
		if (total !== last || pending !== lastPending || waiting) {
			[last, lastPending, stableSince] = [total, pending, Date.now()];
			continue;
		}
		if (o.settled(total, pending, Date.now() - stableSince)) break;
	}
	return pendingPeak;
}

/** What (c)'s executions tell of `ids`, each started (`started`, by transaction) once, and of n8n's drain after `began`. */
function tally(
	executions: StoredExecution[],
	started: Map<string, number[]>,
	ids: string[],
	began: number,
) {
	const statuses: Record<string, number> = {};
	let lastStop = began;
	for (const execution of executions) {
		statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
		if (execution.stoppedAt) lastStop = Math.max(lastStop, Date.parse(execution.stoppedAt));
	}
	const wanted = new Set(ids);
	return {
		executions: executions.length,
		statuses,
		missing: ids.filter((tx) => !started.has(tx)).length,
		twice: [...started].filter(([tx, at]) => wanted.has(tx) && at.length > 1).length,
		foreign: [...started.keys()].filter((tx) => !wanted.has(tx)).length,
		drainMs: lastStop - began,
	};
}

/** (c) One burst in a fresh `n8n start` (in `where.cgroup` when given). */
export async function pushBurst(
	simUrl: string,
	instance: N8nInstance,
	where: Placement,
): Promise<PushBurst> {
	const { server, memory, alive } = await startInPlacement(instance, where, extraEnv());
	try {
		const session = await openSession(server.url);
		await control(simUrl, 'DELETE', 'custom-activity/runs');
		const id = await setUpPush(simUrl, session);
		await control(simUrl, 'DELETE', 'requests');
		// PUSH.burst transactions complete evenly over PUSH.burstForMs.
		const began = Date.now();
		const ids: string[] = [];
		const launches: Array<Promise<void>> = [];
		for (let i = 0; i < PUSH.burst; i++) {
			const due = began + (i * PUSH.burstForMs) / PUSH.burst;
			if (due > Date.now()) await sleep(due - Date.now());
			launches.push(completePushed(simUrl).then((tx) => void ids.push(tx)));
		}
		await Promise.all(launches);
		// Done once every script has returned and n8n's counts stand still: 3 s with all stored and
		// nothing pending (a duplicate would show), 20 s with nothing pending, or a minute with
		// executions that never end; or when n8n has not answered for two minutes.
		let completedInMs = NaN;
		const pendingPeak = await awaitSettled(session, id, {
			began,
			limitMs: 15 * 60_000,
			alive,
			waiting: async () => {
				if (Number.isNaN(completedInMs)) {
					const state = (await control(simUrl, 'GET', 'state')) as {
						transactions: Array<{ id: string; status: string }>;
					};
					const mine = new Set(ids);
					const open = state.transactions.filter(
						(t) => mine.has(t.id) && t.status === 'Processing',
					);
					if (!open.length) completedInMs = Date.now() - began;
				}
				return Number.isNaN(completedInMs);
			},
			settled: (total, pending, still) =>
				(pending === 0 && total >= PUSH.burst && still > 3000) ||
				(pending === 0 && still > 20_000) ||
				still > 60_000,
		});
		const peaks = memory.stop();
		const log = await requestLog(simUrl);
		await publicApi(session.url, session.apiKey, 'POST', `/workflows/${id}/deactivate`).catch(
			() => undefined,
		);
		const survived = alive();
		const stored = survived ? await executionsOf(session, id) : undefined;
		const executions = stored ?? [];
		const inRecord = survived ? await recorded(session, id) : undefined;
		const runs = await runsByTransaction(simUrl);
		const started = starts(executions, INSTANT_NODE);
		const answers: Record<string, number> = {};
		for (const tx of ids) {
			const run = runs.get(tx);
			const answer = !run
				? 'no script run'
				: run.requests.length === 1
					? String(run.requests[0].status ?? run.requests[0].error)
					: `${run.requests.length} attempts: ${run.requests.map((r) => r.status ?? 'no answer').join(', ')}`;
			answers[answer] = (answers[answer] ?? 0) + 1;
		}
		const requestsPer: Record<string, number> = {};
		for (const r of log) {
			if (!r.route || r.route === 'Token') continue;
			requestsPer[r.route] = (requestsPer[r.route] ?? 0) + 1 / PUSH.burst;
		}
		return {
			where: withEnv(where.label),
			survived,
			...peaks,
			containerPeakMB: where.cgroup?.peakMB(),
			...tally(executions, started, ids, began),
			completedInMs,
			pendingPeak,
			latency: ids
				.filter((tx) => started.has(tx) && runs.get(tx)?.finishedAt)
				.map((tx) => started.get(tx)![0] - Number(runs.get(tx)!.finishedAt))
				.filter(Number.isFinite),
			answers,
			requestsPer,
			answered: stored !== undefined,
			recorded: inRecord,
		};
	} finally {
		memory.stop();
		await tearDownPush(simUrl).catch(() => undefined);
		await stopN8nServer(server);
	}
}

/**
 * An active workflow of n8n's own Webhook node (`version`) and the Edit Fields node the push
 * workflow has: the control of (c) and (d). Its id, and the path its production URL ends with.
 */
async function webhookWorkflow(
	session: Session,
	version: number,
): Promise<{ id: string; path: string }> {
	const path = `control-${randomUUID()}`;
	const created = await publicApi<Json>(session.url, session.apiKey, 'POST', '/workflows', {
		name: 'Bench: Webhook node control',
		nodes: [
			{
				id: 'control-webhook',
				name: WEBHOOK_NODE,
				type: 'n8n-nodes-base.webhook',
				typeVersion: version,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			},
			{ ...fields('control', '={{ $json.body.transactionId }}'), position: [200, 0] },
		],
		connections: { [WEBHOOK_NODE]: { main: [[{ node: 'Fields', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	const id = String(created.id);
	await publicApi(session.url, session.apiKey, 'POST', `/workflows/${id}/activate`);
	return { id, path };
}

const WEBHOOK_NODE = 'Webhook';

/**
 * The control of (c): the same 1 000 requests over a minute, plain small JSON posts straight to
 * n8n's own Webhook node (then the same Edit Fields node), in a fresh `n8n start` with no memory
 * limit. What n8n itself takes at this rate, with nothing of this package in the request.
 */
export async function webhookControl(instance: N8nInstance, where: Placement): Promise<PushBurst> {
	const { server, memory, alive } = await startInPlacement(instance, where, extraEnv());
	const node = WEBHOOK_NODE;
	try {
		const session = await openSession(server.url);
		const { id, path } = await webhookWorkflow(
			session,
			Number(process.env.BENCH_WEBHOOK_VERSION ?? 2),
		);
		const began = Date.now();
		const ids: string[] = [];
		const answers: Record<string, number> = {};
		const posts: Array<Promise<void>> = [];
		// BENCH_CONTROL_GROUP=n: the posts leave n at a time (as pushes from n script workers may).
		const group = Math.max(1, Number(process.env.BENCH_CONTROL_GROUP ?? 1));
		for (let i = 0; i < PUSH.burst; i++) {
			const due = began + (Math.floor(i / group) * group * PUSH.burstForMs) / PUSH.burst;
			if (due > Date.now()) await sleep(due - Date.now());
			const transactionId = randomUUID();
			ids.push(transactionId);
			posts.push(
				fetch(`${server.url}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ specVersion: 1, transactionId, eventId: `${transactionId}.x` }),
					signal: AbortSignal.timeout(60_000),
				}).then(
					async (res) => {
						await res.arrayBuffer();
						answers[String(res.status)] = (answers[String(res.status)] ?? 0) + 1;
					},
					() => void (answers['no answer'] = (answers['no answer'] ?? 0) + 1),
				),
			);
		}
		await Promise.all(posts);
		const completedInMs = Date.now() - began;
		const pendingPeak = await awaitSettled(session, id, {
			began,
			limitMs: 10 * 60_000,
			alive,
			settled: (_total, pending, still) => (pending === 0 && still > 3000) || still > 60_000,
		});
		const peaks = memory.stop();
		const survived = alive();
		const stored = survived ? await executionsOf(session, id) : undefined;
		const executions = stored ?? [];
		const started = starts(
			executions,
			node,
			(json) => (json.body as Json | undefined)?.transactionId,
		);
		return {
			where: `${withEnv(where.label)}: n8n's own Webhook node${process.env.BENCH_WEBHOOK_VERSION === '1' ? ' version 1' : ''} (control${process.env.BENCH_CONTROL_GROUP ? `, posts ${process.env.BENCH_CONTROL_GROUP} at a time` : ''})`,
			survived,
			...peaks,
			containerPeakMB: where.cgroup?.peakMB(),
			...tally(executions, started, ids, began),
			completedInMs,
			pendingPeak,
			latency: [],
			answers,
			requestsPer: {},
			answered: stored !== undefined,
		};
	} finally {
		memory.stop();
		await stopN8nServer(server);
	}
}

/**
 * `run` with `instance` on a fresh PostgreSQL database (Debian's, started on loopback in a folder of
 * its own and stopped by its process id), the bench's credential imported into it; undefined when
 * PostgreSQL is not installed.
 */
async function onPostgres<T>(
	simUrl: string,
	instance: N8nInstance,
	run: (onPg: N8nInstance) => Promise<T>,
): Promise<T | undefined> {
	if (!postgresBin()) {
		console.log('\n   (push: PostgreSQL is not installed; apt-get install postgresql)');
		return undefined;
	}
	const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
	const pg = await startPostgres(dir, await freePort());
	try {
		const onPg: N8nInstance = {
			...instance,
			env: { ...instance.env, ...n8nDatabaseEnv(pg.port) },
		};
		await importBenchCredential(onPg, simUrl);
		return await run(onPg);
	} finally {
		await stop(pg.proc);
		rmSync(dir, { recursive: true, force: true });
	}
}

/** (d): requests counted, one at a time, in a warm n8n. */
const ISOLATE_REQUESTS = 20;

export interface IsolateCounts {
	requests: number;
	/** Expression isolates n8n 2.x acquired per push to the Instant Trigger. */
	push: number;
	/** The same per post to n8n's own Webhook node (version 1, whose requests get an isolate too). */
	webhook: number;
}

/** n8n's count of expression isolates acquired so far (its Prometheus metrics, N8N_METRICS=true). */
async function acquiredIsolates(url: string): Promise<number> {
	const acquired = (await readMetrics(url))('n8n_expression_pool_acquired_total');
	if (Number.isNaN(acquired))
		throw new Error('n8n did not report n8n_expression_pool_acquired_total');
	return acquired;
}

/**
 * (d) The expression isolates n8n 2.41.1 acquires per request (each a V8 isolate created for it
 * and disposed after it: the cost behind (c)), from n8n's own metrics in a fresh `n8n start` with
 * n8n's defaults: pushes to the Instant Trigger's workflow, then posts to n8n's Webhook node
 * (version 1) with the same Edit Fields node, one at a time, after one of each not counted.
 */
export async function isolatesPerRequest(
	simUrl: string,
	instance: N8nInstance,
): Promise<IsolateCounts> {
	const { server, memory } = await startInPlacement(
		instance,
		{ label: 'metrics' },
		{ N8N_METRICS: 'true' },
	);
	try {
		const session = await openSession(server.url);
		await setUpPush(simUrl, session);
		const { path } = await webhookWorkflow(session, 1);
		const push = async () => void (await completePushed(simUrl));
		const post = async () => {
			const res = await fetch(`${server.url}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ transactionId: randomUUID() }),
			});
			await res.arrayBuffer();
		};
		const perRequest = async (send: () => Promise<void>) => {
			const before = await acquiredIsolates(server.url);
			for (let i = 0; i < ISOLATE_REQUESTS; i++) {
				await send();
				await sleep(1500);
			}
			await sleep(3000);
			return ((await acquiredIsolates(server.url)) - before) / ISOLATE_REQUESTS;
		};
		await push();
		await post();
		await sleep(3000);
		return {
			requests: ISOLATE_REQUESTS,
			push: await perRequest(push),
			webhook: await perRequest(post),
		};
	} finally {
		memory.stop();
		await tearDownPush(simUrl).catch(() => undefined);
		await stopN8nServer(server);
	}
}

const seconds = (ms: number, digits = 1) =>
	Number.isFinite(ms) ? `${fmt(ms / 1000, digits)} s` : '–';

function latencyRow(label: string, values: number[], missing: number, goal?: number): string {
	const p95 = percentile(values, 95);
	return `| ${label} | ${values.length}${missing ? ` (+${missing} without an execution)` : ''} | ${seconds(percentile(values, 50))} | ${seconds(p95)}${goal !== undefined ? ` (${p95 <= goal ? 'met' : '**missed**'})` : ''} | ${seconds(Math.max(...values))} |`;
}

export const burstExactlyOnce = (b: PushBurst) =>
	b.survived && b.missing === 0 && b.twice === 0 && b.foreign === 0 && b.executions === PUSH.burst;

function burstRow(b: PushBurst, boundMB: number): string {
	const statuses = Object.entries(b.statuses)
		.map(([s, n]) => `${n} ${s}`)
		.join(', ');
	const answers = Object.entries(b.answers)
		.map(([a, n]) => `${n} × ${a}`)
		.join(', ');
	const requests = Object.entries(b.requestsPer)
		.sort((x, y) => y[1] - x[1])
		.map(([route, n]) => `${route} ${fmt(n, 2)}`)
		.join(', ');
	return `| ${b.where} | ${b.survived ? 'ran to the end' : '**n8n died**'} | ${b.answered ? `${b.executions} (${statuses || '–'})` : '**n8n did not list them**'}; its record of deliveries: ${b.recorded ?? '–'} | ${b.missing} / ${b.twice} / ${b.foreign} (${burstExactlyOnce(b) ? 'met' : '**missed**'}) | ${answers} | ${seconds(b.completedInMs)} | ${seconds(b.drainMs)} | ${b.latency.length ? `${seconds(percentile(b.latency, 50))} / ${seconds(percentile(b.latency, 95))} / ${seconds(Math.max(...b.latency))}` : '–'} | ${b.pendingPeak} | ${fmt(b.mainPeakMB)} MB (${b.survived && b.mainPeakMB < boundMB ? 'met' : '**missed**'}) | ${fmt(b.childPeakMB)} MB | ${b.containerPeakMB === undefined ? '–' : `${fmt(b.containerPeakMB)} MB`} | ${requests} |`;
}

/** Section 15: (a) and (b) in one n8n, then (c) in a 1 GB deployment and with no memory limit. */
export async function pushSection(
	simUrl: string,
	instance: N8nInstance,
	where: Record<HeapSetting, Placement>,
): Promise<PushResult> {
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	// BENCH_PUSH_PARTS=burst measures (c) alone (re-measuring the burst after a change).
	const parts = process.env.BENCH_PUSH_PARTS?.split(',').map((s) => s.trim()) ?? [
		'latency',
		'burst',
		'isolates',
	];
	const { latencies, idle } = parts.includes('latency')
		? await latencyAndIdle(simUrl, instance)
		: { latencies: undefined, idle: undefined };
	process.stdout.write('.');
	const bursts: PushBurst[] = [];
	for (const heap of parts.includes('burst') ? (['oneGigabyte', 'machine'] as const) : []) {
		const burst = await pushBurst(simUrl, instance, where[heap]);
		bursts.push(burst);
		console.log(`\n   (push, (c): ${JSON.stringify({ ...burst, latency: undefined })})`);
	}
	// BENCH_PUSH_PARTS=postgres: the same burst with n8n's database on PostgreSQL.
	for (const heap of parts.includes('postgres') ? (['oneGigabyte', 'machine'] as const) : []) {
		const burst = await onPostgres(
			simUrl,
			instance,
			async (onPg) =>
				await pushBurst(simUrl, onPg, {
					...where[heap],
					label: `${where[heap].label}, PostgreSQL (its own process, outside the limit)`,
				}),
		);
		if (!burst) break;
		bursts.push(burst);
		console.log(
			`\n   (push, (c) on PostgreSQL: ${JSON.stringify({ ...burst, latency: undefined })})`,
		);
	}
	// BENCH_PUSH_PARTS=control: n8n's own Webhook node at the same rate (what n8n itself takes).
	for (const heap of parts.includes('control') ? (['oneGigabyte', 'machine'] as const) : []) {
		const burst = await webhookControl(instance, where[heap]);
		bursts.push(burst);
		console.log(`\n   (push, (c) control: ${JSON.stringify(burst)})`);
	}
	const isolates = parts.includes('isolates')
		? await isolatesPerRequest(simUrl, instance)
		: undefined;
	console.log(' real n8n pushed events');
	const perHour = (n: number) => fmt((n / (idle?.minutes ?? NaN)) * 60);
	return {
		latencies,
		idle,
		bursts,
		isolates,
		rows: {
			isolates: !isolates
				? ''
				: [
						`| A push to the ABBYY Vantage Instant Trigger (answered 202, confirmed through the API, one execution) | ${fmt(isolates.push, 2)} |`,
						`| A post to n8n's own Webhook node, version 1 (one execution) | ${fmt(isolates.webhook, 2)} |`,
					].join('\n'),
			latency: !latencies
				? ''
				: [
						latencyRow(
							'ABBYY Vantage Instant Trigger (pushed by the Custom activity)',
							latencies.push,
							latencies.missing.push,
							PUSH.p95GoalMs,
						),
						latencyRow(
							'ABBYY Vantage Trigger, Poll Times: Every Minute (its shortest)',
							latencies.poll,
							latencies.missing.poll,
						),
					].join('\n'),
			idle: !idle
				? ''
				: [
						`| ABBYY Vantage Instant Trigger | ${idle.pushRequests} | ${perHour(idle.pushRequests)} |`,
						`| ABBYY Vantage Trigger, Every Minute (${idle.polls} polls, each one list request: its Look Back held fewer than 1 000 transactions) | ${idle.pollRequests} | ${perHour(idle.pollRequests)} |`,
					].join('\n'),
			burst: bursts.map((b) => burstRow(b, 1024)).join('\n'),
		},
	};
}
