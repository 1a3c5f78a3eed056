/**
 * The simulator's request and response contract, as strict as the vendor's OpenAPI documents
 * (`additionalProperties: false`, enums, bounds). `test/simulator/contract.test.ts` compares each
 * schema here with the component of the same name in the vendor's documents, copied verbatim to
 * `test/fixtures/openapi/` (vantage-processing-v1.json, vantage-reporting-v2.json).
 */
import { z } from 'zod/v4';

import { dateTime, uuid } from './schemas/common';
import { catalogComponents, catalogRequestBodies } from './schemas/catalogs';
import { processingComponents } from './schemas/processing';
import { qaReportQueries } from './schemas/qa';

// Skills, transactions, documents and files live in ./schemas/processing.ts, catalogs and their
// records in ./schemas/catalogs.ts, the QA reports' queries in ./schemas/qa.ts, the invite in
// ./schemas/invites.ts.
export * from './schemas/catalogs';
export * from './schemas/invites';
export * from './schemas/processing';
export * from './schemas/qa';

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

/**
 * ListExportRequests' query: statuses (a repeated key), and the first and last day of creation
 * (`2025-11-05`). Each optional.
 */
export const ListExportRequestsQuery = z.object({
	statusFilter: z.array(z.string()).optional(),
	createdFrom: z.string().optional(),
	createdTo: z.string().optional(),
});

/** The Reporting API's query schemas by the path of their GET operation, for the contract test. */
export const reportQueries = {
	...qaReportQueries,
	'/api/reporting/v2/exports/transaction-steps': ListExportRequestsQuery,
} as const;

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
		...catalogComponents,
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
	processing: catalogRequestBodies,
} as const;
