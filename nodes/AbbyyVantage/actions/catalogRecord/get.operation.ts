import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import { recordFields } from '../../helpers/recordValues';
import { requirePathParameter } from '../../helpers/validation';
import { endpoints, type VantageClient } from '../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../params/concurrency';
import { catalogProperty, readCatalogId } from '../catalog/catalogId';

const CONCURRENCY = { max: 32, what: 'records' };

const properties: INodeProperties[] = [
	catalogProperty,
	{
		displayName: 'Record ID',
		name: 'recordId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. vendor-1001',
	},
	concurrencyOnlyOptions(CONCURRENCY),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalogRecord'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const catalogId = readCatalogId(this, itemIndex);
			const recordId = requirePathParameter(
				this,
				itemIndex,
				'Record ID',
				this.getNodeParameter('recordId', itemIndex),
				{ trim: false },
			);
			const record = await client.request<IDataObject | undefined>({
				...endpoints.getRecord(catalogId, recordId),
				itemIndex,
				action: `reading record "${recordId}" of catalog "${catalogId}"`,
				hints: {
					404: 'No record with this ID in the catalog (or no such catalog: its ID is its name).',
				},
			});
			return {
				json: {
					catalogId,
					id: (record?.id as string) ?? recordId,
					fields: recordFields(record?.fields),
				},
			};
		},
		concurrency,
	);
}
