/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n server, the packed package, the simulator. */
/**
 * The ABBYY Vantage Trigger inside a real n8n started as a server (`n8n start`, the way users run
 * it): e2e/workflows/trigger-count.json is activated and polls every 5 s (twelve Poll Times of one
 * fixed second each; n8n refuses a single cron firing more than once a minute). The simulator
 * completes transactions over time, a burst of 2 500 at once, and more while n8n is shut down
 * gracefully and while it is killed (SIGKILL) and started again. The executions n8n STORED are
 * counted through its public API: exactly one per completed transaction that matches the trigger's
 * filter, none missing, none twice; nothing for what had completed before activation or does not
 * match. A SIGKILL of n8n as it ships (poll static data saved apart from executions) loses what
 * that poll had emitted and n8n had not stored: the suite counts it. Then examples/
 * transaction-completed.json runs activated and writes its spreadsheets. Last, n8n runs with its
 * durable poll cursors (each execution committed with the cursor that marks it emitted) and is
 * killed again: there nothing may be lost.
 * On n8n 2.x, after those restarts, the push's safety net (issue 39): a workflow with the ABBYY
 * Vantage Instant Trigger and, as its Safety Net, the ABBYY Vantage Trigger, while the simulator's
 * Custom activity (the shipped script) pushes transactions across a crash of n8n:
 * what the script could not deliver while n8n was away, the safety net delivers after it, each
 * transaction exactly once in total. Run from e2e/run.ts, the suite also runs the push's basics (./push.ts) in
 * its n8n, which saves that run an n8n of their own.
 * Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/trigger.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { assert, check, equal } from './lib/checks';
import { FULL_SCOPE, LINE } from './lib/n8n';
import {
	activate,
	batchFilter,
	bearer,
	createEventSecret,
	deactivate,
	delivered,
	INSTANT_NODE,
	instantWorkflow,
	launchTransaction,
	placeScript,
	pollNode,
	productionUrl,
	randomSecret,
	removeScript,
	type Delivered,
} from './lib/push';
import { pushChecks } from './push';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';
import {
	createApiKey,
	killGroup,
	nodeItems,
	publicApi,
	rest,
	signIn,
	sleep,
	startServer,
	stopServer,
	storedExecutions,
	type N8nServer,
	type StoredExecution,
} from './lib/server';

/** examples/transaction-completed.json */
const EXAMPLE = 'vaExCompleted';
const TRIGGER_TYPE = 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger';
/**
 * Every 5 s: twelve Poll Times of one fixed second each. n8n refuses a single cron that fires more
 * than once a minute ("The polling interval is too short").
 */
const FAST_POLL_TIMES = {
	item: Array.from({ length: 12 }, (_, i) => ({
		mode: 'custom',
		cronExpression: `${i * 5} * * * * *`,
	})),
};
/** e2e/workflows/trigger-count.json */
const WORKFLOW = 'vaE2eTrig001';
const NODE = 'Transaction completed';
const BATCH = [{ key: 'Batch', value: 'e2e-trigger' }];
const OTHER_BATCH = [{ key: 'Batch', value: 'someone-else' }];
const POLL_MS = 5_000;
/** A burst this large arrives within one poll interval. */
const BURST = 2500;
/** Transactions completing together for the One Execution per Poll check. */
const PER_POLL = 300;
/** Transactions completing right before each restart, and while n8n is down. */
const WAVE = 300;
const WHILE_DOWN = 50;
/** N8N_CONCURRENCY_PRODUCTION_LIMIT of the server. */
const CONCURRENCY = 50;
/**
 * n8n 2.41.1's durable poll cursors (off by default): the durable scheduler runs the polls, and
 * each execution a poll starts is stored in one transaction with the cursor as it was at that
 * `__emit` (PollCursorService.commitWithExecution). They also need the workflow publication
 * service, on by default (N8N_USE_WORKFLOW_PUBLICATION_SERVICE).
 */
const DURABLE_CURSORS = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};
/**
 * What a SIGKILL may cost with durable poll cursors: the executions of one poll are committed in
 * transactions of their own, which can land out of order, so the events whose commits were racing
 * at the kill can be lost or come twice (never the whole poll, as without them).
 */
const DURABLE_CRASH_AT_MOST = 10;

type Json = Record<string, unknown>;

/**
 * The transaction an execution was started for: the trigger's item in the run data, or, for an
 * execution that never ran (n8n killed before it started), the item waiting on its execution stack.
 */
