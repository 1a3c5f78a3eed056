import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { readTransactionId, transactionIdProperty } from './shared';
import { Transactions } from './transactions';

const properties: INodeProperties[] = [transactionIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['start'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const transactions = new Transactions(this, client);
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => readTransactionId(this, itemIndex),
		async (transactionId, itemIndex) => {
			await transactions.start(transactionId, itemIndex);
			return { json: { transactionId, started: true } };
		},
	);
}
