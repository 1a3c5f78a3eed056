import type { OperationTable } from '../node.type';
import { resourceOf } from '../resourceDescription';
import * as add from './add.operation';
import * as deleteDocument from './delete.operation';
import * as downloadSourceFile from './downloadSourceFile.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

/** The transactionDocument operations: each one's module and label. */
export const table = {
	add: {
		module: add,
		name: 'Add',
		description: 'Create a document in a transaction, to group files into one processing unit',
		action: 'Add a document to a transaction',
		toolDescription: 'generic',
	},
	delete: {
		module: deleteDocument,
		name: 'Delete',
		description: 'Delete a document from a transaction that has not been started',
		action: 'Delete a transaction document',
		toolDescription: 'generic',
	},
	downloadSourceFile: {
		module: downloadSourceFile,
		name: 'Download Source File',
		description: 'Download a file of a document as binary data',
		action: 'Download a document source file',
		toolDescription: 'generic',
	},
	get: {
		module: get,
		name: 'Get',
		description: 'Get a document of a transaction with its source files',
		action: 'Get a transaction document',
		toolDescription: 'generic',
	},
	getMany: {
		module: getMany,
		name: 'Get Many',
		description: 'List the documents of a transaction with their source files',
		action: 'Get many transaction documents',
		toolDescription: 'generic',
	},
} satisfies OperationTable;

export const { operations, description } = resourceOf('transactionDocument', table, 'add');
