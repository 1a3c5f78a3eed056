/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * Benchmark driver, never shipped: spawns workers, a simulator process and a real n8n. */
/**
 * `npm run bench`: the node against the floor (a raw undici client sending the optimal requests)
 * in the same run, on loopback against the simulator in its own process. Medians of several runs
 * and the ratio node / floor are written to BENCHMARKS.md with the machine and the date.
 *
 * BENCH_RUNS (default 5) sets the runs per configuration; BENCH_ONLY=<section>[,<section>] runs
 * only those sections (delete, status, wait, real, process, upload, sync, adaptive, report,
 * schedule, mapping, burst, agent, push, durable) and writes e2e/.work/bench/BENCHMARKS.partial.md instead, leaving
 * BENCHMARKS.md as it is.
 */
import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
	writeSync,
} from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { runNode, simulatorCredentials } from '../test/harness/n8n';
import { invoiceText } from '../test/helpers/binary';
import { parseRun, ROOT, WORK, type N8nInstance } from '../e2e/lib/n8n';
import { VantageSimulator } from '../test/simulator/simulator';
import {
	compare,
	control,
	countRoute,
	fmt,
	inFlightMean,
	inFlightOverTime,
	inFlightSeries,
	phaseMs,
	median,
	medians,
	requestLog,
	row,
	startSimulator,
	verdict,
	type Comparison,
	type Measurement,
} from './measure';
import {
	benchInstance,
	CONTAINER_MB,
	hostInstalled,
	placements,
	runN8n,
	WORKFLOWS,
	type HeapSetting,
	type N8nRun,
	type Placement,
} from './realN8n';
import { agentAnswerSection, type AgentAnswerResult } from './agentAnswers';
import { BURST, BURST_MODES, burstSection, exactlyOnce, type BurstResult } from './burst';
import { mappingSection, type MappingResult } from './mapping';
import {
	DURABLE,
	durableWaitBench,
	durableWaitClaims,
	durableWaitRows,
	HEAP_BOUND_MB,
	RSS_BOUND_MB,
	RESUME_P95_GOAL_MS,
	type DurableFigures,
} from './durableWait';
import { burstExactlyOnce, percentile, PUSH, pushSection, type PushResult } from './push';
import { timeToDataSection, type TimeToDataResult } from './timeToData';
import {
	ADAPTIVE,
	invoiceNumber,
	MAPPING,
	PROCESS,
	QA_REPORT,
	SYNC,
	SYNC_EXPECTED,
	syncCatalogRecords,
	TIME_TO_DATA,
	UPLOAD,
} from './scenario';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** The long sections (a minute and more per run) take at most this many runs. */
const LONG_RUNS = Math.min(RUNS, 3);
/** Each \`n8n execute\` starts a whole n8n (5–20 s): the real-n8n runs take at most two. */
const REAL_RUNS = Math.min(RUNS, 2);
const SECTIONS = [
	'delete',
	'status',
	'wait',
	'real',
	'process',
	'upload',
	'sync',
	'adaptive',
	'report',
	'schedule',
	'mapping',
	'burst',
	'agent',
	'push',
	'durable',
];
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
for (const name of ONLY ?? []) {
	if (!SECTIONS.includes(name))
		throw new Error(`BENCH_ONLY: no section "${name}" (${SECTIONS.join(', ')})`);
}
const want = (name: string) => !ONLY || ONLY.includes(name);
const BENCH_WORK = join(WORK, 'bench');

const notRun = (columns: number) => `| (not run) |${' |'.repeat(columns - 1)}`;

// ------------------------------------------------------------------ 1. Delete Records

async function deleteSection(simUrl: string): Promise<string> {
	const rows: string[] = [];
	for (const latency of [0, 50]) {
		await control(simUrl, 'POST', 'latency', { ms: latency });
		for (const concurrency of [1, 4]) {
			const c = await compare(
				simUrl,
				`1 000 000 IDs, latency ${latency} ms, concurrency ${concurrency}`,
				{ scenario: 'delete', concurrency },
				{ runs: RUNS },
			);
			rows.push(row(c, 'DeleteRecords', { wall: 1.15, memory: 2 }));
		}
	}
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	return rows.join('\n');
}

// ------------------------------------------------------------------ 2–3. Get Export Status

async function statusSection(simUrl: string): Promise<{ row: string; tokens: number[] }> {
	await control(simUrl, 'POST', 'latency', { ms: 20 });
	const { requestIds } = (await control(simUrl, 'POST', 'exports', { count: 10000 })) as {
		requestIds: string[];
	};
	const status = await compare(
		simUrl,
		'10 000 × Get Export Status, latency 20 ms, concurrency 20',
		{ scenario: 'status', concurrency: 20, requestIds },
		{ runs: LONG_RUNS },
	);
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	return {
		row: row(status, 'GetExportStatus', { wall: 1.2 }),
		tokens: status.node.map((m) => countRoute(m.counts, 'Token')),
	};
}

// ------------------------------------------------------------------ 4. Wait For Export

async function waitSection(): Promise<string> {
	const rows: string[] = [];
	const cases = [
		{
			label: 'interval 1 s (max 1 s), success at 4.5 s',
			succeedAfterMs: 4500,
			options: { pollInterval: 1, maxPollInterval: 1 },
			ideal: 1000,
		},
		{
			label: 'interval 2 s backing off to 10 s, success at 12 s',
			succeedAfterMs: 12000,
			options: { pollInterval: 2, maxPollInterval: 10 },
			ideal: 10000,
		},
		{
			label:
				'default settings (every second, then 40 % of the time waited, up to 60 s), success at 12 s',
			succeedAfterMs: 12000,
			options: {},
			ideal: 0.4 * 12000,
		},
	];
	for (const c of cases) {
		const sim = new VantageSimulator();
		await sim.start();
		sim.scriptNextExport({
			path: ['Processing', 'Succeeded'],
			advanceEvery: { ms: c.succeedAfterMs },
		});
		const store = simulatorCredentials(sim);
		const created = await runNode({
			credentials: store,
			parameters: {
				resource: 'report',
				operation: 'createExport',
				startDate: '2025-11-01T00:00:00Z',
			},
		});
		const requestId = created.items[0].json.requestId as string;
		const succeededAt =
			sim.requestsTo('CreateTransactionStepsExportRequest')[0].at + c.succeedAfterMs;
		sim.clearLog();
		await runNode({
			credentials: store,
			parameters: { resource: 'report', operation: 'waitForExport', requestId, options: c.options },
		});
		const polls = sim.requestsTo('GetExportStatus').map((r) => r.at);
		const noticed = polls[polls.length - 1];
		const gaps = polls.slice(1).map((t, i) => t - polls[i]);
		rows.push(
			`| ${c.label} | ${polls.length} | ${fmt(Math.min(...gaps))} ms | ${fmt(noticed - succeededAt)} ms | ≤ ${c.ideal} ms |`,
		);
		await sim.stop();
	}
	console.log('.. wait');
	return rows.join('\n');
}

// ------------------------------------------------------------------ 5. real n8n: the clean-up

interface RealCleanup {
	rows: string;
	/** Whole `n8n execute`, HTTP Request + Code over the node at its default, at each latency. */
	speedups: Array<{ latency: number; node: number; http: number; ratio: number }>;
}

async function realCleanupSection(simUrl: string, instance: N8nInstance): Promise<RealCleanup> {
	const rows: string[] = [];
	const speedups: RealCleanup['speedups'] = [];
	const runs = REAL_RUNS;
	for (const latency of [0, 50]) {
		await control(simUrl, 'POST', 'latency', { ms: latency });
		const cases: Array<[string, string]> = [
			[WORKFLOWS.cleanupAuto, 'ABBYY Vantage node (Aggregate, Concurrency Auto: the default)'],
			[WORKFLOWS.cleanup8, 'ABBYY Vantage node (Aggregate, Concurrency 8)'],
			[WORKFLOWS.cleanupHttp, 'HTTP Request fed by a Code node that chunks IDs'],
		];
		const results = new Map<
			string,
			Array<{
				run: N8nRun;
				deletes: number;
				ok: number;
				tokens: number;
				span: number;
				peak: number;
			}>
		>();
		for (let run = 0; run < runs; run++) {
			// Interleaved, as the worker comparisons are.
			for (const [id] of cases) {
				await control(simUrl, 'DELETE', 'requests');
				const result = await runN8n(instance, ['execute', `--id=${id}`, '--rawOutput']);
				// n8n's own timing is in a run JSON of several MB (the 1M IDs); the simulator's log
				// gives the span of the delete phase exactly: first delete received → last answered.
				const log = (await requestLog(simUrl)).filter((r) => r.route === 'DeleteRecords');
				const span = log.length
					? Math.max(...log.map((r) => r.finishedAt ?? 0)) - Math.min(...log.map((r) => r.at))
					: NaN;
				const stats = (await control(simUrl, 'GET', 'stats')) as {
					requests: Record<string, number>;
					inFlight: { peak: number };
				};
				const list = results.get(id) ?? [];
				list.push({
					run: result,
					deletes: log.length,
					ok: log.filter((r) => r.status === 200).length,
					tokens: countRoute(stats.requests, 'Token'),
					span,
					peak: stats.inFlight.peak,
				});
				results.set(id, list);
				process.stdout.write('.');
			}
		}
		for (const [id, label] of cases) {
			const list = results.get(id)!;
			const codes = [...new Set(list.map((r) => r.run.code))].join(', ');
			rows.push(
				`| ${latency} ms | ${label} | exit ${codes} | ${median(list.map((r) => r.deletes))} (${median(list.map((r) => r.ok))} × 200) | ${list.map((r) => r.tokens).join(', ')} | ${median(list.map((r) => r.peak))} | ${fmt(median(list.map((r) => r.span)))} ms | ${fmt(median(list.map((r) => r.run.ms)) / 1000, 1)} s | ${fmt(median(list.map((r) => r.run.mainPeakMB)))} MB |`,
			);
		}
		const node = median(results.get(WORKFLOWS.cleanupAuto)!.map((r) => r.run.ms));
		const http = median(results.get(WORKFLOWS.cleanupHttp)!.map((r) => r.run.ms));
		speedups.push({ latency, node, http, ratio: http / node });
	}
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	console.log(' real n8n clean-up');
	return { rows: rows.join('\n'), speedups };
}

