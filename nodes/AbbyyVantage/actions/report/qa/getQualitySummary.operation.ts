import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem, type ItemOutput } from '../../../helpers/items';
import {
	documentColumns,
	DocumentsTally,
	documentTypeItem,
	fieldColumns,
	fieldItem,
	FieldsTally,
	inSummaryOrder,
	namesTypes,
	ownType,
	type DocumentType,
} from '../../../helpers/qualitySummary';
import { eachReportRow, findColumn } from '../../../helpers/reportRows';
import { requireOption } from '../../../helpers/validation';
import type { VantageClient } from '../../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../../params/concurrency';
import {
	IMAGE_FILTERS,
	PERIOD,
	PROCESS_SKILL,
	qaFilters,
	qaParameters,
	readQaQuery,
	type QaFilter,
} from './filters';
import { DOCUMENTS_REPORT, explainEmptyReport, FIELDS_REPORT, readQaReport } from './reports';

/**
 * Report → Get Quality Summary: for a period and a Process skill, per document type how many
 * documents went straight through (no Manual Review) and what Manual Review did to the others,
 * and per field its accuracy and how often it was corrected, not detected or located wrongly,
 * computed from the document changes and field changes reports as they stream in (every figure
 * defined in helpers/qualitySummary.ts); neither report is held in memory, only, when one report
 * names no document type, each document's type by id from the other.
 */
const CONCURRENCY = { max: 8, what: 'summaries' };

/** Both reports' query: the Process skill is required; what Manual Review did is counted, not filtered. */
const FILTERS: QaFilter[] = [...PERIOD, PROCESS_SKILL, ...IMAGE_FILTERS];

const SUMMARIZE = ['typesAndFields', 'types', 'fields'] as const;
type Summarize = (typeof SUMMARIZE)[number];

const properties: INodeProperties[] = [
	...qaParameters(FILTERS),
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
			'Each item has `level`: "total", "documentType" or "field". Straight-through: documents that did not go through Manual Review; reviewed ones are split into unchanged, corrected and type changed. Field accuracy as ABBYY defines it: correct ÷ (correct + recognition issue + located incorrectly + not detected), over every field instance (a value found for a field the document does not have is an error, a field rightly left empty is correct). Percentages are 0–100, e.g. for an IF node: straightThroughPercent < 85.',
	},
	qaFilters(FILTERS),
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

/** Each document's type by DocumentId, as one report names it, for the other report's rows. */
type TypesById = Map<string, DocumentType>;

/** A report that names no type, read up to its header only: its rows need the other report's. */
const UNTYPED = 'untyped';

interface DocumentPass {
	tally: DocumentsTally;
	processSkillName: string | null;
	/** Each document's type, when asked for (the fields report names none). */
	typeById?: TypesById;
}

/**
 * The documents report tallied. Without a type column of its own it takes each document's type
 * from `typeById` (the fields report's); with `stopIfUntyped` it stops after its header instead,
 * when the fields report could tell (both reports have DocumentId).
 */
async function documentsPass(
	ctx: IExecuteFunctions,
	client: VantageClient,
	plan: Plan,
	itemIndex: number,
	options: { collectTypes?: boolean; typeById?: TypesById; stopIfUntyped?: boolean },
): Promise<DocumentPass | typeof UNTYPED> {
	return await readQaReport(ctx, client, DOCUMENTS_REPORT, plan.query, itemIndex, async (body) => {
		const pass: DocumentPass = {
			tally: new DocumentsTally(documentColumns([])),
			processSkillName: null,
			...(options.collectTypes ? { typeById: new Map() } : {}),
		};
		let skillName: string | undefined;
		let untyped = false;
		await eachReportRow(
			body.chunks,
			(header) => {
				pass.tally = new DocumentsTally(documentColumns(header));
				skillName = findColumn(header, ['ProcessSkillName']);
				const { columns } = pass.tally;
				untyped = !!options.stopIfUntyped && !namesTypes(columns) && !!columns.documentId;
				return !untyped;
			},
			(row) => {
				const { columns } = pass.tally;
				const id = columns.documentId ? String(row[columns.documentId]) : '';
				pass.tally.add(row, options.typeById?.get(id));
				if (skillName && pass.processSkillName === null && typeof row[skillName] === 'string') {
					pass.processSkillName = row[skillName] as string;
				}
				const type = pass.typeById && ownType(row, columns);
				if (type && columns.documentId) pass.typeById?.set(id, type);
			},
		);
		return untyped ? UNTYPED : pass;
	});
}

interface FieldPass {
	tally: FieldsTally;
	/** Each document's type, when asked for (the documents report names none). */
	typeById?: TypesById;
}

