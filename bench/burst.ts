/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console --
 * Benchmark driver, never shipped: a real n8n server, its memory and the executions it stored. */
/**
 * A burst at the ABBYY Vantage Trigger inside a real n8n started as users run it (`n8n start`, its
 * default settings: unlimited production concurrency, SQLite): a workflow (the trigger, then an
 * Edit Fields node) is activated, polling every 5 s; then BURST.transactions transactions complete
 * at once, so that one poll finds them all. Measured: the peak resident memory of n8n's main
 * process (and of the container, in a 1 GiB memory cgroup), the executions n8n stored and each
 * transaction's count among their trigger items (exactly once: none missing, none twice), and the
 * time until the last one finished.
 */
import {
	createApiKey,
	nodeItems,
	publicApi,
	rest,
	signIn,
	storedExecutions,
} from '../e2e/lib/server';
import type { N8nInstance } from '../e2e/lib/n8n';
import { CREDENTIAL } from '../e2e/lib/setup';
import { control, fmt, requestLog } from './measure';
import { startInPlacement, stopN8nServer, type HeapSetting, type Placement } from './realN8n';

export const BURST = {
	transactions: 1500,
	pollMs: 5000,
};

/** The trigger's output modes, as its Output parameter names them. */
export type BurstMode = 'transaction' | 'poll';

export const BURST_MODES: Record<
	BurstMode,
	{ label: string; parameters: Record<string, unknown> }
> = {
	transaction: {
		label: 'One Execution per Transaction (the default)',
		parameters: {},
	},
	poll: {
		label: 'One Execution per Poll (all items)',
		parameters: { output: 'perPoll' },
	},
};

export interface BurstRun {
	mode: BurstMode;
	where: string;
	/** Whether n8n ran to the end (not killed by the kernel, not crashed). */
	survived: boolean;
	mainPeakMB: number;
	childPeakMB: number;
	containerPeakMB?: number;
	executions: number;
	statuses: Record<string, number>;
	missing: number;
	twice: number;
	foreign: number;
	/** From the burst's completion to the last execution's end. */
	drainMs: number;
	/** Executions running or queued at once, the most seen (sampled every second). */
	pendingPeak: number;
}

type Json = Record<string, unknown>;
const TRIGGER = 'Transaction completed';
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Every 5 s: twelve Poll Times of one fixed second each (n8n refuses one cron firing more often). */
const POLL_TIMES = {
	item: Array.from({ length: 12 }, (_, i) => ({
		mode: 'custom',
		cronExpression: `${i * 5} * * * * *`,
	})),
};

