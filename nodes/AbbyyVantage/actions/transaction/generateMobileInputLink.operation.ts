import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem } from '../../helpers/items';
import { endpoints, type VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { readTransactionId, transactionIdProperty } from './ids';
import { TRANSACTION_HINTS } from '../../vantage/transactions';

const properties: INodeProperties[] = [transactionIdProperty, concurrencyOnlyOptions()];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['generateMobileInputLink'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	// Each call issues a new link: every item is checked before the first one is asked for.
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => readTransactionId(this, itemIndex),
		async (transactionId, itemIndex) => {
			const response = await client.request<IDataObject | undefined>({
				...endpoints.generateMobileInputLink(transactionId),
				itemIndex,
				action: `generating a mobile input link for transaction ${transactionId}`,
				hints: {
					...TRANSACTION_HINTS,
					400: 'Only a transaction that has not been started takes a mobile input link.',
				},
			});
			return { json: { transactionId, mobileInputLink: response?.mobileInputLink ?? null } };
		},
		concurrency,
		(output) => `a mobile input link for transaction ${String(output.json.transactionId)}`,
	);
}
