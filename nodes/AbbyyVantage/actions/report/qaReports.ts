import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
	NodeOperationError,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CsvFormatError } from '../../helpers/csv';
import { checkDateOrder, optionalUtcDateTime, toUtcDateTime } from '../../helpers/dates';
import { invalid, operationError } from '../../helpers/errors';
import {
	describeValue,
	isBlank,
	locatorValue,
	optionalText,
	requireText,
} from '../../helpers/validation';
import { endpoints, type VantageClient } from '../../transport';
import { readStreamed, type StreamedBody } from '../../transport/stream';
import { sortedOptions } from '../../params/options';
import { skillFilterProperty, skillProperty } from '../../params/skill';
import { REPORT_ACCESS_HINTS } from '../../vantage/exports';

/**
 * The QA reports of the Analytics Reporting Warehouse (Reporting API v2): GetDocumentsAsCsv, one
 * row per document of a Process skill's transactions, and GetFieldsAsCsv, one row per extracted
 * field. Both are CSV with a header row, filtered by the query: `startDate` (required),
 * `endDate`, `processSkillId` (required for fields), `documentSkillId` (fields only), image
 * type, colority and source, and two "changed in Manual Review" switches. Values as
 * docs.abbyy.com (analytics reporting) lists them.
 */
export type QaReport = 'documents' | 'fields';
/** Which parameters an operation shows: a report's, or the quality summary's (both reports). */
export type QaUse = QaReport | 'summary';

const IMAGE_TYPES = [
	'Unknown',
	'Receipt',
	'A4',
	'BusinessCard',
	'Book',
	'Id',
	'PassportRus',
	'DiscountCard',
	'BankCard',
	'NotDocument',
	'PassportPage',
];
const IMAGE_COLORITIES = ['BlackWhite', 'Gray', 'Color'];
const IMAGE_SOURCES = ['Unknown', 'Photo', 'Scan', 'Synthetic', 'Screenshot', 'Pdf'];

/** "BusinessCard" → "Business Card", "A4" stays. */
const spaced = (value: string) => value.replace(/([a-z])([A-Z])/g, '$1 $2');

const NAMES: Record<string, string> = { BlackWhite: 'Black and White', Id: 'ID', Pdf: 'PDF' };

function choiceOptions(values: string[]): INodePropertyOptions[] {
	return [
		{ name: 'Any', value: '' },
		...values.map((value) => ({ name: NAMES[value] ?? spaced(value), value })),
	];
}

const IMAGE_FILTERS = [
	{
		displayName: 'Image Colority',
		name: 'imageColority',
		values: IMAGE_COLORITIES,
		description: 'Only documents whose first page is in color, gray or black and white',
	},
	{
		displayName: 'Image Source',
		name: 'imageSource',
		values: IMAGE_SOURCES,
		description: 'Only documents from this kind of source (scan, photo, PDF …)',
	},
	{
		displayName: 'Image Type',
		name: 'imageType',
		values: IMAGE_TYPES,
		description: 'Only documents whose image is of this type (receipt, A4 page, business card …)',
	},
];

const SWITCHES = [
	{
		displayName: 'Corrected in Manual Review',
		name: 'wasCorrectedInManualReview',
		yes: 'Only documents whose fields were corrected in Manual Review',
		no: 'Only documents whose fields were not corrected in Manual Review',
	},
	{
		displayName: 'Document Type Changed in Manual Review',
		name: 'wasDocumentTypeChangedInManualReview',
		yes: 'Only documents whose document type was changed in Manual Review',
		no: 'Only documents whose document type was not changed in Manual Review',
	},
];

const REPORT_NAMES: Record<QaReport, string> = {
	documents: 'document changes report',
	fields: 'field changes report',
};

export const processSkillProperty: INodeProperties = {
	...skillProperty,
	displayName: 'Process Skill',
	name: 'processSkillId',
	description: 'The Process skill whose transactions the report covers',
};

