import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { csvRecords } from '../../helpers/csv';
import { runPreparedPerItem, type ItemOutput } from '../../helpers/items';
import {
	documentColumns,
	documentTypeItem,
	fieldColumns,
	fieldItem,
	QualityTally,
	UNKNOWN_TYPE,
} from '../../helpers/qualitySummary';
import {
	findColumn,
	reportColumns,
	typedRecord,
	type ReportColumn,
} from '../../helpers/reportRows';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import type { StreamedBody } from '../../transport/stream';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../params/concurrency';
import {
	explainEmptyReport,
	processSkillProperty,
	qaFilters,
	readQaQuery,
	readQaReport,
	startDateProperty,
} from './qaReports';

/**
 * Report → Get Quality Summary: for a period and a Process skill, the straight-through rate per
 * document type and how often each field was corrected, not detected or located wrongly in
 * Manual Review, computed from the document changes and field changes reports as they stream in
 * (see helpers/qualitySummary.ts); neither report is held in memory.
 */
const CONCURRENCY = { max: 8, what: 'summaries' };

const SUMMARIZE = ['typesAndFields', 'types', 'fields'] as const;
type Summarize = (typeof SUMMARIZE)[number];

const properties: INodeProperties[] = [
	processSkillProperty,
	startDateProperty,
	{
		displayName: 'Summarize',
		name: 'summarize',
		type: 'options',
		options: [
			{
				name: 'By Document Type and Field',
				value: 'typesAndFields',
				description: 'An item for all documents, one per document type, then one per field',
			},
			{
				name: 'By Document Type',
				value: 'types',
				description: 'An item for all documents and one per document type',
			},
			{
				name: 'By Field',
				value: 'fields',
				description: 'One item per field of each document type',
			},
		],
		default: 'typesAndFields',
		description:
			'Each item has `level`: "total", "documentType" or "field". Percentages are 0–100, e.g. for an IF node: straightThroughPercent < 85.',
	},
	qaFilters('summary'),
	concurrencyOnlyOptions(CONCURRENCY),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getQualitySummary'] } },
	properties,
);

interface Plan {
	query: IDataObject;
	summarize: Summarize;
}

/**
 * Header first, then each record as typed JSON, to `onRow`. `onHeader` returning false stops
 * reading (the rest is not downloaded); so does the end of the body.
 */
async function eachRow(
	body: StreamedBody,
	onHeader: (columns: ReportColumn[]) => boolean,
	onRow: (row: IDataObject) => void,
): Promise<void> {
	let columns: ReportColumn[] | undefined;
	for await (const batch of csvRecords(body.chunks)) {
		for (const cells of batch) {
			if (!columns) {
				columns = reportColumns(cells);
				if (!onHeader(columns)) return;
			} else onRow(typedRecord(columns, cells));
		}
	}
}

interface DocumentPass {
	tally: QualityTally;
	processSkillName: string | null;
	/** Each document's type, when asked for (the fields report names none). */
	typeById?: Map<string, string>;
}

async function documentsPass(
	ctx: IExecuteFunctions,
	client: VantageClient,
	plan: Plan,
	itemIndex: number,
	withTypes: boolean,
): Promise<DocumentPass> {
	return await readQaReport(ctx, client, 'documents', plan.query, itemIndex, async (body) => {
		const pass: DocumentPass = {
			tally: new QualityTally(),
			processSkillName: null,
			...(withTypes ? { typeById: new Map<string, string>() } : {}),
		};
		let columns = documentColumns([]);
		let skillName: string | undefined;
		await eachRow(
			body,
			(header) => {
				columns = documentColumns(header);
				skillName = findColumn(header, ['ProcessSkillName']);
				return true;
			},
			(row) => {
				pass.tally.addDocument(row, columns);
				if (skillName && pass.processSkillName === null && typeof row[skillName] === 'string') {
					pass.processSkillName = row[skillName] as string;
				}
				if (pass.typeById && columns.documentId) {
					const type = (columns.name && row[columns.name]) || (columns.id && row[columns.id]);
					if (typeof type === 'string' && type)
						pass.typeById.set(String(row[columns.documentId]), type);
				}
			},
		);
		return pass;
	});
}