function workflow(batch: string, mode: BurstMode): Json {
	return {
		name: `Bench: a burst of ${BURST.transactions} (${mode})`,
		nodes: [
			{
				id: 'burst-trigger',
				name: TRIGGER,
				type: 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: POLL_TIMES,
					event: 'transactionCompleted',
					transactionParameters: { parameter: [{ key: 'Batch', value: batch }] },
					...BURST_MODES[mode].parameters,
				},
				credentials: { abbyyVantageApi: CREDENTIAL },
			},
			{
				id: 'burst-fields',
				name: 'Fields',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
				parameters: {
					assignments: {
						assignments: [
							{
								id: 'a1',
								name: 'transaction',
								type: 'string',
								value: '={{ $json.transactionId }}',
							},
						],
					},
					options: {},
				},
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Fields', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** Executions of `workflowId` n8n stored with `statuses` (the editor's count). */
async function count(url: string, cookie: string, workflowId: string, statuses: string[]) {
	const filter = JSON.stringify({ workflowId, status: statuses });
	const page = await rest<{ count: number }>(
		url,
		cookie,
		'GET',
		`/executions?filter=${encodeURIComponent(filter)}&limit=1`,
	);
	return page.count;
}

const ALL = ['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting'];
const PENDING = ['new', 'running'];

/**
 * One burst in a fresh `n8n start` (in `cgroup` when given): activate, let the first poll mark
 * what is there, complete BURST.transactions at once, wait until n8n has run everything the
 * trigger started and two more polls added nothing, then count.
 */
export async function burstRun(
	simUrl: string,
	instance: N8nInstance,
	mode: BurstMode,
	where: Placement,
): Promise<BurstRun> {
	// n8n's defaults: the bench's instance pins the SQLite pool for its CLI runs; here n8n's own.
	const { server, memory, alive } = await startInPlacement(instance, where);
	const batch = `bench-burst-${mode}-${Date.now()}`;
	try {
		const cookie = await signIn(server.url);
		const apiKey = await createApiKey(server.url, cookie);
		const created = await publicApi(
			server.url,
			apiKey,
			'POST',
			'/workflows',
			workflow(batch, mode),
		);
		const id = String(created.id);
		// Activation runs the first poll (in the background): what completed before is marked, not
		// emitted. The burst comes after it.
		await control(simUrl, 'DELETE', 'requests');
		await publicApi(server.url, apiKey, 'POST', `/workflows/${id}/activate`);
		const polled = async () =>
			(await requestLog(simUrl)).some(
				(r) =>
					r.route === 'GetCompletedTransactions' &&
					r.query?.['TransactionParameters[0].Value'] === batch,
			);
		const activated = Date.now() + 60_000;
		while (!(await polled()) && Date.now() < activated) await sleep(200);
		const { transactionIds } = (await control(simUrl, 'POST', 'completed-transactions', {
			count: BURST.transactions,
			registrationParameters: [{ key: 'Batch', value: batch }],
		})) as { transactionIds: string[] };
		const seededAt = Date.now();
		// Done when nothing is pending and two more polls added nothing (or after 15 minutes).
		let last = -1;
		let stableSince = Date.now();
		let pendingPeak = 0;
		while (alive() && Date.now() - seededAt < 15 * 60_000) {
			await sleep(1000);
			const [total, pending] = await Promise.all([
				count(server.url, cookie, id, ALL),
				count(server.url, cookie, id, PENDING),
			]).catch(() => [last, Infinity]);
			pendingPeak = Math.max(pendingPeak, Number.isFinite(pending) ? pending : 0);
			if (total !== last || pending > 0) [last, stableSince] = [total, Date.now()];
			else if (total > 0 && Date.now() - stableSince > 2 * BURST.pollMs + 1000) break;
		}
		const peaks = memory.stop();
		await publicApi(server.url, apiKey, 'POST', `/workflows/${id}/deactivate`).catch(() => {});
		const executions = alive() ? await storedExecutions(server.url, apiKey, id, true) : [];
		const seen = new Map<string, number>();
		const statuses: Record<string, number> = {};
		let lastStop = seededAt;
		for (const execution of executions) {
			statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
			if (execution.stoppedAt) lastStop = Math.max(lastStop, Date.parse(execution.stoppedAt));
			for (const item of nodeItems(execution, TRIGGER)) {
				const tx = String(item.json.transactionId);
				seen.set(tx, (seen.get(tx) ?? 0) + 1);
			}
		}
		const wanted = new Set(transactionIds);
		return {
			mode,
			where: where.label,
			survived: alive(),
			...peaks,
			containerPeakMB: where.cgroup?.peakMB(),
			executions: executions.length,
			statuses,
			missing: transactionIds.filter((tx) => !seen.has(tx)).length,
			twice: [...seen].filter(([tx, n]) => wanted.has(tx) && n > 1).length,
			foreign: [...seen.keys()].filter((tx) => !wanted.has(tx)).length,
			drainMs: lastStop - seededAt,
			pendingPeak,
		};
	} finally {
		memory.stop();
		await stopN8nServer(server);
	}
}

/** Whether a run kept everything: survived, every transaction exactly once. */
export const exactlyOnce = (r: BurstRun) =>
	r.survived && r.missing === 0 && r.twice === 0 && r.foreign === 0;

export function burstRow(r: BurstRun, boundMB: number): string {
	const statuses = Object.entries(r.statuses)
		.map(([s, n]) => `${n} ${s}`)
		.join(', ');
	return `| ${BURST_MODES[r.mode].label} | ${r.where} | ${r.survived ? 'ran to the end' : '**n8n died**'} | ${r.executions} (${statuses || '–'}) | ${r.missing} / ${r.twice} / ${r.foreign} (${exactlyOnce(r) ? 'met' : '**missed**'}) | ${r.pendingPeak} | ${fmt(r.drainMs / 1000, 1)} s | ${fmt(r.mainPeakMB)} MB (${r.survived && r.mainPeakMB < boundMB ? 'met' : '**missed**'}) | ${fmt(r.childPeakMB)} MB | ${r.containerPeakMB === undefined ? '–' : `${fmt(r.containerPeakMB)} MB`} |`;
}

export interface BurstResult {
	rows: string;
	runs: BurstRun[];
}

/** Each output mode in a 1 GB deployment and with no memory limit, one fresh n8n each. */
export async function burstSection(
	simUrl: string,
	instance: N8nInstance,
	where: Record<HeapSetting, Placement>,
): Promise<BurstResult> {
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	const runs: BurstRun[] = [];
	for (const heap of ['oneGigabyte', 'machine'] as const) {
		for (const mode of ['transaction', 'poll'] as const) {
			runs.push(await burstRun(simUrl, instance, mode, where[heap]));
			process.stdout.write('.');
		}
	}
	console.log(' real n8n trigger burst');
	return { rows: runs.map((r) => burstRow(r, 1024)).join('\n'), runs };
}
