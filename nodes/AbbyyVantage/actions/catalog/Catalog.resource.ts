import { resourceDescription } from '../resourceDescription';
import * as clear from './clear.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as reindex from './reindex.operation';

export const operations = { clear, get, getMany, reindex };

export const description = resourceDescription(
	'catalog',
	operations,
	{
		clear: {
			name: 'Clear',
			description: 'Delete every record of a catalog (cannot be undone)',
			action: 'Clear a catalog',
		},
		get: {
			name: 'Get',
			description:
				'Get a catalog’s columns (with type and whether they may be empty) and row count',
			action: 'Get a catalog',
		},
		getMany: {
			name: 'Get Many',
			description: 'List the catalogs of the tenant',
			action: 'Get many catalogs',
		},
		reindex: {
			name: 'Reindex',
			description: 'Rebuild the catalog index so skills see the latest records',
			action: 'Reindex a catalog',
		},
	},
	'getMany',
);
