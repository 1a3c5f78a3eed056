import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { INT32_MAX } from '../../constants';
import { apiError } from '../../helpers/errors';
import { runPerItem } from '../../helpers/items';
import { requireInteger, requireOption, requirePathParameter } from '../../helpers/validation';
import { endpoints, type VantageClient } from '../../transport';
import { readOptions } from '../common';

const SWITCHER = ['Default', 'Yes', 'No'] as const;

const switcherOptions = [
	{ name: 'Default', value: 'Default', description: 'Use the skill’s setting' },
	{ name: 'No', value: 'No' },
	{ name: 'Yes', value: 'Yes' },
];

const properties: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0f8fad5b-d9cb-469f-a165-70867728950e',
		description: 'ID of the transaction to add the document to',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Auto Crop',
				name: 'autoCrop',
				type: 'options',
				options: switcherOptions,
				default: 'Default',
				description: 'Whether images imported into this document are cropped automatically',
			},
			{
				displayName: 'Auto Orientation',
				name: 'autoOrientation',
				type: 'options',
				options: switcherOptions,
				default: 'Default',
				description: 'Whether the page orientation of imported images is corrected automatically',
			},
			{
				displayName: 'Index',
				name: 'index',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description: 'Position of the document in the transaction; documents are ordered by it',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transactionDocument'], operation: ['add'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, items, async (itemIndex) => {
		const transactionId = requirePathParameter(
			this,
			itemIndex,
			'Transaction ID',
			this.getNodeParameter('transactionId', itemIndex),
		);
		const fields = readOptions(this, itemIndex, 'additionalFields');
		// Exactly the vendor's fields: anything not set is left out, not sent as a default.
		const body: IDataObject = {};
		if (fields.index !== undefined) {
			body.index = requireInteger(this, itemIndex, 'Index', fields.index, 0, INT32_MAX);
		}
		const imageProcessingOptions: IDataObject = {};
		if (fields.autoCrop !== undefined) {
			imageProcessingOptions.autoCrop = requireOption(
				this,
				itemIndex,
				'Auto Crop',
				fields.autoCrop,
				SWITCHER,
			);
		}
		if (fields.autoOrientation !== undefined) {
			imageProcessingOptions.autoOrientation = requireOption(
				this,
				itemIndex,
				'Auto Orientation',
				fields.autoOrientation,
				SWITCHER,
			);
		}
		if (Object.keys(imageProcessingOptions).length)
			body.imageProcessingOptions = imageProcessingOptions;

		const response = await client.request<IDataObject | undefined>({
			...endpoints.createTransactionDocument(transactionId),
			body,
			itemIndex,
			action: `adding a document to transaction ${transactionId}`,
			hints: {
				400: 'Only transactions of a Process skill accept more than one document; other skills allow one document per transaction.',
				403: 'The transaction may belong to another tenant.',
			},
		});
		const documentId = response?.documentId;
		if (typeof documentId !== 'string' || documentId === '') {
			throw apiError(
				this.getNode(),
				itemIndex,
				(response ?? {}) as JsonObject,
				'ABBYY Vantage answered without a document ID',
				{ description: 'The document may have been added: check the transaction in Vantage.' },
			);
		}
		return { json: { documentId, transactionId } };
	});
}
