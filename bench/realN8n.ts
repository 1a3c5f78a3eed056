/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions --
 * Benchmark driver, never shipped: installs the package into a real n8n and runs its CLI. */
/**
 * The package inside a real n8n (the e2e host, `e2e/.work/host`): its own user folder, so that it
 * never shares one with a concurrent e2e run; workflows imported and run with `n8n execute`,
 * while the memory of n8n's processes (the main process and its task runner) is sampled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	rmdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';

import {
	freshInstance,
	HOST,
	packPackage,
	WORK,
	writeJson,
	type N8nInstance,
} from '../e2e/lib/n8n';
import { killGroup } from '../e2e/lib/server';
import { CREDENTIAL, PACKAGE } from '../e2e/lib/setup';
import { tokenForm } from '../test/helpers/http';
import { fixtureCredentialData } from '../test/simulator/simulator';
import {
	BENCH_CATALOG,
	mappedFieldsParameters,
	mappedSyncParameters,
	mappingSourceCode,
	recordDeleteParameters,
	syncParameters,
	syncSourceCode,
} from './scenario';

type Json = Record<string, unknown>;

const N8N_BIN = join(HOST, 'node_modules', '.bin', 'n8n');
const BENCH_WORK = join(WORK, 'bench');

export function hostInstalled(): boolean {
	return existsSync(N8N_BIN);
}

/** Build, pack and install the package into a fresh user folder of the bench's own. */
export async function benchInstance(simUrl: string): Promise<N8nInstance> {
	const instance = await freshInstance(packPackage(join(BENCH_WORK, 'pack')), PACKAGE, BENCH_WORK);
	await importBenchCredential(instance, simUrl);
	const workflowsFile = join(BENCH_WORK, 'workflows.json');
	writeJson(workflowsFile, workflows(simUrl));
	await mustSucceed(instance, ['import:workflow', `--input=${workflowsFile}`]);
	return instance;
}

/** The bench's ABBYY Vantage credential (CREDENTIAL, for the simulator at `simUrl`) in `instance`'s database. */
export async function importBenchCredential(instance: N8nInstance, simUrl: string): Promise<void> {
	const credentialsFile = join(BENCH_WORK, 'credentials.json');
	writeJson(credentialsFile, [
		{ ...CREDENTIAL, type: 'abbyyVantageApi', data: fixtureCredentialData(simUrl) },
	]);
	await mustSucceed(instance, ['import:credentials', `--input=${credentialsFile}`]);
}

async function mustSucceed(instance: N8nInstance, args: string[]): Promise<void> {
	const result = await runN8n(instance, args);
	if (result.code !== 0)
		throw new Error(`n8n ${args[0]} failed:\n${result.stdout}${result.stderr}`);
}

// ------------------------------------------------------------------ memory of a process tree

function status(pid: number): { hwm: number; rss: number } | undefined {
	try {
		const text = readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
		return { hwm: kb('VmHWM') * 1024, rss: kb('VmRSS') * 1024 };
	} catch {
		return undefined;
	}
}

function children(pid: number): number[] {
	const out: number[] = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			// pid (comm) state ppid …: comm may hold spaces, so read after the last ')'.
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (ppid === pid) out.push(Number(name));
		} catch {
			// the process ended meanwhile
		}
	}
	return out;
}

export interface N8nRun {
	code: number;
	/** The signal that ended n8n, if one did (SIGKILL from the kernel when a cgroup ran out). */
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	ms: number;
	/** Peak resident memory of n8n's main process (VmHWM, sampled every 100 ms). */
	mainPeakMB: number;
	/** The same for its child processes (the task runner), the largest of them. */
	childPeakMB: number;
	/** The most the whole tree held at one sample. */
	treePeakMB: number;
}

/**
 * A memory cgroup (v1 `memory` controller, or v2) with a hard limit: what a container with that
 * memory budget gives its processes. Node sizes its default V8 heap from such a limit (560 MB at
 * 1 GiB with Node 24), as it would inside a 1 GB container. Undefined where this machine does not
 * let the bench create one (not root, no memory controller).
 */
