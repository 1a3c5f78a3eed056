import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readSkillFilter, skillFilterProperty } from '../../AbbyyVantage/params/skill';
import { TRANSACTION_EVENTS } from '../../AbbyyVantage/params/transactionEvents';
import { listTransactions } from '../../AbbyyVantage/vantage/lists';
import { reviewItems } from '../../AbbyyVantage/vantage/transactionEvents';
import { Transactions } from '../../AbbyyVantage/vantage/transactions';
import { deliver } from '../delivery';
import { openSafetyNet, readSafetyNet } from '../safetyNet';
import {
	openPoll,
	outputProperty,
	readOptions,
	readOutput,
	transactionEvents,
	transactionOptionsProperty,
	type EventDefinition,
	type ListedEvent,
} from './common';

const properties: INodeProperties[] = [
	skillFilterProperty('reviewSkillId', 'Only transactions of this skill; empty for any skill'),
	outputProperty('transaction', 'transactions'),
	transactionOptionsProperty,
];

/**
 * Transaction Awaiting Manual Review: GetActiveTransactions at stage ManualReview, one event per
 * transaction entering review, with its manual review link (read from the transaction).
 */
export const manualReview = {
	name: TRANSACTION_EVENTS.manualReview.name,
	description: TRANSACTION_EVENTS.manualReview.description,
	properties,
	async poll(ctx, client, start) {
		const skillId = readSkillFilter(
			ctx,
			undefined,
			ctx.getNodeParameter('reviewSkillId', '', { extractValue: true }),
		);
		const safetyNet = readSafetyNet(ctx, readOptions(ctx), TRANSACTION_EVENTS.manualReview.state);
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
		// The list does not carry the one-time link; the transaction does. The items the Instant
		// Trigger gives the same transaction (vantage/transactionEvents.ts).
		const build = async (e: ListedEvent): Promise<INodeExecutionData[]> =>
			reviewItems(e.item, e.id, await transactions.get(e.id));
		return await deliver(ctx, poll, listed, build, readOutput(ctx), openSafetyNet(ctx, safetyNet));
	},
} satisfies EventDefinition;
