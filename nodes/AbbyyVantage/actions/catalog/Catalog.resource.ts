import { resourceDescription } from '../common';
import * as deleteRecords from './deleteRecords.operation';
import * as reindex from './reindex.operation';

export const operations = { deleteRecords, reindex };

export const description = resourceDescription(
	'catalog',
	operations,
	{
		deleteRecords: {
			name: 'Delete Records',
			description: 'Delete records by ID, in batches of up to 5000',
			action: 'Delete catalog records',
		},
		reindex: {
			name: 'Reindex',
			description: 'Rebuild the catalog index so skills see the latest records',
			action: 'Reindex a catalog',
		},
	},
	'deleteRecords',
);
