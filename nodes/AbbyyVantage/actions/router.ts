import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { VantageClient } from '../transport';
import * as catalog from './catalog/Catalog.resource';
import * as catalogRecord from './catalogRecord/CatalogRecord.resource';
import { readRetrySettings } from './common';
import type { OperationMap } from './node.type';
import * as report from './report/Report.resource';
import * as skill from './skill/Skill.resource';
import * as transaction from './transaction/Transaction.resource';
import * as transactionDocument from './transactionDocument/TransactionDocument.resource';

/**
 * Every resource and its operations, taken from the resource modules: the Operation picker of each
 * resource is built from the same map (see `resourceDescription`), so an operation the user can
 * pick always has an `execute`, and the Resource picker below must label every resource.
 *
 * Parameters read once per execution, from the first item: Resource, Operation, Request Options,
 * Concurrency, and the settings that shape a whole run (Delete Records' Mode, Batch Size and
 * options). They decide how items are grouped and scheduled, so they cannot differ per item. Every
 * other parameter is read per item, so expressions such as `{{ $json.catalog }}` work.
 */
export const resources = {
	catalog: catalog.operations,
	catalogRecord: catalogRecord.operations,
	report: report.operations,
	skill: skill.operations,
	transaction: transaction.operations,
	transactionDocument: transactionDocument.operations,
} satisfies Record<string, OperationMap>;

export type ResourceName = keyof typeof resources;

const RESOURCE_NAMES: Record<ResourceName, string> = {
	catalog: 'Catalog',
	catalogRecord: 'Catalog Record',
	report: 'Report',
	skill: 'Skill',
	transaction: 'Transaction',
	transactionDocument: 'Transaction Document',
};

export const resourceOptions: INodePropertyOptions[] = (
	Object.keys(RESOURCE_NAMES) as ResourceName[]
)
	.map((value) => ({ name: RESOURCE_NAMES[value], value }))
	.sort((a, b) => a.name.localeCompare(b.name));

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	// Values come from saved workflows and expressions, so an unknown one is still possible.
	const handler = (resources as Record<string, OperationMap>)[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not known for the resource "${resource}"`,
		);
	}
	const client = new VantageClient(this, readRetrySettings(this));
	return [await handler.execute.call(this, items, client)];
}
