/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console --
 * End-to-end suite, never shipped: n8n 2.41.1 in queue mode (PostgreSQL, Redis, main, workers). */
/**
 * Waiting for Manual Review in n8n's queue mode (issue 40): main + two workers on PostgreSQL and
 * Redis. Twenty Process Document executions (On Manual Review → Resume When Vantage Pushes) wait
 * for review: all twenty are `waiting` in PostgreSQL while no worker runs anything (n8n's job
 * queue in Redis holds no active or queued job, each worker's log shows every job it started since
 * finished). The first worker, which started some of them, is stopped; the reviews end, the shipped script posts to each
 * transaction's resume URL at the main process, and the other worker finishes all twenty, each
 * once, with its document's fields: a worker that did not start an execution finishes it.
 *
 * The queue suite (e2e/queue.ts, `npm run test:queue`) runs these checks last, on its own cluster:
 * its workers have WEBHOOK_URL set to the main process's URL (else the resume URLs they build name
 * n8n's default port), and nothing else of that suite runs meanwhile.
 */

import type { VantageSimulator } from '../test/simulator/simulator';
import { assert, check, equal } from './lib/checks';
import {
	AFTER_THE_WAIT,
	documentArrivesWorkflow,
	EXTRACT_INVOICE,
	invoiceFileServer,
} from './lib/documentArrives';
import { executionRows, output, runData, workerLog } from './lib/queue/executions';
import type { Postgres } from './lib/queue/postgres';
import { waitUntil } from './lib/queue/processes';
import { redisCommand } from './lib/queue/redis';
import {
	activate,
	createEventSecret,
	openSession,
	randomSecret,
	SECRET_NAME,
	URL_NAME,
	type CredentialRef,
} from './lib/push';

type Json = Record<string, unknown>;

/** Executions that wait at once. */
export const QUEUE_WAITING = 20;

export interface QueueContext {
	/** The main process's URL. */
	url: string;
	pg: Postgres;
	redisPort: number;
	sim: VantageSimulator;
	/** The ABBYY Vantage API credential the cluster holds. */
	credential: CredentialRef;
	/** The workers: their names and log files. */
	workers: Array<{ name: string; log: string }>;
	/** Stop a worker (SIGTERM): the rest of the suite runs without it. */
	stopWorker: (name: string) => Promise<void>;
}

