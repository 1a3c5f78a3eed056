import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { endpoints, VantageClient } from '../transport';

/** Catalogs for the Catalog picker, filtered by name as the user types. */
export async function searchCatalogs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = new VantageClient(this);
	const catalogs = await client.request<Array<{ id?: unknown; name?: unknown }> | undefined>({
		...endpoints.getCatalogs(),
		action: 'listing catalogs',
	});
	const needle = (filter ?? '').toLowerCase();
	const results = (Array.isArray(catalogs) ? catalogs : [])
		.filter((c) => typeof c.id === 'string')
		.map((c) => ({
			name: typeof c.name === 'string' ? c.name : String(c.id),
			value: c.id as string,
		}))
		.filter(
			(c) =>
				!needle || c.name.toLowerCase().includes(needle) || c.value.toLowerCase().includes(needle),
		)
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
