import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import { listTransactions, type ListFilters } from '../../AbbyyVantage/actions/transaction/lists';
import { documentItems, readResultOptions } from '../../AbbyyVantage/actions/transaction/results';
import { keyValuesOption } from '../../AbbyyVantage/actions/transaction/shared';
import { Transactions } from '../../AbbyyVantage/actions/transaction/transactions';
import { readKeyValues } from '../../AbbyyVantage/helpers/keyValues';
import type { VantageClient } from '../../AbbyyVantage/transport';
import { deliver, readCursor, timeOf, type TriggerEvent } from '../cursor';
import { windowOf, windowOptions, type EventDefinition } from './common';

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
		displayName: 'Skill',
		name: 'skillId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: 'Only transactions of this skill; empty for any skill',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Any skill',
				typeOptions: { searchListMethod: 'searchSkills', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. Receipt' },
		],
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

interface Completed extends TriggerEvent {
	item: IDataObject;
}

/** Transaction Completed: GetCompletedTransactions, one event per transaction. */
export const transactionCompleted: EventDefinition = {
	value: 'transactionCompleted',
	properties,
	async poll(ctx: IPollFunctions, client: VantageClient) {
		const options = ctx.getNodeParameter('options', {}) as IDataObject;
		const window = windowOf(ctx, !!readCursor(ctx, this.value), options);
		const status = ctx.getNodeParameter('transactionStatus', 'any') as string;
		const skillId = ctx.getNodeParameter('skillId', '', { extractValue: true }) as string;
		const filters: ListFilters = {
			startDate: new Date(window.start).toISOString(),
			...(status !== 'any' ? { transactionStatus: status } : {}),
			...(typeof skillId === 'string' && skillId.trim() ? { skillId: skillId.trim() } : {}),
			transactionParameters: readKeyValues(
				ctx,
				undefined,
				'Registration Parameters',
				ctx.getNodeParameter('transactionParameters', {}),
			),
		};
		const listed: Completed[] = (await listTransactions(client, 'completed', filters, undefined))
			.filter((item) => typeof item.transactionId === 'string')
			.map((item) => ({
				id: item.transactionId as string,
				time: timeOf(item.createTimeUtc, item.createdUtc),
				item,
			}));
		const includeResults = ctx.getNodeParameter('includeResults', false) === true;
		const transactions = new Transactions(ctx, client);
		const build = async (e: Completed): Promise<INodeExecutionData[]> => {
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
		return await deliver(ctx, this.value, listed, window.start, build, {
			baseline: window.baseline,
		});
	},
};
