import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireOption } from '../../AbbyyVantage/helpers/validation';
import { keyValuesOption, readKeyValues } from '../../AbbyyVantage/params/keyValues';
import { readResultOptions } from '../../AbbyyVantage/params/resultOptions';
import { readSkillFilter, skillFilterProperty } from '../../AbbyyVantage/params/skill';
import { listTransactions, type ListFilters } from '../../AbbyyVantage/vantage/lists';
import { documentItems } from '../../AbbyyVantage/vantage/results';
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
	outputProperty('transaction', 'transactions'),
	windowOptionsProperty,
];

/** Transaction Completed: GetCompletedTransactions, one event per transaction. */
export const transactionCompleted = {
	name: 'Transaction Completed',
	description: 'A transaction was processed, failed or was cancelled',
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
		const poll = openPoll(ctx, start, { ...filters });
		const listed = transactionEvents(
			await listTransactions(
				client,
				'completed',
				{ ...filters, startDate: new Date(poll.window.start).toISOString() },
				undefined,
			),
		);
		const includeResults = ctx.getNodeParameter('includeResults', false) === true;
		const transactions = new Transactions(ctx, client);
		const build = async (e: ListedEvent): Promise<INodeExecutionData[]> => {
			// Vantage's list entry (GetCompletedTransactions) and TransactionDto document no
			// completion time: `completedUtc` is the list's when it has one, else null.
			if (!includeResults)
				return [{ json: { ...e.item, completedUtc: e.item.completedUtc ?? null } }];
			const info = await transactions.get(e.id);
			// Shaped as Process Document and Get Results shape it (default result options), plus
			// the list entry under `completed` and `error`. A Failed or Canceled transaction has
			// no results: one item with the same keys, `fields` empty and Vantage's error text.
			const error =
				info.status === 'Processed'
					? null
					: typeof info.error === 'string' && info.error
						? info.error
						: `Transaction ${e.id} ended with status ${info.status}`;
			const outputs = await documentItems(
				ctx,
				client,
				info,
				readResultOptions(ctx, undefined, {}),
				undefined,
				{ completed: e.item, error },
			);
			return outputs.map((output) => ({ ...output }));
		};
		return await deliver(ctx, poll, listed, build, readOutput(ctx));
	},
} satisfies EventDefinition;
