import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** An options collection's entries in alphabetical order, as n8n's UI guidelines ask. */
export function sortedOptions(options: INodeProperties[]): INodeProperties[] {
	return [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** A collection parameter as an object (expressions may produce anything). */
export function readOptions(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'options',
): IDataObject {
	const value = ctx.getNodeParameter(name, itemIndex, {});
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}
