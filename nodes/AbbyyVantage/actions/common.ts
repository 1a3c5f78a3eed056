import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireInteger } from '../helpers/validation';

/** An operation's "Concurrency" option: how many items (or batches) are in flight at once. */
export function concurrencyOption(
	defaultValue: number,
	max: number,
	what: string,
): INodeProperties {
	return {
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: max },
		default: defaultValue,
		description: `How many ${what} to handle at the same time (1–${max})`,
	};
}

export function readConcurrency(
	ctx: IExecuteFunctions,
	options: IDataObject,
	defaultValue: number,
	max: number,
): number {
	return options.concurrency === undefined
		? defaultValue
		: requireInteger(ctx, 0, 'Concurrency', options.concurrency, 1, max);
}

export function readOptions(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'options',
): IDataObject {
	const value = ctx.getNodeParameter(name, itemIndex, {});
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}
