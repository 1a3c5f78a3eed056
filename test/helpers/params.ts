import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { resources } from '../../nodes/AbbyyVantage/actions/router';
import { FIXTURE } from '../simulator/fixture';

/**
 * One builder for the node's parameters in every test: resource and operation names are checked
 * against the node's own router map, so a test cannot ask for an operation the node lacks.
 */
type Resources = typeof resources;
export type ResourceName = keyof Resources;
export type OperationName<R extends ResourceName> = keyof Resources[R] & string;

export function nodeParams<R extends ResourceName>(
	resource: R,
	operation: OperationName<R>,
	fields: IDataObject = {},
): INodeParameters {
	return { resource, operation, ...(fields as INodeParameters) };
}

/** A resource-locator value typed "By ID" (or an expression). */
export const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/** Request Options for tests that retry: three retries with no real backoff sleep. */
export const FAST_RETRIES = { maxRetries: 3, retryDelay: 0.01, maxRetryDelay: 5, timeout: 2 };

/** Catalog Record → Delete, reading the ids from each item's `ids` field. */
export function recordDeleteParams(catalogId: string, fields: IDataObject = {}): INodeParameters {
	return nodeParams('catalogRecord', 'delete', {
		catalogId: rl(catalogId),
		recordIdsSource: 'field',
		inputField: 'ids',
		...fields,
	});
}

export const ids = (prefix: string, from: number, to: number) =>
	Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);

/** The Columns mapper: auto-mapped from each item's fields, the record id from `matchOn`. */
export function autoMappedColumns(matchOn = 'recordId') {
	return { mappingMode: 'autoMapInputData', value: null, matchingColumns: [matchOn], schema: [] };
}

/** Catalog Record Add / Sync on `catalogId`, columns auto-mapped from the items. */
export function recordParams(
	operation: 'add' | 'sync',
	catalogId: string,
	fields: IDataObject = {},
): INodeParameters {
	return nodeParams('catalogRecord', operation, {
		catalogId: rl(catalogId),
		columns: autoMappedColumns(),
		...fields,
	});
}

/**
 * Transaction → Process Document with the Invoice skill, polling every second (the fastest the
 * node allows); `fields` override the top-level parameters, `options` add to the Options.
 */
export function processParams(
	fields: IDataObject = {},
	options: IDataObject = {},
): INodeParameters {
	return nodeParams('transaction', 'processDocument', {
		skillId: rl(FIXTURE.documentSkillId),
		...fields,
		options: { pollInterval: 1, ...options },
	});
}

/** Transaction → Add Files to `transactionId`, from the `data` binary field unless `fields` say otherwise. */
export function addFilesParams(transactionId: string, fields: IDataObject = {}): INodeParameters {
	return nodeParams('transaction', 'addFiles', { transactionId, ...fields });
}

/** The QA report operations of the Report resource. */
export type QaOperation = 'getDocumentChanges' | 'getFieldChanges' | 'getQualitySummary';

/**
 * A QA report operation over everything since 2020 for the fixture's Process skill (a filter of
 * Get Document Changes, a required parameter of the other two); `fields` override or add.
 */
export function qaParams(operation: QaOperation, fields: IDataObject = {}): INodeParameters {
	const skill = rl(FIXTURE.processSkillId);
	return nodeParams('report', operation, {
		startDate: '2020-01-01T00:00:00Z',
		...(operation === 'getDocumentChanges'
			? { filters: { processSkillId: skill } }
			: { processSkillId: skill }),
		...fields,
	});
}

/** Tenant → Create Invite for `email`, `tenantName` given. */
export function inviteParams(fields: IDataObject = {}): INodeParameters {
	return nodeParams('tenant', 'createInvite', {
		email: 'new.admin@example.com',
		tenantName: 'Acme Accounts Payable',
		...fields,
	});
}