// ------------------------------------------------------------------ 6. Process Document

async function processSection(simUrl: string): Promise<{ row: string; ratio: number }> {
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	await control(simUrl, 'POST', 'default-transaction-script', {
		processing: { ms: PROCESS.processingMs },
	});
	const c = await compare(
		simUrl,
		`${PROCESS.documents} documents`,
		{ scenario: 'process' },
		{ runs: LONG_RUNS },
	);
	await control(simUrl, 'POST', 'default-transaction-script', {});
	const [nodeWall, floorWall] = medians(c, (m) => m.wallMs);
	const [nodeMem, floorMem] = medians(c, (m) => m.peakRssMB);
	const perMinute = (ms: number) => (PROCESS.documents * 60_000) / ms;
	const requests = (route: string) => medians(c, (m) => countRoute(m.counts, route)).join(' / ');
	const ratio = nodeWall / floorWall;
	const row = `| ${fmt(perMinute(nodeWall), 1)} | ${fmt(perMinute(floorWall), 1)} | ${fmt(nodeWall / 1000, 1)} s | ${fmt(floorWall / 1000, 1)} s | ${fmt(ratio, 2)} (${verdict(ratio <= 1.15)}) | ${requests('LaunchTransaction')} | ${requests('GetTransactionInfo')} | ${requests('DownloadFile')} | ${fmt(nodeMem)} / ${fmt(floorMem)} MB |`;
	return { row, ratio };
}

// ------------------------------------------------------------------ 7. Upload memory

/** A 200 MB file whose first bytes are an invoice the simulator reads; made once. */
function uploadFile(): string {
	const file = join(BENCH_WORK, UPLOAD.fileName);
	const size = UPLOAD.megabytes * 2 ** 20;
	if (existsSync(file) && statSync(file).size === size) return file;
	mkdirSync(BENCH_WORK, { recursive: true });
	const fd = openSync(file, 'w');
	const head = Buffer.from(invoiceText({ number: invoiceNumber(0), total: '99,00' }));
	writeSync(fd, head);
	const chunk = Buffer.alloc(2 ** 20, 'scan data '.repeat(8));
	let written = head.length;
	while (written < size) {
		const part = Math.min(chunk.length, size - written);
		writeSync(fd, chunk, 0, part);
		written += part;
	}
	closeSync(fd);
	return file;
}

async function uploadSection(simUrl: string): Promise<{ rows: string; nodePeakMB: number }> {
	const file = uploadFile();
	const storage = join(BENCH_WORK, 'binary-data');
	rmSync(storage, { recursive: true, force: true });
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	// No processing wait: the run is the upload.
	await control(simUrl, 'POST', 'default-transaction-script', { processing: { polls: 0 } });
	const c = await compare(
		simUrl,
		`${UPLOAD.megabytes} MB file, Separate Calls, filesystem binary mode`,
		{ scenario: 'upload', file },
		{
			runs: LONG_RUNS,
			env: {
				node: {
					N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
					N8N_BINARY_DATA_STORAGE_PATH: storage,
				},
			},
		},
	);
	await control(simUrl, 'POST', 'default-transaction-script', {});
	rmSync(storage, { recursive: true, force: true });
	const rows: string[] = [];
	const nodePeakMB = median(c.node.map((m) => m.peakRssMB));
	for (const side of ['node', 'floor'] as const) {
		const list = c[side];
		const peak = median(list.map((m) => m.peakRssMB));
		const wall = median(list.map((m) => m.wallMs));
		const label =
			side === 'node'
				? 'ABBYY Vantage node (n8n-core, binary streamed from disk)'
				: 'floor (undici, file streamed from disk)';
		const target = side === 'node' ? `${verdict(peak <= 64)} (≤ 64 MB)` : '–';
		rows.push(
			`| ${label} | ${list.map((m) => fmt(m.peakRssMB)).join(', ')} | ${fmt(peak)} MB | ${target} | ${fmt(median(list.map((m) => m.peakExternalMB)))} MB | ${fmt(wall / 1000, 2)} s | ${fmt(UPLOAD.megabytes / (wall / 1000))} MB/s |`,
		);
	}
	return { rows: rows.join('\n'), nodePeakMB };
}

// ------------------------------------------------------------------ 10. QA report download

/** The memory bound of the claim: the process may grow by at most this while downloading. */
const REPORT_BOUND_MB = 64;

async function reportSection(simUrl: string): Promise<{ rows: string; nodePeakMB: number }> {
	const storage = join(BENCH_WORK, 'binary-data');
	const file = join(BENCH_WORK, 'floor-report.csv');
	rmSync(storage, { recursive: true, force: true });
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	const seeded = (await control(simUrl, 'POST', 'completed-transactions', {
		count: QA_REPORT.transactions,
		skillId: QA_REPORT.processSkillId,
		manualReview: true,
	})) as { transactionIds: string[] };
	if (seeded.transactionIds.length !== QA_REPORT.transactions) throw new Error('seeding failed');
	const c = await compare(
		simUrl,
		`${QA_REPORT.rows.toLocaleString('en').replace(/,/g, ' ')}-row field changes report, CSV File, filesystem binary mode`,
		{ scenario: 'report', file },
		{
			runs: LONG_RUNS,
			env: {
				node: {
					N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
					N8N_BINARY_DATA_STORAGE_PATH: storage,
				},
			},
			// Each run stores 90 MB: start every one with an empty store.
			before: async () => {
				rmSync(storage, { recursive: true, force: true });
				rmSync(file, { force: true });
			},
		},
	);
	const size = c.node[0]?.detail?.fileSize as number | undefined;
	rmSync(storage, { recursive: true, force: true });
	rmSync(file, { force: true });
	const rows: string[] = [];
	const nodePeakMB = median(c.node.map((m) => m.peakRssMB));
	for (const side of ['node', 'floor'] as const) {
		const list = c[side];
		const peak = median(list.map((m) => m.peakRssMB));
		const wall = median(list.map((m) => m.wallMs));
		const label =
			side === 'node'
				? 'ABBYY Vantage node (n8n-core, Get Field Changes → CSV File into n8n’s binary store)'
				: 'floor (undici, streamed to a file, records counted)';
		const target =
			side === 'node' ? `${verdict(peak <= REPORT_BOUND_MB)} (≤ ${REPORT_BOUND_MB} MB)` : '–';
		const mb = size ? size / 1e6 : NaN;
		rows.push(
			`| ${label} | ${list.map((m) => fmt(m.peakRssMB)).join(', ')} | ${fmt(peak)} MB | ${target} | ${fmt(median(list.map((m) => m.peakHeapMB)))} MB | ${fmt(wall / 1000, 2)} s | ${fmt(mb / (wall / 1000))} MB/s |`,
		);
	}
	console.log(`.. report (${size ? fmt(size / 1e6) : '?'} MB)`);
	return { rows: rows.join('\n'), nodePeakMB };
}

// ------------------------------------------------------------------ 8. Catalog Sync

/** Seed the sync catalog afresh: SYNC.records records through the control plane. */
async function seedSyncCatalog(simUrl: string): Promise<void> {
	await control(simUrl, 'POST', 'catalogs', {
		name: SYNC.catalog,
		records: [...syncCatalogRecords()],
	});
}

const signedMB = (mb: number) => `${mb < 0 ? '−' : '+'}${fmt(Math.abs(mb))} MB`;

