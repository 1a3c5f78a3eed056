/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console --
 * Benchmark driver, never shipped: runs a workflow in a real n8n and reads its run data. */
/**
 * Column mappings inside a real n8n (issue 26): one execution in which 10 000 items go both to
 * n8n's Edit Fields (Set) node and to Catalog Record → Sync, both evaluating the same four
 * expressions per item. Edit Fields' time is n8n's own `executionTime` of that node; Sync's
 * reading of the items is what the simulator saw: from the answer to GetCatalog (the catalog's
 * columns, read at the first item) to the first GetRecords request (the comparison, once every
 * item is read). The catalog already holds the same records, so Sync writes nothing.
 */
import { parseRun, type N8nInstance } from '../e2e/lib/n8n';
import { control, fmt, median, requestLog } from './measure';
import { MAPPING_NODES, runN8n, WORKFLOWS } from './realN8n';
import { MAPPING, mappingRecord } from './scenario';

export interface MappingResult {
	rows: string;
	/** Sync's reading over Edit Fields, each run. */
	ratios: number[];
	/** Whether every run was correct (Sync found every record unchanged, nothing failed). */
	correct: boolean;
}

type Json = Record<string, unknown>;
type RunData = Record<string, Array<{ executionTime?: number; data?: { main?: Json[][] } }>>;

async function seedMappingCatalog(simUrl: string): Promise<void> {
	await control(simUrl, 'POST', 'catalogs', {
		name: MAPPING.catalog,
		columns: Object.keys(MAPPING.columns).map((name) => ({
			name,
			type: 'Text',
			notEmpty: name === 'Name',
		})),
		records: Array.from({ length: MAPPING.items }, (_, i) => mappingRecord(i)),
	});
}

export async function mappingSection(
	simUrl: string,
	instance: N8nInstance,
	runs: number,
): Promise<MappingResult> {
	await control(simUrl, 'POST', 'latency', { ms: 0 });
	const rows: string[] = [];
	const ratios: number[] = [];
	let correct = true;
	for (let run = 1; run <= runs; run++) {
		await seedMappingCatalog(simUrl);
		await control(simUrl, 'DELETE', 'requests');
		const result = await runN8n(instance, ['execute', `--id=${WORKFLOWS.mapping}`, '--rawOutput']);
		const parsed = parseRun(result.stdout) as
			| { data?: { resultData?: { runData?: RunData } } }
			| undefined;
		const runData = parsed?.data?.resultData?.runData ?? {};
		const fieldsMs = runData[MAPPING_NODES.fields]?.[0]?.executionTime ?? NaN;
		const syncMs = runData[MAPPING_NODES.sync]?.[0]?.executionTime ?? NaN;
		const fieldsItems = runData[MAPPING_NODES.fields]?.[0]?.data?.main?.[0]?.length ?? 0;
		const summary = runData[MAPPING_NODES.sync]?.[0]?.data?.main?.[0]?.[0]?.json as
			| Json
			| undefined;
		const log = await requestLog(simUrl);
		const columnsRead = log.find((r) => r.route === 'GetCatalog')?.finishedAt ?? NaN;
		const compared = log.find((r) => r.route === 'GetRecords')?.at ?? NaN;
		const readingMs = compared - columnsRead;
		const ok =
			result.code === 0 &&
			fieldsItems === MAPPING.items &&
			summary?.unchanged === MAPPING.items &&
			summary?.failed === 0 &&
			summary?.toAdd === 0;
		correct &&= ok;
		const ratio = readingMs / fieldsMs;
		ratios.push(ratio);
		rows.push(
			`| ${run} | exit ${result.code}${ok ? '' : ' (**wrong or no summary**)'} | ${fmt(fieldsMs)} ms | ${fmt(readingMs)} ms | ${fmt(ratio, 2)} | ${fmt(syncMs)} ms | ${summary ? `${String(summary.unchanged)} unchanged, ${String(summary.failed)} failed` : '–'} |`,
		);
		process.stdout.write('.');
	}
	console.log(' real n8n column mappings');
	rows.push(
		`| median | | | | ${fmt(median(ratios), 2)} (${median(ratios) <= 1.1 ? 'met' : '**missed**'}) | | |`,
	);
	return { rows: rows.join('\n'), ratios, correct };
}
