/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console --
 * Benchmark driver, never shipped: spawns the simulator and the workers. */
/**
 * The driver's tools: the simulator in its own process and its HTTP controls, one measured worker
 * run, interleaved node/floor comparisons, and what the simulator's request log says about a run
 * (requests in flight over time).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT, WORK, writeJson } from '../e2e/lib/n8n';
import type { WorkerArgs, WorkerResult } from './worker';

export const TS_ENV = {
	...process.env,
	TS_NODE_PREFER_TS_EXTS: 'true',
	TS_NODE_TRANSPILE_ONLY: 'true',
};

export type Json = Record<string, unknown>;

export function median(values: number[]): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

// ------------------------------------------------------------------ simulator process

export async function startSimulator(): Promise<{ url: string; process: ChildProcess }> {
	const child = spawn(
		process.execPath,
		[
			'--max-old-space-size=4096',
			'-r',
			'ts-node/register',
			join(ROOT, 'test/simulator/cli.ts'),
			'--port',
			'0',
			'--quiet-log',
		],
		{ cwd: ROOT, env: TS_ENV, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const url = await new Promise<string>((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			const match = /listening (\S+)/.exec(chunk.toString());
			if (match) resolve(match[1]);
		});
		child.on('exit', (code) => reject(new Error(`simulator exited ${code}`)));
	});
	return { url, process: child };
}

export async function control(
	url: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<Json> {
	const res = await fetch(`${url}/__simulator/${path}`, {
		method,
		// No keep-alive: a long n8n run between two calls outlives the server's idle timeout.
		headers: { connection: 'close', ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined,
	});
	const json = (await res.json()) as Json;
	if (res.status !== 200) throw new Error(`control ${method} ${path}: ${JSON.stringify(json)}`);
	return json;
}

export interface LogEntry {
	route: string | null;
	at: number;
	finishedAt?: number;
	status?: number;
	rateLimited?: boolean;
	query?: Record<string, string | string[]>;
}

export async function requestLog(url: string): Promise<LogEntry[]> {
	return (await control(url, 'GET', 'requests')) as unknown as LogEntry[];
}

export function countRoute(counts: Record<string, number>, route: string, status?: number): number {
	return Object.entries(counts)
		.filter(
			([key]) =>
				key.startsWith(`${route} `) && (status === undefined || key.endsWith(` ${status}`)),
		)
		.reduce((n, [, v]) => n + v, 0);
}

/**
 * Requests in flight over time, from the log: a sweep over every handled (not refused) request's
 * arrival and answer (ends before starts within the same millisecond). `peak` is the most at once;
 * `busyMedian` the time-weighted median while at least one is in flight; `idleShare` the share of
 * the span (first arrival to last answer) with none in flight, e.g. while every sender pauses.
 */
export function inFlightOverTime(
	log: LogEntry[],
	route: string,
): { peak: number; busyMedian: number; idleShare: number } {
	const handled = log.filter((r) => r.route === route && !r.rateLimited && r.finishedAt);
	const events: Array<[number, number]> = [];
	for (const r of handled) events.push([r.at, 1], [r.finishedAt!, -1]);
	events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	const time = new Map<number, number>();
	let level = 0;
	let peak = 0;
	for (let i = 0; i < events.length; i++) {
		level += events[i][1];
		peak = Math.max(peak, level);
		const next = events[i + 1]?.[0];
		if (next !== undefined && next > events[i][0]) {
			time.set(level, (time.get(level) ?? 0) + next - events[i][0]);
		}
	}
	const idle = time.get(0) ?? 0;
	time.delete(0);
	const busy = [...time.values()].reduce((a, b) => a + b, 0);
	let seen = 0;
	let busyMedian = 0;
	for (const [value, ms] of [...time].sort((a, b) => a[0] - b[0])) {
		seen += ms;
		if (seen >= busy / 2) {
			busyMedian = value;
			break;
		}
	}
	return { peak, busyMedian, idleShare: busy + idle > 0 ? idle / (busy + idle) : 0 };
}

/**
 * Requests in flight over time, from the log: the time-weighted mean of handled (not refused)
 * requests in flight in each window of `windowMs`, from the first arrival to the last answer.
 */
export function inFlightSeries(log: LogEntry[], route: string, windowMs: number): number[] {
	const handled = log.filter((r) => r.route === route && !r.rateLimited && r.finishedAt);
	if (!handled.length) return [];
	const start = Math.min(...handled.map((r) => r.at));
	const end = Math.max(...handled.map((r) => r.finishedAt!));
	const windows = Math.max(1, Math.ceil((end - start) / windowMs));
	const busy = new Array<number>(windows).fill(0);
	for (const r of handled) {
		const from = r.at - start;
		const to = r.finishedAt! - start;
		for (let w = Math.floor(from / windowMs); w < windows && w * windowMs < to; w++) {
			busy[w] += Math.min(to, (w + 1) * windowMs) - Math.max(from, w * windowMs);
		}
	}
	// The last window may be shorter than the others.
	return busy.map((ms, w) => ms / Math.max(1, Math.min(windowMs, end - start - w * windowMs)));
}

/** From the first request of `route` received to the last one answered, milliseconds. */
export function phaseMs(log: LogEntry[], route: string): number {
	const entries = log.filter((r) => r.route === route && r.finishedAt);
	if (!entries.length) return NaN;
	return Math.max(...entries.map((r) => r.finishedAt!)) - Math.min(...entries.map((r) => r.at));
}

