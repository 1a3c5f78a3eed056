import type {
	IBinaryData,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { CsvCheck, csvRecords } from '../../helpers/csv';
import { runPreparedPerItem, type ItemOutput } from '../../helpers/items';
import { reportColumns, typedRecord, type ReportColumn } from '../../helpers/reportRows';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../params/concurrency';
import { outputFieldProperty, readOutputField } from '../../params/download';
import { readReturnLimit, returnAllProperties } from '../../params/getMany';
import {
	explainEmptyReport,
	processSkillProperty,
	qaFilters,
	readQaQuery,
	readQaReport,
	startDateProperty,
	type QaReport,
} from './qaReports';

/**
 * Get Document Changes and Get Field Changes: one QA report (see ./qaReports.ts), output either
 * as one item per row with typed values (up to Limit), or as the CSV file itself in a binary
 * field, streamed into n8n's binary data so that memory does not grow with the report (n8n's
 * filesystem and S3 modes; its in-memory mode holds every binary whole anyway).
 */
const CONCURRENCY = { max: 8, what: 'reports' };

const OPERATIONS: Record<QaReport, string> = {
	documents: 'getDocumentChanges',
	fields: 'getFieldChanges',
};
const FILE_PREFIX: Record<QaReport, string> = {
	documents: 'document-changes',
	fields: 'field-changes',
};
const ROW: Record<QaReport, string> = { documents: 'document', fields: 'field' };

type Plan =
	| { query: ReturnType<typeof readQaQuery>; output: 'items'; limit: number | undefined }
	| { query: ReturnType<typeof readQaQuery>; output: 'binary'; field: string };

function properties(report: QaReport): INodeProperties[] {
	const showFor = (output: string) => ({ show: { output: [output] } });
	return [
		...(report === 'fields' ? [processSkillProperty] : []),
		startDateProperty,
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'One Item per Row',
					value: 'items',
					description: `One item per ${ROW[report]} with typed values: numbers, true/false, ISO dates`,
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
		qaFilters(report),
		concurrencyOnlyOptions(CONCURRENCY),
	];
}

/** The date part of an ISO date-time, for file names. */
const day = (iso: unknown) => (typeof iso === 'string' ? iso.slice(0, 10) : 'now');

/** The module of Get Document Changes or Get Field Changes. */
export function changesReport(report: QaReport) {
	const description = updateDisplayOptions(
		{ show: { resource: ['report'], operation: [OPERATIONS[report]] } },
		properties(report),
	);

	async function rowItems(
		ctx: IExecuteFunctions,
		client: VantageClient,
		plan: Extract<Plan, { output: 'items' }>,
		itemIndex: number,
	): Promise<ItemOutput[]> {
		const rows = await readQaReport(ctx, client, report, plan.query, itemIndex, async (body) => {
			const out: ItemOutput[] = [];
			let columns: ReportColumn[] | undefined;
			for await (const batch of csvRecords(body.chunks)) {
				for (const cells of batch) {
					if (!columns) {
						columns = reportColumns(cells);
						continue;
					}
					// Enough rows: the rest of the report is not downloaded.
					if (plan.limit !== undefined && out.length >= plan.limit) return out;
					out.push({ json: typedRecord(columns, cells) });
				}
			}
			return out;
		});
		if (rows.length === 0)
			await explainEmptyReport(ctx, client, plan.query.processSkillId, itemIndex);
		return rows;
	}

	async function csvFile(
		ctx: IExecuteFunctions,
		client: VantageClient,
		plan: Extract<Plan, { output: 'binary' }>,
		itemIndex: number,
	): Promise<ItemOutput> {
		const { query } = plan;
		const fileName = `${FILE_PREFIX[report]}-${day(query.startDate)}-to-${day(query.endDate)}.csv`;
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

	async function execute(
		this: IExecuteFunctions,
		items: INodeExecutionData[],
		client: VantageClient,
	): Promise<INodeExecutionData[]> {
		const concurrency = readRunConcurrency(this, CONCURRENCY, client);
		return await runPreparedPerItem(
			this,
			items,
			(itemIndex): Plan => {
				const query = readQaQuery(this, itemIndex, report);
				const output = requireOption(
					this,
					itemIndex,
					'Output',
					this.getNodeParameter('output', itemIndex),
					['items', 'binary'] as const,
				);
				return output === 'items'
					? { query, output, limit: readReturnLimit(this, itemIndex) }
					: { query, output, field: readOutputField(this, itemIndex) };
			},
			async (plan, itemIndex) =>
				plan.output === 'items'
					? await rowItems(this, client, plan, itemIndex)
					: await csvFile(this, client, plan, itemIndex),
			concurrency,
		);
	}

	return { description, execute };
}
