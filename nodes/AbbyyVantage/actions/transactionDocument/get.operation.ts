import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { readTransactionId, transactionIdProperty } from '../transaction/ids';
import { documentIdProperty, readDocument, readDocumentId } from './document';

const properties: INodeProperties[] = [
	transactionIdProperty,
	documentIdProperty,
	concurrencyOnlyOptions(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transactionDocument'], operation: ['get'] } },
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
			const document = await readDocument(client, transactionId, documentId, itemIndex);
			return { json: { transactionId, documentId, ...document } };
		},
		concurrency,
	);
}
