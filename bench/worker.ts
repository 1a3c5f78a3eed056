/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * Benchmark worker, never shipped: one measurement per process, so memory is not shared. */
/**
 * One measured run, in its own process: either the ABBYY Vantage node (through n8n-core's
 * execution engine) or the floor (./floor.ts), a raw undici client sending the optimal request
 * sequence. Prints one JSON line: wall time, peak memory above the baseline taken just before the
 * work (input already built), and what the run reported.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';

import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import type * as Harness from '../test/harness/n8n';
import { binaryFile, invoiceText } from '../test/helpers/binary';
import {
	floorDelete,
	floorProcess,
	floorQaReport,
	floorStatus,
	floorSync,
	floorUpload,
} from './floor';
import {
	invoiceNumber,
	PROCESS,
	processDocumentDefaults,
	processDocumentParameters,
	QA_REPORT,
	qaReportParameters,
	recordDeleteParameters,
	reindexParameters,
	SYNC_EXPECTED,
	syncParameters,
	syncSourceItems,
} from './scenario';

export type Scenario =
	| 'delete'
	| 'status'
	| 'process'
	| 'upload'
	| 'sync'
	| 'report'
	| 'timeToData'
	| 'reindex';

export interface WorkerArgs {
	scenario: Scenario;
	client: 'node' | 'undici';
	/** Requests (or items) at once; undefined runs the node at its default (Auto). */
	concurrency?: number;
	simUrl: string;
	/** status: the export ids to poll. */
	requestIds?: string[];
	/** upload: the file on disk; report: where the floor writes the CSV. */
	file?: string;
	/** delete: run with Continue On Fail and report the summary instead of failing on errors. */
	report?: boolean;
	/** timeToData: how many documents (the node at its default settings, the floor every second). */
	documents?: number;
	/** timeToData: the floor's poll interval. */
	pollMs?: number;
}

export interface WorkerResult {
	wallMs: number;
	peakRssMB: number;
	peakHeapMB: number;
	/** Memory outside the JavaScript heap (`external`, which includes every Buffer), sampled. */
	peakExternalMB: number;
	baselineRssMB: number;
	/** What the run reported (the node's summary, the floor's counts). */
	detail?: IDataObject;
}

const args = JSON.parse(readFileSync(process.argv[2], 'utf8')) as WorkerArgs;

/** n8n-core and the harness, loaded only by the node's runs: the floor's process stays lean. */
let loaded: typeof Harness | undefined;
async function harness(): Promise<typeof Harness> {
	loaded ??= await import('../test/harness/n8n');
	return loaded;
}
async function runNode(
	options: Omit<Harness.RunOptions, 'credentials'>,
): Promise<Harness.RunResult> {
	const { runNode: run, simulatorCredentials } = await harness();
	return await run({
		...options,
		credentials: simulatorCredentials({ url: args.simUrl } as never),
	});
}

function deleteInput(): string[][] {
	// 1000 items × 1000 IDs = 1 000 000 unique IDs.
	return Array.from({ length: 1000 }, (_, item) =>
		Array.from({ length: 1000 }, (_, i) => `record-${item * 1000 + i}`),
	);
}

/** The text of document `i`: an invoice the simulator extracts fields from. */
function invoice(i: number): Buffer {
	return Buffer.from(
		invoiceText({
			number: invoiceNumber(i),
			date: '03.11.2025',
			total: '1.250,00',
			vendor: 'ACME GmbH',
			lines: [
				['Paper', '2', '10,00'],
				['Toner', '1', '1.240,00'],
			],
		}),
	);
}

function failIf(condition: boolean, message: () => string): void {
	if (condition) throw new Error(message());
}

// ------------------------------------------------------------------ the node's runs

async function nodeDelete(input: string[][]): Promise<IDataObject> {
	const result = await runNode({
		items: input.map((ids) => ({ ids })),
		parameters: recordDeleteParameters(args.concurrency),
		continueOnFail: args.report === true,
	});
	const summary = result.items[0]?.json;
	if (args.report) {
		failIf(!summary, () => `no output: ${result.error?.message}`);
		return summary;
	}
	failIf(
		!!result.error || summary?.idsDeleted !== 1_000_000,
		() => `node run failed: ${result.error?.message ?? JSON.stringify(summary)}`,
	);
	return { idsDeleted: summary.idsDeleted };
}

