import type {
	IBinaryData,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { CsvCheck } from '../../../helpers/csv';
import { runPreparedPerItem, type ItemOutput } from '../../../helpers/items';
import { eachReportRow } from '../../../helpers/reportRows';
import { requireOption } from '../../../helpers/validation';
import type { VantageClient } from '../../../transport';
import {
	concurrencyOnlyOptions,
	readRunConcurrency,
	type ConcurrencyLimits,
} from '../../../params/concurrency';
import { outputFieldProperty, readOutputField } from '../../../params/download';
import { readReturnLimit, returnAllProperties } from '../../../params/getMany';
import { qaFilters, qaParameters, readQaQuery, type QaFilter } from './filters';
import { explainEmptyReport, readQaReport, type QaReport } from './reports';

/**
 * What Get Document Changes and Get Field Changes share: one QA report (see ./reports.ts and ./filters.ts),
 * output either as one item per row with typed values (up to Limit), or as the CSV file itself in
 * a binary field, streamed into n8n's binary data so that memory does not grow with the report
 * (n8n's filesystem and S3 modes; its in-memory mode holds every binary whole anyway).
 */
const CHANGES_CONCURRENCY: ConcurrencyLimits = { max: 8, what: 'reports' };

export type ChangesPlan =
	| { query: ReturnType<typeof readQaQuery>; output: 'items'; limit: number | undefined }
	| { query: ReturnType<typeof readQaQuery>; output: 'binary'; field: string };

/** The parameters of a changes report offering `filters`: its own, Output, its Filters, Options. */
export function changesProperties(report: QaReport, filters: QaFilter[]): INodeProperties[] {
	const showFor = (output: string) => ({ show: { output: [output] } });
	return [
		...qaParameters(filters),
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'One Item per Row',
					value: 'items',
					description: `One item per ${report.row} with typed values: numbers, true/false, ISO dates`,
				},
				{
					name: 'CSV File',
					value: 'binary',
					description:
						'The report as Vantage sends it, streamed into a binary field: for large reports',
				},
			],
			default: 'items',
		},
		...returnAllProperties().map((p) => ({
			...p,
			displayOptions: { show: { ...p.displayOptions?.show, ...showFor('items').show } },
		})),
		{ ...outputFieldProperty('CSV file'), displayOptions: showFor('binary') },
		qaFilters(filters),
		concurrencyOnlyOptions(CHANGES_CONCURRENCY),
	];
}

/**
 * The operation's run: every item's query and output checked before any request, then each
 * item's report read, up to Concurrency at once.
 */
export async function runChangesReport(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
	report: QaReport,
	filters: QaFilter[],
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(ctx, CHANGES_CONCURRENCY, client);
	return await runPreparedPerItem(
		ctx,
		items,
		(itemIndex) => readChangesPlan(ctx, itemIndex, filters),
		async (plan, itemIndex) => await changesOutput(ctx, client, report, plan, itemIndex),
		concurrency,
	);
}

/** One item's query and output, checked before any request. */
function readChangesPlan(
	ctx: IExecuteFunctions,
	itemIndex: number,
	filters: QaFilter[],
): ChangesPlan {
	const query = readQaQuery(ctx, itemIndex, filters);
	const output = requireOption(
		ctx,
		itemIndex,
		'Output',
		ctx.getNodeParameter('output', itemIndex),
		['items', 'binary'] as const,
	);
	return output === 'items'
		? { query, output, limit: readReturnLimit(ctx, itemIndex) }
		: { query, output, field: readOutputField(ctx, itemIndex) };
}

/** One item's report, as the plan's Output asks. */
async function changesOutput(
	ctx: IExecuteFunctions,
	client: VantageClient,
	report: QaReport,
	plan: ChangesPlan,
	itemIndex: number,
): Promise<ItemOutput | ItemOutput[]> {
	return plan.output === 'items'
		? await rowItems(ctx, client, report, plan, itemIndex)
		: await csvFile(ctx, client, report, plan, itemIndex);
}

async function rowItems(
	ctx: IExecuteFunctions,
	client: VantageClient,
	report: QaReport,
	plan: Extract<ChangesPlan, { output: 'items' }>,
	itemIndex: number,
): Promise<ItemOutput[]> {
	const rows = await readQaReport(ctx, client, report, plan.query, itemIndex, async (body) => {
		const out: ItemOutput[] = [];
		await eachReportRow(
			body.chunks,
			() => true,
			(json) => {
				// Enough rows: the rest of the report is not downloaded.
				if (plan.limit !== undefined && out.length >= plan.limit) return false;
				out.push({ json });
				return true;
			},
		);
		return out;
	});
	if (rows.length === 0)
		await explainEmptyReport(ctx, client, plan.query.processSkillId, itemIndex);
	return rows;
}

/** The date part of an ISO date-time, for file names. */
const day = (iso: unknown) => (typeof iso === 'string' ? iso.slice(0, 10) : 'now');

async function csvFile(
	ctx: IExecuteFunctions,
	client: VantageClient,
	report: QaReport,
	plan: Extract<ChangesPlan, { output: 'binary' }>,
	itemIndex: number,
): Promise<ItemOutput> {
	const { query } = plan;
	const fileName = `${report.file}-${day(query.startDate)}-to-${day(query.endDate)}.csv`;
	const file = await readQaReport(ctx, client, report, query, itemIndex, async (body) => {
		// Checked as the bytes pass into n8n's binary store: a report that is not whole fails
		// the stream, so no file is stored as if it were the report.
		const check = new CsvCheck();
		let records = 0;
		async function* checked(): AsyncGenerator<Uint8Array> {
			for await (const chunk of body.chunks) {
				check.push(chunk);
				yield chunk;
			}
			records = check.end();
		}
		const source = checked();
		let data = body.readable(source);
		let binary: IBinaryData;
		try {
			if (!data) {
				// No stream class from the host (not expected from n8n): gather the bytes.
				const chunks: Uint8Array[] = [];
				for await (const chunk of source) chunks.push(chunk);
				data = Buffer.concat(chunks);
			}
			binary = await ctx.helpers.prepareBinaryData(data as Buffer, fileName, 'text/csv');
		} catch (error) {
			// n8n's binary store may wrap what the stream threw: the check's own error is the cause.
			throw check.failure ?? error;
		}
		if (check.failure) throw check.failure;
		// The header row is no data row.
		return { binary, rows: Math.max(0, records - 1), bytes: check.bytes };
	});
	if (file.rows === 0) await explainEmptyReport(ctx, client, query.processSkillId, itemIndex);
	return {
		json: { rows: file.rows, fileName, fileSize: file.bytes, filters: query },
		binary: { [plan.field]: file.binary },
	};
}
