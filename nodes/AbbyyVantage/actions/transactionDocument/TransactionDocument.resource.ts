import type { INodeProperties } from 'n8n-workflow';

import * as add from './add.operation';

export { add };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transactionDocument'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Create a document in a transaction, to group files into one processing unit',
				action: 'Add a document to a transaction',
			},
		],
		default: 'add',
	},
	...add.description,
];
