import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requirePathParameter } from '../../helpers/validation';

/** The Catalog parameter of the Catalog and Catalog Record operations, and its reader. */

export const catalogProperty: INodeProperties = {
	displayName: 'Catalog',
	name: 'catalogId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The data catalog. Its ID is its name, which may contain spaces or slashes.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a catalog...',
			typeOptions: { searchListMethod: 'searchCatalogs', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. Vendors',
		},
	],
};

export function readCatalogId(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('catalogId', itemIndex, '', { extractValue: true });
	// A catalog id is a name and is sent exactly as given, spaces included.
	return requirePathParameter(ctx, itemIndex, 'Catalog', value, { trim: false });
}
