import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { toUtcDateTime } from '../../helpers/dates';
import { invalid } from '../../helpers/errors';
import { runPerItem } from '../../helpers/items';
import { readKeyValues } from '../../helpers/keyValues';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { readOptions, readReturnLimit, returnAllProperties, sortedOptions } from '../common';
import { listTransactions, type ListFilters } from './lists';
import { readSkillFilter, skillFilterProperty } from '../skill/shared';
import { keyValuesOption } from './shared';

const properties: INodeProperties[] = [
	{
		displayName: 'Transactions',
		name: 'list',
		type: 'options',
		options: [
			{
				name: 'Active',
				value: 'active',
				description: 'Transactions still being processed or reviewed',
			},
			{
				name: 'Completed',
				value: 'completed',
				description: 'Processed, failed or cancelled transactions',
			},
		],
		default: 'completed',
	},
	...returnAllProperties(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: sortedOptions([
			keyValuesOption(
				'Document Parameters',
				'documentParameters',
				'Only transactions with documents carrying these registration parameters',
			),
			{
				displayName: 'End Date',
				name: 'endDate',
				type: 'dateTime',
				default: '',
				description: 'Only transactions up to this time (completion time for completed ones)',
			},
			skillFilterProperty('skillId', 'Only transactions of this skill'),
			{
				displayName: 'Stage',
				name: 'stageType',
				type: 'options',
				options: [
					{ name: 'Automatic', value: 'Automatic' },
					{ name: 'Custom Activity', value: 'CustomActivity' },
					{ name: 'Manual Review', value: 'ManualReview' },
				],
				default: 'ManualReview',
				description: 'Only active transactions at this stage',
				displayOptions: { show: { '/list': ['active'] } },
			},
			{
				displayName: 'Start Date',
				name: 'startDate',
				type: 'dateTime',
				default: '',
				description: 'Only transactions from this time (completion time for completed ones)',
			},
			{
				displayName: 'Status',
				name: 'transactionStatus',
				type: 'options',
				options: [
					{ name: 'Cancelled', value: 'Cancelled' },
					{ name: 'Failed', value: 'Failed' },
					{ name: 'Processed', value: 'Processed' },
				],
				default: 'Processed',
				description: 'Only completed transactions with this status',
				displayOptions: { show: { '/list': ['completed'] } },
			},
			keyValuesOption(
				'Transaction Parameters',
				'transactionParameters',
				'Only transactions carrying these registration parameters',
			),
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['getMany'] } },
	properties,
);

function readFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	list: 'active' | 'completed',
	f: IDataObject,
): ListFilters {
	const date = (name: string, label: string) =>
		f[name] === undefined || f[name] === '' || f[name] === null
			? undefined
			: toUtcDateTime(ctx, itemIndex, label, f[name]);
	const filters: ListFilters = {
		skillId: readSkillFilter(ctx, itemIndex, f.skillId),
		startDate: date('startDate', 'Start Date'),
		endDate: date('endDate', 'End Date'),
		transactionParameters: readKeyValues(
			ctx,
			itemIndex,
			'Transaction Parameters',
			f.transactionParameters,
		),
		documentParameters: readKeyValues(ctx, itemIndex, 'Document Parameters', f.documentParameters),
	};
	if (
		filters.startDate &&
		filters.endDate &&
		Date.parse(filters.endDate) <= Date.parse(filters.startDate)
	) {
		throw invalid(
			ctx,
			itemIndex,
			`End Date (${filters.endDate}) must be after Start Date (${filters.startDate})`,
		);
	}
	if (list === 'completed' && f.transactionStatus !== undefined) {
		filters.transactionStatus = requireOption(ctx, itemIndex, 'Status', f.transactionStatus, [
			'Processed',
			'Failed',
			'Cancelled',
		] as const);
	}
	if (list === 'active' && f.stageType !== undefined) {
		filters.stageType = requireOption(ctx, itemIndex, 'Stage', f.stageType, [
			'ManualReview',
			'CustomActivity',
			'Automatic',
		] as const);
	}
	return filters;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, items, async (itemIndex) => {
		const list = requireOption(
			this,
			itemIndex,
			'Transactions',
			this.getNodeParameter('list', itemIndex),
			['active', 'completed'] as const,
		);
		const filters = readFilters(this, itemIndex, list, readOptions(this, itemIndex, 'filters'));
		const limit = readReturnLimit(this, itemIndex);
		const found = await listTransactions(client, list, filters, limit, itemIndex);
		return found.map((json) => ({ json }));
	});
}
