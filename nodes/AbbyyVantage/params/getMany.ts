import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireInteger } from '../helpers/validation';

/** Return All and Limit, worded as n8n's own Get Many operations word them. */
export function returnAllProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Undefined for Return All, else the Limit. */
export function readReturnLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) === true) return undefined;
	return requireInteger(
		ctx,
		itemIndex,
		'Limit',
		// n8n fills in the parameter's default when the workflow is loaded.
		ctx.getNodeParameter('limit', itemIndex),
		1,
		Number.MAX_SAFE_INTEGER,
	);
}

/**
 * A list Vantage returns whole (not paged), cut to Return All / Limit of item `itemIndex`. Read the
 * limit before sending, so a bad Limit fails before the request: pass it in.
 */
export function upToLimit<T>(list: T[] | undefined, limit: number | undefined): T[] {
	const all = Array.isArray(list) ? list : [];
	return limit === undefined ? all : all.slice(0, limit);
}