/** The time-weighted mean in flight over the whole span (idle time included). */
export function inFlightMean(log: LogEntry[], route: string): number {
	const handled = log.filter((r) => r.route === route && !r.rateLimited && r.finishedAt);
	if (!handled.length) return NaN;
	const start = Math.min(...handled.map((r) => r.at));
	const end = Math.max(...handled.map((r) => r.finishedAt!));
	const total = handled.reduce((sum, r) => sum + (r.finishedAt! - r.at), 0);
	return total / Math.max(1, end - start);
}

// ------------------------------------------------------------------ workers

export interface Measurement extends WorkerResult {
	/** Requests per "route status" during the run. */
	counts: Record<string, number>;
	/** The simulator's exact peak of API requests in flight. */
	serverPeak: number;
	/** The request log, when asked for. */
	log?: LogEntry[];
}

export type Args = Omit<WorkerArgs, 'simUrl'>;

export async function measure(
	simUrl: string,
	args: Args,
	options: { env?: NodeJS.ProcessEnv; log?: boolean } = {},
): Promise<Measurement> {
	await control(simUrl, 'DELETE', 'requests');
	// Arguments go through a file: 10 000 request ids do not fit on a command line.
	const argsFile = join(WORK, 'bench', `args-${process.pid}.json`);
	writeJson(argsFile, { ...args, simUrl });
	let out: string;
	try {
		out = execFileSync(
			process.execPath,
			[
				'--expose-gc',
				'--max-old-space-size=4096',
				'-r',
				'ts-node/register',
				join(ROOT, 'bench/worker.ts'),
				argsFile,
			],
			{ cwd: ROOT, env: { ...TS_ENV, ...options.env }, maxBuffer: 1 << 26 },
		).toString();
	} finally {
		rmSync(argsFile, { force: true });
	}
	const line = out.trim().split('\n').pop()!;
	const result = JSON.parse(line) as WorkerResult;
	const stats = (await control(simUrl, 'GET', 'stats')) as {
		requests: Record<string, number>;
		inFlight: { peak: number };
	};
	return {
		...result,
		counts: stats.requests,
		serverPeak: stats.inFlight.peak,
		...(options.log ? { log: await requestLog(simUrl) } : {}),
	};
}

export interface Comparison {
	label: string;
	node: Measurement[];
	floor: Measurement[];
	/** Further node configurations, interleaved with the two sides (see CompareOptions.extra). */
	extra: Record<string, Measurement[]>;
}

export interface CompareOptions {
	runs: number;
	/** Arguments for one side only (e.g. the node at Auto, the floor pinned). */
	node?: Partial<Args>;
	floor?: Partial<Args>;
	/** Before every single run (e.g. seed the catalog again). */
	before?: () => Promise<void>;
	env?: { node?: NodeJS.ProcessEnv; floor?: NodeJS.ProcessEnv };
	log?: boolean;
	/** Further node runs with these arguments, e.g. a pinned concurrency beside Auto. */
	extra?: Record<string, Partial<Args>>;
}

export async function compare(
	simUrl: string,
	label: string,
	args: Omit<Args, 'client'>,
	options: CompareOptions,
): Promise<Comparison> {
	const extra = Object.entries(options.extra ?? {});
	const comparison: Comparison = {
		label,
		node: [],
		floor: [],
		extra: Object.fromEntries(extra.map(([name]) => [name, []])),
	};
	for (let run = 0; run < options.runs; run++) {
		// Interleaved so that drift in the machine affects both alike.
		for (const side of ['floor', 'node'] as const) {
			await options.before?.();
			const m = await measure(
				simUrl,
				{ ...args, ...options[side], client: side === 'node' ? 'node' : 'undici' },
				{ env: options.env?.[side], log: options.log },
			);
			comparison[side].push(m);
		}
		for (const [name, variant] of extra) {
			await options.before?.();
			comparison.extra[name].push(
				await measure(
					simUrl,
					{ ...args, ...variant, client: 'node' },
					{ env: options.env?.node, log: options.log },
				),
			);
		}
		process.stdout.write('.');
	}
	console.log(` ${label}`);
	return comparison;
}

/** Medians of a comparison's sides. */
export function medians(c: Comparison, pick: (m: Measurement) => number): [number, number] {
	return [median(c.node.map(pick)), median(c.floor.map(pick))];
}

export const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

/** The row of the delete and status tables: requests, wall, memory, ratios against targets. */
export function row(
	c: Comparison,
	route: string,
	target: { wall: number; memory?: number },
): string {
	const [nodeWall, floorWall] = medians(c, (m) => m.wallMs);
	const [nodeMem, floorMem] = medians(c, (m) => m.peakRssMB);
	const [nodeReq, floorReq] = medians(c, (m) => countRoute(m.counts, route));
	const wallRatio = nodeWall / floorWall;
	const memRatio = nodeMem / Math.max(floorMem, 1);
	const memory =
		target.memory === undefined
			? '–'
			: `${fmt(memRatio, 2)} (${verdict(memRatio <= target.memory)})`;
	return `| ${c.label} | ${nodeReq} / ${floorReq} | ${fmt(nodeWall)} | ${fmt(floorWall)} | ${fmt(wallRatio, 2)} (${verdict(wallRatio <= target.wall)}) | ${fmt(nodeMem)} | ${fmt(floorMem)} | ${memory} |`;
}