export const startDateProperty: INodeProperties = {
	displayName: 'Start Date',
	name: 'startDate',
	type: 'dateTime',
	required: true,
	default: '',
	description:
		'Include transactions completed at or after this time (a date alone is midnight in the workflow’s time zone). Vantage keeps 12 months of reporting data.',
};

/** The Filters collection of an operation: End Date, the skills, image filters, the switches. */
export function qaFilters(use: QaUse): INodeProperties {
	const options: INodeProperties[] = [
		{
			displayName: 'End Date',
			name: 'endDate',
			type: 'dateTime',
			default: '',
			description: 'Include transactions completed up to this time. Empty means now.',
		},
		...IMAGE_FILTERS.map(
			({ displayName, name, values, description }): INodeProperties => ({
				displayName,
				name,
				type: 'options',
				options: choiceOptions(values),
				default: '',
				description,
			}),
		),
	];
	if (use === 'documents') {
		options.push({
			...skillFilterProperty(
				'processSkillId',
				'Only documents of this Process skill’s transactions',
			),
			displayName: 'Process Skill',
		});
	}
	if (use === 'fields') {
		options.push({
			...skillFilterProperty(
				'documentSkillId',
				'Only fields extracted by this Document skill (a document type of the Process skill)',
			),
			displayName: 'Document Skill',
		});
	}
	if (use !== 'summary') {
		for (const { displayName, name, yes, no } of SWITCHES) {
			options.push({
				displayName,
				name,
				type: 'options',
				options: [
					{ name: 'Any', value: '' },
					{ name: 'Yes', value: 'true', description: yes },
					{ name: 'No', value: 'false', description: no },
				],
				default: '',
			});
		}
	}
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: sortedOptions(options),
	};
}

/** One of `allowed`, matched regardless of case and given in Vantage's spelling; empty: any. */
function readChoice(
	ctx: IExecuteFunctions,
	itemIndex: number,
	displayName: string,
	value: unknown,
	allowed: string[],
): string | undefined {
	if (isBlank(value)) return undefined;
	const found =
		typeof value === 'string'
			? allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase())
			: undefined;
	if (found) return found;
	throw invalid(
		ctx,
		itemIndex,
		`${displayName} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, not ${describeValue(value)}`,
	);
}

/** A "changed in Manual Review" switch: "true", "false", or undefined for any. */
function readSwitch(
	ctx: IExecuteFunctions,
	itemIndex: number,
	displayName: string,
	value: unknown,
): string | undefined {
	if (isBlank(value)) return undefined;
	if (value === true || value === 'true') return 'true';
	if (value === false || value === 'false') return 'false';
	throw invalid(
		ctx,
		itemIndex,
		`${displayName} must be "true", "false" or empty, not ${describeValue(value)}`,
	);
}

/**
 * The query of one item's report request, checked before any request: dates as ISO 8601 UTC
 * (read in the workflow's time zone), End Date after Start Date, skills as one id each.
 */
export function readQaQuery(ctx: IExecuteFunctions, itemIndex: number, use: QaUse): IDataObject {
	const raw = ctx.getNodeParameter('filters', itemIndex, {});
	const filters = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as IDataObject;
	const startDate = toUtcDateTime(
		ctx,
		itemIndex,
		'Start Date',
		ctx.getNodeParameter('startDate', itemIndex),
	);
	const endDate = optionalUtcDateTime(ctx, itemIndex, 'End Date', filters.endDate);
	checkDateOrder(
		ctx,
		itemIndex,
		{ displayName: 'Start Date', value: startDate },
		{ displayName: 'End Date', value: endDate },
		{ allowEqual: true },
	);
	const query: IDataObject = { startDate };
	if (endDate) query.endDate = endDate;
	const processSkillId =
		use === 'documents'
			? optionalText(ctx, itemIndex, 'Process Skill', locatorValue(filters.processSkillId))
			: requireText(
					ctx,
					itemIndex,
					'Process Skill',
					ctx.getNodeParameter('processSkillId', itemIndex, '', { extractValue: true }),
				);
	if (processSkillId) query.processSkillId = processSkillId;
	if (use === 'fields') {
		const documentSkillId = optionalText(
			ctx,
			itemIndex,
			'Document Skill',
			locatorValue(filters.documentSkillId),
		);
		if (documentSkillId) query.documentSkillId = documentSkillId;
	}
	for (const { displayName, name, values } of IMAGE_FILTERS) {
		const value = readChoice(ctx, itemIndex, displayName, filters[name], values);
		if (value) query[name] = value;
	}
	if (use !== 'summary') {
		for (const { displayName, name } of SWITCHES) {
			const value = readSwitch(ctx, itemIndex, displayName, filters[name]);
			if (value) query[name] = value;
		}
	}
	return query;
}

