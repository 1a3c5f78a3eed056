import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem } from '../../helpers/items';
import { endpoints, type VantageClient } from '../../transport';
import { readTransactionId, TRANSACTION_HINTS, transactionIdProperty } from './shared';

const properties: INodeProperties[] = [transactionIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['generateMobileInputLink'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
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
	);
}