function transactionOf(execution: StoredExecution, node = NODE): string | undefined {
	const data = execution.data as Json | undefined;
	const runData = ((data?.resultData as Json | undefined)?.runData ?? {}) as Record<string, Json[]>;
	const ran = (
		(runData[node]?.[0]?.data as Json | undefined)?.main as Array<Array<{ json: Json }>>
	)?.[0]?.[0]?.json;
	if (ran) return String(ran.transactionId);
	const stack = ((data?.executionData as Json | undefined)?.nodeExecutionStack ?? []) as Array<{
		data?: { main?: Array<Array<{ json: Json }>> };
	}>;
	const waiting = stack[0]?.data?.main?.[0]?.[0]?.json;
	return waiting ? String(waiting.transactionId) : undefined;
}

interface Tally {
	executions: StoredExecution[];
	/** Executions per transaction id ('?' when an execution carries none). */
	byTransaction: Map<string, number>;
	statuses: Record<string, number>;
}

/**
 * Every execution of the workflow with its transaction. The public API lists the running ones
 * only when asked for them, so: running, the rest, running again, joined by id; read again until
 * that agrees with n8n's count (an execution can move on from `new` while the lists are read).
 */
async function tally(server: N8nServer, session: Session): Promise<Tally> {
	const read = async (status?: string) =>
		await storedExecutions(server.url, session.apiKey, WORKFLOW, true, status).catch(
			(error: Error) => {
				// n8n 1.85's public API cannot list running executions (400): read until they finish.
				if (status === 'running' && /: 400 /.test(error.message)) return [];
				throw error;
			},
		);
	let executions: StoredExecution[] = [];
	for (let attempt = 1; attempt <= 5; attempt++) {
		const before = await storedCount(server, session.cookie);
		const byId = new Map<string, StoredExecution>();
		for (const list of [await read('running'), await read(), await read('running')])
			for (const execution of list) byId.set(execution.id, execution);
		executions = [...byId.values()];
		if (executions.length === before && before === (await storedCount(server, session.cookie)))
			break;
		await sleep(500);
	}
	const byTransaction = new Map<string, number>();
	for (const execution of executions) {
		const id = transactionOf(execution) ?? '?';
		byTransaction.set(id, (byTransaction.get(id) ?? 0) + 1);
	}
	return { executions, byTransaction, statuses: await statusCounts(server, session.cookie) };
}

/**
 * How many executions n8n stored with each status, from the editor's list: n8n 1.85's public API
 * gives no status, and a crashed execution there looks like a failed one.
 */
async function statusCounts(server: N8nServer, cookie: string): Promise<Record<string, number>> {
	const statuses: Record<string, number> = {};
	for (const status of ALL_STATUSES) {
		const count = await storedCount(server, cookie, [status]);
		if (count > 0) statuses[status] = count;
	}
	return statuses;
}

/** Every execution status: without a status filter n8n counts only the finished ones. */
const ALL_STATUSES = [
	'canceled',
	'crashed',
	'error',
	'new',
	'running',
	'success',
	'unknown',
	'waiting',
];

/**
 * How many executions of the workflow n8n stored, queued (`new`) ones included, or only those
 * with `statuses` (the editor's Executions list count).
 */
async function storedCount(
	server: N8nServer,
	cookie: string,
	statuses = ALL_STATUSES,
): Promise<number> {
	const filter = JSON.stringify({ workflowId: WORKFLOW, status: statuses });
	const page = await rest<{ count: number; estimated?: boolean }>(
		server.url,
		cookie,
		'GET',
		`/executions?filter=${encodeURIComponent(filter)}&limit=1`,
	);
	assert(!page.estimated, 'n8n estimated the count');
	return page.count;
}

/** `read` again until it answers: n8n answers 503 while its database is busy with a burst. */
async function retrying<T>(read: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let failure = new Error('not read');
	do {
		try {
			return await read();
		} catch (error) {
			failure = error as Error;
		}
		await sleep(1000);
	} while (Date.now() < deadline);
	throw failure;
}

/**
 * Wait until n8n has stored at least `expected` executions, then two more poll intervals (so that
 * a duplicate or a late extra would show), and count them with their transaction ids.
 */
async function settle(
	server: N8nServer,
	session: Session,
	expected: number,
	timeoutMs: number,
	/** Stop as soon as the count has not moved for this long (some may never come). */
	stableMs = Infinity,
): Promise<Tally> {
	const deadline = Date.now() + timeoutMs;
	let said = Date.now();
	let last = -1;
	let movedAt = Date.now();
	while (Date.now() < deadline) {
		const count = await retrying(async () => await storedCount(server, session.cookie));
		if (count >= expected) break;
		if (count !== last) [last, movedAt] = [count, Date.now()];
		else if (Date.now() - movedAt > stableMs) break;
		if (process.env.E2E_TRIGGER_PROGRESS && Date.now() - said > 10_000) {
			console.log(`      … ${count} of ${expected} stored`);
			said = Date.now();
		}
		await sleep(1000);
	}
	await sleep(2 * POLL_MS + 1000);
	return await retrying(async () => await tally(server, session));
}

/**
 * Exactly one execution for each of `expected` (two for those in `twiceSeen`, counted apart), and
 * none for anything else.
 */
