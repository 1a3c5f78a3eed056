import type { INodeParameters } from 'n8n-workflow';

/**
 * The benchmarked clean-up, shared by the n8n-core worker, the floor and the real-n8n workflows so
 * that every client deletes from the same catalog with the same node settings.
 */
export const BENCH_CATALOG = 'Vendors';

/** Delete Records, Aggregate All Items, IDs from the `ids` field; concurrency as the node's option. */
export function recordDeleteParameters(concurrency?: number): INodeParameters {
	return {
		resource: 'catalogRecord',
		operation: 'delete',
		catalogId: { __rl: true, mode: 'id', value: BENCH_CATALOG },
		recordIdsSource: 'field',
		inputField: 'ids',
		mode: 'aggregate',
		...(concurrency === undefined ? {} : { options: { concurrency } }),
	};
}
