import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { DEFAULT_POLL_INTERVAL_SECONDS } from '../../constants';
import { parseSelection, type FileSelection } from '../../helpers/binaryInput';
import { keyValuesOption, readKeyValues } from '../../params/keyValues';
import { requireOption, requirePathParameter, requireText } from '../../helpers/validation';
import { choiceOptions, choiceValues } from '../../helpers/choices';
import { fileUrlProperties } from './fileUrl';
import { type PollDefaults } from '../../params/wait';
import type { OnManualReview, TransactionParameters } from '../../vantage/transactions';

export const transactionIdProperty: INodeProperties = {
	displayName: 'Transaction ID',
	name: 'transactionId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 0f8fad5b-d9cb-469f-a165-70867728950e',
	description: 'ID of the transaction, as returned by Create or Process Document',
};

export function readTransactionId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathParameter(
		ctx,
		itemIndex,
		'Transaction ID',
		ctx.getNodeParameter('transactionId', itemIndex),
	);
}

/** File ID: a result file or a source file of a transaction or document, as Get lists them. */
export function fileIdProperty(description: string): INodeProperties {
	return {
		displayName: 'File ID',
		name: 'fileId',
		type: 'string',
		required: true,
		default: '',
		description,
	};
}

export function readFileId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathParameter(ctx, itemIndex, 'File ID', ctx.getNodeParameter('fileId', itemIndex));
}

export function readDocumentId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'documentId',
): string {
	return requirePathParameter(ctx, itemIndex, 'Document ID', ctx.getNodeParameter(name, itemIndex));
}

// ------------------------------------------------------------------ input files

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

// ------------------------------------------------------------------ image processing

/** PreprocessingOperationSwitcher of the OpenAPI document, in its order. */
const SWITCHER_CHOICES = [
	{ name: 'Default', value: 'Default', description: 'Use the skill’s setting' },
	{ name: 'Yes', value: 'Yes' },
	{ name: 'No', value: 'No' },
] as const;
const SWITCHER = choiceValues(SWITCHER_CHOICES);
const switcherOptions = choiceOptions(SWITCHER_CHOICES);

/** Auto Crop and Auto Orientation, for an options collection. */
export const imageProcessingOptions: INodeProperties[] = [
	{
		displayName: 'Auto Crop',
		name: 'autoCrop',
		type: 'options',
		options: switcherOptions,
		default: 'Default',
		description: 'Whether images are cropped automatically on import',
	},
	{
		displayName: 'Auto Orientation',
		name: 'autoOrientation',
		type: 'options',
		options: switcherOptions,
		default: 'Default',
		description: 'Whether the page orientation of images is corrected automatically on import',
	},
];

/** `imageProcessingOptions` with only what was set, or undefined. */
export function readImageProcessing(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): IDataObject | undefined {
	const result: IDataObject = {};
	if (options.autoCrop !== undefined) {
		result.autoCrop = requireOption(ctx, itemIndex, 'Auto Crop', options.autoCrop, SWITCHER);
	}
	if (options.autoOrientation !== undefined) {
		result.autoOrientation = requireOption(
			ctx,
			itemIndex,
			'Auto Orientation',
			options.autoOrientation,
			SWITCHER,
		);
	}
	return Object.keys(result).length ? result : undefined;
}

// ------------------------------------------------------------------ parameters

export const registrationParametersOption = keyValuesOption(
	'Registration Parameters',
	'registrationParameters',
	'Up to 10 keys and values stored with the transaction, e.g. the source or an order number. Transactions can be found by them later.',
);

export const skillParametersOption = keyValuesOption(
	'Skill Parameters',
	'skillParameters',
	'Up to 10 keys and values the skill reads, as defined in the skill',
);

export function readTransactionParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): TransactionParameters {
	return {
		registrationParameters: readKeyValues(
			ctx,
			itemIndex,
			'Registration Parameters',
			options.registrationParameters,
		),
		skillParameters: readKeyValues(ctx, itemIndex, 'Skill Parameters', options.skillParameters),
	};
}

// ------------------------------------------------------------------ waiting

export const TRANSACTION_POLL: PollDefaults = {
	intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS,
	maxIntervalSeconds: 30,
	timeoutSeconds: 600,
	timeoutDescription:
		'Give up waiting after this long; the transaction keeps processing and can be picked up with Wait For Transaction',
};

const ON_MANUAL_REVIEW = [
	{
		name: 'Keep Waiting',
		value: 'wait',
		description: 'Wait until an operator has reviewed the transaction (within Wait Timeout)',
	},
	{
		name: 'Output the Link and Stop Waiting',
		value: 'output',
		description:
			'Output the manual review link and the transaction ID; pick the transaction up later with Wait For Transaction',
	},
] as const satisfies ReadonlyArray<INodePropertyOptions & { value: OnManualReview }>;

export const onManualReviewOption: INodeProperties = {
	displayName: 'On Manual Review',
	name: 'onManualReview',
	type: 'options',
	options: choiceOptions(ON_MANUAL_REVIEW),
	default: 'wait',
	description: 'What to do when a transaction waits for an operator in Manual Review',
};

export function readOnManualReview(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): OnManualReview {
	return requireOption(
		ctx,
		itemIndex,
		'On Manual Review',
		options.onManualReview ?? 'wait',
		choiceValues(ON_MANUAL_REVIEW),
	);
}
