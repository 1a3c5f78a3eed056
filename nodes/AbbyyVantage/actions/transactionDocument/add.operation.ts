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
import { runPreparedPerItem } from '../../helpers/items';
import { requireInteger } from '../../helpers/validation';
import { endpoints, type VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { readCollection } from '../../params/collections';
import { imageProcessingOptions, readImageProcessing } from '../transaction/imageProcessing';
import { readTransactionId, transactionIdProperty } from '../transaction/ids';
import { TRANSACTION_HINTS } from '../../vantage/transactions';

const properties: INodeProperties[] = [
	transactionIdProperty,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			...imageProcessingOptions,
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
	concurrencyOnlyOptions(),
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
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	// Every item is checked before the first document is created (see runPreparedPerItem).
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => {
			const transactionId = readTransactionId(this, itemIndex);
			const fields = readCollection(this, itemIndex, 'additionalFields');
			// Exactly the vendor's fields: anything not set is left out, not sent as a default.
			const body: IDataObject = {};
			if (fields.index !== undefined) {
				body.index = requireInteger(this, itemIndex, 'Index', fields.index, 0, INT32_MAX);
			}
			const imageProcessing = readImageProcessing(this, itemIndex, fields);
			if (imageProcessing) body.imageProcessingOptions = imageProcessing;
			return { transactionId, body };
		},
		async ({ transactionId, body }, itemIndex) => {
			const response = await client.request<IDataObject | undefined>({
				...endpoints.createTransactionDocument(transactionId),
				body,
				itemIndex,
				action: `adding a document to transaction ${transactionId}`,
				hints: {
					400: 'Only transactions of a Process skill accept more than one document; other skills allow one document per transaction.',
					403: TRANSACTION_HINTS[403],
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
		},
		concurrency,
		(output) =>
			`document ${String(output.json.documentId)} in transaction ${String(output.json.transactionId)}`,
	);
}
