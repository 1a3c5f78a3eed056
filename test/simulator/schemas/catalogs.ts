/**
 * Processing v1, Catalogs and CatalogRecords (test/fixtures/openapi/vantage-processing-v1.json):
 * every catalog request and response body, checked against the OpenAPI components of the same name
 * by `../contract.test.ts`.
 */
import { z } from 'zod/v4';

import { dateTime, uuid } from './common';

export const ColumnType = z.enum(['Text', 'Double', 'Integer', 'Date']);
export type ColumnType = z.infer<typeof ColumnType>;
export const ReindexState = z.enum(['InProgress', 'Failed', 'Completed']);
export type ReindexState = z.infer<typeof ReindexState>;

const RecordFields = z.record(z.string(), z.array(z.string()));

export const RecordModel = z.strictObject({ id: z.string().min(1), fields: RecordFields });
/** AddRecords: 1 to 5000 records (the vendor's 400: "Wrong number of records"). */
export const AddRecordsRequest = z
	.array(RecordModel)
	.min(1, 'Wrong number of records: send 1 to 5000.')
	.max(5000, 'Wrong number of records: send 1 to 5000.');
/** DeleteRecords: 1 to 5000 record ids. */
export const DeleteRecordsRequest = z
	.array(z.string())
	.min(1, 'Wrong number of record ids: send 1 to 5000.')
	.max(5000, 'Wrong number of record ids: send 1 to 5000.');

export const AddRecordsResultResult = z.strictObject({
	insertedRowCount: z.int32(),
	errorRows: z.record(z.string(), z.array(z.string())),
});

export const CatalogListItemDto = z.strictObject({
	id: z.string().min(1),
	name: z.string().min(1),
});

export const ColumnDto = z.strictObject({
	name: z.string().min(1),
	type: ColumnType,
	notEmpty: z.boolean(),
});
export type ColumnDto = z.infer<typeof ColumnDto>;

export const CatalogDto = z.strictObject({
	id: z.string().min(1),
	name: z.string().min(1),
	columns: z.array(ColumnDto),
	rowCount: z.int32(),
});

export const RecordDto = z.strictObject({ id: z.string().min(1), fields: RecordFields });

export const ReindexOperationResult = z.strictObject({
	id: uuid.optional(),
	indexModelId: uuid.nullable().optional(),
	workflowProcessingId: uuid.nullable().optional(),
	created: dateTime.optional(),
	completed: dateTime.nullable().optional(),
	currentState: ReindexState.optional(),
});

/** OpenAPI component name → zod schema, for the contract test. */
export const catalogComponents = {
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.ColumnType': ColumnType,
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.ReindexState': ReindexState,
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.Requests.RecordModel': RecordModel,
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.Results.AddRecordsResultResult':
		AddRecordsResultResult,
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.Results.CatalogListItemDto': CatalogListItemDto,
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.Results.CatalogDto': CatalogDto,
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.Results.ColumnDto': ColumnDto,
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.Results.RecordDto': RecordDto,
	'Abbyy.Vantage.PublicApi.Contract.Catalogs.Results.ReindexOperationResult':
		ReindexOperationResult,
} as const;

/** Request bodies whose schema is inline in the OpenAPI document, by POST path. */
export const catalogRequestBodies = {
	'/api/publicapi/v1/catalogs/{catalogId}/records/delete': DeleteRecordsRequest,
	'/api/publicapi/v1/catalogs/{catalogId}/records': AddRecordsRequest,
} as const;