export interface MemoryCgroup {
	/** The folder whose `cgroup.procs` takes a process. */
	path: string;
	limitMB: number;
	/** The most the cgroup held (all its processes, page cache included) since the last reset. */
	peakMB(): number;
	/** How often the limit was reached (the kernel then reclaimed memory); v1 only, else NaN. */
	limitHits(): number;
	/** Clear the peak and the count before a run. */
	reset(): void;
	remove(): void;
}

export function memoryCgroup(name: string, limitMB: number): MemoryCgroup | undefined {
	const bytes = String(limitMB * 2 ** 20);
	const read = (file: string) => Number(readFileSync(file, 'utf8').trim());
	const tryWrite = (file: string, value: string) => {
		try {
			writeFileSync(file, value);
		} catch {
			// the file does not exist in this kernel's controller, or is read-only
		}
	};
	try {
		const v1 = '/sys/fs/cgroup/memory';
		if (existsSync(join(v1, 'memory.limit_in_bytes'))) {
			const path = join(v1, name);
			mkdirSync(path, { recursive: true });
			writeFileSync(join(path, 'memory.limit_in_bytes'), bytes);
			tryWrite(join(path, 'memory.memsw.limit_in_bytes'), bytes); // no swapping past it
			return {
				path,
				limitMB,
				peakMB: () => read(join(path, 'memory.max_usage_in_bytes')) / 2 ** 20,
				limitHits: () => read(join(path, 'memory.failcnt')),
				reset() {
					writeFileSync(join(path, 'memory.max_usage_in_bytes'), '0');
					writeFileSync(join(path, 'memory.failcnt'), '0');
				},
				remove: () => rmdirSync(path),
			};
		}
		const v2 = '/sys/fs/cgroup';
		if (existsSync(join(v2, 'cgroup.controllers'))) {
			tryWrite(join(v2, 'cgroup.subtree_control'), '+memory');
			const path = join(v2, name);
			mkdirSync(path, { recursive: true });
			writeFileSync(join(path, 'memory.max'), bytes);
			tryWrite(join(path, 'memory.swap.max'), '0');
			const peakFile = join(path, 'memory.peak');
			return {
				path,
				limitMB,
				peakMB: () => (existsSync(peakFile) ? read(peakFile) / 2 ** 20 : NaN),
				limitHits: () => NaN,
				reset: () => tryWrite(peakFile, 'reset'),
				remove: () => rmdirSync(path),
			};
		}
	} catch {
		return undefined;
	}
	return undefined;
}

/** The peaks of a process and its children, sampled every 100 ms until `stop`. */
export interface MemoryWatch {
	stop(): { mainPeakMB: number; childPeakMB: number; treePeakMB: number };
}

/** Sample the memory of process `pid` (its VmHWM) and of its children, every 100 ms. */
export function watchMemory(pid: number | undefined): MemoryWatch {
	let mainPeak = 0;
	let childPeak = 0;
	let treePeak = 0;
	const sample = () => {
		if (!pid) return;
		const main = status(pid);
		if (!main) return;
		mainPeak = Math.max(mainPeak, main.hwm);
		let tree = main.rss;
		for (const kid of children(pid)) {
			const s = status(kid);
			if (!s) continue;
			childPeak = Math.max(childPeak, s.hwm);
			tree += s.rss;
		}
		treePeak = Math.max(treePeak, tree);
	};
	const sampler = setInterval(sample, 100);
	return {
		stop() {
			sample();
			clearInterval(sampler);
			return {
				mainPeakMB: mainPeak / 2 ** 20,
				childPeakMB: childPeak / 2 ** 20,
				treePeakMB: treePeak / 2 ** 20,
			};
		},
	};
}

/** The command that runs n8n with `args`, inside `cgroup` when given (a shell joins it, then becomes n8n). */
function n8nCommand(args: string[], cgroup?: MemoryCgroup): [string, string[]] {
	return cgroup
		? [
				'/bin/sh',
				['-c', 'echo $$ > "$0" && exec "$@"', join(cgroup.path, 'cgroup.procs'), N8N_BIN, ...args],
			]
		: [N8N_BIN, args];
}

/**
 * Run an `n8n` CLI command in the instance, sampling the memory of its processes; with a cgroup,
 * n8n starts inside it (a shell joins it, then becomes n8n).
 */