function exactlyOnce(
	t: Tally,
	expected: string[],
	twiceSeen: ReadonlySet<string> = new Set(),
): void {
	const wanted = new Set(expected);
	const missing = expected.filter((id) => !t.byTransaction.has(id));
	const twice = [...t.byTransaction].filter(
		([id, n]) => wanted.has(id) && n !== (twiceSeen.has(id) ? 2 : 1),
	);
	const foreign = [...t.byTransaction].filter(([id]) => !wanted.has(id));
	assert(
		!missing.length &&
			!twice.length &&
			!foreign.length &&
			t.executions.length === expected.length + twiceSeen.size,
		`${t.executions.length} executions for ${expected.length} transactions: ${missing.length} missing${missing.length ? ` (${missing.slice(0, 3).join(', ')}…)` : ''}, ${twice.length} more than once${twice.length ? ` (${twice.slice(0, 3).map(([id, n]) => `${id} ×${n}`)}…)` : ''}, ${foreign.length} not expected${foreign.length ? ` (${foreign.slice(0, 3).map(([id, n]) => `${id} ×${n}`)}…)` : ''}; statuses ${JSON.stringify(t.statuses)}`,
	);
}

/** Wait until n8n has stored more than `count` executions (it is busy emitting), or time out. */
async function waitForMore(server: N8nServer, cookie: string, count: number): Promise<number> {
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		const now = await retrying(async () => await storedCount(server, cookie));
		if (now > count) return now;
		await sleep(100);
	}
	throw new Error(`no new execution stored within 60 s (still ${count})`);
}

interface Session {
	cookie: string;
	apiKey: string;
}

/** Executions still to run: stored as `new` (queued) or `running`. */
const PENDING = ['new', 'running'];

/** The safety net's node in the push workflow of the restart proof. */
const SAFETY_NET_NODE = 'Safety net';
/** A transaction of the push burst is launched every this many ms, across a restart. */
const PUSH_EVERY_MS = 200;
/**
 * How n8n goes away during the push burst. Not yet SIGTERM: a confirmation that ends after n8n
 * 2.41.1's graceful shutdown began starts an execution n8n never runs; n8n waits for it until its
 * 30-second shutdown timeout and exits as a crash (seen 2026-11-29: 24 such executions at 5
 * pushes a second; a Webhook node under the same requests shut down in 0.9 s).
 */
const PUSH_RESTARTS: Array<'SIGTERM' | 'SIGKILL'> = ['SIGKILL'];

/**
 * The restart proof of the push (n8n 2.x): a workflow of the ABBYY Vantage Instant Trigger and the
 * ABBYY Vantage Trigger as its Safety Net (Transaction Completed of the burst's batch, polled every
 * 5 s, Grace Period 0: in the simulator a push is always answered before its transaction completes),
 * and the shipped script placed after Review, its secrets pointing at the workflow's webhook.
 */
export class SafetyNetProof {
	private launching = false;
	private done: Promise<void> = Promise.resolve();
	/** Transactions launched, by burst. */
	readonly bursts = new Map<string, string[]>();

	private constructor(
		private readonly sim: Setup['sim'],
		private readonly session: { url: string; cookie: string; apiKey: string },
		readonly workflowId: string,
		private readonly token: string,
		readonly batch: string,
	) {}

	static async open(
		sim: Setup['sim'],
		session: { url: string; cookie: string; apiKey: string },
	): Promise<SafetyNetProof> {
		const secret = randomSecret();
		const batch = `e2e-push-net-${Date.now()}`;
		const eventSecret = await createEventSecret(session, 'ABBYY Vantage events (restarts)', secret);
		const { workflow, webhookId } = instantWorkflow({
			name: 'e2e: pushed events with the safety net',
			vantage: CREDENTIAL,
			eventSecret,
		});
		(workflow.nodes as Json[]).push(
			pollNode(
				SAFETY_NET_NODE,
				CREDENTIAL,
				{
					event: 'transactionCompleted',
					...batchFilter(batch),
					options: { safetyNet: true, gracePeriodMinutes: 0 },
				},
				1,
			),
		);
		const id = await activate(session, workflow);
		placeScript(sim, ['afterReview'], { secret, url: productionUrl(session.url, webhookId) }, 8);
		return new SafetyNetProof(sim, session, id, await bearer(sim), batch);
	}

	/** Launch a transaction every PUSH_EVERY_MS until `stop`, whatever n8n is doing. */
	start(name: string): void {
		const ids: string[] = [];
		this.bursts.set(name, ids);
		this.launching = true;
		this.done = (async () => {
			for (let i = 0; this.launching; i++) {
				ids.push(
					await launchTransaction(this.sim, this.token, `NET-${name}-${i}`, {
						batch: this.batch,
						processingMs: 200,
					}),
				);
				await sleep(PUSH_EVERY_MS);
			}
		})();
	}

