/**
 * The simulator's request and response contract, as strict as the vendor's OpenAPI documents
 * (`additionalProperties: false`, enums, bounds). `test/simulator/contract.test.ts` compares each
 * schema here with the component of the same name in the vendor's documents, copied verbatim to
 * `test/fixtures/openapi/` (vantage-processing-v1.json, vantage-reporting-v2.json).
 */
import { z } from 'zod/v4';

import { dateTime, uuid } from './schemas/common';
import { processingComponents } from './schemas/processing';

// Skills, transactions, documents and files live in ./schemas/processing.ts.
export * from './schemas/processing';

// ---------- Reporting v2 ----------
export const ReportRequestStatus = z.enum([
	'New',
	'Queued',
	'Processing',
	'Succeeded',
	'Failed',
	'Cancelled',
]);
export type ReportRequestStatus = z.infer<typeof ReportRequestStatus>;

export const AsyncStepReportFilters = z.strictObject({
	skillId: z.string().nullable().optional(),
	transactionId: z.string().nullable().optional(),
	startDate: dateTime,
	endDate: dateTime.optional(),
});

export const CreateTransactionStepsCsvRequest = z.strictObject({
	filters: AsyncStepReportFilters.nullable().optional(),
	sendEmailNotification: z.boolean().optional(),
});

export const CreateReportRequestResponse = z.strictObject({ requestId: uuid.optional() });

export const ReportRequestStatusResponse = z.strictObject({
	status: ReportRequestStatus.optional(),
	totalFileCount: z.string().nullable().optional(),
	correlationId: z.string().nullable().optional(),
	filters: AsyncStepReportFilters.nullable().optional(),
});

export const ListReportRequestsResponseReportRequestDto = z.strictObject({
	requestId: uuid.optional(),
	status: ReportRequestStatus.optional(),
	completedUtc: z.string().nullable().optional(),
	createdUtc: dateTime.optional(),
	totalFileCount: z.string().nullable().optional(),
	filters: z.unknown().nullable().optional(),
});

export const ListReportRequestsResponse = z.strictObject({
	requests: z.array(ListReportRequestsResponseReportRequestDto).nullable().optional(),
});

// ---------- Processing v1: catalogs ----------
export const ColumnType = z.enum(['Text', 'Double', 'Integer', 'Date']);
export const ReindexState = z.enum(['InProgress', 'Failed', 'Completed']);
export type ReindexState = z.infer<typeof ReindexState>;

const RecordFields = z.record(z.string(), z.array(z.string()));

export const RecordModel = z.strictObject({ id: z.string().min(1), fields: RecordFields });
export const AddRecordsRequest = z.array(RecordModel).min(1).max(5000);
export const DeleteRecordsRequest = z.array(z.string()).min(1).max(5000);

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

// ---------- Errors ----------
// ProblemDetails allows extra members (`additionalProperties: {}`), e.g. `errors` and `traceId`.
export const ProblemDetails = z.looseObject({
	type: z.string().nullable().optional(),
	title: z.string().nullable().optional(),
	status: z.int32().nullable().optional(),
	detail: z.string().nullable().optional(),
	instance: z.string().nullable().optional(),
});

/** OpenAPI component name → zod schema, for the contract test. */
export const openApiComponents = {
	processing: {
		...processingComponents,
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
		'Microsoft.AspNetCore.Mvc.ProblemDetails': ProblemDetails,
	},
	reporting: {
		AsyncStepReportFilters,
		CreateTransactionStepsCsvRequest,
		CreateReportRequestResponse,
		ReportRequestStatus,
		ReportRequestStatusResponse,
		ListReportRequestsResponse,
		ListReportRequestsResponseReportRequestDto,
	},
} as const;

/** Request bodies of operations whose schema is inline in the OpenAPI document. */
export const inlineRequestBodies = {
	processing: {
		'/api/publicapi/v1/catalogs/{catalogId}/records/delete': DeleteRecordsRequest,
		'/api/publicapi/v1/catalogs/{catalogId}/records': AddRecordsRequest,
	},
} as const;
