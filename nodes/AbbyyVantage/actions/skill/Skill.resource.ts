import type { OperationTable } from '../node.type';
import { resourceOf } from '../resourceDescription';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

/** The skill operations: each one's module and label. */
export const table = {
	get: {
		module: get,
		name: 'Get',
		description: 'Get a skill with its fields, classes or included skills',
		action: 'Get a skill',
	},
	getMany: {
		module: getMany,
		name: 'Get Many',
		description: 'List the published skills with their ID, name and type',
		action: 'Get many skills',
	},
} satisfies OperationTable;

export const { operations, description } = resourceOf('skill', table, 'getMany');
