import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { asNodeError, errorItem, invalid } from '../../helpers/errors';
import { runPerItem, type ItemOutput } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { concurrencyOption, readRunConcurrency } from '../../params/concurrency';
import { pollOptions, readPollSettings } from '../../params/wait';
import { readCollection, sortedOptions } from '../../params/collections';
import type { NodeContext } from '../../helpers/errors';
import { readTransactionId, transactionIdProperty } from './ids';
import {
	onManualReviewOption,
	readOnManualReview,
	TRANSACTION_POLL,
	waitLimitOption,
} from './waiting';
import {
	failedEntry,
	readDurableWait,
	recordOf,
	waitDurably,
	withoutRecord,
	type Resumed,
	type ResumeContext,
} from './durableWait';
import { Transactions, type TransactionInfo, type WaitOutcome } from '../../vantage/transactions';

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
			waitLimitOption,
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['waitForTransaction'] } },
	properties,
);

/** The item of a transaction waited for: as Vantage shows it, and how the wait went. */
function transactionItem(
	transactionId: string,
	info: TransactionInfo,
	waited: Pick<WaitOutcome, 'polls' | 'failedPolls' | 'stoppedForReview'>,
): ItemOutput {
	return {
		json: {
			transactionId,
			...info,
			waitingForManualReview: waited.stoppedForReview,
			documentCount: Array.isArray(info.documents) ? info.documents.length : 0,
			polls: waited.polls,
			failedPolls: waited.failedPolls,
		},
	};
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const transactions = new Transactions(this, client);
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	// Resume When Vantage Pushes is one wait for the whole execution: read from the first item.
	const firstOptions = readCollection(this, 0, 'options');
	const durable =
		firstOptions.onManualReview === 'resume'
			? await readDurableWait(this, firstOptions, client)
			: undefined;
	// With it, each item's wait stops at Manual Review; what stopped there waits durably below.
	const stopped = new Map<number, WaitOutcome>();
	const out = await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const options = readCollection(this, itemIndex, 'options');
			const poll = readPollSettings(this, itemIndex, options, TRANSACTION_POLL);
			const onManualReview = readOnManualReview(this, itemIndex, options);
			if ((onManualReview === 'resume') !== (durable !== undefined)) {
				throw invalid(
					this,
					itemIndex,
					'On Manual Review must be Resume When Vantage Pushes for every item or for none: the execution waits once, for all of them',
					'It is read from the first item; give every item the same choice.',
				);
			}
			const transactionId = readTransactionId(this, itemIndex);
			const waited = await transactions.wait(
				transactionId,
				poll,
				onManualReview === 'resume' ? 'output' : onManualReview,
				itemIndex,
			);
			const { info, stoppedForReview } = waited;
			if (!stoppedForReview && info.status !== 'Processed') {
				throw transactions.failure(info, itemIndex);
			}
			if (stoppedForReview) stopped.set(itemIndex, waited);
			return transactionItem(transactionId, info, waited);
		},
		concurrency,
	);
	if (!durable || stopped.size === 0) return out;
	// Some wait in Manual Review: the execution waits for Vantage to push (./durableWait.ts). The
	// items that ended come out again after the wait, read anew; failed items as they are.
	return await waitDurably(
		this,
		out.map((item) => {
			const itemIndex = (item.pairedItem as { item: number }).item;
			if (item.json.error !== undefined && item.json.transactionId === undefined) {
				return failedEntry(item);
			}
			const waited = stopped.get(itemIndex);
			return {
				json: item.json,
				items: [itemIndex],
				extra: {
					polls: waited?.polls ?? item.json.polls,
					failedPolls: waited?.failedPolls ?? item.json.failedPolls,
				},
			};
		}),
		durable,
	);
}

/**
 * After the durable wait (./resume.ts): each item's transaction as Keep Waiting outputs it; a
 * Failed or Canceled one, or one that cannot be read, as an error item (as under Continue On Fail:
 * a node that resumes cannot stop its execution); an item that failed before the wait, as it was.
 */
export async function resume(ctx: NodeContext, r: ResumeContext): Promise<Resumed> {
	const transactions = new Transactions(ctx, r.client);
	const items = r.entries.map((entry): INodeExecutionData => {
		const record = recordOf(entry);
		if (record.failed) return { json: withoutRecord(entry.json), pairedItem: entry.pairedItem };
		const itemIndex = record.items[0];
		const transactionId = String(entry.json.transactionId);
		try {
			const info = r.final(transactionId);
			if (info instanceof Error) throw info;
			if (info.status !== 'Processed') throw transactions.failure(info, itemIndex);
			const polls = Number(record.extra?.polls ?? 0) + 1;
			const failedPolls = Number(record.extra?.failedPolls ?? 0);
			return {
				...transactionItem(transactionId, info, { polls, failedPolls, stoppedForReview: false }),
				pairedItem: entry.pairedItem,
			};
		} catch (error) {
			const tagged = transactions.tagged(error, transactionId);
			return errorItem(asNodeError(ctx as IExecuteFunctions, tagged, itemIndex), itemIndex);
		}
	});
	return { items, finish: async () => {} };
}
