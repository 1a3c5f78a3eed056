import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import { recordMatcher } from '../../helpers/recordSearch';
import type { VantageClient } from '../../transport';
import { readReturnLimit, returnAllProperties } from '../../params/getMany';
import { catalogProperty, readCatalogId } from '../catalog/catalogId';
import { readRecords, searchRecords } from './reader';

const properties: INodeProperties[] = [
	catalogProperty,
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: 'e.g. DE123456789',
		description:
			'Only records whose ID or a column value contains this text, ignoring case and spaces. Empty: every record. Vantage has no search, so the node reads the catalog page by page until it has found Limit records.',
	},
	...returnAllProperties(),
];

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
		const matches = recordMatcher(this.getNodeParameter('search', itemIndex, ''));
		const records = matches
			? await searchRecords(client, catalogId, matches, limit, itemIndex)
			: await readRecords(client, catalogId, { limit, itemIndex });
		return records.map((record) => ({ json: { catalogId, id: record.id, fields: record.fields } }));
	});
}
