import { resourceDescription } from '../resourceDescription';
import * as add from './add.operation';
import * as deleteDocument from './delete.operation';
import * as downloadSourceFile from './downloadSourceFile.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export const operations = { add, delete: deleteDocument, downloadSourceFile, get, getMany };

export const description = resourceDescription(
	'transactionDocument',
	operations,
	{
		add: {
			name: 'Add',
			description: 'Create a document in a transaction, to group files into one processing unit',
			action: 'Add a document to a transaction',
		},
		delete: {
			name: 'Delete',
			description: 'Delete a document from a transaction that has not been started',
			action: 'Delete a transaction document',
		},
		downloadSourceFile: {
			name: 'Download Source File',
			description: 'Download a file of a document as binary data',
			action: 'Download a document source file',
		},
		get: {
			name: 'Get',
			description: 'Get a document of a transaction with its source files',
			action: 'Get a transaction document',
		},
		getMany: {
			name: 'Get Many',
			description: 'List the documents of a transaction with their source files',
			action: 'Get many transaction documents',
		},
	},
	'add',
);