export async function runN8n(
	instance: N8nInstance,
	args: string[],
	timeoutMs = 600_000,
	cgroup?: MemoryCgroup,
): Promise<N8nRun> {
	const started = Date.now();
	return await new Promise((resolveRun) => {
		// Standard output goes to a file: n8n exits without waiting for a pipe to drain, which cuts
		// the run JSON of a large execution short; writes to a file are complete when it exits.
		const stdoutFile = join(BENCH_WORK, 'n8n-stdout.txt');
		const fd = openSync(stdoutFile, 'w');
		const [command, commandArgs] = n8nCommand(args, cgroup);
		const child = spawn(command, commandArgs, {
			env: instance.env,
			cwd: BENCH_WORK,
			stdio: ['ignore', fd, 'pipe'],
		});
		closeSync(fd);
		let stderr = '';
		child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
		const memory = watchMemory(child.pid);
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolveRun({
				code: code ?? -1,
				signal,
				stdout: readFileSync(stdoutFile, 'utf8'),
				stderr,
				ms: Date.now() - started,
				...memory.stop(),
			});
		});
	});
}

/**
 * Where n8n runs (the sync, the trigger's burst). On this machine as it is, V8 sizes n8n's heap from the machine's memory
 * and lets a heap holding 200 000 items grow far past what is live before it collects. In a 1 GB
 * deployment (a container with a 1 GiB memory limit; here a memory cgroup of the kernel, n8n's
 * default settings unchanged) Node sizes the heap from the limit. Where the bench cannot create a
 * cgroup, the heap is capped as such a deployment would cap it (n8n's docs set it with NODE_OPTIONS).
 */
export const CONTAINER_MB = 1024;
const CAPPED_HEAP = '--max-old-space-size=512';
export type HeapSetting = 'machine' | 'oneGigabyte';
export interface Placement {
	label: string;
	cgroup?: MemoryCgroup;
	env?: Record<string, string>;
}
export function placements(): Record<HeapSetting, Placement> {
	const cgroup = memoryCgroup(`n8n-bench-${process.pid}`, CONTAINER_MB);
	const machineGB = (totalmem() / 2 ** 30).toFixed(0);
	return {
		machine: { label: `n8n's defaults, no memory limit (this machine: ${machineGB} GB)` },
		oneGigabyte: cgroup
			? {
					label: `n8n's defaults in a ${CONTAINER_MB} MiB memory cgroup`,
					cgroup,
				}
			: {
					label: `\`NODE_OPTIONS=${CAPPED_HEAP}\` (no cgroup could be made here)`,
					env: { NODE_OPTIONS: CAPPED_HEAP },
				},
	};
}
// ------------------------------------------------------------------ n8n as a server

export interface BenchServer {
	url: string;
	child: ChildProcess;
	/** Resolves with the exit code (or the signal's name) when n8n ends. */
	exited: Promise<number | string>;
	logFile: string;
}

/**
 * `n8n start` in `instance` with `env` added, inside `cgroup` when given (from its first
 * allocation, so that Node sizes its heap from the limit as in a container); resolves once n8n
 * reports ready and its REST API answers. Its own process group, with its task runner.
 */
