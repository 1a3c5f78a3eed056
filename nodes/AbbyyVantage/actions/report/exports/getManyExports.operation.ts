import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { invalid } from '../../../helpers/errors';
import { runPreparedPerItem } from '../../../helpers/items';
import { describeValue, requireOption } from '../../../helpers/validation';
import type { VantageClient } from '../../../transport';
import { filtersProperty, readCollection } from '../../../params/collections';
import { readReturnLimit, returnAllProperties, upToLimit } from '../../../params/getMany';
import { EXPORT_STATUSES, listExportRequests } from '../../../vantage/exports';

/**
 * Report → Get Many Exports: ListExportRequests, the credential's user's export requests (how to
 * find a Request ID again), one item each with `totalFileCount` as a number.
 */

const properties: INodeProperties[] = [
	...returnAllProperties(),
	filtersProperty([
		{
			displayName: 'Status',
			name: 'status',
			type: 'multiOptions',
			options: EXPORT_STATUSES.map((status) => ({ name: status, value: status })),
			default: [],
			description: 'Only export requests with one of these statuses',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getManyExports'] } },
	properties,
);

/** The Status filter: a list of statuses (an expression may give one as text), each known. */
function readStatuses(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	const list: unknown[] = Array.isArray(value) ? value : [value];
	if (list.some((status) => typeof status !== 'string')) {
		throw invalid(ctx, itemIndex, `Status must be a list of statuses, not ${describeValue(value)}`);
	}
	return list.map((status) => requireOption(ctx, itemIndex, 'Status', status, EXPORT_STATUSES));
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	// Every item's Limit and Status are checked before the first request.
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => ({
			limit: readReturnLimit(this, itemIndex),
			statuses: readStatuses(this, itemIndex, readCollection(this, itemIndex, 'filters').status),
		}),
		async ({ limit, statuses }, itemIndex) =>
			upToLimit(await listExportRequests(client, { statuses }, itemIndex), limit).map(
				(request) => ({ json: request }),
			),
	);
}