/**
 * The fields tallied, or `needsTypes` when the fields report names no document type but the
 * documents report can tell (by document id): the caller reads those and asks again.
 */
async function fieldsPass(
	ctx: IExecuteFunctions,
	client: VantageClient,
	plan: Plan,
	itemIndex: number,
	typeById: Map<string, string> | undefined,
): Promise<QualityTally | 'needsTypes'> {
	return await readQaReport(ctx, client, 'fields', plan.query, itemIndex, async (body) => {
		const tally = new QualityTally();
		let columns = fieldColumns([]);
		let needsTypes = false;
		await eachRow(
			body,
			(header) => {
				columns = fieldColumns(header);
				needsTypes = !columns.name && !columns.id && !typeById && !!columns.documentId;
				return !needsTypes;
			},
			(row) => {
				const id = columns.documentId ? String(row[columns.documentId]) : '';
				tally.addField(row, columns, typeById?.get(id));
			},
		);
		return needsTypes ? 'needsTypes' : tally;
	});
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex): Plan => ({
			query: readQaQuery(this, itemIndex, 'summary'),
			summarize: requireOption(
				this,
				itemIndex,
				'Summarize',
				this.getNodeParameter('summarize', itemIndex),
				SUMMARIZE,
			),
		}),
		async (plan, itemIndex) => {
			const wantTypes = plan.summarize !== 'fields';
			const wantFields = plan.summarize !== 'types';
			let documents = wantTypes
				? await documentsPass(this, client, plan, itemIndex, false)
				: undefined;
			let fields: QualityTally | 'needsTypes' | undefined;
			if (wantFields) {
				fields = await fieldsPass(this, client, plan, itemIndex, undefined);
				if (fields === 'needsTypes') {
					// The fields report names no type: read each document's type, then the fields again.
					documents = await documentsPass(this, client, plan, itemIndex, true);
					fields = await fieldsPass(this, client, plan, itemIndex, documents.typeById);
				}
			}
			if (fields === 'needsTypes') fields = undefined;
			const counted =
				(documents?.tally.total().documents ?? 0) + (fields?.fieldTallies().length ?? 0);
			if (counted === 0)
				await explainEmptyReport(this, client, plan.query.processSkillId, itemIndex);
			return summaryItems(plan, documents, fields);
		},
		concurrency,
	);
}

function summaryItems(
	plan: Plan,
	documents: DocumentPass | undefined,
	fields: QualityTally | undefined,
): ItemOutput[] {
	const { query } = plan;
	const base: IDataObject = {
		processSkillId: query.processSkillId,
		processSkillName: documents?.processSkillName ?? null,
		startDate: query.startDate,
		endDate: query.endDate ?? null,
	};
	const out: ItemOutput[] = [];
	if (documents && plan.summarize !== 'fields') {
		const { tally } = documents;
		out.push({
			json: {
				level: 'total',
				...base,
				...documentTypeItem({ ...tally.total(), documentType: null, documentSkillId: null }),
			},
		});
		for (const type of tally.documentTypes()) {
			out.push({ json: { level: 'documentType', ...base, ...documentTypeItem(type) } });
		}
	}
	if (fields) {
		// Fields in the order of their document types (most documents first) when those are known.
		const order = new Map(
			(documents?.tally.documentTypes() ?? []).map((t, i) => [t.documentType, i]),
		);
		const rank = (type: string) =>
			order.get(type) ?? (type === UNKNOWN_TYPE ? Infinity : order.size);
		const list = fields
			.fieldTallies()
			.map((f, i) => ({ f, i }))
			.sort((a, b) => rank(a.f.documentType) - rank(b.f.documentType) || a.i - b.i);
		for (const { f } of list) out.push({ json: { level: 'field', ...base, ...fieldItem(f) } });
	}
	return out;
}
