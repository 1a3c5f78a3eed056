import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { VantageSimulator } from '../../simulator/simulator';
import { nodeParams, rl } from '../../helpers/params';

/** The Columns mapper with values defined below (expressions allowed), the id from `matchOn`. */
export function definedColumns(value: IDataObject, matchOn = 'recordId') {
	return { mappingMode: 'defineBelow', value, matchingColumns: [matchOn], schema: [] };
}

/**
 * Catalog Record Add / Sync with the catalog taken from each item's `catalog` field, which is not
 * a column: Ignore Unknown Fields leaves it out.
 */
export function perItemCatalogParams(
	operation: 'add' | 'sync',
	fields: IDataObject = {},
): INodeParameters {
	return nodeParams('catalogRecord', operation, {
		catalogId: rl('={{ $json.catalog }}'),
		columns: {
			mappingMode: 'autoMapInputData',
			value: null,
			matchingColumns: ['recordId'],
			schema: [],
		},
		options: { ignoreUnknownFields: true },
		...fields,
	});
}

/** Request Options that make the node's retries fast (tests of transient faults). */
export const FAST_RETRIES = { requestOptions: { retryDelay: 0.01, maxRetryDelay: 0.05 } };

/**
 * The next request to `route` after `pass` untouched ones gets `fault` (a delay of 0 ms handles a
 * request normally, so it lets the first ones through).
 */
export function faultAfter(
	sim: VantageSimulator,
	route: Parameters<VantageSimulator['injectFault']>[0],
	pass: number,
	fault: Parameters<VantageSimulator['injectFault']>[1],
	times = 1,
): void {
	if (pass > 0) sim.injectFault(route, { kind: 'delay', ms: 0 }, pass);
	sim.injectFault(route, fault, times);
}

/** The status-400 ProblemDetails the fault tests inject: a definite refusal, not retried. */
export const REJECTION = {
	kind: 'status' as const,
	status: 400,
	body: { title: 'Bad', status: 400, detail: 'Simulated rejection' },
};
