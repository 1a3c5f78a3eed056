import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { operationError } from '../../helpers/errors';
import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { concurrencyOption, readRunConcurrency } from '../../params/concurrency';
import { readCollection, sortedOptions } from '../../params/collections';
import { readResults, uniqueResultFileNames } from '../../vantage/results';
import { needsReviewProperty, readNeedsReview } from '../../params/needsReview';
import { readResultOptions, resultOptions } from '../../params/resultOptions';
import { readTransactionId, transactionIdProperty } from './ids';
import { FAILED_STATUSES, Transactions } from '../../vantage/transactions';

const CONCURRENCY = { max: 32, what: 'transactions' };

const properties: INodeProperties[] = [
	transactionIdProperty,
	needsReviewProperty({ secondOutput: true }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortedOptions([concurrencyOption(CONCURRENCY), ...resultOptions]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['getResults'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const transactions = new Transactions(this, client);
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	const out = await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const options = {
				...readResultOptions(this, itemIndex, readCollection(this, itemIndex, 'options')),
				review: readNeedsReview(
					this,
					itemIndex,
					this.getNodeParameter('needsReview', itemIndex, {}),
				)?.rules,
			};
			const transactionId = readTransactionId(this, itemIndex);
			const info = await transactions.get(transactionId, itemIndex);
			if (FAILED_STATUSES.includes(info.status)) throw transactions.failure(info, itemIndex);
			if (info.status !== 'Processed') {
				throw operationError(
					this.getNode(),
					itemIndex,
					`Transaction ${transactionId} has no results yet: its status is ${info.status}`,
					{
						description: info.manualReviewLink
							? 'It is waiting for Manual Review. Use Wait For Transaction to wait for it.'
							: 'Use Wait For Transaction before Get Results.',
						output: {
							transactionId,
							status: info.status,
							manualReviewLink: info.manualReviewLink ?? null,
						},
					},
				);
			}
			return await readResults(this, client, transactions, info, options, itemIndex);
		},
		concurrency,
	);
	uniqueResultFileNames(out);
	return out;
}