interface SyncResult {
	worker: string;
	ratio: number;
	real: string;
	/** The real n8n's main process peak in each sync run, by heap setting. */
	realPeaksMB: Record<HeapSetting, number[]>;
	/** How the 1 GB runs were placed. */
	oneGigabyteLabel: string;
	/** The cgroup's own peak in each 1 GB sync run (every process, page cache included). */
	containerPeaksMB: number[];
	/** Whether every real run was correct. */
	realCorrect: boolean;
}

async function syncSection(
	simUrl: string,
	instance: () => Promise<N8nInstance | undefined>,
): Promise<SyncResult> {
	const latency = 20;
	await control(simUrl, 'POST', 'latency', { ms: latency });
	const c = await compare(
		simUrl,
		`${SYNC.records} records, latency ${latency} ms, concurrency ${SYNC.concurrency}`,
		{ scenario: 'sync', concurrency: SYNC.concurrency },
		{ runs: LONG_RUNS, before: async () => await seedSyncCatalog(simUrl) },
	);
	const [nodeWall, floorWall] = medians(c, (m) => m.wallMs);
	const [nodeMem, floorMem] = medians(c, (m) => m.peakRssMB);
	const requests = (route: string) => medians(c, (m) => countRoute(m.counts, route)).join(' / ');
	const ratio = nodeWall / floorWall;
	const worker = `| ${c.label} | ${requests('GetRecords')} | ${requests('DeleteRecords')} | ${requests('AddRecords')} | ${fmt(nodeWall)} | ${fmt(floorWall)} | ${fmt(ratio, 2)} (${verdict(ratio <= 1.3)}) | ${fmt(nodeMem)} | ${fmt(floorMem)} |`;

	let real = notRun(11);
	const realPeaksMB: Record<HeapSetting, number[]> = { machine: [], oneGigabyte: [] };
	const containerPeaksMB: number[] = [];
	let realCorrect = true;
	const where = placements();
	const n8n = await instance();
	if (n8n) {
		const rows: string[] = [];
		const exit = (run: N8nRun) => (run.signal ? `killed (${run.signal})` : `exit ${run.code}`);
		/** The cgroup's own peak (every process in it, page cache included) and limit hits. */
		const containerPeak = (placement: Placement) =>
			placement.cgroup
				? `${fmt(placement.cgroup.peakMB())} MB${Number.isNaN(placement.cgroup.limitHits()) ? '' : `, limit reached ${placement.cgroup.limitHits()} ×`}`
				: '–';
		for (let run = 0; run < REAL_RUNS; run++) {
			for (const heap of ['machine', 'oneGigabyte'] as const) {
				const placement = where[heap];
				const placed: N8nInstance = placement.env
					? { ...n8n, env: { ...n8n.env, ...placement.env } }
					: n8n;
				const execute = async (id: string) => {
					placement.cgroup?.reset();
					return await runN8n(
						placed,
						['execute', `--id=${id}`, '--rawOutput'],
						undefined,
						placement.cgroup,
					);
				};
				// What n8n itself holds for the source items (the Code node alone), then the sync.
				const alone = await execute(WORKFLOWS.syncSourceOnly);
				rows.push(
					`| ${run + 1} | ${placement.label} | the ${SYNC.records.toLocaleString('en').replace(/,/g, ' ')} source items alone (no sync) | ${exit(alone)} | – | – | – | ${fmt(alone.ms / 1000, 1)} s | ${fmt(alone.mainPeakMB)} MB | ${fmt(alone.childPeakMB)} MB | ${containerPeak(placement)} |`,
				);
				await seedSyncCatalog(simUrl);
				await control(simUrl, 'DELETE', 'requests');
				const result = await execute(WORKFLOWS.sync);
				const stats = (await control(simUrl, 'GET', 'stats')) as {
					requests: Record<string, number>;
				};
				const log = await requestLog(simUrl);
				const api = log.filter((r) => r.route !== 'Token' && r.route !== null);
				const span = api.length
					? Math.max(...api.map((r) => r.finishedAt ?? 0)) - Math.min(...api.map((r) => r.at))
					: NaN;
				const summary = syncSummary(result.stdout);
				const correct =
					summary?.toAdd === SYNC_EXPECTED.toAdd &&
					summary?.toUpdate === SYNC_EXPECTED.toUpdate &&
					summary?.toDelete === SYNC_EXPECTED.toDelete &&
					summary?.failed === 0;
				realPeaksMB[heap].push(result.mainPeakMB);
				if (placement.cgroup) containerPeaksMB.push(placement.cgroup.peakMB());
				realCorrect &&= correct && result.code === 0 && !result.signal;
				rows.push(
					`| ${run + 1} | ${placement.label} | source items → Sync | ${exit(result)}${correct ? '' : ' (**wrong or no summary**)'} | ${summary ? `${String(summary.added)} / ${String(summary.updated)} / ${String(summary.deleted)}` : '–'} | ${countRoute(stats.requests, 'GetRecords')} / ${countRoute(stats.requests, 'DeleteRecords')} / ${countRoute(stats.requests, 'AddRecords')} | ${fmt(span)} ms | ${fmt(result.ms / 1000, 1)} s | ${fmt(result.mainPeakMB)} MB (${verdict(result.mainPeakMB <= 1024)}; ${signedMB(result.mainPeakMB - alone.mainPeakMB)} vs. the source alone) | ${fmt(result.childPeakMB)} MB | ${containerPeak(placement)} |`,
				);
				process.stdout.write('.');
			}
		}
		console.log(' real n8n sync');
		real = rows.join('\n');
	}
	where.oneGigabyte.cgroup?.remove();
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	return {
		worker,
		ratio,
		real,
		realPeaksMB,
		realCorrect,
		oneGigabyteLabel: where.oneGigabyte.label,
		containerPeaksMB,
	};
}

/** The Sync node's summary from `n8n execute --rawOutput`. */
function syncSummary(stdout: string): Record<string, unknown> | undefined {
	const run = parseRun(stdout) as
		| {
				data?: {
					resultData?: {
						runData?: Record<
							string,
							Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>
						>;
					};
				};
		  }
		| undefined;
	return run?.data?.resultData?.runData?.['Sync catalog']?.[0]?.data?.main?.[0]?.[0]?.json;
}

// ------------------------------------------------------------------ 9. Adaptive concurrency

interface AdaptiveResult {
	auto: string;
	autoRatio: number;
	limited: string;
	series: string;
	/** Per rate-limit case: every node run converged near the limit / lost nothing. */
	verdicts: Array<{
		retryAfter?: string;
		near: boolean;
		lossless: boolean;
		ratio: number;
		means: number[];
		/** The mean while any request is in flight (with a Retry-After, the pauses left out). */
		settledMeans: number[];
		idleShares: number[];
		floorMean: number;
		lost: number[];
	}>;
}

/** Windows of the in-flight series in section 9. */
const SERIES_MS = 500;
/**
 * "Near N": in every run, the time-weighted mean in flight over the delete phase (pauses included)
 * is at least this share of the floor's, pinned at N in the same conditions.
 */
const NEAR_SHARE = 0.75;

async function adaptiveSection(simUrl: string): Promise<AdaptiveResult> {
	await control(simUrl, 'POST', 'latency', { ms: ADAPTIVE.latencyMs });
	const auto = await compare(
		simUrl,
		`1 000 000 IDs, latency ${ADAPTIVE.latencyMs} ms: node at Auto, floor at ${ADAPTIVE.floorConcurrency}`,
		{ scenario: 'delete' },
		{
			runs: RUNS,
			floor: { concurrency: ADAPTIVE.floorConcurrency },
			// The node pinned at the ceiling, to tell the limiter's ramp from n8n's per-request cost.
			extra: { pinned: { concurrency: ADAPTIVE.floorConcurrency } },
			log: true,
		},
	);
	const busy = (list: Measurement[]) =>
		median(list.map((m) => inFlightOverTime(m.log!, 'DeleteRecords').busyMedian));
	const phase = (list: Measurement[]) =>
		fmt(median(list.map((m) => phaseMs(m.log!, 'DeleteRecords'))));
	const [autoWall, floorWall] = medians(auto, (m) => m.wallMs);
	const pinned: Comparison = { ...auto, node: auto.extra.pinned };
	const pinnedWall = median(pinned.node.map((m) => m.wallMs));
	const tail = (list: Measurement[]) =>
		`${phase(list)} / ${phase(auto.floor)} | ${median(list.map((m) => m.serverPeak))} / ${busy(list)} / ${busy(auto.floor)} |`;
	const autoRows = [
		`${row(auto, 'DeleteRecords', { wall: 1.2 })} ${tail(auto.node)}`,
		// The reference row: no target, the same floor runs.
		`| the same, node pinned at Concurrency ${ADAPTIVE.floorConcurrency} (reference) | ${median(pinned.node.map((m) => countRoute(m.counts, 'DeleteRecords')))} / ${median(auto.floor.map((m) => countRoute(m.counts, 'DeleteRecords')))} | ${fmt(pinnedWall)} | ${fmt(floorWall)} | ${fmt(pinnedWall / floorWall, 2)} | ${fmt(median(pinned.node.map((m) => m.peakRssMB)))} | ${fmt(median(auto.floor.map((m) => m.peakRssMB)))} | – | ${tail(pinned.node)}`,
	];
	const series: string[] = [
		`| Auto, no rate limit (run 1) | ${seriesText(auto.node[0])} |`,
		`| Pinned at ${ADAPTIVE.floorConcurrency}, no rate limit (run 1) | ${seriesText(pinned.node[0])} |`,
	];

	const limited: string[] = [];
	const verdicts: AdaptiveResult['verdicts'] = [];
	for (const retryAfter of [undefined, '1']) {
		await control(simUrl, 'POST', 'rate-limit', {
			maxInFlight: ADAPTIVE.maxInFlight,
			...(retryAfter ? { retryAfter } : {}),
		});
		const c = await compare(
			simUrl,
			`rate limit ${ADAPTIVE.maxInFlight} in flight, ${retryAfter ? `Retry-After: ${retryAfter}` : 'no Retry-After'}`,
			{ scenario: 'delete' },
			{
				runs: LONG_RUNS,
				node: { report: true },
				floor: { concurrency: ADAPTIVE.maxInFlight },
				log: true,
			},
		);
		await control(simUrl, 'DELETE', 'rate-limit');
		const result = limitedRow(c, retryAfter);
		limited.push(result.row);
		verdicts.push({ retryAfter, ...result.verdict });
		c.node.forEach((m, i) =>
			series.push(
				`| Rate limit ${ADAPTIVE.maxInFlight}, ${retryAfter ? `Retry-After: ${retryAfter}` : 'no Retry-After'} (run ${i + 1}) | ${seriesText(m)} |`,
			),
		);
	}
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	return {
		auto: autoRows.join('\n'),
		autoRatio: autoWall / floorWall,
		limited: limited.join('\n'),
		series: series.join('\n'),
		verdicts,
	};
}

