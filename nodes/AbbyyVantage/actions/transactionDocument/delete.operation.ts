import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import { endpoints, type VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { readTransactionId, transactionIdProperty } from '../transaction/ids';
import { TRANSACTION_HINTS } from '../../vantage/transactions';
import { documentIdProperty, readDocumentId } from './document';

const properties: INodeProperties[] = [
	transactionIdProperty,
	documentIdProperty,
	concurrencyOnlyOptions(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transactionDocument'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const transactionId = readTransactionId(this, itemIndex);
			const documentId = readDocumentId(this, itemIndex);
			await client.request({
				...endpoints.deleteTransactionDocument(transactionId, documentId),
				ignoreBody: true,
				itemIndex,
				action: `deleting document ${documentId} of transaction ${transactionId}`,
				hints: {
					...TRANSACTION_HINTS,
					400: 'Documents can be deleted only before the transaction starts.',
				},
			});
			return { json: { transactionId, documentId, deleted: true } };
		},
		concurrency,
	);
}