export async function startN8nServer(
	instance: N8nInstance,
	env: NodeJS.ProcessEnv,
	cgroup?: MemoryCgroup,
): Promise<BenchServer> {
	const url = `http://127.0.0.1:${instance.env.N8N_PORT}`;
	const logFile = join(BENCH_WORK, 'n8n-server.log');
	const log = openSync(logFile, 'w');
	const [command, args] = n8nCommand(['start'], cgroup);
	const child = spawn(command, args, {
		env: { ...instance.env, ...env },
		cwd: BENCH_WORK,
		stdio: ['ignore', log, log],
		detached: true,
	});
	closeSync(log);
	const exited = new Promise<number | string>((resolve) =>
		child.once('exit', (code, signal) => {
			// n8n copies its editor's scripts into the user folder at every start: not for the linter.
			rmSync(join(instance.userFolder, '.cache'), { recursive: true, force: true });
			resolve(code ?? signal ?? -1);
		}),
	);
	let gone = false;
	void exited.then(() => (gone = true));
	const deadline = Date.now() + 180_000;
	const answers = async (path: string) =>
		await fetch(`${url}${path}`).then(
			(r) => r.ok,
			() => false,
		);
	while (Date.now() < deadline && !gone) {
		if ((await answers('/healthz/readiness')) && (await answers('/rest/settings')))
			return { url, child, exited, logFile };
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	killGroup(child, 'SIGKILL');
	throw new Error(
		`n8n did not become ready at ${url}${gone ? ' (it exited)' : ''}; see ${logFile}`,
	);
}

/**
 * A fresh `n8n start` for a burst: `instance` with `where`'s environment and `extra` added, n8n's
 * own SQLite pool (the bench's instance pins it for its CLI runs), inside `where.cgroup` when
 * given (reset first); its memory watched from the start, and whether it is still alive.
 */
export async function startInPlacement(
	instance: N8nInstance,
	where: Placement,
	extra: Record<string, string> = {},
): Promise<{ server: BenchServer; memory: MemoryWatch; alive: () => boolean }> {
	const env = { ...instance.env, ...where.env, ...extra };
	delete env.DB_SQLITE_POOL_SIZE;
	where.cgroup?.reset();
	const server = await startN8nServer({ ...instance, env }, {}, where.cgroup);
	const memory = watchMemory(server.child.pid);
	let survived = true;
	void server.exited.then(() => (survived = false));
	return { server, memory, alive: () => survived };
}

/** SIGTERM (n8n waits for its running executions), then SIGKILL to the group after `timeoutMs`. */
export async function stopN8nServer(server: BenchServer, timeoutMs = 120_000): Promise<void> {
	if (server.child.exitCode === null && server.child.signalCode === null)
		server.child.kill('SIGTERM');
	const timer = setTimeout(() => killGroup(server.child, 'SIGKILL'), timeoutMs);
	try {
		await server.exited;
	} finally {
		clearTimeout(timer);
		killGroup(server.child, 'SIGKILL');
	}
}

/** n8n's Prometheus metrics (N8N_METRICS=true), read once: a metric's value by name, NaN when absent. */
export async function readMetrics(url: string): Promise<(name: string) => number> {
	const text = await (await fetch(`${url}/metrics`)).text();
	return (name) =>
		Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? NaN);
}

// ------------------------------------------------------------------ workflows

export const WORKFLOWS = {
	cleanupAuto: 'vw',
	cleanup8: 'vw8',
	cleanupHttp: 'hw',
	sync: 'sw',
	/** The same Code node without the sync: what n8n itself holds for 200 000 items. */
	syncSourceOnly: 'sw0',
	/** 10 000 items into Edit Fields and into Sync, the same four expressions in both. */
	mapping: 'mw',
};

/** The node names of the mapping workflow, whose run data the bench reads. */
export const MAPPING_NODES = { fields: 'Edit Fields', sync: 'Sync mapped' };

