import type { INodeProperties } from 'n8n-workflow';

import type { OperationLabel, OperationMap } from './node.type';

/**
 * The Operation picker of a resource and the fields of all its operations. `labels` must name
 * exactly the operations of `operations`, so an operation without a label, or a label without an
 * operation, does not compile.
 */
export function resourceDescription<T extends OperationMap>(
	resource: string,
	operations: T,
	labels: { [K in keyof T]: OperationLabel },
	defaultOperation: keyof T & string,
	notices: INodeProperties[] = [],
): INodeProperties[] {
	const options = (Object.keys(labels) as Array<keyof T & string>)
		.map((value) => ({ ...labels[value], value }))
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
		...Object.values(operations).flatMap((operation) => operation.description),
	];
}
