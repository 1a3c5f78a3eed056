import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { VantageSimulator } from '../../simulator/simulator';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, recordParams, rl } from '../../helpers/params';

/** The vendor catalog the Sync tests (unit and at scale) keep equal to a source. */
export const VENDORS = 'Vendors';

/** A source row of the vendor catalog. */
export const vendor = (id: string, name = `Vendor ${id}`, country = 'DE') => ({
	recordId: id,
	Name: name,
	Country: country,
});

/**
 * The simulator for the Sync tests, with reindexes complete at their first poll (the tests wait
 * for them without waiting 5 s), and `seed`: the vendor catalog holding `ids`.
 */
export function useVendorCatalog() {
	const f = useSimulator((sim) =>
		sim.setDefaultReindexScript({ outcome: 'Completed', after: { polls: 0 } }),
	);
	const seed = (ids: string[]) =>
		f.sim.seedCatalogRecords(
			VENDORS,
			ids.map((id) => ({ id, fields: { Name: [`Vendor ${id}`], Country: ['DE'] } })),
		);
	return { f, seed };
}

/** Catalog Record → Sync of the vendor catalog with `options`. */
export const syncVendors = (options: IDataObject = {}) =>
	recordParams('sync', VENDORS, { options });

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