/** The waiting checks on a running cluster. Leaves the simulator as it found it. */
export async function durableWaitQueueChecks(ctx: QueueContext): Promise<void> {
	const { sim, pg } = ctx;
	const started = Date.now();
	const secret = randomSecret();
	const files = await invoiceFileServer('Queue Wait GmbH');
	const session = await openSession(ctx.url);
	const eventSecret = await createEventSecret(session, 'ABBYY Vantage events (queue wait)', secret);
	const path = `queue-durable-${started}`;
	sim.setDefaultTransactionScript({ processing: { ms: 300 }, manualReview: { ms: 3600_000 } });
	sim.configureCustomActivity({
		placements: ['afterReview'],
		allowPlainHttpOnLoopback: true,
		concurrency: 8,
	});
	sim.setSecrets({ [SECRET_NAME]: secret, [URL_NAME]: null });
	try {
		// Jobs the workers ran before these checks (the queue suite's earlier phases, a killed
		// worker's) are not theirs to judge.
		const before = Math.max(0, ...executionRows(pg).map((r) => r.id));
		const workflowId = await activate(
			session,
			documentArrivesWorkflow({
				name: 'e2e: durable wait in queue mode',
				path,
				vantage: ctx.credential,
				eventSecret,
				options: { pollInterval: 1, onManualReview: 'resume' },
				after: true,
			}),
		);
		const mine = () => executionRows(pg, [workflowId]);
		console.log(`\nDurable waits in queue mode: ${QUEUE_WAITING} executions wait for review`);
		const labels = Array.from({ length: QUEUE_WAITING }, (_, i) => `QW-${i}-${started}`);
		const send = async (label: string) => {
			const res = await fetch(`${ctx.url}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ label, url: `${files.url}/${label}.txt` }),
				signal: AbortSignal.timeout(60_000),
			});
			await res.arrayBuffer();
			return res.status;
		};
		// The main process registers the webhook a moment after the activation answered.
		let first = await send(labels[0]);
		for (let tries = 0; first === 404 && tries < 60; tries++) {
			await new Promise((resolve) => setTimeout(resolve, 500));
			first = await send(labels[0]);
		}
		const answers = [first, ...(await Promise.all(labels.slice(1).map(send)))];
		equal([...new Set(answers)], [200], 'webhook answers');
		await waitUntil(
			`${QUEUE_WAITING} executions to wait`,
			async () => mine().filter((r) => r.status === 'waiting').length === QUEUE_WAITING,
			120_000,
			undefined,
			500,
		);
		const waitingRows = mine();
		const active = await redisCommand(ctx.redisPort, 'LLEN bull:jobs:active');
		const queued = await redisCommand(ctx.redisPort, 'LLEN bull:jobs:wait');
		const logs = ctx.workers.map((w) => {
			const log = workerLog(w.log);
			const since = (ids: number[]) => ids.filter((id) => id > before);
			return { name: w.name, started: since(log.started), finished: since(log.finished) };
		});
		const startedOn = new Map<number, string>();
		for (const log of logs)
			for (const id of log.started) if (!startedOn.has(id)) startedOn.set(id, log.name);
		await check(
			`${QUEUE_WAITING} executions wait in PostgreSQL and no worker runs anything: n8n's job queue holds ${active.replace(':', '')} active and ${queued.replace(':', '')} queued jobs, every job the workers started since finished (started on ${logs.map((l) => `${l.name}: ${waitingRows.filter((r) => startedOn.get(r.id) === l.name).length}`).join(', ')})`,
			() => {
				equal(
					waitingRows.map((r) => r.status),
					labels.map(() => 'waiting'),
					'statuses',
				);
				equal([active, queued], [':0', ':0'], 'Redis: bull:jobs:active, bull:jobs:wait');
				for (const log of logs) {
					const open = log.started.filter((id) => !log.finished.includes(id));
					equal(open, [], `${log.name}: jobs started and not finished`);
				}
				for (const row of waitingRows) assert(startedOn.has(row.id), `no worker started ${row.id}`);
			},
		);

		// One worker goes: the other finishes what the stopped one started.
		const [gone, ...rest] = ctx.workers;
		await ctx.stopWorker(gone.name);
		const transactionOf = new Map<number, string>();
		for (const row of waitingRows) {
			const [item] = output(runData(pg, row.id), EXTRACT_INVOICE);
			transactionOf.set(row.id, String(item?.json.transactionId));
		}
		const endedAt = Date.now();
		for (const id of transactionOf.values()) sim.completeTransaction(id);
		await waitUntil(
			`${QUEUE_WAITING} executions to resume and end`,
			async () => mine().filter((r) => r.status === 'success').length === QUEUE_WAITING,
			180_000,
			undefined,
			500,
		);
		const done = mine();
		const after = rest.map((w) => ({ name: w.name, ...workerLog(w.log) }));
		const finishedOn = new Map<number, string>();
		for (const log of after) {
			for (const id of log.finished) finishedOn.set(id, log.name);
		}
		const crossed = done.filter((r) => startedOn.get(r.id) === gone.name);
		const latencies = done.map((r) => r.stoppedAt - endedAt).sort((a, b) => a - b);
		await check(
			`${gone.name} stopped, the reviews end: the pushes reach the main process and ${rest.map((w) => w.name).join(', ')} ${rest.length === 1 ? 'finishes' : 'finish'} all ${QUEUE_WAITING}, once each, with their fields, ${crossed.length} of them started on ${gone.name} (review end → execution end: median ${(latencies[latencies.length >> 1] / 1000).toFixed(1)} s, slowest ${(latencies[latencies.length - 1] / 1000).toFixed(1)} s)`,
			() => {
				equal(done.length, QUEUE_WAITING, 'executions of the workflow');
				equal(
					done.map((r) => r.status),
					labels.map(() => 'success'),
					'statuses',
				);
				assert(crossed.length > 0, `no execution was started on ${gone.name}`);
				for (const row of done) {
					assert(
						finishedOn.has(row.id) && finishedOn.get(row.id) !== gone.name,
						`${row.id}: finished on ${finishedOn.get(row.id) ?? 'no worker'}`,
					);
					const run = runData(pg, row.id);
					const items = output(run, AFTER_THE_WAIT);
					const transactionId = transactionOf.get(row.id);
					const label = sim
						.transaction(transactionId!)
						?.registrationParameters.find((p) => p.key === 'Label')?.value;
					equal(
						items.map((i) => [
							i.json.transactionId,
							i.json.status,
							(i.json.fields as Json | undefined)?.InvoiceNumber,
						]),
						[[transactionId, 'Processed', label]],
						`the item after the wait of execution ${row.id}`,
					);
					equal(
						sim.customActivityRuns(transactionId).map((r) => r.requests.map((q) => q.status)),
						[[202]],
						`the script's push for execution ${row.id}`,
					);
				}
			},
		);
	} finally {
		sim.configureCustomActivity({ placements: [] });
		sim.setSecrets({ [SECRET_NAME]: null, [URL_NAME]: null });
		sim.setDefaultTransactionScript({});
		files.server.close();
		console.log(
			`[queue] durable-wait checks finished in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	}
}
