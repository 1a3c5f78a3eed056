import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { choiceOptions, choiceValues } from '../helpers/choices';
import { DOCUMENT_TEXT_MAX_CHARS } from '../helpers/documentText';
import type { NodeContext } from '../helpers/errors';
import { optionalText, requireOption } from '../helpers/validation';
import { RESULT_TYPES, type ResultOptions } from '../vantage/results';
import { needsReviewProperty, readNeedsReview } from './needsReview';

const DOWNLOAD_CHOICES = [
	{ name: 'All', value: 'all', description: 'Every result file the skill exports' },
	{ name: 'Chosen Types', value: 'selected', description: 'The types chosen below' },
	{ name: 'JSON Only', value: 'json', description: 'The full result JSON' },
	{ name: 'None', value: 'none', description: 'Only the extracted fields as JSON' },
] as const;

const INCLUDE_DOCUMENT_TEXT = 'includeDocumentText';

const DOCUMENT_TEXT_DESCRIPTION = `Whether to add "text": each document’s plain text, from its Text result file, for LLM steps. One more download per document; at most ${DOCUMENT_TEXT_MAX_CHARS.toLocaleString('en-US')} characters, a longer text is cut and says so.`;

/** The result options of Process Document and Get Results, for an options collection. */
export const resultOptions: INodeProperties[] = [
	{
		displayName: 'Delete After Reading',
		name: 'deleteAfterReading',
		type: 'boolean',
		default: false,
		description:
			'Whether to delete the transaction in Vantage once its results are in the output (otherwise Vantage keeps it for its retention period, two weeks by default)',
	},
	{
		displayName: 'Download Result Files',
		name: 'downloadResultFiles',
		type: 'options',
		options: choiceOptions(DOWNLOAD_CHOICES),
		default: 'none',
		description:
			'Result files to attach as binary fields named after their type, e.g. "pdf" or "xlsx"',
	},
	{
		displayName: 'Include Document Text',
		name: INCLUDE_DOCUMENT_TEXT,
		type: 'boolean',
		default: false,
		description: DOCUMENT_TEXT_DESCRIPTION,
	},
	{
		displayName: 'Include Field Details',
		name: 'includeFieldDetails',
		type: 'boolean',
		default: false,
		description:
			'Whether to add "fieldDetails": per value its confidence, the raw text as read and whether it needs or had verification',
	},
	{
		displayName: 'Result File Types',
		name: 'resultFileTypes',
		type: 'multiOptions',
		options: Object.keys(RESULT_TYPES)
			.sort()
			.map((type) => ({ name: type, value: type })),
		default: ['Pdf'],
		displayOptions: { show: { downloadResultFiles: ['selected'] } },
	},
	{
		displayName: 'Split Table Into Items',
		name: 'splitTable',
		type: 'string',
		default: '',
		placeholder: 'e.g. LineItems',
		description:
			'Name of a table field: output one item per row, with the document’s other fields repeated in each',
	},
];

export function readResultOptions(
	ctx: NodeContext,
	itemIndex: number | undefined,
	options: IDataObject,
): ResultOptions {
	const download = requireOption(
		ctx,
		itemIndex,
		'Download Result Files',
		options.downloadResultFiles ?? 'none',
		choiceValues(DOWNLOAD_CHOICES),
	);
	const chosen = Array.isArray(options.resultFileTypes)
		? (options.resultFileTypes as unknown[])
		: ['Pdf'];
	return {
		includeFieldDetails: options.includeFieldDetails === true,
		splitTable: optionalText(ctx, itemIndex, 'Split Table Into Items', options.splitTable),
		downloadTypes:
			download === 'all'
				? 'all'
				: download === 'json'
					? ['Json']
					: download === 'selected'
						? chosen.map((type) =>
								requireOption(ctx, itemIndex, 'Result File Types', type, Object.keys(RESULT_TYPES)),
							)
						: [],
		deleteAfterReading: options.deleteAfterReading === true,
		documentText: options[INCLUDE_DOCUMENT_TEXT] === true,
	};
}

/** What a trigger's parameters give: its node context and parameters read without an item. */
export type TriggerContext = NodeContext & {
	getNodeParameter(name: string, fallback?: unknown): unknown;
};

/**
 * The result options of a trigger's Include Results (both triggers; the items are built in
 * ../vantage/transactionEvents.ts): shown when Include Results is on, beside the event's own
 * `displayOptions`.
 */
export function triggerResultProperties(displayOptions: {
	show: Record<string, Array<string | boolean>>;
}): INodeProperties[] {
	const show = { ...displayOptions.show, includeResults: [true] };
	return [
		{
			displayName: 'Include Document Text',
			name: INCLUDE_DOCUMENT_TEXT,
			type: 'boolean',
			default: false,
			description: DOCUMENT_TEXT_DESCRIPTION,
			displayOptions: { show },
		},
		needsReviewProperty({ secondOutput: false, displayOptions: { show } }),
	];
}

/**
 * A trigger's Include Results, shaped as Get Results shapes results with its default options,
 * plus Include Document Text and Needs Review (marking only: a trigger has one output).
 */
export function readTriggerResultOptions(ctx: TriggerContext): ResultOptions {
	return {
		...readResultOptions(ctx, undefined, {}),
		documentText: ctx.getNodeParameter(INCLUDE_DOCUMENT_TEXT, false) === true,
		review: readNeedsReview(ctx, undefined, ctx.getNodeParameter('needsReview', {}))?.rules,
	};
}
