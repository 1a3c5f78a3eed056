import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import { listTransactions } from '../../AbbyyVantage/actions/transaction/lists';
import { Transactions } from '../../AbbyyVantage/actions/transaction/transactions';
import type { VantageClient } from '../../AbbyyVantage/transport';
import { deliver, readCursor, timeOf, type TriggerEvent } from '../cursor';
import { windowOf, windowOptions, type EventDefinition } from './common';

const show = { show: { event: ['manualReview'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Skill ID',
		name: 'reviewSkillId',
		type: 'string',
		default: '',
		placeholder: 'e.g. Receipt',
		description: 'Only transactions of this skill; empty for any skill',
		displayOptions: show,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: windowOptions,
		displayOptions: show,
	},
];

interface InReview extends TriggerEvent {
	item: IDataObject;
}

/**
 * Transaction Awaiting Manual Review: GetActiveTransactions at stage ManualReview, one event per
 * transaction entering review, with its manual review link (read from the transaction).
 */
export const manualReview: EventDefinition = {
	value: 'manualReview',
	properties,
	async poll(ctx: IPollFunctions, client: VantageClient) {
		const options = ctx.getNodeParameter('options', {}) as IDataObject;
		const window = windowOf(ctx, !!readCursor(ctx, this.value), options);
		const skillId = String(ctx.getNodeParameter('reviewSkillId', '') ?? '').trim();
		const listed: InReview[] = (
			await listTransactions(
				client,
				'active',
				{
					startDate: new Date(window.start).toISOString(),
					stageType: 'ManualReview',
					...(skillId ? { skillId } : {}),
				},
				undefined,
			)
		)
			.filter((item) => typeof item.transactionId === 'string')
			.map((item) => ({
				id: item.transactionId as string,
				time: timeOf(item.createTimeUtc, item.createdUtc),
				item,
			}));
		const transactions = new Transactions(ctx, client);
		const build = async (e: InReview): Promise<INodeExecutionData[]> => {
			// The list does not carry the one-time link; the transaction does.
			const info = await transactions.get(e.id);
			return [
				{
					json: {
						...e.item,
						transactionId: e.id,
						status: info.status,
						manualReviewLink: info.manualReviewLink ?? (e.item.manualReviewLink as string) ?? null,
					},
				},
			];
		};
		return await deliver(ctx, this.value, listed, window.start, build, {
			baseline: window.baseline,
		});
	},
};
