import type { OperationTable } from '../node.type';
import { resourceOf } from '../resourceDescription';
import * as clear from './clear.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as reindex from './reindex.operation';

/** The catalog operations: each one's module and label. */
export const table = {
	clear: {
		module: clear,
		name: 'Clear',
		description: 'Delete every record of a catalog (cannot be undone)',
		action: 'Clear a catalog',
		toolDescription: 'generic',
	},
	get: {
		module: get,
		name: 'Get',
		description: 'Get a catalog’s columns (with type and whether they may be empty) and row count',
		action: 'Get a catalog',
	},
	getMany: {
		module: getMany,
		name: 'Get Many',
		description: 'List the catalogs of the tenant',
		action: 'Get many catalogs',
	},
	reindex: {
		module: reindex,
		name: 'Reindex',
		description: 'Rebuild the catalog index so skills see the latest records',
		action: 'Reindex a catalog',
		toolDescription: 'generic',
	},
} satisfies OperationTable;

export const { operations, description } = resourceOf('catalog', table, 'getMany');
