import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { concurrencyOption, ITEM_CONCURRENCY, readRunConcurrency } from '../../params/concurrency';
import { readCollection, sortedOptions } from '../../params/collections';
import { readSkillId, skillProperty } from '../../params/skill';
import {
	readTransactionParameters,
	registrationParametersOption,
	skillParametersOption,
} from './transactionParameters';
import { Transactions } from '../../vantage/transactions';

const properties: INodeProperties[] = [
	skillProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortedOptions([
			concurrencyOption(ITEM_CONCURRENCY),
			{
				displayName: 'Generate Mobile Input Link',
				name: 'generateMobileInputLink',
				type: 'boolean',
				default: false,
				description: 'Whether to return a one-time link for adding images from a phone',
			},
			registrationParametersOption,
			skillParametersOption,
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	const transactions = new Transactions(this, client);
	// Every item is checked before the first transaction is created (see runPreparedPerItem).
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => {
			const options = readCollection(this, itemIndex, 'options');
			return {
				skillId: readSkillId(this, itemIndex),
				parameters: readTransactionParameters(this, itemIndex, options),
				mobile: options.generateMobileInputLink === true,
			};
		},
		async (plan, itemIndex) => {
			const created = await transactions.create(
				plan.skillId,
				plan.parameters,
				itemIndex,
				plan.mobile,
			);
			return { json: { ...created, skillId: plan.skillId, status: 'New' } };
		},
		concurrency,
		(output) => `transaction ${String(output.json.transactionId)}`,
	);
}
