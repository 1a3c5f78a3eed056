import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { choiceOptions, choiceValues } from '../helpers/choices';
import type { NodeContext } from '../helpers/errors';
import { optionalText, requireOption } from '../helpers/validation';
import { RESULT_TYPES, type ResultOptions } from '../vantage/results';

const DOWNLOAD_CHOICES = [
	{ name: 'All', value: 'all', description: 'Every result file the skill exports' },
	{ name: 'Chosen Types', value: 'selected', description: 'The types chosen below' },
	{ name: 'JSON Only', value: 'json', description: 'The full result JSON' },
	{ name: 'None', value: 'none', description: 'Only the extracted fields as JSON' },
] as const;

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
	};
}
