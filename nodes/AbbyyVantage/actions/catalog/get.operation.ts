import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import { endpoints, type VantageClient } from '../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../params/concurrency';
import { CATALOG_HINTS, catalogProperty, readCatalogId } from './shared';

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
			const catalog = await client.request<IDataObject | undefined>({
				...endpoints.getCatalog(catalogId),
				itemIndex,
				action: `reading catalog "${catalogId}"`,
				hints: CATALOG_HINTS,
			});
			return { json: { ...(catalog ?? {}), id: (catalog?.id as string) ?? catalogId } };
		},
		concurrency,
	);
}
