/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * End-to-end infrastructure, never shipped: reads what n8n stored in PostgreSQL and its logs. */
/**
 * What n8n recorded about executions: rows of `execution_entity` (status, times), the custom data
 * the workflows save (`execution_metadata`: callId, worker), the run data (`execution_data`,
 * stored by n8n in the `flatted` format, read with the host's own copy of that package), and which
 * worker ran each execution according to the workers' logs ("Worker started execution N").
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { HOST } from '../n8n';
import type { Postgres } from './postgres';

type Json = Record<string, unknown>;
export type Item = { json: Json; binary?: Json; pairedItem?: unknown };

export interface ExecutionRow {
	id: number;
	workflowId: string;
	status: string;
	mode: string;
	finished: boolean;
	/** ms since the epoch; NaN when not set. */
	createdAt: number;
	startedAt: number;
	stoppedAt: number;
	metadata: Record<string, string>;
}

export function executionRows(pg: Postgres, workflowIds?: string[]): ExecutionRow[] {
	const where = workflowIds
		? `where "workflowId" in (${workflowIds.map((id) => `'${id.replace(/'/g, "''")}'`).join(',')})`
		: '';
	const ms = (column: string) => `coalesce(extract(epoch from "${column}") * 1000, 'NaN')`;
	const rows = pg.sql(
		`select id, "workflowId", status, mode, finished, ${ms('createdAt')}, ${ms('startedAt')}, ${ms('stoppedAt')} from execution_entity ${where} order by id`,
	);
	const metadata = new Map<number, Record<string, string>>();
	for (const line of pg.sql('select "executionId", key, value from execution_metadata')) {
		const [id, key, value] = line.split('\t');
		const entry = metadata.get(Number(id)) ?? {};
		entry[key] = value;
		metadata.set(Number(id), entry);
	}
	return rows.map((line) => {
		const [id, workflowId, status, mode, finished, createdAt, startedAt, stoppedAt] =
			line.split('\t');
		return {
			id: Number(id),
			workflowId,
			status,
			mode,
			finished: finished === 't',
			createdAt: Number(createdAt),
			startedAt: Number(startedAt),
			stoppedAt: Number(stoppedAt),
			metadata: metadata.get(Number(id)) ?? {},
		};
	});
}

const hostRequire = createRequire(join(HOST, 'package.json'));

/** The run data n8n stored for an execution (`execution_data.data`, flatted). */
export function runData(pg: Postgres, executionId: number): Json | undefined {
	const [text] = pg.sql(`select data from execution_data where "executionId" = ${executionId}`);
	if (!text) return undefined;
	const flatted = hostRequire('flatted') as { parse: (text: string) => unknown };
	return flatted.parse(text) as Json;
}

/** The items a node output in its first run (main output 0). */
export function output(run: Json | undefined, node: string): Item[] {
	const nodes = ((run?.resultData as Json)?.runData ?? {}) as Record<string, Json[]>;
	const task = nodes[node]?.[0];
	return (((task?.data as Json)?.main as Item[][]) ?? [])[0] ?? [];
}

/** The error n8n stored for a failed run. */
export function runError(run: Json | undefined): Json | undefined {
	return (run?.resultData as Json)?.error as Json | undefined;
}

export interface WorkerLog {
	started: number[];
	finished: number[];
}

/** Executions a worker started and finished, from its log ("Worker started execution 12 (job 7)"). */
export function workerLog(logFile: string): WorkerLog {
	let text = '';
	try {
		text = readFileSync(logFile, 'utf8');
	} catch {
		// no log yet
	}
	const ids = (re: RegExp) => [...text.matchAll(re)].map((m) => Number(m[1]));
	return {
		started: ids(/Worker started execution (\d+) \(job/g),
		finished: ids(/Worker finished execution (\d+) \(job/g),
	};
}

/** The most intervals [start, stop) that overlap at one moment. */
export function peakOverlap(intervals: Array<[number, number]>): number {
	const events: Array<[number, number]> = [];
	for (const [a, b] of intervals) {
		if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
		events.push([a, 1], [b, -1]);
	}
	events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
	let now = 0;
	let peak = 0;
	for (const [, delta] of events) {
		now += delta;
		peak = Math.max(peak, now);
	}
	return peak;
}