async function nodeStatus(ids: string[]): Promise<void> {
	const result = await runNode({
		items: ids.map((requestId) => ({ requestId })),
		parameters: {
			resource: 'report',
			operation: 'getExportStatus',
			requestId: '={{ $json.requestId }}',
			options: { concurrency: args.concurrency },
		},
	});
	failIf(
		!!result.error || result.items.length !== ids.length,
		() => `node run failed: ${result.error?.message}`,
	);
}

/** Every document's output item carries its invoice number, extracted by the simulator. */
function checkDocuments(items: INodeExecutionData[], count: number): void {
	failIf(items.length !== count, () => `${items.length} output items for ${count} documents`);
	for (const item of items) {
		const index = (item.pairedItem as { item: number }).item;
		const fields = item.json.fields as IDataObject | undefined;
		failIf(
			fields?.InvoiceNumber !== invoiceNumber(index),
			() => `item ${index}: ${JSON.stringify(item.json).slice(0, 300)}`,
		);
	}
}

async function nodeProcess(items: INodeExecutionData[]): Promise<void> {
	const result = await runNode({
		items,
		parameters: processDocumentParameters(),
	});
	failIf(!!result.error, () => `node run failed: ${result.error?.message}`);
	checkDocuments(result.items, items.length);
}

/** Process Document at default settings: Concurrency Auto, the default wait schedule. */
async function nodeTimeToData(items: INodeExecutionData[]): Promise<IDataObject> {
	const result = await runNode({ items, parameters: processDocumentDefaults() });
	failIf(!!result.error, () => `node run failed: ${result.error?.message}`);
	checkDocuments(result.items, items.length);
	return { polls: result.items.map((item) => item.json.polls as number) };
}

/** Catalog → Reindex at default settings: start, then wait with the default schedule. */
async function nodeReindex(): Promise<IDataObject> {
	const result = await runNode({ parameters: reindexParameters() });
	const json = result.items[0]?.json ?? {};
	failIf(
		!!result.error || json.currentState !== 'Completed',
		() => `node run failed: ${result.error?.message ?? JSON.stringify(json)}`,
	);
	return { polls: json.polls as number };
}

async function nodeUpload(binary: IBinaryData): Promise<IDataObject> {
	const result = await runNode({
		items: [{ json: {}, binary: { data: binary } }],
		parameters: processDocumentParameters({ uploadMethod: 'separate' }),
	});
	failIf(!!result.error, () => `node run failed: ${result.error?.message}`);
	checkDocuments(result.items, 1);
	return { uploadMethod: result.items[0].json.uploadMethod as string };
}

async function nodeSync(items: INodeExecutionData[]): Promise<IDataObject> {
	const result = await runNode({
		items,
		parameters: syncParameters(args.concurrency),
	});
	const summary = result.items[0]?.json ?? {};
	failIf(
		!!result.error ||
			summary.toAdd !== SYNC_EXPECTED.toAdd ||
			summary.toUpdate !== SYNC_EXPECTED.toUpdate ||
			summary.toDelete !== SYNC_EXPECTED.toDelete ||
			summary.failed !== 0,
		() => `node run failed: ${result.error?.message ?? JSON.stringify(summary).slice(0, 500)}`,
	);
	const { added, updated, deleted } = summary;
	return { added, updated, deleted };
}

async function nodeReport(): Promise<IDataObject> {
	const result = await runNode({ parameters: qaReportParameters() });
	const json = result.items[0]?.json ?? {};
	const binary = result.items[0]?.binary?.data;
	failIf(
		!!result.error || json.rows !== QA_REPORT.rows || !binary?.id,
		() =>
			`node run failed: ${result.error?.message ?? JSON.stringify(json)} (binary id ${binary?.id})`,
	);
	return { rows: json.rows as number, fileSize: json.fileSize as number };
}

// ------------------------------------------------------------------ memory

