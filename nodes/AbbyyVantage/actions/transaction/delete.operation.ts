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

const properties: INodeProperties[] = [
	transactionIdProperty,
	{
		displayName:
			'Vantage deletes asynchronously: the transaction may stay readable for a moment. This cannot be undone.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	concurrencyOnlyOptions(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['delete'] } },
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
			const transactionId = readTransactionId(this, itemIndex);
			await transactions.delete(transactionId, itemIndex);
			return { json: { transactionId, deleted: true } };
		},
		concurrency,
	);
}
