import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { VantageClient } from '../transport';
import * as catalog from './catalog/Catalog.resource';
import * as catalogRecord from './catalogRecord/CatalogRecord.resource';
import { readRetrySettings } from '../params/requestOptions';
import type { OperationMap, OperationTable } from './node.type';
import * as report from './report/Report.resource';
import * as skill from './skill/Skill.resource';
import * as tenant from './tenant/Tenant.resource';
import * as transaction from './transaction/Transaction.resource';
import * as transactionDocument from './transactionDocument/TransactionDocument.resource';

/**
 * Every resource: its label and its module (operations and their parameters). The Resource
 * picker, the node's parameters and the router's map below all come from this one table, so a
 * resource cannot be listed without its operations, nor an operation be picked without an
 * `execute` (each resource's Operation picker is built from the same map; see
 * `resourceDescription`).
 *
 * The one list of parameters read once per execution, from the first item: Resource, Operation,
 * Request Options, every operation's Concurrency, and the settings that shape a whole run —
 * Catalog Record → Delete's Mode and Options (Batch Size, Skip Invalid IDs, reindex), Add's and
 * Sync's Mode and Options (Batch Size, Dry Run, Max Share to Delete, reindex), Process Document's
 * Transactions. They decide how items are grouped, batched and scheduled, so they cannot differ
 * per item. Every other parameter is read per item, so expressions such as `{{ $json.catalog }}`
 * work; Add and Sync evaluate a column-mapping parameter that holds no expression only once
 * (`perItemReader`): it is the same for every item, and 200 000 evaluations cost seconds.
 */
const RESOURCES = {
	catalog: { name: 'Catalog', module: catalog },
	catalogRecord: { name: 'Catalog Record', module: catalogRecord },
	report: { name: 'Report', module: report },
	skill: { name: 'Skill', module: skill },
	tenant: { name: 'Tenant', module: tenant },
	transaction: { name: 'Transaction', module: transaction },
	transactionDocument: { name: 'Transaction Document', module: transactionDocument },
} satisfies Record<string, { name: string; module: ResourceModule }>;

interface ResourceModule {
	/** Each operation's module and label (`<Resource>.resource.ts`). */
	table: OperationTable;
	operations: OperationMap;
	description: INodeProperties[];
}

type Table = typeof RESOURCES;
export type ResourceName = keyof Table;

/** Each resource's operations, keyed as the Resource and Operation parameters name them. */
export const resources = Object.fromEntries(
	Object.entries(RESOURCES).map(([resource, { module }]) => [resource, module.operations]),
) as { [R in ResourceName]: Table[R]['module']['operations'] };

/** Each resource's table: every operation's module and label, the Operation picker's source. */
export const operationTables = Object.fromEntries(
	Object.entries(RESOURCES).map(([resource, { module }]) => [resource, module.table]),
) as { [R in ResourceName]: Table[R]['module']['table'] };

export const resourceOptions: INodePropertyOptions[] = Object.entries(RESOURCES)
	.map(([value, { name }]) => ({ name, value }))
	.sort((a, b) => a.name.localeCompare(b.name));

/** Every resource's Operation picker and operation parameters, for the node's description. */
export const resourceProperties: INodeProperties[] = Object.values(RESOURCES).flatMap(
	({ module }) => module.description,
);

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
