/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * Benchmark worker, never shipped: one measurement per process, so memory is not shared. */
/**
 * One measured run, in its own process: either the ABBYY Vantage node (through n8n-core's
 * execution engine) or the floor, a raw undici client sending the optimal request sequence.
 * Prints one JSON line: wall time and peak memory above the baseline taken just before the work.
 */
import { readFileSync } from 'node:fs';

import { Pool, request } from 'undici';

import { runNode, simulatorCredentials } from '../test/harness/n8n';
import { tokenForm } from '../test/helpers/http';
import { BENCH_CATALOG, recordDeleteParameters } from './scenario';

interface Args {
	scenario: 'delete' | 'status';
	client: 'node' | 'undici';
	concurrency: number;
	simUrl: string;
	/** status: the export ids to poll. */
	requestIds?: string[];
}

const args = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Args;

function deleteInput(): string[][] {
	// 1000 items × 1000 IDs = 1 000 000 unique IDs.
	return Array.from({ length: 1000 }, (_, item) =>
		Array.from({ length: 1000 }, (_, i) => `record-${item * 1000 + i}`),
	);
}

async function token(): Promise<string> {
	const res = await request(`${args.simUrl}/auth2/connect/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: tokenForm(),
	});
	return ((await res.body.json()) as { access_token: string }).access_token;
}

/** Run `tasks` with `limit` in flight. */
async function pool<T>(
	inputs: T[],
	limit: number,
	task: (input: T) => Promise<void>,
): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, inputs.length) }, async () => {
			while (next < inputs.length) await task(inputs[next++]);
		}),
	);
}

async function floorDelete(input: string[][]): Promise<void> {
	const bearer = await token();
	const unique = [...new Set(input.flat())];
	const batches: string[][] = [];
	for (let i = 0; i < unique.length; i += 5000) batches.push(unique.slice(i, i + 5000));
	const client = new Pool(args.simUrl, { connections: args.concurrency });
	await pool(batches, args.concurrency, async (ids) => {
		const res = await client.request({
			method: 'POST',
			path: `/api/publicapi/v1/catalogs/${encodeURIComponent(BENCH_CATALOG)}/records/delete`,
			headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
			body: JSON.stringify(ids),
		});
		await res.body.dump();
		if (res.statusCode !== 200) throw new Error(`delete answered ${res.statusCode}`);
	});
	await client.close();
}

async function floorStatus(ids: string[]): Promise<void> {
	const bearer = await token();
	const client = new Pool(args.simUrl, { connections: args.concurrency });
	await pool(ids, args.concurrency, async (id) => {
		const res = await client.request({
			method: 'GET',
			path: `/api/reporting/v2/exports/transaction-steps/${encodeURIComponent(id)}/status`,
			headers: { authorization: `Bearer ${bearer}` },
		});
		const body = (await res.body.json()) as { totalFileCount: string };
		if (res.statusCode !== 200 || Number(body.totalFileCount) !== 1) throw new Error('bad status');
	});
	await client.close();
}

async function nodeDelete(input: string[][]): Promise<void> {
	const result = await runNode({
		credentials: simulatorCredentials({ url: args.simUrl } as never),
		items: input.map((ids) => ({ ids })),
		parameters: recordDeleteParameters(args.concurrency),
	});
	if (result.error || result.items[0]?.json.idsDeleted !== 1_000_000) {
		throw new Error(
			`node run failed: ${result.error?.message ?? JSON.stringify(result.items[0]?.json)}`,
		);
	}
}

async function nodeStatus(ids: string[]): Promise<void> {
	const result = await runNode({
		credentials: simulatorCredentials({ url: args.simUrl } as never),
		items: ids.map((requestId) => ({ requestId })),
		parameters: {
			resource: 'report',
			operation: 'getExportStatus',
			requestId: '={{ $json.requestId }}',
			options: { concurrency: args.concurrency },
		},
	});
	if (result.error || result.items.length !== ids.length)
		throw new Error(`node run failed: ${result.error?.message}`);
}

async function main(): Promise<void> {
	const input = args.scenario === 'delete' ? deleteInput() : [];
	const ids = args.requestIds ?? [];
	// Warm up module loading and JIT with one tiny call, then measure from a collected baseline.
	global.gc?.();
	const baseline = process.memoryUsage();
	let peakRss = baseline.rss;
	let peakHeap = baseline.heapUsed;
	const sampler = setInterval(() => {
		const m = process.memoryUsage();
		peakRss = Math.max(peakRss, m.rss);
		peakHeap = Math.max(peakHeap, m.heapUsed);
	}, 2);
	const started = process.hrtime.bigint();
	if (args.scenario === 'delete') {
		await (args.client === 'node' ? nodeDelete(input) : floorDelete(input));
	} else {
		await (args.client === 'node' ? nodeStatus(ids) : floorStatus(ids));
	}
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	clearInterval(sampler);
	const end = process.memoryUsage();
	peakRss = Math.max(peakRss, end.rss);
	peakHeap = Math.max(peakHeap, end.heapUsed);
	console.log(
		JSON.stringify({
			wallMs,
			peakRssMB: (peakRss - baseline.rss) / 2 ** 20,
			peakHeapMB: (peakHeap - baseline.heapUsed) / 2 ** 20,
			baselineRssMB: baseline.rss / 2 ** 20,
		}),
	);
	process.exit(0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