	async stop(): Promise<void> {
		this.launching = false;
		await this.done;
	}

	/** What the workflow delivered, once every transaction of `name` has an execution and two polls added nothing. */
	async settle(name: string): Promise<Delivered> {
		const ids = this.bursts.get(name) ?? [];
		const read = async () =>
			await retrying(
				async () => await delivered(this.session, this.workflowId, [INSTANT_NODE, SAFETY_NET_NODE]),
			);
		const deadline = Date.now() + 120_000;
		let d = await read();
		while (!ids.every((id) => d.byKey.has(`completed:${id}`)) && Date.now() < deadline) {
			await sleep(1000);
			d = await read();
		}
		await sleep(2 * POLL_MS + 1000);
		return await read();
	}

	/** Each transaction of `name`: how it reached the workflow, and what the script made of it. */
	account(name: string, d: Delivered): { byPush: number; bySafetyNet: number; gaveUp: string[] } {
		const ids = this.bursts.get(name) ?? [];
		const modeOf = new Map<string, string>();
		for (const e of d.executions) {
			const id = transactionOf(e, INSTANT_NODE) ?? transactionOf(e, SAFETY_NET_NODE);
			if (id) modeOf.set(id, e.mode);
		}
		const wanted = new Set(ids);
		const missing = ids.filter((id) => !d.byKey.has(`completed:${id}`));
		const twice = ids.filter((id) => (d.byKey.get(`completed:${id}`) ?? 0) > 1);
		const foreign = [...d.byKey.keys()].filter(
			(k) => !wanted.has(k.slice('completed:'.length)) && !this.earlier(k),
		);
		const gaveUp = ids.filter((id) =>
			this.sim
				.customActivityRuns(id)
				.some((r) => r.log.some((line) => /gave up|refused with/.test(line))),
		);
		assert(
			!missing.length && !twice.length && !foreign.length,
			`${ids.length} transactions: ${missing.length} missing${missing.length ? ` (${missing.slice(0, 3).join(', ')}…)` : ''}, ${twice.length} twice${twice.length ? ` (${twice.slice(0, 3).join(', ')}…)` : ''}, ${foreign.length} not expected${foreign.length ? ` (${foreign.slice(0, 3).join(', ')})` : ''}; the script gave up on ${gaveUp.length}`,
		);
		const undelivered = gaveUp.filter((id) => modeOf.get(id) !== 'trigger');
		assert(
			!undelivered.length,
			`the script gave up on ${undelivered.join(', ')}, yet no safety-net execution`,
		);
		return {
			byPush: ids.filter((id) => modeOf.get(id) === 'webhook').length,
			bySafetyNet: ids.filter((id) => modeOf.get(id) === 'trigger').length,
			gaveUp,
		};
	}

	/** A key of an earlier burst (their executions stay in the workflow). */
	private earlier(key: string): boolean {
		const id = key.slice('completed:'.length);
		return [...this.bursts.values()].some((ids) => ids.includes(id));
	}

	async close(): Promise<void> {
		await this.stop();
		removeScript(this.sim);
		await deactivate(this.session, this.workflowId);
	}
}

/**
 * The trigger suite, on the instance and simulator of `setup` (its user folder holds the imported
 * workflow and credential; no other n8n may use it meanwhile).
 */
