import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { readReturnLimit, returnAllProperties, upToLimit } from '../../params/getMany';
import { listCatalogs } from '../../vantage/catalogs';

const properties: INodeProperties[] = [...returnAllProperties()];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalog'], operation: ['getMany'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, items, async (itemIndex) => {
		const limit = readReturnLimit(this, itemIndex);
		const catalogs = await listCatalogs(client, itemIndex);
		return upToLimit(catalogs, limit).map((catalog) => ({ json: catalog }));
	});
}
