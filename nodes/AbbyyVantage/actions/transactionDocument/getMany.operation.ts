import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { readReturnLimit, returnAllProperties, upToLimit } from '../../params/getMany';
import { readTransactionId, transactionIdProperty } from '../transaction/ids';
import { listTransactionDocuments } from '../../vantage/transactions';

const properties: INodeProperties[] = [
	transactionIdProperty,
	...returnAllProperties(),
	concurrencyOnlyOptions(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transactionDocument'], operation: ['getMany'] } },
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
			const limit = readReturnLimit(this, itemIndex);
			const documents = await listTransactionDocuments(client, transactionId, itemIndex);
			return upToLimit(documents, limit).map((document) => ({
				json: { transactionId, ...document },
			}));
		},
		concurrency,
	);
}
