import type { INodeExecutionData, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { listTransactions, type ListFilters } from '../../AbbyyVantage/actions/transaction/lists';
import { documentItems, readResultOptions } from '../../AbbyyVantage/actions/transaction/results';
import { keyValuesOption } from '../../AbbyyVantage/actions/transaction/shared';
import { Transactions } from '../../AbbyyVantage/actions/transaction/transactions';
import { readKeyValues } from '../../AbbyyVantage/helpers/keyValues';
import type { VantageClient } from '../../AbbyyVantage/transport';
import { readSkillFilter, skillFilterProperty } from '../../AbbyyVantage/actions/skill/shared';
import { deliver } from '../cursor';
import {
	eventOptionsProperty,
	transactionEvents,
	windowOf,
	type EventDefinition,
	type ListedEvent,
} from './common';

const show = { show: { event: ['transactionCompleted'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Status',
		name: 'transactionStatus',
		type: 'options',
		options: [
			{ name: 'Any', value: 'any' },
			{ name: 'Cancelled', value: 'Cancelled' },
			{ name: 'Failed', value: 'Failed' },
			{ name: 'Processed', value: 'Processed' },
		],
		default: 'any',
		displayOptions: show,
	},
	{
		...skillFilterProperty('skillId', 'Only transactions of this skill; empty for any skill'),
		displayOptions: show,
	},
	{
		...keyValuesOption(
			'Registration Parameters',
			'transactionParameters',
			'Only transactions carrying all of these registration parameters',
		),
		displayOptions: show,
	},
	{
		displayName: 'Include Results',
		name: 'includeResults',
		type: 'boolean',
		default: false,
		description:
			'Whether to fetch the extracted fields, as Process Document outputs them (one item per document), instead of only the transaction',
		displayOptions: show,
	},
	eventOptionsProperty('transactionCompleted'),
];

/** Transaction Completed: GetCompletedTransactions, one event per transaction. */
export const transactionCompleted: EventDefinition = {
	value: 'transactionCompleted',
	properties,
	async poll(ctx: IPollFunctions, client: VantageClient) {
		const window = windowOf(ctx, this.value);
		const status = ctx.getNodeParameter('transactionStatus', 'any') as string;
		const skillId = readSkillFilter(
			ctx,
			undefined,
			ctx.getNodeParameter('skillId', '', { extractValue: true }),
		);
		const filters: ListFilters = {
			startDate: new Date(window.start).toISOString(),
			...(status !== 'any' ? { transactionStatus: status } : {}),
			...(skillId ? { skillId } : {}),
			transactionParameters: readKeyValues(
				ctx,
				undefined,
				'Registration Parameters',
				ctx.getNodeParameter('transactionParameters', {}),
			),
		};
		const listed = transactionEvents(
			await listTransactions(client, 'completed', filters, undefined),
		);
		const includeResults = ctx.getNodeParameter('includeResults', false) === true;
		const transactions = new Transactions(ctx, client);
		const build = async (e: ListedEvent): Promise<INodeExecutionData[]> => {
			if (!includeResults) return [{ json: e.item }];
			const info = await transactions.get(e.id);
			if (info.status !== 'Processed')
				return [{ json: { ...e.item, ...info, transactionId: e.id } }];
			const outputs = await documentItems(
				ctx,
				client,
				info,
				readResultOptions(ctx, undefined, {}),
				undefined,
			);
			return outputs.map((output) => ({ ...output, json: { ...output.json, completed: e.item } }));
		};
		return await deliver(ctx, this.value, listed, window, build);
	},
};
