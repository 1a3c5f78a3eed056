import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../params/concurrency';
import { readCatalog } from '../../vantage/catalogs';
import { catalogProperty, readCatalogId } from './catalogId';

const CONCURRENCY = { max: 32, what: 'catalogs' };

const properties: INodeProperties[] = [catalogProperty, concurrencyOnlyOptions(CONCURRENCY)];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalog'], operation: ['get'] } },
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
		async (itemIndex) => {
			const catalogId = readCatalogId(this, itemIndex);
			const catalog = await readCatalog(client, catalogId, itemIndex);
			return { json: { ...catalog, id: (catalog.id as string) ?? catalogId } };
		},
		concurrency,
	);
}
