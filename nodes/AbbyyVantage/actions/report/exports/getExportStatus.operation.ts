import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../../helpers/items';
import type { VantageClient } from '../../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../../params/concurrency';
import { getExportStatus } from '../../../vantage/exports';
import { readRequestId, requestIdProperty } from './requestId';

const CONCURRENCY = { max: 32, what: 'items' };

const properties: INodeProperties[] = [requestIdProperty, concurrencyOnlyOptions(CONCURRENCY)];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getExportStatus'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => ({
			json: await getExportStatus(client, readRequestId(this, itemIndex), itemIndex),
		}),
		concurrency,
	);
}
