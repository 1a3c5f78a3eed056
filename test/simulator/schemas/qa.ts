/**
 * The QA reports' query parameters (Reporting v2: GetDocumentsAsCsv, GetFieldsAsCsv), as the
 * vendor's OpenAPI document declares them; `test/simulator/contract.test.ts` compares them.
 */
import { z } from 'zod/v4';

import { dateTime } from './common';

/** Parameters both reports take. `startDate` is a plain string in the document (no format). */
const reportFilters = {
	startDate: z.string(),
	endDate: dateTime.optional(),
	imageType: z.string().optional(),
	imageColority: z.string().optional(),
	imageSource: z.string().optional(),
	wasCorrectedInManualReview: z.string().optional(),
	wasDocumentTypeChangedInManualReview: z.string().optional(),
};

/** GetDocumentsAsCsv's query: `processSkillId` optional. */
export const GetDocumentsAsCsvQuery = z.object({
	...reportFilters,
	processSkillId: z.string().optional(),
});

/** GetFieldsAsCsv's query: `processSkillId` required, `documentSkillId` too may be given. */
export const GetFieldsAsCsvQuery = z.object({
	...reportFilters,
	processSkillId: z.string(),
	documentSkillId: z.string().optional(),
});

/** Query schemas by the path of their operation, for the contract test (see `reportQueries`). */
export const qaReportQueries = {
	'/api/reporting/v2/qa/process-skills/documents': GetDocumentsAsCsvQuery,
	'/api/reporting/v2/qa/process-skills/fields': GetFieldsAsCsvQuery,
} as const;