/** Peak resident memory since the last reset (VmHWM), in bytes; undefined where unavailable. */
function highWaterMark(): number | undefined {
	try {
		const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

/** Reset the kernel's peak-RSS counter to the current RSS (Linux ≥ 4.0); false if not allowed. */
function resetHighWaterMark(): boolean {
	try {
		writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

// ------------------------------------------------------------------ main

/** Build the input (not measured) and return the measured work. */
async function prepare(): Promise<() => Promise<IDataObject | void>> {
	const { scenario, client, simUrl, concurrency } = args;
	const node = client === 'node';
	switch (scenario) {
		case 'delete': {
			const input = deleteInput();
			return node
				? async () => await nodeDelete(input)
				: async () => await floorDelete(simUrl, input, concurrency ?? 16);
		}
		case 'status': {
			const ids = args.requestIds ?? [];
			return node
				? async () => await nodeStatus(ids)
				: async () => await floorStatus(simUrl, ids, concurrency ?? 1);
		}
		case 'process': {
			const documents = Array.from({ length: PROCESS.documents }, (_, i) => invoice(i));
			if (!node) return async () => await floorProcess(simUrl, documents);
			const items = documents.map((bytes, i) => ({
				json: {},
				binary: { data: binaryFile(`invoice-${i}.pdf`, bytes) },
			}));
			return async () => await nodeProcess(items);
		}
		case 'timeToData': {
			const count = args.documents ?? 1;
			const documents = Array.from({ length: count }, (_, i) => invoice(i));
			if (!node) {
				const options = { concurrency: concurrency ?? 16, pollMs: args.pollMs ?? 1000 };
				return async () => await floorProcess(simUrl, documents, options);
			}
			const items = documents.map((bytes, i) => ({
				json: {},
				binary: { data: binaryFile(`invoice-${i}.pdf`, bytes) },
			}));
			return async () => await nodeTimeToData(items);
		}
		case 'reindex': {
			if (!node) throw new Error('the reindex scenario has no floor');
			return async () => await nodeReindex();
		}
		case 'upload': {
			const file = args.file!;
			if (!node) return async () => await floorUpload(simUrl, file, invoiceNumber(0));
			// Filesystem mode (set in this process's environment): the file is copied into n8n's
			// binary data folder by path, never loaded, and the item carries its binary id.
			await (await harness()).storeBinary(Buffer.from('warm-up'), 'warm-up.txt');
			const { BinaryDataService } = await import('n8n-core');
			const requireFromCore = createRequire(require.resolve('n8n-core'));
			const { Container } = requireFromCore('@n8n/di') as {
				Container: { get<T>(type: new (...a: never[]) => T): T };
			};
			const binary = await Container.get(BinaryDataService).copyBinaryFile(
				{ type: 'execution', workflowId: 'wf-test', executionId: 'exec-1' },
				{ data: '', mimeType: 'application/pdf', fileName: basename(file) } as IBinaryData,
				file,
			);
			failIf(!binary.id, () => 'binary data is not in filesystem mode');
			return async () => await nodeUpload(binary);
		}
		case 'report': {
			if (!node) return async () => await floorQaReport(simUrl, args.file!);
			// Filesystem mode (set in this process's environment), as n8n 2 runs by default.
			await (await harness()).storeBinary(Buffer.from('warm-up'), 'warm-up.txt');
			return async () => await nodeReport();
		}
		case 'sync': {
			const source = syncSourceItems();
			if (!node) return async () => await floorSync(simUrl, source, concurrency ?? 1);
			const items = source.map((json) => ({ json }));
			return async () => await nodeSync(items);
		}
	}
}

async function main(): Promise<void> {
	// Loaded before the baseline, so that module loading is not measured.
	if (args.client === 'node') await harness();
	const work = await prepare();
	global.gc?.();
	const baseline = process.memoryUsage();
	const hwmReset = resetHighWaterMark();
	let peakRss = baseline.rss;
	let peakHeap = baseline.heapUsed;
	let peakExternal = baseline.external;
	// Diagnosis only (never in the report): BENCH_DIAG_GC=<ms> collects garbage that often, so that
	// the peak shows what is live rather than what the collector has not reclaimed yet.
	const diagGc = Number(process.env.BENCH_DIAG_GC ?? 0);
	let ticks = 0;
	const sampler = setInterval(() => {
		if (diagGc && ++ticks % Math.max(1, Math.round(diagGc / 2)) === 0) global.gc?.();
		const m = process.memoryUsage();
		peakRss = Math.max(peakRss, m.rss);
		peakHeap = Math.max(peakHeap, m.heapUsed);
		peakExternal = Math.max(peakExternal, m.external);
	}, 2);
	const started = process.hrtime.bigint();
	const detail = await work();
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	clearInterval(sampler);
	const end = process.memoryUsage();
	peakRss = Math.max(peakRss, end.rss, (hwmReset && highWaterMark()) || 0);
	peakHeap = Math.max(peakHeap, end.heapUsed);
	const result: WorkerResult = {
		wallMs,
		peakRssMB: (peakRss - baseline.rss) / 2 ** 20,
		peakHeapMB: (peakHeap - baseline.heapUsed) / 2 ** 20,
		peakExternalMB: (peakExternal - baseline.external) / 2 ** 20,
		baselineRssMB: baseline.rss / 2 ** 20,
		...(detail ? { detail } : {}),
	};
	console.log(JSON.stringify(result));
	process.exit(0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