function workflows(simUrl: string): Json[] {
	const credentials = {
		abbyyVantageApi: { id: CREDENTIAL.id, name: CREDENTIAL.name },
	};
	const trigger = {
		id: 'trg',
		name: 'Run now',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const generate = {
		id: 'gen',
		name: 'Generate 1M IDs',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [200, 0],
		parameters: {
			jsCode:
				'const items = [];\nfor (let item = 0; item < 1000; item++) {\n  const ids = [];\n  for (let i = 0; i < 1000; i++) ids.push(`record-${item * 1000 + i}`);\n  items.push({ json: { ids } });\n}\nreturn items;',
		},
	};
	const cleanup = (id: string, name: string, concurrency?: number) => ({
		id,
		name,
		nodes: [
			trigger,
			generate,
			{
				id: 'del',
				name: 'Delete records',
				type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
				typeVersion: 1,
				position: [400, 0],
				parameters: recordDeleteParameters(concurrency),
				credentials,
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Generate 1M IDs', type: 'main', index: 0 }]] },
			'Generate 1M IDs': { main: [[{ node: 'Delete records', type: 'main', index: 0 }]] },
		},
	});
	// The HTTP Request node's form fields: the same password grant the tests send.
	const form = [...new URLSearchParams(tokenForm())].map(([name, value]) => ({ name, value }));
	const http = {
		id: WORKFLOWS.cleanupHttp,
		name: 'Bench: HTTP Request + Code',
		nodes: [
			trigger,
			{
				id: 'tok',
				name: 'Get token',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [200, 0],
				parameters: {
					method: 'POST',
					url: `${simUrl}/auth2/connect/token`,
					sendBody: true,
					contentType: 'form-urlencoded',
					bodyParameters: { parameters: form },
					options: {},
				},
			},
			{ ...generate, position: [400, 0] },
			{
				id: 'chk',
				name: 'Chunk IDs',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [600, 0],
				parameters: {
					jsCode:
						"const token = $('Get token').first().json.access_token;\nconst unique = [...new Set($input.all().flatMap((item) => item.json.ids))];\nconst out = [];\nfor (let i = 0; i < unique.length; i += 5000) out.push({ json: { ids: unique.slice(i, i + 5000), token } });\nreturn out;",
				},
			},
			{
				id: 'htd',
				name: 'HTTP delete',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [800, 0],
				parameters: {
					method: 'POST',
					url: `${simUrl}/api/publicapi/v1/catalogs/${encodeURIComponent(BENCH_CATALOG)}/records/delete`,
					sendHeaders: true,
					headerParameters: {
						parameters: [{ name: 'Authorization', value: '=Bearer {{ $json.token }}' }],
					},
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify($json.ids) }}',
					options: {},
				},
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Get token', type: 'main', index: 0 }]] },
			'Get token': { main: [[{ node: 'Generate 1M IDs', type: 'main', index: 0 }]] },
			'Generate 1M IDs': { main: [[{ node: 'Chunk IDs', type: 'main', index: 0 }]] },
			'Chunk IDs': { main: [[{ node: 'HTTP delete', type: 'main', index: 0 }]] },
		},
	};
	const sync = {
		id: WORKFLOWS.sync,
		name: 'Bench: Catalog Sync of 200 000 records',
		nodes: [
			trigger,
			{
				id: 'src',
				name: 'Source records',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: syncSourceCode() },
			},
			{
				id: 'syn',
				name: 'Sync catalog',
				type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
				typeVersion: 1,
				position: [400, 0],
				parameters: syncParameters(),
				credentials,
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Source records', type: 'main', index: 0 }]] },
			'Source records': { main: [[{ node: 'Sync catalog', type: 'main', index: 0 }]] },
		},
	};
	const sourceOnly = {
		...sync,
		id: WORKFLOWS.syncSourceOnly,
		name: 'Bench: the 200 000 source items alone',
		nodes: sync.nodes.slice(0, 2),
		connections: { 'Run now': sync.connections['Run now'] },
	};
	const mapping = {
		id: WORKFLOWS.mapping,
		name: 'Bench: four expression-mapped columns in Edit Fields and in Sync',
		nodes: [
			trigger,
			{
				id: 'msrc',
				name: 'Source items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: mappingSourceCode() },
			},
			{
				id: 'mset',
				name: MAPPING_NODES.fields,
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [400, -100],
				parameters: mappedFieldsParameters(),
			},
			{
				id: 'msyn',
				name: MAPPING_NODES.sync,
				type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
				typeVersion: 1,
				position: [400, 100],
				parameters: mappedSyncParameters(),
				credentials,
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Source items', type: 'main', index: 0 }]] },
			'Source items': {
				main: [
					[
						{ node: MAPPING_NODES.fields, type: 'main', index: 0 },
						{ node: MAPPING_NODES.sync, type: 'main', index: 0 },
					],
				],
			},
		},
	};
	return [
		cleanup(WORKFLOWS.cleanupAuto, 'Bench: ABBYY Vantage node, Concurrency Auto (default)'),
		cleanup(WORKFLOWS.cleanup8, 'Bench: ABBYY Vantage node, Concurrency 8', 8),
		http,
		sync,
		sourceOnly,
		mapping,
	].map((w) => ({ ...w, active: false, settings: { executionOrder: 'v1' } }));
}