/** The in-flight series of one run, one number per window. */
function seriesText(m: Measurement | undefined): string {
	if (!m?.log) return '–';
	return inFlightSeries(m.log, 'DeleteRecords', SERIES_MS)
		.map((n) => fmt(n, 1))
		.join(' ');
}

function limitedRow(
	c: Comparison,
	retryAfter: string | undefined,
): { row: string; verdict: Omit<AdaptiveResult['verdicts'][number], 'retryAfter'> } {
	const [nodeWall, floorWall] = medians(c, (m) => m.wallMs);
	const per = (m: Measurement) => {
		const detail = m.detail ?? {};
		const deleted = Number(detail.idsDeleted ?? 0);
		const failed = Number(detail.idsFailed ?? 0);
		const confirmedBySimulator = countRoute(m.counts, 'DeleteRecords', 200) * 5000;
		return {
			refused: countRoute(m.counts, 'DeleteRecords', 429),
			...inFlightOverTime(m.log!, 'DeleteRecords'),
			mean: inFlightMean(m.log!, 'DeleteRecords'),
			// The simulator's exact count (the log has millisecond resolution).
			peak: m.serverPeak,
			deleted,
			failed,
			// Neither deleted nor reported failed, or said to be deleted without the simulator's 200.
			lost: Math.max(0, 1_000_000 - deleted - failed) + Math.max(0, deleted - confirmedBySimulator),
		};
	};
	const runs = c.node.map(per);
	const list = (pick: (r: ReturnType<typeof per>) => number, digits = 0) =>
		runs.map((r) => fmt(pick(r), digits)).join(', ');
	const floorRefused = median(c.floor.map((m) => countRoute(m.counts, 'DeleteRecords', 429)));
	const floorMean = median(c.floor.map((m) => inFlightMean(m.log!, 'DeleteRecords')));
	const floorBusy = median(
		c.floor.map((m) => inFlightOverTime(m.log!, 'DeleteRecords').busyMedian),
	);
	// With a Retry-After every sender pauses as the service asks (issue 14): the level the limiter
	// settles at is then read while requests are in flight; the pauses are reported beside it.
	const settled = (r: ReturnType<typeof per>) =>
		retryAfter ? r.mean / Math.max(1e-9, 1 - r.idleShare) : r.mean;
	const near = runs.every((r) => settled(r) >= NEAR_SHARE * floorMean);
	const lossless = runs.every((r) => r.lost === 0 && r.failed === 0 && r.deleted === 1_000_000);
	const ratio = nodeWall / floorWall;
	return {
		row: `| ${retryAfter ? `\`Retry-After: ${retryAfter}\`` : 'none'} | ${fmt(nodeWall)} | ${fmt(floorWall)} (${floorRefused} × 429) | ${fmt(ratio, 2)} | ${list((r) => r.refused)} | ${list((r) => r.peak)} | ${list((r) => r.busyMedian)} (floor ${floorBusy}) | ${list((r) => r.mean, 1)} (floor ${fmt(floorMean, 1)}; ${verdict(near)}) | ${runs.map((r) => `${fmt(r.idleShare * 100)} %`).join(', ')} | ${list((r) => r.deleted)} | ${list((r) => r.failed)} | ${list((r) => r.lost)} (${verdict(lossless)}) |`,
		verdict: {
			near,
			lossless,
			ratio,
			means: runs.map((r) => r.mean),
			settledMeans: runs.map(settled),
			idleShares: runs.map((r) => r.idleShare),
			floorMean,
			lost: runs.map((r) => r.lost + r.failed),
		},
	};
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
	// The in-process runs (waits, the agent's answers) keep n8n-core's user folder and logs here, as
	// the unit suite does (test/setup-env.js), not in ~/.n8n.
	process.env.N8N_USER_FOLDER ??= join(BENCH_WORK, 'n8n-user');
	process.env.N8N_LOG_LEVEL ??= 'silent';
	const started = new Date();
	const load = loadavg();
	mkdirSync(BENCH_WORK, { recursive: true });
	const sim = await startSimulator();
	console.log(
		`simulator on ${sim.url}; ${RUNS} runs per configuration (${LONG_RUNS} for long sections)`,
	);
	let instance: Promise<N8nInstance | undefined> | undefined;
	const n8n = async () => {
		if (!hostInstalled()) return undefined;
		if (!instance) console.log('building the package and installing it into the real n8n');
		instance ??= benchInstance(sim.url);
		return await instance;
	};
	const r: Report = { started, load };
	try {
		// Each section's duration on the console, to plan BENCH_RUNS.
		const timed = async <T>(name: string, section: () => Promise<T>): Promise<T | undefined> => {
			if (!want(name)) return undefined;
			const t0 = Date.now();
			const result = await section();
			console.log(`   (${name}: ${fmt((Date.now() - t0) / 1000)} s)`);
			return result;
		};
		r.deletes = await timed('delete', async () => await deleteSection(sim.url));
		r.status = await timed('status', async () => await statusSection(sim.url));
		r.waits = await timed('wait', async () => await waitSection());
		r.process = await timed('process', async () => await processSection(sim.url));
		r.upload = await timed('upload', async () => await uploadSection(sim.url));
		r.adaptive = await timed('adaptive', async () => await adaptiveSection(sim.url));
		r.sync = await timed('sync', async () => await syncSection(sim.url, n8n));
		r.report = await timed('report', async () => await reportSection(sim.url));
		r.timeToData = await timed('schedule', async () => await timeToDataSection(sim.url, LONG_RUNS));
		r.mapping = await timed('mapping', async () => {
			const host = await n8n();
			return host ? await mappingSection(sim.url, host, REAL_RUNS) : undefined;
		});
		r.burst = await timed('burst', async () => {
			const host = await n8n();
			if (!host) return undefined;
			const where = placements();
			try {
				return await burstSection(sim.url, host, where);
			} finally {
				where.oneGigabyte.cgroup?.remove();
			}
		});
		r.agent = await timed('agent', async () => await agentAnswerSection(sim.url));
		r.push = await timed('push', async () => {
			const host = await n8n();
			if (!host) return undefined;
			const where = placements();
			try {
				return await pushSection(sim.url, host, where);
			} finally {
				where.oneGigabyte.cgroup?.remove();
			}
		});
		// Its own n8n and simulator: 200 executions waiting for review, durably and in memory.
		r.durable = await timed('durable', async () =>
			hostInstalled() ? await durableWaitBench() : undefined,
		);
		r.real = await timed('real', async () => {
			const host = await n8n();
			return host ? await realCleanupSection(sim.url, host) : undefined;
		});
		r.finished = new Date();
		r.loadAfter = loadavg();
		writeReport(r);
	} finally {
		sim.process.kill();
	}
}

interface Report {
	started: Date;
	finished?: Date;
	load: number[];
	loadAfter?: number[];
	deletes?: string;
	status?: { row: string; tokens: number[] };
	waits?: string;
	real?: RealCleanup;
	process?: { row: string; ratio: number };
	upload?: { rows: string; nodePeakMB: number };
	sync?: SyncResult;
	adaptive?: AdaptiveResult;
	report?: { rows: string; nodePeakMB: number };
	timeToData?: TimeToDataResult;
	mapping?: MappingResult;
	burst?: BurstResult;
	agent?: AgentAnswerResult;
	push?: PushResult;
	durable?: DurableFigures;
}

/** The issues' claims, each with its figure from this run and whether it holds. */
function claims(r: Report): string {
	const notMeasured = '(not run)';
	const rows: string[] = [];
	const add = (issue: string, claim: string, figure: string, holds: boolean | undefined) =>
		rows.push(
			`| ${issue} | ${claim} | ${figure} | ${holds === undefined ? notMeasured : holds ? 'holds' : '**does not hold**'} |`,
		);
	const t = r.timeToData;
	add(
		'26',
		`Process Document, ${TIME_TO_DATA.documents} documents Vantage finishes in ${TIME_TO_DATA.processingMs / 1000} s, at default settings ≤ 1.2 × a raw undici client polling every second at the same concurrency (${TIME_TO_DATA.floorConcurrency}; section 11a)`,
		t ? `${fmt(t.documents.ratio, 2)} ×` : notMeasured,
		t ? t.documents.ratio <= 1.2 : undefined,
	);
	add(
		'26',
		`A ${TIME_TO_DATA.longJobMs / 1000}-s job at default settings costs ≤ 15 status requests (section 11b)`,
		t ? `${t.longJob.polls} status requests` : notMeasured,
		t ? t.longJob.polls <= 15 : undefined,
	);
	add(
		'26',
		`A reindex that completes ${TIME_TO_DATA.reindexMs / 1000} s after it started is noticed within 1.5 s at default settings (section 11c)`,
		t ? `${t.reindex.noticedMs.map((ms) => `${fmt(ms)} ms`).join(', ')}` : notMeasured,
		t ? t.reindex.noticedMs.every((ms) => ms <= 1500) : undefined,
	);
	const m = r.mapping;
	add(
		'26',
		`Inside n8n 2.41.1: Sync's reading of ${MAPPING.items.toLocaleString('en').replace(/,/g, ' ')} items with four expression-mapped columns ≤ 1.1 × Edit Fields (Set) evaluating the same expressions in the same execution (section 12)`,
		m
			? `${m.ratios.map((x) => `${fmt(x, 2)} ×`).join(', ')} (median ${fmt(median(m.ratios), 2)} ×)${m.correct ? '' : '; a run was wrong'}`
			: notMeasured,
		m ? m.correct && median(m.ratios) <= 1.1 : undefined,
	);
	for (const run of r.burst?.runs ?? []) {
		add(
			'26',
			`Inside n8n 2.41.1 (${run.where}): a poll finding ${BURST.transactions.toLocaleString('en').replace(/,/g, ' ')} completed transactions, Output ${BURST_MODES[run.mode].label}: n8n's main process < 1 GB, each transaction exactly once (section 13)`,
			`${run.survived ? `${fmt(run.mainPeakMB)} MB` : 'n8n died'}; missing / twice: ${run.missing} / ${run.twice}`,
			exactlyOnce(run) && run.mainPeakMB < 1024,
		);
	}
	const p = r.push;
	const pushP95 = p?.latencies ? percentile(p.latencies.push, 95) : NaN;
	add(
		'39',
		`Inside n8n 2.41.1 on this machine: from Vantage completing a transaction to its workflow's start, pushed (the Instant Trigger), p95 ≤ ${PUSH.p95GoalMs / 1000} s (section 15a)`,
		p?.latencies
			? `p95 ${fmt(pushP95 / 1000, 1)} s (polling Every Minute: p95 ${fmt(percentile(p.latencies.poll, 95) / 1000, 1)} s)`
			: notMeasured,
		p?.latencies ? pushP95 <= PUSH.p95GoalMs && p.latencies.missing.push === 0 : undefined,
	);
	add(
		'39',
		'The Instant Trigger sends no request to Vantage while nothing happens (section 15b)',
		p?.idle
			? `${p.idle.pushRequests} in ${fmt(p.idle.minutes, 1)} minutes (polling Every Minute: ${fmt((p.idle.pollRequests / p.idle.minutes) * 60)} per hour)`
			: notMeasured,
		p?.idle ? p.idle.pushRequests === 0 : undefined,
	);
	for (const b of p?.bursts ?? []) {
		add(
			'39',
			`Inside n8n 2.41.1 (${b.where}): ${PUSH.burst.toLocaleString('en').replace(/,/g, ' ')} transactions completing within a minute, pushed: ${PUSH.burst.toLocaleString('en').replace(/,/g, ' ')} executions, none lost or twice, n8n's main process < 1 GB as the polled burst's (section 15c)`,
			`${b.survived ? `${fmt(b.mainPeakMB)} MB` : 'n8n died'}; ${b.executions} executions; missing / twice: ${b.missing} / ${b.twice}`,
			burstExactlyOnce(b) && b.mainPeakMB < 1024,
		);
	}
	const durableClaims = r.durable ? durableWaitClaims(r.durable) : [];
	for (const c of durableClaims) add('40', c.claim, c.figure, c.holds);
	if (!durableClaims.length)
		add(
			'40',
			`Inside n8n 2.41.1: ${DURABLE.waiting} executions waiting for Manual Review with Resume When Vantage Pushes hold no execution slot, no Vantage request, and no memory beyond n8n's database (section 16)`,
			notMeasured,
			undefined,
		);
	const a = r.adaptive;
	add(
		'14',
		`Delete of 1 000 000 IDs at ${ADAPTIVE.latencyMs} ms, default settings (Auto) ≤ 1.2 × a raw undici client at ${ADAPTIVE.floorConcurrency} in flight (section 9a)`,
		a ? `${fmt(a.autoRatio, 2)} ×` : notMeasured,
		a ? a.autoRatio <= 1.2 : undefined,
	);
	for (const v of a?.verdicts ?? []) {
		const limit = `rate limit ${ADAPTIVE.maxInFlight} in flight, ${v.retryAfter ? `Retry-After: ${v.retryAfter}` : 'no Retry-After'}`;
		add(
			'14',
			`Auto converges near the limit (${limit}; section 9b)`,
			v.retryAfter
				? `mean in flight while sending ${v.settledMeans.map((n) => fmt(n, 1)).join(', ')} against the floor's ${fmt(v.floorMean, 1)} at ${ADAPTIVE.maxInFlight} (near: ≥ ${fmt(NEAR_SHARE * 100)} % of it); paused as the service asked ${v.idleShares.map((n) => `${fmt(n * 100)} %`).join(', ')} of the time (mean over the whole phase ${v.means.map((n) => fmt(n, 1)).join(', ')}); ${fmt(v.ratio, 2)} × the floor's time`
				: `mean in flight ${v.means.map((n) => fmt(n, 1)).join(', ')} against the floor's ${fmt(v.floorMean, 1)} at ${ADAPTIVE.maxInFlight} (near: ≥ ${fmt(NEAR_SHARE * 100)} % of it); ${fmt(v.ratio, 2)} × the floor's time`,
			v.near,
		);
		add(
			'14',
			`Auto loses nothing (${limit}; section 9b)`,
			`IDs lost or failed per run: ${v.lost.join(', ')}`,
			v.lossless,
		);
	}
	for (const s of r.real?.speedups ?? []) {
		add(
			'14',
			`Inside n8n 2.41.1 at ${s.latency} ms latency: the clean-up at default settings ≥ 1.4 × faster end to end than HTTP Request + Code (section 5)`,
			`${fmt(s.http / 1000, 1)} s / ${fmt(s.node / 1000, 1)} s = ${fmt(s.ratio, 2)} ×`,
			s.ratio >= 1.4,
		);
	}
	if (!r.real)
		add(
			'14',
			'Inside n8n: ≥ 1.4 × faster than HTTP Request + Code (section 5)',
			notMeasured,
			undefined,
		);
	add(
		'12',
		`Process Document, ${PROCESS.documents} items on the launch path, against the floor (section 6; this bench's target ≤ 1.15 ×)`,
		r.process ? `${fmt(r.process.ratio, 2)} ×` : notMeasured,
		r.process ? r.process.ratio <= 1.15 : undefined,
	);
	add(
		'12',
		`A ${UPLOAD.megabytes} MB upload streamed with bounded memory (section 7; this bench's bound: ≤ 64 MB RSS growth)`,
		r.upload ? `${fmt(r.upload.nodePeakMB)} MB peak RSS growth` : notMeasured,
		r.upload ? r.upload.nodePeakMB <= 64 : undefined,
	);
	add(
		'27',
		`A ${QA_REPORT.rows.toLocaleString('en').replace(/,/g, ' ')}-row QA report downloaded as a CSV File (binary, streamed): ≤ ${REPORT_BOUND_MB} MB growth of the process (section 10)`,
		r.report ? `${fmt(r.report.nodePeakMB)} MB peak RSS growth` : notMeasured,
		r.report ? r.report.nodePeakMB <= REPORT_BOUND_MB : undefined,
	);
	add(
		'13',
		`Catalog Record → Sync of ${SYNC.records.toLocaleString('en').replace(/,/g, ' ')} records against the floor ≤ 1.3 × (section 8)`,
		r.sync ? `${fmt(r.sync.ratio, 2)} ×` : notMeasured,
		r.sync ? r.sync.ratio <= 1.3 : undefined,
	);
	if (r.sync?.realPeaksMB.oneGigabyte.length) {
		const peaks = (mbs: number[]) => mbs.map((mb) => `${fmt(mb)} MB`).join(', ');
		add(
			'13',
			`The same sync inside n8n, in a 1 GB deployment: correct, and n8n's main process ≤ 1 GB (${r.sync.oneGigabyteLabel}; section 8)`,
			`${peaks(r.sync.realPeaksMB.oneGigabyte)}${r.sync.containerPeaksMB.length ? ` (the whole container: ${peaks(r.sync.containerPeaksMB)})` : ''}${r.sync.realCorrect ? '' : '; a run was wrong or killed'}`,
			r.sync.realCorrect && r.sync.realPeaksMB.oneGigabyte.every((mb) => mb <= 1024),
		);
		add(
			'13',
			"The same with no memory limit at all: ≤ 1 GB (section 8: V8 sizes n8n's heap from the machine's memory, and n8n alone holds about 0.9 GB for the source items)",
			peaks(r.sync.realPeaksMB.machine),
			r.sync.realPeaksMB.machine.every((mb) => mb <= 1024),
		);
	}
	return `| Issue | Claim | This run | Verdict |\n|---|---|---|---|\n${rows.join('\n')}`;
}

