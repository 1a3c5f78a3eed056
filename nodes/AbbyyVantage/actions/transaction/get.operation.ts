import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { readTransactionId, transactionIdProperty } from './ids';
import { Transactions } from '../../vantage/transactions';

const properties: INodeProperties[] = [transactionIdProperty, concurrencyOnlyOptions()];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	const transactions = new Transactions(this, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const info = await transactions.get(readTransactionId(this, itemIndex), itemIndex);
			return { json: { transactionId: info.id, ...info } };
		},
		concurrency,
	);
}
