/**
 * The simulator's request and response contract, as strict as the vendor's OpenAPI documents
 * (`additionalProperties: false`, enums, bounds). `test/simulator/contract.test.ts` compares each
 * schema here with the component of the same name in the vendor's documents, copied verbatim to
 * `test/fixtures/openapi/` (vantage-processing-v1.json, vantage-reporting-v2.json).
 */
import { z } from 'zod/v4';

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
// ASP.NET's System.Text.Json reads ISO 8601 date-times with or without an offset, and bare dates.
const dateTime = z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()]);

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

// ---------- Processing v1: transactions ----------
export const SkillType = z.enum(['Classification', 'Document', 'Process', 'Ocr', 'Assembling']);
export type SkillType = z.infer<typeof SkillType>;

export const PreprocessingOperationSwitcher = z.enum(['Default', 'Yes', 'No']);

const KeyValue = z.strictObject({ key: z.string().min(1), value: z.string().min(1) });
export const TransactionRegistrationParameter = KeyValue;
export const TransactionSkillParameter = KeyValue;

export const TransactionCreateRequest = z.strictObject({
	skillId: z.string().min(1),
	generateMobileInputLink: z.boolean().optional(),
	registrationParameters: z.array(TransactionRegistrationParameter).max(10).nullable().optional(),
	skillParameters: z.array(TransactionSkillParameter).max(10).nullable().optional(),
});

export const ImageProcessingOptions = z.strictObject({
	autoCrop: PreprocessingOperationSwitcher.optional(),
	autoOrientation: PreprocessingOperationSwitcher.optional(),
});

export const TransactionDocumentCreateRequest = z.strictObject({
	index: z.int32().nullable().optional(),
	imageProcessingOptions: ImageProcessingOptions.optional(),
});

export const NewTransactionResult = z.strictObject({
	transactionId: uuid,
	mobileInputLink: z.string().nullable().optional(),
});

export const NewTransactionDocumentResult = z.strictObject({ documentId: uuid });

export const TransactionStatus = z.enum(['New', 'Processing', 'Processed', 'Failed', 'Canceled']);

export const FileDto = z.strictObject({ id: z.string().min(1), name: z.string().min(1) });

export const ResultFileType = z.enum([
	'Json',
	'Pdf',
	'Text',
	'Docx',
	'Xlsx',
	'OcrJson',
	'FieldsJson',
	'FieldPicture',
	'Xml',
	'Tiff',
	'Jpeg',
	'Csv',
	'Html',
	'Pptx',
	'Alto',
	'Png',
]);

export const ResultFileDto = z.strictObject({
	fileId: z.string().min(1),
	fileName: z.string().min(1),
	type: ResultFileType,
});

export const ClassDto = z.strictObject({
	id: z.string().nullable().optional(),
	name: z.string().nullable().optional(),
});

export const ClassificationConfidenceDto = z.strictObject({
	classId: z.string().min(1),
	className: z.string().min(1),
	confidence: z.int32(),
});

export const ClassificationDto = z.strictObject({
	isResultClassConfident: z.boolean(),
	resultClass: ClassDto,
	classConfidences: z.array(ClassificationConfidenceDto),
});

export const DocumentBusinessRulesErrorDto = z.strictObject({
	errorType: z.string().min(1),
	customMessage: z.string().nullable().optional(),
	ruleId: z.string().min(1),
	currentFieldId: z.string().min(1),
});

export const ExtractedDocumentDto = z.strictObject({
	id: uuid,
	resultFiles: z.array(ResultFileDto).nullable().optional(),
	classification: ClassificationDto.optional(),
	businessRulesErrors: z.array(DocumentBusinessRulesErrorDto).nullable().optional(),
});

export const TransactionDto = z.strictObject({
	id: uuid,
	status: TransactionStatus,
	manualReviewLink: z.string().nullable().optional(),
	documents: z.array(ExtractedDocumentDto).nullable().optional(),
	error: z.string().nullable().optional(),
	sourceFiles: z.array(FileDto).nullable().optional(),
});

export const SkillListItemDto = z.strictObject({
	id: z.string().min(1),
	name: z.string().min(1),
	type: SkillType.optional(),
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
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Requests.TransactionCreateRequest':
			TransactionCreateRequest,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Requests.TransactionDocumentCreateRequest':
			TransactionDocumentCreateRequest,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Requests.ImageProcessingOptions':
			ImageProcessingOptions,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Requests.PreprocessingOperationSwitcher':
			PreprocessingOperationSwitcher,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Requests.TransactionRegistrationParameter':
			TransactionRegistrationParameter,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Requests.TransactionSkillParameter':
			TransactionSkillParameter,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.NewTransactionResult':
			NewTransactionResult,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.NewTransactionDocumentResult':
			NewTransactionDocumentResult,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.TransactionDto': TransactionDto,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.FileDto': FileDto,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.ExtractedDocumentDto':
			ExtractedDocumentDto,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.ResultFileDto': ResultFileDto,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.ResultFileType': ResultFileType,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.ClassificationDto': ClassificationDto,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.ClassDto': ClassDto,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.ClassificationConfidenceDto':
			ClassificationConfidenceDto,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.Results.DocumentBusinessRulesErrorDto':
			DocumentBusinessRulesErrorDto,
		'Abbyy.Vantage.PublicApi.Contract.Transactions.TransactionStatus': TransactionStatus,
		'Abbyy.Vantage.PublicApi.Contract.Skills.SkillType': SkillType,
		'Abbyy.Vantage.PublicApi.Contract.Skills.Results.SkillListItemDto': SkillListItemDto,
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
