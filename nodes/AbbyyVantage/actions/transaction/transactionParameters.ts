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
import { keyValuesOption, readKeyValues } from '../../params/keyValues';
import { readTransactionId, transactionIdProperty } from './ids';
import { TRANSACTION_HINTS, type TransactionParameters } from '../../vantage/transactions';

/**
 * A transaction's registration parameters and skill parameters, lists of `{ key, value }`: the
 * options Create and Process Document set them with, and the operation Get Registration
 * Parameters and Get Skill Parameters read them with.
 */

export const registrationParametersOption = keyValuesOption(
	'Registration Parameters',
	'registrationParameters',
	'Up to 10 keys and values stored with the transaction, e.g. the source or an order number. Transactions can be found by them later.',
);

export const skillParametersOption = keyValuesOption(
	'Skill Parameters',
	'skillParameters',
	'Up to 10 keys and values the skill reads, as defined in the skill',
);

export function readTransactionParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): TransactionParameters {
	return {
		registrationParameters: readKeyValues(
			ctx,
			itemIndex,
			'Registration Parameters',
			options.registrationParameters,
		),
		skillParameters: readKeyValues(ctx, itemIndex, 'Skill Parameters', options.skillParameters),
	};
}

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