function writeReport(r: Report): void {
	const versions = (name: string) =>
		(
			JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
				version: string;
			}
		).version;
	const cpu = cpus();
	const minutes = r.finished ? (r.finished.getTime() - r.started.getTime()) / 60_000 : NaN;
	const loads = (l: number[] | undefined) => (l ? l.map((n) => n.toFixed(2)).join(', ') : '–');
	const noHost = '(skipped: no n8n host; run `npm run test:e2e` once to install it)';
	const speedups = r.real?.speedups ?? [];
	const speedupText = speedups.length
		? speedups
				.map(
					(s) =>
						`at ${s.latency} ms, ${fmt(s.http / 1000, 1)} s / ${fmt(s.node / 1000, 1)} s = **${fmt(s.ratio, 2)} ×** (${verdict(s.ratio >= 1.4)})`,
				)
				.join('; ')
		: '(not run)';
	const text = `# Benchmarks

Generated by \`npm run bench\` on ${r.started.toISOString().slice(0, 10)} in ${fmt(minutes, 1)} minutes.
Machine: ${cpu.length} × ${cpu[0]?.model.trim()}, ${fmt(totalmem() / 2 ** 30, 1)} GiB RAM, ${platform()} ${release()}; Node.js ${process.version};
n8n-core ${versions('n8n-core')}, n8n-workflow ${versions('n8n-workflow')}, undici ${versions('undici')}.
Load average (1, 5, 15 min) at the start: ${loads(r.load)}; at the end: ${loads(r.loadAfter)}.

Every number comes from this run. The **floor** is a raw undici client sending the optimal request
sequence (one token, keep-alive connections, deduplicated IDs in batches of 5000, pages of 1000, the
same concurrency and wait interval as the node) in its own process; the **node** is the ABBYY
Vantage node executed by n8n-core's WorkflowExecute with n8n's own HTTP stack, in its own process.
The simulator runs in a third process. Times are medians of ${RUNS} interleaved runs (${LONG_RUNS}
for the long scenarios: export status, Process Document, upload, sync, rate limit; ${REAL_RUNS} for
the runs inside the real n8n, each of which starts a whole n8n);
memory is the peak resident memory above the baseline taken just before the work (input already
built), from the kernel's high-water mark (VmHWM, reset at the baseline) and 2 ms samples.

## Claims

${claims(r)}

## 1. Delete 1 000 000 IDs (1000 items × 1000 IDs, Aggregate All Items)

Targets: wall ≤ 1.15 × floor, peak memory ≤ 2 × floor.

| Scenario | Requests node / floor | Node ms | Floor ms | Wall ratio | Node MB | Floor MB | Memory ratio |
|---|---|---|---|---|---|---|---|
${r.deletes ?? notRun(8)}

## 2. Get Export Status over 10 000 items (20 ms simulator latency)

Target: wall ≤ 1.2 × floor at the same concurrency.

| Scenario | Requests node / floor | Node ms | Floor ms | Wall ratio | Node MB | Floor MB | Memory ratio |
|---|---|---|---|---|---|---|---|
${r.status?.row ?? notRun(8)}

## 3. Token requests during a 10 000-item run

Token requests per node run (scenario 2): ${r.status?.tokens.join(', ') ?? '(not run)'} (target: exactly 1).

## 4. Wait For Export

| Poll settings | Polls issued | Shortest gap | Success → noticed | Ideal for the interval |
|---|---|---|---|---|
${r.waits ?? notRun(5)}

## 5. Inside a real n8n 2.41.1: the 1 000 000-ID clean-up

Same simulator, same run, medians of ${REAL_RUNS} interleaved runs. *Delete phase*: from the first
delete request the simulator received to the last one it answered. *Whole*: the \`n8n execute\`
command, including n8n's start-up and the Code node that generates the 1 000 000 IDs (identical in
all workflows). *In flight*: the most delete requests the simulator handled at once. *n8n main
process*: its peak resident memory (VmHWM).

| Latency | Workflow | n8n execute | Delete requests | Token requests | In flight | Delete phase | Whole \`n8n execute\` | n8n main process |
|---|---|---|---|---|---|---|---|---|
${r.real?.rows ?? (want('real') ? `| ${noHost} |${' |'.repeat(8)}` : notRun(9))}

Target (issue "Fast by default"): the node at its default settings ≥ 1.4 × faster end to end than
the HTTP Request + Code workflow (whole \`n8n execute\`, HTTP / node): ${speedupText}.

## 6. Process Document throughput

${PROCESS.documents} one-page documents (small text invoices the simulator extracts from), each
processed for ${PROCESS.processingMs / 1000} s by the simulator, one transaction per document, ${PROCESS.concurrency} at a time, polled every
${PROCESS.pollSeconds} s (Wait Interval = Wait Interval Limit = 1). Node: Transaction → Process Document (launch,
wait, read the result JSON into fields). Floor: LaunchTransaction (the same multipart body: a
\`Model\` JSON part and a \`Files\` part) → GetTransactionInfo at once and then every second until
Processed → download the Json result file. Target (this bench's; issue 12 asks for the figure
against the floor): node time ≤ 1.15 × floor.

| Node documents/min | Floor documents/min | Node time | Floor time | Time ratio | Launches node / floor | Status polls node / floor | Downloads node / floor | Memory node / floor |
|---|---|---|---|---|---|---|---|---|
${r.process?.row ?? notRun(9)}

## 7. Upload memory: a ${UPLOAD.megabytes} MB file

n8n's filesystem binary mode (\`N8N_DEFAULT_BINARY_DATA_MODE=filesystem\`): the file is stored by
n8n-core's BinaryDataService before the run (the item carries a binary \`id\`), then Process
Document with Upload Method = Separate Calls (create, add the file, start, wait, read). The floor
streams the same file from disk with undici (create, add files, start, wait, download).
Target (this bench's reading of "bounded memory", issue 12): the node's peak resident memory grows
by ≤ 64 MB. *Buffers outside the heap*: the peak of \`process.memoryUsage().external\` above the
baseline, sampled every 2 ms: a file held whole shows here as its size.

| Client | Peak RSS growth per run | Median | Target | Peak Buffers outside the heap (median) | Median time | Upload rate |
|---|---|---|---|---|---|---|
${r.upload?.rows ?? notRun(7)}

## 8. Catalog Sync: ${SYNC.records.toLocaleString('en').replace(/,/g, ' ')} records

A catalog of ${SYNC.records.toLocaleString('en').replace(/,/g, ' ')} records (Name, Country), seeded afresh before every run; the source
is the catalog with 1 % removed, 1 % changed and 1 % added (${SYNC.records.toLocaleString('en').replace(/,/g, ' ')} items \`{ recordId, Name, Country }\`);
simulator latency 20 ms. Node: Catalog Record → Sync (auto-mapped columns, record ID from
\`recordId\`, Reindex off, Concurrency ${SYNC.concurrency}). Floor: GetCatalog (row count), GetRecords in pages of
${SYNC.pageSize}, the same comparison on Name and Country, then DeleteRecords and AddRecords in batches of
${SYNC.batchSize}, ${SYNC.concurrency} requests at a time. Target (issue 13): wall ≤ 1.3 × floor.

| Scenario | GetRecords node / floor | DeleteRecords node / floor | AddRecords node / floor | Node ms | Floor ms | Wall ratio | Node MB | Floor MB |
|---|---|---|---|---|---|---|---|---|
${r.sync?.worker ?? notRun(9)}

The same sync inside the real n8n (a Code node makes the ${SYNC.records.toLocaleString('en').replace(/,/g, ' ')} source items; the catalog
seeded afresh before each run), with n8n's default settings twice: with no memory limit, and in a
1 GB deployment — n8n started inside a memory cgroup of ${CONTAINER_MB} MiB, the kernel's mechanism behind a
container's memory limit (swap included), where Node sizes its default heap from the limit as it does
in a container. *API phase*: first API request received → last answered. *Container peak*: the
cgroup's own high-water mark (n8n, its task runner and their page cache). Target (issue 13): the sync
is correct and n8n's main process peaks at ≤ 1 GB. With no limit, n8n holds about 0.9 GB for the
source items alone (the row before each sync): V8 sizes the heap from the machine's memory and lets
it grow far past what is live before it collects. In 1 GB, the same source and sync run in less, at
the cost of more collection time.

| Run | Where | Workflow | n8n execute | Added / updated / deleted | GetRecords / DeleteRecords / AddRecords | API phase | Whole \`n8n execute\` | n8n main process peak | Task runner peak | Container peak |
|---|---|---|---|---|---|---|---|---|---|---|
${r.sync?.real ?? notRun(11)}

## 9. Adaptive concurrency (Concurrency = Auto, the default)

**(a) Auto against a floor at ${ADAPTIVE.floorConcurrency}.** Delete Records of 1 000 000 IDs at ${ADAPTIVE.latencyMs} ms latency, the node with no
Concurrency set (Auto: starts at 4 in flight, grows to 16, halves on 429/503/timeout), the floor
capped at ${ADAPTIVE.floorConcurrency} requests in flight (Auto's ceiling). Target (issue 14): wall ≤ 1.2 × floor. The reference
row runs the node pinned at ${ADAPTIVE.floorConcurrency} in the same interleaved runs: Auto / pinned is what the ramp costs,
pinned / floor what n8n's HTTP stack costs. *Delete phase*: the first delete request received to
the last answered (the wall time also holds removing duplicates from the million IDs). *In flight*:
the most delete requests the simulator handled at once, and the time-weighted median while any was
in flight, the node's and the floor's.

| Scenario | Requests node / floor | Node ms | Floor ms | Wall ratio | Node MB | Floor MB | Memory ratio | Delete phase ms node / floor | In flight: node peak / node median / floor median |
|---|---|---|---|---|---|---|---|---|---|
${r.adaptive?.auto ?? notRun(10)}

**(b) Under a rate limit.** The simulator answers 429 to any API request that arrives while
${ADAPTIVE.maxInFlight} are being handled (\`POST /__simulator/rate-limit\`); latency ${ADAPTIVE.latencyMs} ms; the node at Auto with
Continue On Fail (so that a failure is reported, not thrown), the floor pinned at exactly ${ADAPTIVE.maxInFlight}. Per node
run: 429 answers, the most delete requests handled at once (the simulator's count), the
time-weighted median while any is in flight, the time-weighted mean over the whole delete phase
(idle time included; the floor's for comparison), the share of the phase with none in flight, IDs
deleted and reported failed, and IDs *lost* (neither deleted nor reported, plus any difference
between the IDs the node says it deleted and the batches the simulator confirmed). Target (issue
14): converges near ${ADAPTIVE.maxInFlight} — read here as: in every run, the mean in flight over the delete phase (pauses
included) is at least ${fmt(NEAR_SHARE * 100)} % of the floor's, pinned at ${ADAPTIVE.maxInFlight} in the same conditions (the floor, too, cannot
keep exactly ${ADAPTIVE.maxInFlight} in flight on this machine); with a Retry-After, where every sender must pause as the
service asks, the mean while any request is in flight, with the paused share of the time reported beside it —
and loses nothing (0 lost, 0 failed).

| Retry-After | Node ms | Floor ms at ${ADAPTIVE.maxInFlight} | Ratio | 429 answers | Peak in flight | Median in flight | Mean in flight | Time with none in flight | IDs deleted | IDs reported failed | IDs lost |
|---|---|---|---|---|---|---|---|---|---|---|---|
${r.adaptive?.limited ?? notRun(12)}

**In flight over time**: delete requests being handled, time-weighted mean per ${SERIES_MS / 1000} s window from the
first delete request to the last answer, one run each.

| Run | In flight per ${SERIES_MS / 1000} s |
|---|---|
${r.adaptive?.series ?? notRun(2)}

**(c) Inside the real n8n** at default settings against HTTP Request + Code: section 5 — ${speedupText}.

## 10. QA report download memory: ${QA_REPORT.rows.toLocaleString('en').replace(/,/g, ' ')} rows

Report → Get Field Changes, Output: CSV File, over ${QA_REPORT.transactions.toLocaleString('en').replace(/,/g, ' ')} Process-skill transactions the simulator
processed (two documents each, ten fields per document: ${QA_REPORT.rows.toLocaleString('en').replace(/,/g, ' ')} rows), in n8n's filesystem
binary mode (\`N8N_DEFAULT_BINARY_DATA_MODE=filesystem\`, n8n 2's default): the body streams through
the node, which counts its records, into n8n's binary store on disk. The floor streams the same
report to a file with undici and counts its records the same way. Target (issue 27): the node's
process grows by ≤ ${REPORT_BOUND_MB} MB (peak resident memory above the baseline).

| Client | Peak RSS growth per run | Median | Target | Peak heap growth (median) | Median time | Rate |
|---|---|---|---|---|---|---|
${r.report?.rows ?? notRun(7)}

## 11. Time to data at default settings

Every wait (Process Document, Wait For Transaction, Wait For Export, reindexes) checks at once,
then every Wait Interval (default 1 s) until each pause may be 40 % of the time waited so far, up to
Wait Interval Limit (30 s; Wait For Export 60 s). Simulator latency ${TIME_TO_DATA.latencyMs} ms; the node at its default
settings through n8n-core; the floor a raw undici client that checks at once and then every second.

**(a) Short documents.** ${TIME_TO_DATA.documents} one-page documents the simulator finishes ${TIME_TO_DATA.processingMs / 1000} s after their launch, one
transaction each. Node: Process Document with nothing set but the skill (Concurrency Auto: ${TIME_TO_DATA.floorConcurrency}
transactions at a time). Floor: LaunchTransaction, GetTransactionInfo at once and every second,
the Json result, ${TIME_TO_DATA.floorConcurrency} documents at a time. Target (issue 26): node ≤ 1.2 × floor. Medians of ${LONG_RUNS} interleaved runs.

| Scenario | Node | Floor | Ratio | Launches node / floor | Status requests node / floor | Each run node / floor |
|---|---|---|---|---|---|---|
${r.timeToData?.documents.row ?? notRun(7)}

**(b) A long job.** One document the simulator finishes ${TIME_TO_DATA.longJobMs / 1000} s after its launch, once each. *Late*: from
the launch's answer plus ${TIME_TO_DATA.longJobMs / 1000} s to the status answer that said Processed. Target (issue 26): ≤ 15 status
requests.

| Job | Status requests, node | Status requests, floor (every second) | Late, node | Late, floor |
|---|---|---|---|---|
${r.timeToData?.longJob.row ?? notRun(5)}

**(c) A reindex of 1 s.** Catalog → Reindex at default settings (wait for completion); the simulator
completes the reindex ${TIME_TO_DATA.reindexMs / 1000} s after it handled StartCatalogReindex. *Noticed*: from the start request's
arrival to the answer that said Completed. Target (issue 26): within 1.5 s. Sync's and Delete's
reindex waits have the same defaults.

| Run | Status checks (from the start request) | Noticed |
|---|---|---|
${r.timeToData?.reindex.rows ?? notRun(3)}

## 12. Inside a real n8n 2.41.1: four expression-mapped columns over ${MAPPING.items.toLocaleString('en').replace(/,/g, ' ')} items

One workflow: a Code node makes ${MAPPING.items.toLocaleString('en').replace(/,/g, ' ')} items \`{ code, name, country, city }\`; they go both to an Edit
Fields (Set) node and to Catalog Record → Sync (Map Each Column Manually: Record ID
\`{{ $json.code }}\`, Name, Country and City from \`{{ $json.name }}\`, …, Reindex off), in the same
\`n8n execute\`. The catalog holds the same records already, so Sync writes nothing. *Edit Fields*:
n8n's \`executionTime\` of that node. *Sync reading*: from the simulator's answer to GetCatalog (the
columns, read at the first item) to the first GetRecords request (the comparison starts once
every item is read). Target (issue 26): Sync reading ≤ 1.1 × Edit Fields.

| Run | n8n execute | Edit Fields | Sync reading | Ratio | Sync (whole node) | Sync's plan |
|---|---|---|---|---|---|---|
${r.mapping?.rows ?? (want('mapping') ? '| (skipped: no n8n host) | | | | | | |' : notRun(7))}

## 13. Inside a real n8n 2.41.1: a burst of ${BURST.transactions.toLocaleString('en').replace(/,/g, ' ')} completed transactions at the trigger

\`n8n start\` with n8n's default settings (unlimited production concurrency, SQLite with its own pool
size), a fresh n8n for every run; a workflow (the ABBYY Vantage Trigger, Transaction Completed,
then an Edit Fields node) activated and polled every 5 s; then ${BURST.transactions.toLocaleString('en').replace(/,/g, ' ')} transactions complete at once, so
that one poll finds them all. Counted from the executions n8n stored: each transaction's count among
their trigger items (*missing / twice / foreign*). *Pending at once*: executions queued or running,
sampled every second. *Drained*: from the burst to the last execution's end. *n8n main process*: its
peak resident memory (VmHWM) over the whole run, start-up included. Target (issue 26): under 1 GB,
nothing lost or repeated. Before issue 26 the trigger started up to 1 000 executions at once: in the
1 GiB cgroup the kernel killed n8n with the 1 500 pending (one run, 2026-11-24).

| Output | Where | n8n | Executions stored; the record of deliveries | Missing / twice / foreign | Pending at once | Drained | n8n main process | Task runner peak | Container peak |
|---|---|---|---|---|---|---|---|---|---|
${r.burst?.rows ?? (want('burst') ? '| (skipped: no n8n host) |' + ' |'.repeat(9) : notRun(10))}

## 14. What an AI agent's model reads: the ABBYY Vantage Tool's answers

The node as a tool, run in n8n-core's engine as n8n's AI Agent v3 runs a tool (test/harness/tool.ts),
against the simulator: the characters of JSON the model gets (n8n hands it JSON.stringify of the
items' json), beside what the same operation outputs in a workflow. Tokens are estimated as
characters ÷ 4. Target (issue 34): at most 40 000 characters, whatever the model asks for.

| Question | Workflow output | Tool answer |
|---|---|---|
${r.agent?.rows ?? notRun(3)}

## 15. Inside a real n8n 2.41.1: pushed events (the ABBYY Vantage Instant Trigger) against polling

The simulator's Custom activity runs the shipped script (\`custom-activity/n8n-events.js\`) after
Review, in its own worker threads, and posts each event to the Instant Trigger's production URL on
loopback; the transaction completes when the script returns. \`n8n start\` with n8n's defaults, a fresh
n8n for (a) and (b), and for each run of (c).

**(a) From Vantage completing a transaction to its workflow's start.** Both triggers side by side in
one n8n for ${PUSH.latencyForMs / 1000} s: a transaction completes for the Instant Trigger (Transaction Completed) every
${PUSH.pushEveryMs / 1000} s, and one for the ABBYY Vantage Trigger (Transaction Completed of a registration parameter,
Poll Times *Every Minute*, its shortest setting) every ${PUSH.pollEveryMs / 1000} s. *Completed*: when the simulator
finished the transaction (pushed: when its script returned); *started*: the execution's
\`startedAt\` as n8n stored it. Target (issue 39): push p95 ≤ ${PUSH.p95GoalMs / 1000} s on 2 cores.

| Trigger | Transactions | p50 | p95 | Max |
|---|---|---|---|---|
${r.push?.rows.latency ?? (want('push') ? '| (skipped: no n8n host) | | | | |' : notRun(5))}

**(b) Vantage API requests while nothing happens.** The same n8n right after (a), both workflows
active, no transaction completing for ${PUSH.idleMs / 1000} s: every API request the simulator logged, and per
hour. The polling trigger reads its whole Look Back window at every poll, one list request per 1 000
transactions in it; the Instant Trigger reads only when an event comes.

| Trigger | Requests in ${PUSH.idleMs / 1000} s | Per hour |
|---|---|---|
${r.push?.rows.idle ?? (want('push') ? '| (skipped: no n8n host) | | |' : notRun(3))}

**(c) ${PUSH.burst.toLocaleString('en').replace(/,/g, ' ')} transactions completing within a minute, pushed.** The Instant Trigger's workflow (Transaction
Completed, then an Edit Fields node, as section 13's), ${PUSH.burst.toLocaleString('en').replace(/,/g, ' ')} transactions started evenly over
${PUSH.burstForMs / 1000} s, Vantage running up to ${PUSH.scriptConcurrency} scripts at once. *n8n answered the script*: per transaction,
what its one attempt got (202 accepted, 409 delivered by another event) or its attempts. *All
completed*: until the last script returned and its transaction was Processed. *Drained*: from the
first to the last execution's end. *Started after completion*: p50 / p95 / max, as in (a). *The record of deliveries*: the states the
workflow's static data says the Instant Trigger delivered.
*Requests per push*: API requests n8n sent Vantage, by operation, per transaction. Memory as in
section 13 (its polled burst of 1 500 at once is the comparison). Target (issue 39): ${PUSH.burst.toLocaleString('en').replace(/,/g, ' ')} executions,
none lost or doubled, n8n's main process under 1 GB.

| Where | n8n | Executions stored; the record of deliveries | Missing / twice / foreign | n8n answered the script | All completed | Drained | Started after completion | Pending at once | n8n main process | Task runner peak | Container peak | Requests per push |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${r.push?.rows.burst ?? (want('push') ? '| (skipped: no n8n host) |' + ' |'.repeat(12) : notRun(13))}

**(d) Expression isolates per request.** n8n 2.x's default expression engine (\`vm\`) gives a
webhook request of any trigger but its own Webhook node (version 2), each execution, and each
credential read outside an execution a V8 isolate of its own, created for it and disposed after it
(about 10 MB while it lives). Counted from n8n's metrics (\`n8n_expression_pool_acquired_total\`,
\`N8N_METRICS=true\`) in a fresh \`n8n start\`, ${r.push?.isolates?.requests ?? 20} requests of each, one at a time, after one not counted.

| Request | Isolates n8n acquired per request |
|---|---|
${r.push?.rows.isolates || (want('push') ? '| (not measured) | |' : notRun(2))}

## 16. Inside a real n8n 2.41.1: ${DURABLE.waiting} executions waiting for Manual Review

${DURABLE.waiting} Process Document executions (a Webhook call each, one document each) reach Manual Review in one
n8n (\`n8n start\`, SQLite, n8n's defaults, its Prometheus metrics on), first with On Manual Review →
*Resume When Vantage Pushes*, then with *Keep Waiting*. The simulator's Custom activity runs the
shipped script after Review (up to ${DURABLE.scriptConcurrency} at once). *Live heap*: the least \`nodejs_heap_size_used_bytes\`
over ${DURABLE.watchMs / 1000} s of samples while they wait (what garbage collection leaves), and over 15 s before the
executions and after they all ended; *resident memory*: medians of the same samples. *Held*: while
they wait, above the lower of before and after (before → waiting → after in brackets). n8n 2.41
holds an expression isolate (isolated-vm, outside the JavaScript heap) for each running execution
(n8n-core's workflow-execute.js, acquireIsolate): resident memory shows it, the heap does not. *n8n's
executions*: as n8n's public API lists them while they wait (a running one holds a slot of n8n's
concurrency; in queue mode, a worker's). *Database added*: growth of n8n's SQLite file and its log
while they wait. *Review end → execution end*: from the simulator finishing the review (its script
then posts to the execution's resume URL) to the resumed execution's \`stoppedAt\` as n8n stored it:
${DURABLE.oneByOne} reviews ending ${DURABLE.oneByOneEveryMs} ms apart, then the other ${DURABLE.waiting - DURABLE.oneByOne} at once. Targets (issue 40): none running and no memory
beyond n8n's database (this bench's bounds: ≤ ${HEAP_BOUND_MB} MB of live heap, ≤ ${RSS_BOUND_MB} MB resident); review end →
output p95 ≤ ${RESUME_P95_GOAL_MS / 1000} s one at a time, as pushed events' (issue 39).

| On Manual Review | Live heap held (before → waiting → after) | Resident memory held (before → waiting → after) | n8n's executions | Vantage requests / min | Database added | Review end → execution end, one at a time (p50 / p95 / max) | All at once (p50 / p95 / max) |
|---|---|---|---|---|---|---|---|
${r.durable ? durableWaitRows(r.durable) : want('durable') ? '| (skipped: no n8n host) |' + ' |'.repeat(7) : notRun(8)}
`;
	// The profiled explanation of missed targets lives beside the driver and goes with the numbers.
	const analysis = readFileSync(join(ROOT, 'bench', 'ANALYSIS.md'), 'utf8');
	const target = ONLY ? join(BENCH_WORK, 'BENCHMARKS.partial.md') : join(ROOT, 'BENCHMARKS.md');
	writeFileSync(target, `${text}\n${analysis}`);
	console.log(`wrote ${target}`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