/**
 * Read one report as it streams in (see transport/stream.ts), sent again if it breaks off. A body
 * that is not a whole CSV report (helpers/csv.ts: a row of another width, a quote never closed,
 * bytes that are not text) fails the item, naming the line: nothing of it is output, neither rows
 * nor a file nor figures.
 */
export async function readQaReport<T>(
	ctx: IExecuteFunctions,
	client: VantageClient,
	report: QaReport,
	query: IDataObject,
	itemIndex: number,
	consume: (body: StreamedBody) => Promise<T>,
): Promise<T> {
	try {
		return await readStreamed(
			ctx.getNode(),
			client,
			{
				...(report === 'documents' ? endpoints.getDocumentsAsCsv() : endpoints.getFieldsAsCsv()),
				qs: query,
				itemIndex,
				action: `downloading the ${REPORT_NAMES[report]}`,
				hints: REPORT_ACCESS_HINTS,
			},
			consume,
		);
	} catch (error) {
		// Anything else is the transport's NodeApiError or n8n's own error already.
		throw error instanceof CsvFormatError ? incompleteReport(ctx, report, itemIndex, error) : error;
	}
}

function incompleteReport(
	ctx: IExecuteFunctions,
	report: QaReport,
	itemIndex: number,
	error: CsvFormatError,
): NodeOperationError {
	return operationError(
		ctx.getNode(),
		itemIndex,
		`The ${REPORT_NAMES[report]} was not complete: ${error.message}`,
		{
			description:
				'What came from ABBYY Vantage is not a whole CSV report (a proxy or gateway on the way may have cut it or put an error page into it), so nothing of it was output. Run the node again; if it fails again, check the proxy or gateway between n8n and Vantage, or ask your Vantage administrator.',
			output: { report: REPORT_NAMES[report], line: error.line },
		},
	);
}

/**
 * A report without rows for a Process skill: say so when the skill does not exist (a mistyped
 * ID) or is not a Process skill, which explains the empty report. Only then, since a skill
 * deleted since keeps its reporting data. Anything else the check meets leaves the empty report
 * as it is.
 */
export async function explainEmptyReport(
	ctx: IExecuteFunctions,
	client: VantageClient,
	skillId: unknown,
	itemIndex: number,
): Promise<void> {
	if (typeof skillId !== 'string' || skillId === '') return;
	let skill: IDataObject | undefined;
	try {
		skill = await client.request<IDataObject | undefined>({
			...endpoints.getSkillInfo(skillId),
			itemIndex,
			action: `checking the Process skill "${skillId}" of an empty report`,
		});
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '404') {
			throw operationError(
				ctx.getNode(),
				itemIndex,
				`Process Skill "${skillId}" was not found, and the report has no rows for it`,
				{
					description:
						'Pick the Process skill from the list, or check its ID. Vantage finds only published skills.',
					output: { processSkillId: skillId, rows: 0 },
				},
			);
		}
		return;
	}
	const type = skill?.type;
	if (typeof type === 'string' && type !== 'Process') {
		throw operationError(
			ctx.getNode(),
			itemIndex,
			`Skill "${skillId}" is a ${type} skill: the QA reports cover the transactions of Process skills`,
			{
				description:
					'Choose the Process skill that runs your documents; its Document skills are its document types.',
				output: { processSkillId: skillId, rows: 0 },
			},
		);
	}
}
