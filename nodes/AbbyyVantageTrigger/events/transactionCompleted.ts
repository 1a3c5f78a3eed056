import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireOption } from '../../AbbyyVantage/helpers/validation';
import { keyValuesOption, readKeyValues } from '../../AbbyyVantage/params/keyValues';
import {
	readTriggerResultOptions,
	triggerResultProperties,
} from '../../AbbyyVantage/params/resultOptions';
import { readSkillFilter, skillFilterProperty } from '../../AbbyyVantage/params/skill';
import { TRANSACTION_EVENTS } from '../../AbbyyVantage/params/transactionEvents';
import { listTransactions, type ListFilters } from '../../AbbyyVantage/vantage/lists';
import { completedItems, completedResultItems } from '../../AbbyyVantage/vantage/transactionEvents';
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

/** The Status filter of GetCompletedTransactions (the filter spells it "Cancelled"). */
const STATUSES = ['Cancelled', 'Failed', 'Processed'] as const;

const properties: INodeProperties[] = [
	{
		displayName: 'Status',
		name: 'transactionStatus',
		type: 'options',
		options: [
			{ name: 'Any', value: 'any' },
			...STATUSES.map((status) => ({ name: status, value: status })),
		],
		default: 'any',
	},
	skillFilterProperty('skillId', 'Only transactions of this skill; empty for any skill'),
	keyValuesOption(
		'Registration Parameters',
		'transactionParameters',
		'Only transactions carrying all of these registration parameters',
	),
	{
		displayName: 'Include Results',
		name: 'includeResults',
		type: 'boolean',
		default: false,
		description:
			'Whether to fetch the extracted fields, as Process Document outputs them (one item per document), instead of only the transaction',
	},
	...triggerResultProperties({ show: {} }),
	outputProperty('transaction', 'transactions'),
	transactionOptionsProperty,
];

/** Transaction Completed: GetCompletedTransactions, one event per transaction. */
export const transactionCompleted = {
	name: TRANSACTION_EVENTS.transactionCompleted.name,
	description: TRANSACTION_EVENTS.transactionCompleted.description,
	properties,
	async poll(ctx, client, start) {
		const status = requireOption(
			ctx,
			undefined,
			'Status',
			ctx.getNodeParameter('transactionStatus', 'any'),
			['any', ...STATUSES],
		);
		const filters: ListFilters = {
			...(status !== 'any' ? { transactionStatus: status } : {}),
			skillId: readSkillFilter(
				ctx,
				undefined,
				ctx.getNodeParameter('skillId', '', { extractValue: true }),
			),
			transactionParameters: readKeyValues(
				ctx,
				undefined,
				'Registration Parameters',
				ctx.getNodeParameter('transactionParameters', {}),
			),
		};
		const includeResults = ctx.getNodeParameter('includeResults', false) === true;
		// Read once, before Vantage is asked: a bad Needs Review stops the poll with its message.
		const resultOptions = includeResults ? readTriggerResultOptions(ctx) : undefined;
		const safetyNet = readSafetyNet(
			ctx,
			readOptions(ctx),
			TRANSACTION_EVENTS.transactionCompleted.state,
		);
		const poll = openPoll(ctx, start, { ...filters });
		const listed = transactionEvents(
			await listTransactions(
				client,
				'completed',
				{ ...filters, startDate: new Date(poll.window.start).toISOString() },
				undefined,
			),
		);
		const transactions = new Transactions(ctx, client);
		// The items the Instant Trigger gives the same transaction (vantage/transactionEvents.ts).
		const build = async (e: ListedEvent): Promise<INodeExecutionData[]> =>
			resultOptions
				? await completedResultItems(
						ctx,
						client,
						await transactions.get(e.id),
						e.item,
						resultOptions,
					)
				: completedItems(e.item);
		return await deliver(ctx, poll, listed, build, readOutput(ctx), openSafetyNet(ctx, safetyNet));
	},
} satisfies EventDefinition;
