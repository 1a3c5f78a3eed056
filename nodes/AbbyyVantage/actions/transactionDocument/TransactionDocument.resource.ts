import { resourceDescription } from '../common';
import * as add from './add.operation';

export const operations = { add };

export const description = resourceDescription(
	'transactionDocument',
	operations,
	{
		add: {
			name: 'Add',
			description: 'Create a document in a transaction, to group files into one processing unit',
			action: 'Add a document to a transaction',
		},
	},
	'add',
);
