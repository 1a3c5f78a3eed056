import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parseSelection, type FileSelection } from '../../helpers/binaryInput';
import { choiceOptions, choiceValues } from '../../helpers/choices';
import { requireOption, requireText } from '../../helpers/validation';
import { fileUrlProperties } from './fileUrl';

/**
 * Input Files, for Process Document and Add Files: every binary field of an item, the ones named,
 * or a File URL (./fileUrl.ts). ./documentFiles.ts reads the files it selects.
 */

const INPUT_FILES = [
	{
		name: 'All Binary Fields',
		value: 'all',
		description: 'Every file the input item carries, e.g. all e-mail attachments',
	},
	{
		name: 'Selected Binary Fields',
		value: 'selected',
		description: 'The binary fields named below',
	},
	{
		name: 'File URL',
		value: 'url',
		description:
			'A file at an http or https link, e.g. a presigned storage link, downloaded by the node',
	},
] as const;

/** Which binary fields of each input item to upload. */
export const inputFilesProperties: INodeProperties[] = [
	{
		displayName: 'Input Files',
		name: 'inputFiles',
		type: 'options',
		options: choiceOptions(INPUT_FILES),
		default: 'selected',
	},
	{
		displayName: 'Input Binary Fields',
		name: 'binaryPropertyNames',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data, attachment_0',
		hint: 'The names of the binary fields holding the files, separated by commas',
		displayOptions: { show: { inputFiles: ['selected'] } },
	},
	...fileUrlProperties,
];

/** File URL mode is read by ./documentFiles.ts, which calls this for binary fields. */
export function readFileSelection(ctx: IExecuteFunctions, itemIndex: number): FileSelection {
	const mode = requireOption(
		ctx,
		itemIndex,
		'Input Files',
		ctx.getNodeParameter('inputFiles', itemIndex, 'selected'),
		choiceValues(INPUT_FILES),
	);
	if (mode === 'all') return parseSelection(true, '');
	const names = requireText(
		ctx,
		itemIndex,
		'Input Binary Fields',
		ctx.getNodeParameter('binaryPropertyNames', itemIndex, 'data'),
	);
	return parseSelection(false, names);
}
