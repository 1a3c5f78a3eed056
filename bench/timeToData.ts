/* eslint-disable no-console -- Benchmark driver, never shipped: reports progress on the console. */
/**
 * Time to data at default settings (issue 26): how soon the node notices that Vantage is done, and
 * what its status checks cost. Process Document of short documents against a raw client that polls
 * every second at the same concurrency; one 60-s job (status requests counted, beside the raw
 * client's); Catalog → Reindex of a reindex that completes in 1 s. Every run through n8n-core in a
 * worker process of its own, against the simulator in its own process (latency 50 ms).
 */
import {
	compare,
	control,
	countRoute,
	fmt,
	measure,
	median,
	medians,
	verdict,
	type LogEntry,
	type Measurement,
} from './measure';
import { TIME_TO_DATA as T } from './scenario';

export interface TimeToDataResult {
	/** 11a: the short documents. */
	documents: { row: string; ratio: number };
	/** 11b: the 60-s job. */
	longJob: { row: string; polls: number };
	/** 11c: the reindex of 1 s, each run. */
	reindex: { rows: string; noticedMs: number[] };
}

/** The answer (finishedAt) of the last request of `route`. */
const lastAnswer = (log: LogEntry[], route: string) =>
	Math.max(...log.filter((r) => r.route === route).map((r) => r.finishedAt ?? NaN));

export async function timeToDataSection(simUrl: string, runs: number): Promise<TimeToDataResult> {
	await control(simUrl, 'POST', 'latency', { ms: T.latencyMs });

	// 11a: short documents, node at default settings against the floor polling every second.
	await control(simUrl, 'POST', 'default-transaction-script', {
		processing: { ms: T.processingMs },
	});
	const c = await compare(
		simUrl,
		`${T.documents} × ${T.processingMs / 1000}-s documents, default settings`,
		{ scenario: 'timeToData', documents: T.documents },
		{ runs, floor: { concurrency: T.floorConcurrency, pollMs: T.floorPollMs } },
	);
	const [nodeWall, floorWall] = medians(c, (m) => m.wallMs);
	const ratio = nodeWall / floorWall;
	const polls = (route: string) => medians(c, (m) => countRoute(m.counts, route)).join(' / ');
	const documents = {
		ratio,
		row: `| ${c.label} | ${fmt(nodeWall / 1000, 2)} s | ${fmt(floorWall / 1000, 2)} s | ${fmt(ratio, 2)} (${verdict(ratio <= 1.2)}) | ${polls('LaunchTransaction')} | ${polls('GetTransactionInfo')} | ${c.node.map((m) => fmt(m.wallMs / 1000, 2)).join(', ')} s / ${c.floor.map((m) => fmt(m.wallMs / 1000, 2)).join(', ')} s |`,
	};

	// 11b: one job of 60 s: the status requests each client sends, and how late each notices.
	await control(simUrl, 'POST', 'default-transaction-script', { processing: { ms: T.longJobMs } });
	const long = async (client: 'node' | 'undici'): Promise<Measurement> =>
		await measure(
			simUrl,
			{
				scenario: 'timeToData',
				client,
				documents: 1,
				...(client === 'undici' ? { concurrency: 1, pollMs: T.floorPollMs } : {}),
			},
			{ log: true },
		);
	const [nodeLong, floorLong] = [await long('node'), await long('undici')];
	console.log(' 60-s job');
	/** From the launch's answer to the status answer that said Processed, less the 60 s. */
	const late = (m: Measurement) =>
		lastAnswer(m.log!, 'GetTransactionInfo') -
		lastAnswer(m.log!, 'LaunchTransaction') -
		T.longJobMs;
	const nodePolls = countRoute(nodeLong.counts, 'GetTransactionInfo');
	const longJob = {
		polls: nodePolls,
		row: `| one ${T.longJobMs / 1000}-s job | ${nodePolls} (${verdict(nodePolls <= 15)}) | ${countRoute(floorLong.counts, 'GetTransactionInfo')} | ${fmt(late(nodeLong) / 1000, 1)} s | ${fmt(late(floorLong) / 1000, 1)} s |`,
	};
	await control(simUrl, 'POST', 'default-transaction-script', {});

	// 11c: a reindex that completes 1 s after it started, Catalog → Reindex at default settings.
	const reindexRows: string[] = [];
	const noticedMs: number[] = [];
	for (let run = 1; run <= runs; run++) {
		await control(simUrl, 'POST', 'reindex-script', {
			outcome: 'Completed',
			after: { ms: T.reindexMs },
		});
		const m = await measure(simUrl, { scenario: 'reindex', client: 'node' }, { log: true });
		const log = m.log!;
		const started = log.find((r) => r.route === 'StartCatalogReindex')?.at ?? NaN;
		const noticed = lastAnswer(log, 'GetReindexOperation') - started;
		noticedMs.push(noticed);
		const times = log
			.filter((r) => r.route === 'GetReindexOperation')
			.map((r) => fmt((r.at - started) / 1000, 2));
		reindexRows.push(
			`| ${run} | ${times.join(', ')} s | ${fmt(noticed)} ms (${verdict(noticed <= 1500)}) |`,
		);
	}
	console.log(' reindex of 1 s');
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	reindexRows.push(`| median | | ${fmt(median(noticedMs))} ms |`);
	return { documents, longJob, reindex: { rows: reindexRows.join('\n'), noticedMs } };
}
