import { resourceDescription } from '../resourceDescription';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export const operations = { get, getMany };

export const description = resourceDescription(
	'skill',
	operations,
	{
		get: {
			name: 'Get',
			description: 'Get a skill with its fields, classes or included skills',
			action: 'Get a skill',
		},
		getMany: {
			name: 'Get Many',
			description: 'List the published skills with their ID, name and type',
			action: 'Get many skills',
		},
	},
	'getMany',
);
