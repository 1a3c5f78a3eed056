import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import { endpoints, type Endpoint, type VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { readTransactionId, transactionIdProperty } from './shared';
import { TRANSACTION_HINTS } from '../../vantage/transactions';

/**
 * Get Registration Parameters and Get Skill Parameters: one operation shape for both lists of
 * `{ key, value }` a transaction carries, output as the list and as a key → value object.
 */
export function parametersOperation(
	operation: string,
	endpoint: (transactionId: string) => Endpoint,
	what: string,
) {
	const properties: INodeProperties[] = [transactionIdProperty, concurrencyOnlyOptions()];
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['transaction'], operation: [operation] } },
			properties,
		),
		async execute(
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
					const list = await client.request<IDataObject[] | undefined>({
						...endpoint(transactionId),
						itemIndex,
						action: `reading the ${what} of transaction ${transactionId}`,
						hints: TRANSACTION_HINTS,
					});
					const parameters = Array.isArray(list) ? list : [];
					const values: IDataObject = {};
					for (const p of parameters) {
						if (typeof p.key === 'string') values[p.key] = p.value ?? null;
					}
					return { json: { transactionId, parameters, values } };
				},
				concurrency,
			);
		},
	};
}

export const registrationParameters = parametersOperation(
	'getRegistrationParameters',
	endpoints.getTransactionRegistrationParameters,
	'registration parameters',
);
export const skillParameters = parametersOperation(
	'getSkillParameters',
	endpoints.getTransactionSkillParameters,
	'skill parameters',
);
