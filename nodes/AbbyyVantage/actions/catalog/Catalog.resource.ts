import type { INodeProperties } from 'n8n-workflow';

import * as deleteRecords from './deleteRecords.operation';
import * as reindex from './reindex.operation';

export { deleteRecords, reindex };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['catalog'] } },
		options: [
			{
				name: 'Delete Records',
				value: 'deleteRecords',
				description: 'Delete records by ID, in batches of up to 5000',
				action: 'Delete catalog records',
			},
			{
				name: 'Reindex',
				value: 'reindex',
				description: 'Rebuild the catalog index so skills see the latest records',
				action: 'Reindex a catalog',
			},
		],
		default: 'deleteRecords',
	},
	...deleteRecords.description,
	...reindex.description,
];
