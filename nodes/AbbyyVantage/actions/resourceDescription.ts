import type { INodeProperties } from 'n8n-workflow';

import type { OperationTable } from './node.type';

/** The operation modules of a resource's table, by the Operation parameter's value. */
function operationsOf<T extends OperationTable>(table: T): { [K in keyof T]: T[K]['module'] } {
	return Object.fromEntries(
		Object.entries(table).map(([operation, row]) => [operation, row.module]),
	) as { [K in keyof T]: T[K]['module'] };
}

/**
 * The Operation picker of a resource and the fields of all its operations, from its table: an
 * operation cannot be listed without its label and its module (`execute` and `description`).
 */
function resourceDescription<T extends OperationTable>(
	resource: string,
	table: T,
	defaultOperation: keyof T & string,
	notices: INodeProperties[] = [],
): INodeProperties[] {
	const options = Object.entries(table)
		.map(([value, { name, description, action }]) => ({ name, description, action, value }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options,
			default: defaultOperation,
		},
		...notices,
		...Object.values(table).flatMap(({ module }) => module.description),
	];
}

/**
 * What a `<Resource>.resource.ts` exports beside its table: the operation modules (the router's
 * map) and the resource's part of the node's description (its Operation picker, then `notices`,
 * then each operation's parameters).
 */
export function resourceOf<T extends OperationTable>(
	resource: string,
	table: T,
	defaultOperation: keyof T & string,
	notices: INodeProperties[] = [],
): { operations: { [K in keyof T]: T[K]['module'] }; description: INodeProperties[] } {
	return {
		operations: operationsOf(table),
		description: resourceDescription(resource, table, defaultOperation, notices),
	};
}
