import type {
	IDataObject,
	ILoadOptionsFunctions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { VantageClient } from '../transport';
import { readCatalog } from '../vantage/catalogs';

/** The mapper's field for the record id (not a catalog column: ids are chosen by the caller). */
export const RECORD_ID_FIELD = 'recordId';

const FIELD_TYPES: Record<string, ResourceMapperField['type']> = {
	Text: 'string',
	Double: 'number',
	Integer: 'number',
	Date: 'dateTime',
};

/**
 * The columns of the chosen catalog for the Columns mapper (GetCatalog), after a `recordId`
 * field: Add takes the record id from it; Sync from the field chosen under Record ID From (any
 * field that can be matched on). Every field is shown by its ID, the name Map Automatically looks
 * for in the input: n8n's Record ID From shows the chosen field's ID, not its display name.
 */
export async function getCatalogColumns(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const catalogId = this.getNodeParameter('catalogId', undefined, { extractValue: true });
	if (typeof catalogId !== 'string' || catalogId.trim() === '') return { fields: [] };
	const catalog = await readCatalog(
		new VantageClient(this),
		catalogId,
		undefined,
		`reading the columns of catalog "${catalogId}"`,
	);
	const columns = Array.isArray(catalog.columns) ? (catalog.columns as IDataObject[]) : [];
	const fields: ResourceMapperField[] = [
		{
			id: RECORD_ID_FIELD,
			displayName: RECORD_ID_FIELD,
			required: true,
			defaultMatch: true,
			canBeUsedToMatch: true,
			display: true,
			type: 'string',
		},
	];
	for (const column of columns) {
		if (typeof column.name !== 'string' || column.name === RECORD_ID_FIELD) continue;
		fields.push({
			id: column.name,
			displayName: column.name,
			required: column.notEmpty === true,
			defaultMatch: false,
			canBeUsedToMatch: column.type === 'Text' || column.type === 'Integer',
			display: true,
			type: FIELD_TYPES[String(column.type)] ?? 'string',
		});
	}
	return { fields };
}
