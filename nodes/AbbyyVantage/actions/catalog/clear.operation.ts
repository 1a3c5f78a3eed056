import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { invalid } from '../../helpers/errors';
import { runPreparedPerItem, type CreatedBy } from '../../helpers/items';
import { endpoints, type VantageClient } from '../../transport';
import { CATALOG_HINTS, readCatalog } from '../../vantage/catalogs';
import { catalogProperty, readCatalogId } from './catalogId';
import { count } from '../../helpers/text';

const properties: INodeProperties[] = [
	catalogProperty,
	{
		displayName: 'Delete All Records',
		name: 'confirm',
		type: 'boolean',
		default: false,
		description:
			'Whether you understand that every record of the catalog is deleted and that this cannot be undone. Nothing is sent unless this is on.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalog'], operation: ['clear'] } },
	properties,
);

/** What a finished item did, named in the error when a later item stops the run. */
const cleared: CreatedBy = ({ json }) =>
	`clear of catalog "${String(json.catalogId)}"` +
	(typeof json.recordsRemoved === 'number'
		? ` (${count(json.recordsRemoved, 'record')} removed)`
		: '');

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => {
			const catalogId = readCatalogId(this, itemIndex);
			if (this.getNodeParameter('confirm', itemIndex, false) !== true) {
				throw invalid(
					this,
					itemIndex,
					`Clear of catalog "${catalogId}" was not confirmed: turn on Delete All Records`,
					'Clearing deletes every record and cannot be undone.',
				);
			}
			return catalogId;
		},
		async (catalogId, itemIndex) => {
			// The row count just before clearing is what the clear removes (ClearCatalog reports nothing).
			const before = await readCatalog(
				client,
				catalogId,
				itemIndex,
				`reading catalog "${catalogId}" before clearing it`,
			);
			await client.request({
				...endpoints.clearCatalog(catalogId),
				ignoreBody: true,
				itemIndex,
				action: `clearing catalog "${catalogId}"`,
				hints: CATALOG_HINTS,
			});
			return {
				json: {
					catalogId,
					cleared: true,
					recordsRemoved: typeof before.rowCount === 'number' ? before.rowCount : null,
				},
			};
		},
		1,
		cleared,
	);
}
