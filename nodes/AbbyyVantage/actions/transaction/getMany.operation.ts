import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { INT32_MAX } from '../../constants';
import { checkDateOrder, optionalUtcDateTime } from '../../helpers/dates';
import { runPerItem } from '../../helpers/items';
import { keyValuesOption, readKeyValues } from '../../params/keyValues';
import { optionalText, requireInteger, requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { choiceOptions, choiceValues } from '../../helpers/choices';
import { filtersProperty, readCollection } from '../../params/collections';
import { readReturnLimit, returnAllProperties } from '../../params/getMany';
import { listTransactions, type ListFilters } from '../../vantage/lists';
import { readSkillFilter, skillFilterProperty } from '../../params/skill';

const LISTS = [
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
] as const;

/** StageType of GetActiveTransactions. */
const STAGES = [
	{ name: 'Automatic', value: 'Automatic' },
	{ name: 'Custom Activity', value: 'CustomActivity' },
	{ name: 'Manual Review', value: 'ManualReview' },
] as const;

/** CompletedTransactionStatus of GetCompletedTransactions (spelt "Cancelled" there). */
const COMPLETED_STATUSES = [
	{ name: 'Cancelled', value: 'Cancelled' },
	{ name: 'Failed', value: 'Failed' },
	{ name: 'Processed', value: 'Processed' },
] as const;

const properties: INodeProperties[] = [
	{
		displayName: 'Transactions',
		name: 'list',
		type: 'options',
		options: choiceOptions(LISTS),
		default: 'completed',
	},
	...returnAllProperties(),
	filtersProperty([
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
			description:
				'Only transactions created up to this time (Vantage filters both lists by creation time)',
		},
		skillFilterProperty('skillId', 'Only transactions of this skill'),
		{
			displayName: 'Skill Version',
			name: 'skillVersion',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1,
			description: 'Only transactions processed by this version of the skill',
		},
		{
			displayName: 'Stage',
			name: 'stageType',
			type: 'options',
			options: choiceOptions(STAGES),
			default: 'ManualReview',
			description: 'Only active transactions at this stage',
			displayOptions: { show: { '/list': ['active'] } },
		},
		{
			displayName: 'Stage Name',
			name: 'stageName',
			type: 'string',
			default: '',
			placeholder: 'e.g. Review',
			description: 'Only active transactions at the stage of this name, as the skill names it',
			displayOptions: { show: { '/list': ['active'] } },
		},
		{
			displayName: 'Start Date',
			name: 'startDate',
			type: 'dateTime',
			default: '',
			description:
				'Only transactions created from this time on (Vantage filters both lists by creation time)',
		},
		{
			displayName: 'Status',
			name: 'transactionStatus',
			type: 'options',
			options: choiceOptions(COMPLETED_STATUSES),
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
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['getMany'] } },
	properties,
);

function readFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	list: (typeof LISTS)[number]['value'],
	f: IDataObject,
): ListFilters {
	const filters: ListFilters = {
		skillId: readSkillFilter(ctx, itemIndex, f.skillId),
		skillVersion:
			f.skillVersion === undefined || f.skillVersion === '' || f.skillVersion === null
				? undefined
				: requireInteger(ctx, itemIndex, 'Skill Version', f.skillVersion, 1, INT32_MAX),
		startDate: optionalUtcDateTime(ctx, itemIndex, 'Start Date', f.startDate),
		endDate: optionalUtcDateTime(ctx, itemIndex, 'End Date', f.endDate),
		transactionParameters: readKeyValues(
			ctx,
			itemIndex,
			'Transaction Parameters',
			f.transactionParameters,
		),
		documentParameters: readKeyValues(ctx, itemIndex, 'Document Parameters', f.documentParameters),
	};
	// GetActiveTransactions / GetCompletedTransactions: "EndDate must be greater than start date".
	checkDateOrder(
		ctx,
		itemIndex,
		{ displayName: 'Start Date', value: filters.startDate },
		{ displayName: 'End Date', value: filters.endDate },
	);
	if (list === 'completed' && f.transactionStatus !== undefined) {
		filters.transactionStatus = requireOption(
			ctx,
			itemIndex,
			'Status',
			f.transactionStatus,
			choiceValues(COMPLETED_STATUSES),
		);
	}
	if (list === 'active' && f.stageType !== undefined) {
		filters.stageType = requireOption(ctx, itemIndex, 'Stage', f.stageType, choiceValues(STAGES));
	}
	if (list === 'active')
		filters.stageName = optionalText(ctx, itemIndex, 'Stage Name', f.stageName);
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
			choiceValues(LISTS),
		);
		const filters = readFilters(this, itemIndex, list, readCollection(this, itemIndex, 'filters'));
		const limit = readReturnLimit(this, itemIndex);
		const found = await listTransactions(client, list, filters, limit, itemIndex);
		return found.map((json) => ({ json }));
	});
}