/** The fields report tallied; as documentsPass, the other way round. */
async function fieldsPass(
	ctx: IExecuteFunctions,
	client: VantageClient,
	plan: Plan,
	itemIndex: number,
	options: { collectTypes?: boolean; typeById?: TypesById; stopIfUntyped?: boolean },
): Promise<FieldPass | typeof UNTYPED> {
	return await readQaReport(ctx, client, FIELDS_REPORT, plan.query, itemIndex, async (body) => {
		const pass: FieldPass = {
			tally: new FieldsTally(fieldColumns([])),
			...(options.collectTypes ? { typeById: new Map() } : {}),
		};
		let untyped = false;
		await eachReportRow(
			body.chunks,
			(header) => {
				pass.tally = new FieldsTally(fieldColumns(header));
				const { columns } = pass.tally;
				untyped = !!options.stopIfUntyped && !namesTypes(columns) && !!columns.documentId;
				return !untyped;
			},
			(row) => {
				const { columns } = pass.tally;
				const id = columns.documentId ? String(row[columns.documentId]) : '';
				pass.tally.add(row, options.typeById?.get(id));
				const type = pass.typeById && ownType(row, columns);
				if (type && columns.documentId && !pass.typeById?.has(id)) pass.typeById?.set(id, type);
			},
		);
		return untyped ? UNTYPED : pass;
	});
}

/**
 * Both reports as the summary needs them. A report without a type column takes each document's
 * type from the other report (by DocumentId): it is read up to its header, then again once the
 * other report's types are known. Without a type in either report, rows count under "(unknown)".
 */
async function summarize(
	ctx: IExecuteFunctions,
	client: VantageClient,
	plan: Plan,
	itemIndex: number,
): Promise<{ documents?: DocumentPass; fields?: FieldPass }> {
	const wantTypes = plan.summarize !== 'fields';
	const wantFields = plan.summarize !== 'types';
	let documents = wantTypes
		? await documentsPass(ctx, client, plan, itemIndex, { stopIfUntyped: true })
		: undefined;
	let fields: FieldPass | typeof UNTYPED | undefined;
	if (wantFields || documents === UNTYPED) {
		// The documents report named no type: the fields report's Document skill may.
		const typesForDocuments = documents === UNTYPED;
		fields = await fieldsPass(ctx, client, plan, itemIndex, {
			collectTypes: typesForDocuments,
			stopIfUntyped: !typesForDocuments,
		});
		if (fields === UNTYPED) {
			// The fields report names no type: read each document's type, then the fields again.
			const typed = await documentsPass(ctx, client, plan, itemIndex, {
				collectTypes: true,
				stopIfUntyped: true,
			});
			if (typed !== UNTYPED && wantTypes) documents = typed;
			fields = await fieldsPass(ctx, client, plan, itemIndex, {
				typeById: typed === UNTYPED ? undefined : typed.typeById,
			});
		}
	}
	if (documents === UNTYPED) {
		const typeById = fields === UNTYPED ? undefined : fields?.typeById;
		documents = await documentsPass(ctx, client, plan, itemIndex, { typeById });
	}
	return {
		documents: documents === UNTYPED ? undefined : documents,
		fields: wantFields && fields !== UNTYPED ? fields : undefined,
	};
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
			query: readQaQuery(this, itemIndex, FILTERS),
			summarize: requireOption(
				this,
				itemIndex,
				'Summarize',
				this.getNodeParameter('summarize', itemIndex),
				SUMMARIZE,
			),
		}),
		async (plan, itemIndex) => {
			const { documents, fields } = await summarize(this, client, plan, itemIndex);
			const counted =
				(documents?.tally.total().documents ?? 0) + (fields?.tally.fieldTallies().length ?? 0);
			if (counted === 0)
				await explainEmptyReport(this, client, plan.query.processSkillId, itemIndex);
			return summaryItems(plan, documents, fields?.tally);
		},
		concurrency,
	);
}

function summaryItems(
	plan: Plan,
	documents: DocumentPass | undefined,
	fields: FieldsTally | undefined,
): ItemOutput[] {
	const { query } = plan;
	const base: IDataObject = {
		processSkillId: query.processSkillId,
		processSkillName: documents?.processSkillName ?? null,
		startDate: query.startDate,
		endDate: query.endDate ?? null,
	};
	const ordered = inSummaryOrder(
		documents?.tally.documentTypes() ?? [],
		fields?.fieldTallies() ?? [],
	);
	const out: ItemOutput[] = [];
	if (documents && plan.summarize !== 'fields') {
		const { tally } = documents;
		out.push({
			json: {
				level: 'total',
				...base,
				...documentTypeItem(
					{ ...tally.total(), documentType: null, documentSkillId: null },
					tally.columns,
				),
			},
		});
		for (const type of ordered.types) {
			out.push({
				json: { level: 'documentType', ...base, ...documentTypeItem(type, tally.columns) },
			});
		}
	}
	if (fields) {
		for (const field of ordered.fields) {
			out.push({ json: { level: 'field', ...base, ...fieldItem(field, fields.columns) } });
		}
	}
	return out;
}
