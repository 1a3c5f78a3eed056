import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem } from '../../helpers/items';
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
	{ show: { resource: ['transaction'], operation: ['start'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	const transactions = new Transactions(this, client);
	// Every item is checked before the first transaction is started (see runPreparedPerItem).
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => readTransactionId(this, itemIndex),
		async (transactionId, itemIndex) => {
			await transactions.start(transactionId, itemIndex);
			return { json: { transactionId, started: true } };
		},
		concurrency,
		(output) => `started transaction ${String(output.json.transactionId)}`,
	);
}
