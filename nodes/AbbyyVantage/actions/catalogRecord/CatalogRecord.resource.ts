import type { OperationTable } from '../node.type';
import { resourceOf } from '../resourceDescription';
import * as add from './add.operation';
import * as deleteRecords from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as sync from './sync.operation';

/** The catalogRecord operations: each one's module and label. */
export const table = {
	add: {
		module: add,
		name: 'Add',
		description:
			'Add records mapped from the input items; a record with an existing ID is replaced',
		action: 'Add catalog records',
		toolDescription: 'generic',
	},
	delete: {
		module: deleteRecords,
		name: 'Delete',
		description: 'Delete records by ID, in batches of up to 5000, with every ID accounted for',
		action: 'Delete catalog records',
		toolDescription: 'generic',
	},
	get: {
		module: get,
		name: 'Get',
		description: 'Get one record of a catalog by its ID',
		action: 'Get a catalog record',
	},
	getMany: {
		module: getMany,
		name: 'Get Many',
		description: 'Read the records of a catalog',
		action: 'Get many catalog records',
	},
	sync: {
		module: sync,
		name: 'Sync',
		description:
			'Make the catalog equal the input items: add new records, update changed ones, delete the rest',
		action: 'Sync catalog records',
		toolDescription: 'generic',
	},
} satisfies OperationTable;

export const { operations, description } = resourceOf('catalogRecord', table, 'add');