export async function triggerSuite(
	setup: Setup,
	options: { pushBasics?: boolean } = {},
): Promise<void> {
	const { instance, sim } = setup;
	const started = Date.now();
	console.log('\ne2e/workflows/trigger-count.json (n8n start, polled every 5 s)');
	let server: N8nServer | undefined;
	const onExit = () => server && killGroup(server.child, 'SIGKILL');
	process.once('exit', onExit);
	// Unlimited (n8n's default), the 2 500 executions of one poll all start at once: on this machine
	// n8n then finished about one every few seconds. A production limit queues the rest, stored as
	// `new` the moment they are emitted, as a deployment that expects bursts would set it.
	const env: NodeJS.ProcessEnv = {
		N8N_LOG_LEVEL: 'info',
		N8N_CONCURRENCY_PRODUCTION_LIMIT: String(CONCURRENCY),
		DB_SQLITE_POOL_SIZE: '4',
		// n8n 2.41.1 does not start again after a SIGKILL with insights on: its startup recovery
		// passes an execution that never started to insights, which reads `startedAt.getTime()`
		// of null, and n8n exits ("Exiting due to an error").
		N8N_DISABLED_MODULES: 'insights',
	};
	const seed = (count: number, parameters = BATCH, createdAt?: Date) =>
		sim.seedCompletedTransactions(count, { registrationParameters: parameters, createdAt });
	const expected: string[] = [];
	/** Executions that were running when n8n was killed: n8n marks them crashed on restart. */
	let runningAtKill = 0;
	let lostInCrash = 0;
	let lostInRestart = 0;
	let lostInDurableCrash = 0;
	let twiceInDurableCrash = 0;
	let net: SafetyNetProof | undefined;
	const netFigures: string[] = [];
	try {
		// Completed before the workflow is activated: the first poll marks them seen.
		const before = seed(5);
		seed(3, OTHER_BATCH);
		server = await startServer(instance, env);
		const cookie = await signIn(server.url);
		const session: Session = { cookie, apiKey: await createApiKey(server.url, cookie) };

		/**
		 * Create and activate a workflow of one Transaction Completed trigger polled every 5 s, with
		 * `parameters` besides the event and Poll Times: its id.
		 */
		const activateTrigger = async (
			name: string,
			node: { id: string; name: string },
			parameters: Json,
			settings: Json = {},
		): Promise<string> => {
			const created = await publicApi<Json>(server!.url, session.apiKey, 'POST', '/workflows', {
				name,
				nodes: [
					{
						...node,
						type: TRIGGER_TYPE,
						typeVersion: 1,
						position: [0, 0],
						parameters: {
							pollTimes: FAST_POLL_TIMES,
							event: 'transactionCompleted',
							...parameters,
						},
						credentials: { abbyyVantageApi: CREDENTIAL },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1', ...settings },
			});
			const id = String(created.id);
			await publicApi(server!.url, session.apiKey, 'POST', `/workflows/${id}/activate`);
			return id;
		};

		await check(
			'the workflow is activated in the running n8n (first poll: nothing yet)',
			async () => {
				const workflow = await publicApi<{ active?: boolean }>(
					server!.url,
					session.apiKey,
					'POST',
					`/workflows/${WORKFLOW}/activate`,
				);
				assert(workflow.active === true, `active: ${String(workflow.active)}`);
				await sleep(2 * POLL_MS);
				const count = await storedCount(server!, cookie);
				assert(count === 0, `${count} executions for transactions completed before activation`);
			},
		);

		// Over 15 s: one matching transaction every 300 ms, some of another batch, one created half
		// an hour ago that completes only now.
		await check(
			'transactions completing over 15 s: one execution each, none for another batch',
			async () => {
				for (let i = 0; i < 50; i++) {
					expected.push(...seed(1));
					if (i % 5 === 0) seed(1, OTHER_BATCH);
					if (i === 25) expected.push(...seed(1, BATCH, new Date(Date.now() - 30 * 60_000)));
					await sleep(300);
				}
				const t = await settle(server!, session, expected.length, 60_000);
				exactlyOnce(t, expected);
				assert(
					!before.some((id) => t.byTransaction.has(id)),
					'an execution for a transaction completed before activation',
				);
			},
		);

		// How the trigger hands a burst over (at most MAX_RUNNING at once) is its own logic: n8n 2.x only.
		if (FULL_SCOPE)
			await check(
				`a burst of ${BURST} completing in one poll interval: ${BURST} more executions stored, each once`,
				async () => {
					const burstStarted = Date.now();
					expected.push(...seed(BURST));
					// The trigger starts them as earlier ones finish (at most MAX_RUNNING at once): as fast as n8n runs them.
					const t = await settle(server!, session, expected.length, 600_000);
					console.log(
						`      (all stored within ${Math.round((Date.now() - burstStarted) / 1000 - (2 * POLL_MS + 1000) / 1000)} s, counted after two more polls; statuses ${JSON.stringify(t.statuses)})`,
					);
					exactlyOnce(t, expected);
				},
			);

		// n8n 1.x exits as soon as its running executions have ended: an execution the trigger hands
		// over in that moment has its static data saved but may not be stored yet (docs/compatibility.md).
		// There a graceful restart is measured like a crash: losses counted.
		const countsLoss = (signal: 'SIGTERM' | 'SIGKILL') => signal === 'SIGKILL' || LINE.id !== '2';
		for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
			const how = signal === 'SIGTERM' ? 'a graceful restart (SIGTERM)' : 'a crash (SIGKILL)';
			await check(
				!countsLoss(signal)
					? `${how} while ${WAVE} are being emitted, ${WHILE_DOWN} more completing while n8n is down: each once`
					: `${how} while ${WAVE} are being emitted, ${WHILE_DOWN} more completing while n8n is down: none twice, none foreign; what the ${signal === 'SIGKILL' ? 'crash' : 'restart'} lost is counted`,
				async () => {
					const storedBefore = expected.length;
					expected.push(...seed(WAVE));
					const at = await waitForMore(server!, cookie, storedBefore);
					if (signal === 'SIGKILL')
						runningAtKill = await storedCount(server!, cookie, ['running']).catch(() => -1);
					const code = await stopServer(server!, signal);
					console.log(
						`      (${signal} when ${at - storedBefore} of the ${WAVE} were stored; n8n exited: ${code}${signal === 'SIGKILL' ? `; ${runningAtKill} executions were running` : ''})`,
					);
					expected.push(...seed(WHILE_DOWN));
					server = await startServer(instance, env);
					const t = await settle(
						server,
						session,
						expected.length,
						180_000,
						countsLoss(signal) ? 6 * POLL_MS : Infinity,
					);
					if (countsLoss(signal)) {
						// Without n8n's durable poll cursors, n8n saves a poll trigger's static data apart
						// from the executions it starts: a crash can keep a cursor that is ahead of them.
						const lost = expected.filter((id) => !t.byTransaction.has(id));
						if (signal === 'SIGKILL') lostInCrash = lost.length;
						else lostInRestart = lost.length;
						console.log(
							`      (lost in the ${signal === 'SIGKILL' ? 'crash' : 'restart'}: ${lost.length} of the ${WAVE}${lost.length ? `, e.g. ${lost.slice(0, 2).join(', ')}` : ''}; see docs/${signal === 'SIGKILL' ? 'trigger' : 'compatibility'}.md)`,
						);
						expected.splice(
							0,
							expected.length,
							...expected.filter((id) => t.byTransaction.has(id)),
						);
					}
					exactlyOnce(t, expected);
				},
			);
		}

		/** Every execution stored has run: success, or crashed when a SIGKILL cut it off. */
		const everyExecutionRan = async (
			crashedAtMost: number,
			kills: string,
			twiceSeen: ReadonlySet<string> = new Set(),
		) => {
			const deadline = Date.now() + 240_000;
			let pending = Infinity;
			while (Date.now() < deadline) {
				pending = await retrying(async () => await storedCount(server!, cookie, PENDING));
				if (pending === 0) break;
				await sleep(2000);
			}
			const t = await retrying(async () => await tally(server!, session));
			console.log(`      (statuses ${JSON.stringify(t.statuses)})`);
			exactlyOnce(t, expected, twiceSeen);
			const crashed = t.statuses.crashed ?? 0;
			assert(pending === 0, `${pending} executions still queued or running`);
			assert(
				t.executions.every((e) => e.mode === 'trigger'),
				`modes ${[...new Set(t.executions.map((e) => e.mode))].join(', ')}`,
			);
			assert(
				(t.statuses.success ?? 0) + crashed === t.executions.length && crashed <= crashedAtMost,
				`statuses ${JSON.stringify(t.statuses)}; ${kills}`,
			);
		};

		await check(
			'n8n runs every stored execution: all succeed but those the SIGKILL cut off (crashed)',
			async () =>
				await everyExecutionRan(
					Math.max(runningAtKill, CONCURRENCY),
					`${runningAtKill} were running at the SIGKILL`,
				),
		);

		// The push's safety net (n8n 2.x): pushes keep coming while n8n is killed, is away and starts
		// again.
		if (LINE.id === '2')
			await check(
				`the push across a crash (${PUSH_RESTARTS.join(', ')}): a transaction every ${PUSH_EVERY_MS} ms, the shipped script pushing each; what it could not deliver while n8n was away, the Safety Net delivers after: every transaction exactly once in total`,
				async () => {
					net = await SafetyNetProof.open(sim, {
						url: server!.url,
						cookie,
						apiKey: session.apiKey,
					});
					const burst = 'restarts';
					net.start(burst);
					const codes: Array<number | string> = [];
					for (const signal of PUSH_RESTARTS) {
						// Pushes delivered by push first.
						await sleep(3000);
						codes.push(await stopServer(server!, signal));
						server = await startServer(instance, env);
					}
					await sleep(3000);
					await net.stop();
					const d = await net.settle(burst);
					const { byPush, bySafetyNet, gaveUp } = net.account(burst, d);
					const launched = net.bursts.get(burst)!.length;
					const figures = `${launched} launched (n8n exited ${codes.join(', ')}), the script gave up on ${gaveUp.length}; ${byPush} delivered by push, ${bySafetyNet} by the safety net`;
					netFigures.push(figures);
					console.log(`      (${figures})`);
					assert(gaveUp.length > 0, 'the script never gave up: n8n was not away during the burst');
					await net.close();
				},
			);

		await check(
			'examples/transaction-completed.json, activated (Poll Times every 5 s): one CSV per Processed transaction, with its invoice fields',
			async () => {
				const workflow = await publicApi<Json>(
					server!.url,
					session.apiKey,
					'GET',
					`/workflows/${EXAMPLE}`,
				);
				const nodes = (workflow.nodes as Json[]).map((node) =>
					node.type === TRIGGER_TYPE
						? {
								...node,
								parameters: {
									...(node.parameters as Json),
									pollTimes: FAST_POLL_TIMES,
								},
							}
						: node,
				);
				await publicApi(server!.url, session.apiKey, 'PUT', `/workflows/${EXAMPLE}`, {
					name: workflow.name,
					nodes,
					connections: workflow.connections,
					settings: { executionOrder: 'v1' },
				});
				await publicApi(server!.url, session.apiKey, 'POST', `/workflows/${EXAMPLE}/activate`);
				await sleep(POLL_MS);
				const processed = sim.seedCompletedTransactions(2);
				const [failed] = sim.seedCompletedTransactions(1, { status: 'Failed' });
				const file = (id: string) => join(setup.folders.spreadsheets, `completed-${id}.csv`);
				const deadline = Date.now() + 60_000;
				while (Date.now() < deadline && !processed.every((id) => existsSync(file(id))))
					await sleep(500);
				await sleep(2 * POLL_MS);
				await publicApi(server!.url, session.apiKey, 'POST', `/workflows/${EXAMPLE}/deactivate`);
				for (const id of processed) {
					assert(existsSync(file(id)), `no ${file(id)}`);
					const [header, row, ...rest] = readFileSync(file(id), 'utf8')
						.replace(/^\uFEFF/, '')
						.trim()
						.split(/\r?\n/);
					assert(
						header.startsWith(
							'Transaction ID,Completed,Skill,Source Files,Document ID,Invoice Number',
						),
						`header: ${header}`,
					);
					assert(row?.startsWith(`${id},`) && !rest.length, `rows: ${[row, ...rest].join(' | ')}`);
					const invoiceNumber = row.split(',')[5];
					assert(invoiceNumber, `no Invoice Number in ${row}`);
				}
				assert(!existsSync(file(failed)), 'a CSV for a Failed transaction (Status is Processed)');
			},
		);

		await check(
			'Start From (a date-picker value without offset, read in the workflow’s time zone) stays the lower bound on later polls: nothing created before it, each later one once',
			async () => {
				const batch = [{ key: 'Batch', value: 'e2e-start-from' }];
				const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
				const [early] = sim.seedCompletedTransactions(1, {
					registrationParameters: batch,
					createdAt: hoursAgo(4),
				});
				const [inside] = sim.seedCompletedTransactions(1, {
					registrationParameters: batch,
					createdAt: hoursAgo(1),
				});
				// Two hours ago on a New York wall clock, as n8n's date picker stores it. Read in the
				// server's zone (UTC) it would be seven hours ago, before `early`.
				const timeZone = 'America/New_York';
				const startFrom = new Intl.DateTimeFormat('sv-SE', {
					timeZone,
					year: 'numeric',
					month: '2-digit',
					day: '2-digit',
					hour: '2-digit',
					minute: '2-digit',
					second: '2-digit',
					hourCycle: 'h23',
				})
					.format(hoursAgo(2))
					.replace(' ', 'T');
				const node = 'Completed since Start From';
				const id = await activateTrigger(
					'e2e: Start From on every poll',
					{ id: 'e2e-start-from-1', name: node },
					{ transactionParameters: { parameter: batch }, options: { startFrom } },
					{ timezone: timeZone },
				);
				const emitted = async () =>
					(await storedExecutions(server!.url, session.apiKey, id, true)).map((e) =>
						transactionOf(e, node),
					);
				const until = async (count: number) => {
					const deadline = Date.now() + 60_000;
					while (Date.now() < deadline && (await emitted()).length < count) await sleep(1000);
					// Three more polls: what the second and later polls would wrongly emit shows.
					await sleep(3 * POLL_MS + 1000);
					return (await emitted()).sort();
				};
				try {
					equal(await until(1), [inside], `executions (Start From ${startFrom} ${timeZone})`);
					const [later] = sim.seedCompletedTransactions(1, { registrationParameters: batch });
					equal(await until(2), [inside, later].sort(), 'executions after one more completed');
					assert(!(await emitted()).includes(early), 'created before Start From, yet emitted');
				} finally {
					await publicApi(server!.url, session.apiKey, 'POST', `/workflows/${id}/deactivate`);
				}
			},
		);

		// One execution per poll is the trigger's own logic: n8n 2.x only.
		if (FULL_SCOPE)
			await check(
				'Output: One Execution per Poll: transactions completing together are the items of one execution, each once',
				async () => {
					const batch = [{ key: 'Batch', value: 'e2e-per-poll' }];
					const node = 'Completed, per poll';
					const id = await activateTrigger(
						'e2e: one execution per poll',
						{ id: 'e2e-per-poll-1', name: node },
						{ transactionParameters: { parameter: batch }, output: 'perPoll' },
					);
					try {
						// n8n activates in the background: its first poll (which marks what is there) first.
						const polled = () =>
							sim
								.requestsTo('GetCompletedTransactions')
								.some((r) => r.query['TransactionParameters[0].Value'] === batch[0].value);
						const activated = Date.now() + 60_000;
						while (!polled() && Date.now() < activated) await sleep(200);
						const ids = sim.seedCompletedTransactions(PER_POLL, { registrationParameters: batch });
						const items = async () => {
							const executions = await storedExecutions(server!.url, session.apiKey, id, true);
							return {
								executions: executions.length,
								ids: executions.flatMap((e) =>
									nodeItems(e, node).map((i) => String(i.json.transactionId)),
								),
							};
						};
						const deadline = Date.now() + 60_000;
						while (Date.now() < deadline && (await items()).ids.length < PER_POLL)
							await sleep(1000);
						// Two more polls: a repeat would show.
						await sleep(2 * POLL_MS + 1000);
						const stored = await items();
						equal([...stored.ids].sort(), [...ids].sort(), 'transactions among the items');
						assert(
							stored.executions <= 2,
							`${stored.executions} executions for ${PER_POLL} transactions completing together`,
						);
						console.log(`      (${PER_POLL} transactions in ${stored.executions} execution(s))`);
					} finally {
						await publicApi(server!.url, session.apiKey, 'POST', `/workflows/${id}/deactivate`);
					}
				},
			);

		// The push's basics in this n8n (./push.ts), when e2e/run.ts runs the suite.
		if (options.pushBasics)
			await pushChecks({
				session: { url: server.url, cookie, apiKey: session.apiKey },
				sim,
				logFile: server.logFile,
			});

		if (LINE.id !== '2') return;
		await check(
			`with n8n's durable poll cursors, a crash (SIGKILL) while ${WAVE} are being emitted, ${WHILE_DOWN} more completing while n8n is down: at most ${DURABLE_CRASH_AT_MOST} lost or twice, counted`,
			async () => {
				await stopServer(server!, 'SIGTERM');
				const durable = { ...env, ...DURABLE_CURSORS };
				server = await startServer(instance, durable);
				const storedBefore = expected.length;
				const wave = seed(WAVE);
				expected.push(...wave);
				const at = await waitForMore(server, cookie, storedBefore);
				const running = await storedCount(server, cookie, ['running']).catch(() => -1);
				const code = await stopServer(server, 'SIGKILL');
				console.log(
					`      (SIGKILL when ${at - storedBefore} of the ${WAVE} were stored; n8n exited: ${code}; ${running} executions were running)`,
				);
				const whileDown = seed(WHILE_DOWN);
				expected.push(...whileDown);
				server = await startServer(instance, durable);
				const t = await settle(server, session, expected.length, 180_000, 6 * POLL_MS);
				const lost = expected.filter((id) => !t.byTransaction.has(id));
				const twice = new Set(expected.filter((id) => (t.byTransaction.get(id) ?? 0) > 1));
				[lostInDurableCrash, twiceInDurableCrash] = [lost.length, twice.size];
				console.log(
					`      (lost in the crash: ${lost.length}${lost.length ? `, e.g. ${lost[0]}` : ''}; emitted twice: ${twice.size}${twice.size ? `, e.g. ${[...twice][0]}` : ''}; see docs/trigger.md)`,
				);
				assert(
					lost.length + twice.size <= DURABLE_CRASH_AT_MOST,
					`${lost.length} lost and ${twice.size} twice: more than the commits racing at the kill`,
				);
				expected.splice(0, expected.length, ...expected.filter((id) => t.byTransaction.has(id)));
				exactlyOnce(t, expected, twice);
				// The cursor was n8n's durable one: the workflow's static data, where the trigger's cursor
				// lives otherwise, stopped at the switch and knows none of these transactions.
				const workflow = await publicApi<Json>(
					server.url,
					session.apiKey,
					'GET',
					`/workflows/${WORKFLOW}`,
				);
				const staticData = JSON.stringify(workflow.staticData ?? {});
				const known = [...wave, ...whileDown].filter((id) => staticData.includes(id)).length;
				assert(known === 0, `${known} of them in the workflow's static data`);
				await everyExecutionRan(
					Math.max(runningAtKill, CONCURRENCY) + Math.max(running, CONCURRENCY),
					`${runningAtKill} and ${running} were running at the two SIGKILLs`,
					twice,
				);
			},
		);
	} finally {
		await net?.close().catch(() => undefined);
		if (server) await stopServer(server, 'SIGTERM');
		process.removeListener('exit', onExit);
		console.log(
			`[e2e] trigger suite finished in ${Math.round((Date.now() - started) / 1000)} s; events lost in the graceful restart: ${lostInRestart}, in the crash: ${lostInCrash} (with durable poll cursors: ${lostInDurableCrash} lost, ${twiceInDurableCrash} twice)${netFigures.length ? `; the push's safety net: ${netFigures.join('; ')}` : ''}; n8n log: ${server?.logFile}`,
		);
	}
}

if (require.main === module) runAlone(triggerSuite, { includeE2eWorkflows: true });
