import type { IDataObject } from 'n8n-workflow';

import { endpoints, type VantageClient } from '../transport';

/** Advice for a 404 on any catalog request. */
export const CATALOG_HINTS = { 404: 'Check the Catalog: its ID is the catalog’s name.' };

/** GetCatalogs: the tenant's data catalogs. */
export async function listCatalogs(
	client: VantageClient,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const catalogs = await client.request<IDataObject[] | undefined>({
		...endpoints.getCatalogs(),
		itemIndex,
		action: 'listing catalogs',
	});
	return Array.isArray(catalogs) ? catalogs : [];
}

/**
 * GetCatalog: one catalog, with its columns and row count. `action` says what for, in errors
 * ("reading catalog "Vendors" before clearing it").
 */
export async function readCatalog(
	client: VantageClient,
	catalogId: string,
	itemIndex: number | undefined,
	action = `reading catalog "${catalogId}"`,
): Promise<IDataObject> {
	const catalog = await client.request<IDataObject | undefined>({
		...endpoints.getCatalog(catalogId),
		itemIndex,
		action,
		hints: CATALOG_HINTS,
	});
	return catalog ?? {};
}
