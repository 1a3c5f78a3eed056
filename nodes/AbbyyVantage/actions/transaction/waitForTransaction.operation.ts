import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { concurrencyOption, readRunConcurrency } from '../../params/concurrency';
import { pollOptions, readPollSettings } from '../../params/wait';
import { readCollection, sortedOptions } from '../../params/collections';
import { readTransactionId, transactionIdProperty } from './ids';
import { onManualReviewOption, readOnManualReview, TRANSACTION_POLL } from './waiting';
import { Transactions } from '../../vantage/transactions';

const CONCURRENCY = { max: 100, what: 'transactions', autoTasks: 100 };

const properties: INodeProperties[] = [
	transactionIdProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortedOptions([
			concurrencyOption(CONCURRENCY),
			...pollOptions(TRANSACTION_POLL),
			onManualReviewOption,
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['waitForTransaction'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const transactions = new Transactions(this, client);
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const options = readCollection(this, itemIndex, 'options');
			const poll = readPollSettings(this, itemIndex, options, TRANSACTION_POLL);
			const onManualReview = readOnManualReview(this, itemIndex, options);
			const transactionId = readTransactionId(this, itemIndex);
			const { info, polls, failedPolls, stoppedForReview } = await transactions.wait(
				transactionId,
				poll,
				onManualReview,
				itemIndex,
			);
			if (!stoppedForReview && info.status !== 'Processed') {
				throw transactions.failure(info, itemIndex);
			}
			return {
				json: {
					transactionId,
					...info,
					waitingForManualReview: stoppedForReview,
					documentCount: Array.isArray(info.documents) ? info.documents.length : 0,
					polls,
					failedPolls,
				},
			};
		},
		concurrency,
	);
}
