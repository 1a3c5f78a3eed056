import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { readReturnLimit, returnAllProperties } from '../../params/getMany';
import { catalogProperty, readCatalogId } from '../catalog/shared';
import { readRecords } from './reader';

const properties: INodeProperties[] = [catalogProperty, ...returnAllProperties()];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalogRecord'], operation: ['getMany'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, items, async (itemIndex) => {
		const catalogId = readCatalogId(this, itemIndex);
		const limit = readReturnLimit(this, itemIndex);
		const records = await readRecords(client, catalogId, { limit, itemIndex });
		return records.map((record) => ({ json: { catalogId, id: record.id, fields: record.fields } }));
	});
}
