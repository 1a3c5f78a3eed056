import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Collection parameters (Options, Additional Fields, Filters, Request Options): their entries in
 * order, and their value as an object.
 */

/** A collection's entries in alphabetical order, as n8n's UI guidelines ask. */
export function sortedOptions(options: INodeProperties[]): INodeProperties[] {
	return [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** The Filters collection of an operation that lists or reports: its filters in order. */
export function filtersProperty(filters: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: sortedOptions(filters),
	};
}

/** The collection parameter `name` as an object (expressions may produce anything). */
export function readCollection(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
): IDataObject {
	const value = ctx.getNodeParameter(name, itemIndex, {});
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}
