import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readSkillFilter, skillFilterProperty } from '../../AbbyyVantage/params/skill';
import { listTransactions } from '../../AbbyyVantage/vantage/lists';
import { Transactions } from '../../AbbyyVantage/vantage/transactions';
import { deliver } from '../delivery';
import {
	openPoll,
	outputProperty,
	readOutput,
	transactionEvents,
	windowOptionsProperty,
	type EventDefinition,
	type ListedEvent,
} from './common';

const properties: INodeProperties[] = [
	skillFilterProperty('reviewSkillId', 'Only transactions of this skill; empty for any skill'),
	outputProperty('transaction', 'transactions'),
	windowOptionsProperty,
];

/**
 * Transaction Awaiting Manual Review: GetActiveTransactions at stage ManualReview, one event per
 * transaction entering review, with its manual review link (read from the transaction).
 */
export const manualReview = {
	name: 'Transaction Awaiting Manual Review',
	description: 'A transaction entered Manual Review; the item carries its review link',
	properties,
	async poll(ctx, client, start) {
		const skillId = readSkillFilter(
			ctx,
			undefined,
			ctx.getNodeParameter('reviewSkillId', '', { extractValue: true }),
		);
		const poll = openPoll(ctx, start, { skillId });
		const listed = transactionEvents(
			await listTransactions(
				client,
				'active',
				{
					startDate: new Date(poll.window.start).toISOString(),
					stageType: 'ManualReview',
					...(skillId ? { skillId } : {}),
				},
				undefined,
			),
		);
		const transactions = new Transactions(ctx, client);
		const build = async (e: ListedEvent): Promise<INodeExecutionData[]> => {
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
		return await deliver(ctx, poll, listed, build, readOutput(ctx));
	},
} satisfies EventDefinition;
