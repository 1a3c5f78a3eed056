/**
 * Processing v1: skills, transactions, documents and files, as strict as the vendor's OpenAPI
 * document (test/fixtures/openapi/vantage-processing-v1.json); `../contract.test.ts` compares each
 * schema with the component of the same name.
 */
import { z } from 'zod/v4';

import { KeyValue, uuid } from './common';
import { CreateAdminInviteData } from './invites';

// ---------- skills ----------
export const SkillType = z.enum(['Classification', 'Document', 'Process', 'Ocr', 'Assembling']);
export type SkillType = z.infer<typeof SkillType>;
export const FieldType = z.enum([
	'Barcode',
	'Checkmark',
	'CheckmarkGroup',
	'Group',
	'Picture',
	'Text',
]);
export type FieldType = z.infer<typeof FieldType>;
export const TextFieldFormat = z.enum(['Text', 'Date', 'Amount', 'Number']);
export type TextFieldFormat = z.infer<typeof TextFieldFormat>;

export interface FieldDtoValue {
	name?: string | null;
	type?: FieldType;
	textFormat?: TextFieldFormat;
	isRepeatable?: boolean | null;
	children?: FieldDtoValue[] | null;
}

export const FieldDto: z.ZodType<FieldDtoValue> = z.strictObject({
	name: z.string().nullable().optional(),
	type: FieldType.optional(),
	textFormat: TextFieldFormat.optional(),
	isRepeatable: z.boolean().nullable().optional(),
	get children(): z.ZodOptional<z.ZodNullable<z.ZodArray<typeof FieldDto>>> {
		return z.array(FieldDto).nullable().optional();
	},
});

export const SkillClassDto = z.strictObject({
	id: z.string().nullable().optional(),
	name: z.string().nullable().optional(),
});
export const InnerSkillDto = z.strictObject({ id: z.string().nullable().optional() });

export const SkillDto = z.strictObject({
	id: z.string().nullable().optional(),
	name: z.string().nullable().optional(),
	type: SkillType.optional(),
	fields: z.array(FieldDto).nullable().optional(),
	classes: z.array(SkillClassDto).nullable().optional(),
	skills: z.array(InnerSkillDto).nullable().optional(),
});

export const SkillListItemDto = z.strictObject({
	id: z.string().min(1),
	name: z.string().min(1),
	type: SkillType.optional(),
});

// ---------- requests ----------
export const PreprocessingOperationSwitcher = z.enum(['Default', 'Yes', 'No']);
export const TransactionRegistrationParameter = KeyValue;
export const TransactionSkillParameter = KeyValue;
export const TransactionFileRegistrationParameter = KeyValue;
const registrationParameters = z
	.array(TransactionRegistrationParameter)
	.max(10)
	.nullable()
	.optional();
const skillParameters = z.array(TransactionSkillParameter).max(10).nullable().optional();
const fileParameters = z.array(TransactionFileRegistrationParameter).max(10).nullable().optional();

export const TransactionCreateRequest = z.strictObject({
	skillId: z.string().min(1),
	generateMobileInputLink: z.boolean().optional(),
	registrationParameters,
	skillParameters,
});

export const ImageProcessingOptions = z.strictObject({
	autoCrop: PreprocessingOperationSwitcher.optional(),
	autoOrientation: PreprocessingOperationSwitcher.optional(),
});
export type ImageProcessingOptions = z.infer<typeof ImageProcessingOptions>;

export const TransactionDocumentCreateRequest = z.strictObject({
	index: z.int32().nullable().optional(),
	imageProcessingOptions: ImageProcessingOptions.optional(),
});

/** Per-file metadata in the `Model` part of /files and launch uploads. */
export const TransactionFileMetadataDto = z.strictObject({
	index: z.int32().nullable().optional(),
	imageProcessingOptions: ImageProcessingOptions.optional(),
	registrationParameters: fileParameters,
});
/** Per-file metadata in the `Model` part of a document's sourceFiles upload (no image options). */
export const TransactionDocumentFileMetadataDto = z.strictObject({
	index: z.int32().nullable().optional(),
	registrationParameters: fileParameters,
});
export type FileMetadata = z.infer<typeof TransactionFileMetadataDto>;

/** `Model` of AddFilesToTransaction. */
export const TransactionMetadataDto = z.strictObject({
	files: z.array(TransactionFileMetadataDto).nullable().optional(),
});
/** `Model` of AddFilesToTransactionDocument. */
export const TransactionDocumentMetadataDto = z.strictObject({
	files: z.array(TransactionDocumentFileMetadataDto).nullable().optional(),
});
/** `Model` of LaunchTransaction. */
export const TransactionLaunchMetadataDto = z.strictObject({
	files: z.array(TransactionFileMetadataDto).nullable().optional(),
	registrationParameters,
	skillParameters,
});

/** Query values of the transaction lists. */
export const StageType = z.enum(['ManualReview', 'CustomActivity', 'Automatic']);
export const CompletedTransactionStatus = z.enum(['Processed', 'Cancelled', 'Failed']);
export const Parameter = z.strictObject({
	key: z.string().nullable().optional(),
	value: z.string().nullable().optional(),
});

// ---------- results ----------
export const NewTransactionResult = z.strictObject({
	transactionId: uuid,
	mobileInputLink: z.string().nullable().optional(),
});
export const CreatedTransactionResult = z.strictObject({ transactionId: uuid });
export const MobileInputLinkResult = z.strictObject({
	transactionId: uuid,
	mobileInputLink: z.string().nullable().optional(),
});
export const NewTransactionDocumentResult = z.strictObject({ documentId: uuid });

export const TransactionStatus = z.enum(['New', 'Processing', 'Processed', 'Failed', 'Canceled']);
export type TransactionStatus = z.infer<typeof TransactionStatus>;

export const FileDto = z.strictObject({ id: z.string().min(1), name: z.string().min(1) });

export const TransactionDocumentResult = z.strictObject({
	documentId: uuid,
	sourceFiles: z.array(FileDto),
});

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
export type ResultFileType = z.infer<typeof ResultFileType>;

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
export type ClassificationDto = z.infer<typeof ClassificationDto>;

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

export const TransactionRegistrationParameterDto = z.strictObject({
	key: z.string().nullable().optional(),
	value: z.string().nullable().optional(),
});
export const SkillParameterType = z.enum(['String', 'Catalog', 'Bool']);
export const TransactionSkillParameterDto = z.strictObject({
	key: z.string().nullable().optional(),
	value: z.string().nullable().optional(),
	type: SkillParameterType.optional(),
});

// ---------- transaction lists (no schema in the OpenAPI document) ----------
const ListParameter = z.strictObject({
	isReadOnly: z.boolean(),
	key: z.string(),
	value: z.string(),
});

/**
 * An item of GetActiveTransactions / GetCompletedTransactions. The OpenAPI document declares no
 * schema, only an observed example (`stage`, `createTimeUtc`, `transactionParameters`,
 * `fileParameters`, `documentCount`, `pageCount`); the simulator answers those members and, as
 * well, the names this project's brief asked for (`stageType`, `createdUtc`, `completedUtc`,
 * `skillName`, `registrationParameters`, `manualReviewLink`). Inferred, see routes/transactionLists.ts.
 */
export const TransactionListItem = z.strictObject({
	transactionId: uuid,
	skillId: z.string(),
	skillName: z.string(),
	skillVersion: z.int32(),
	status: TransactionStatus,
	createdUtc: z.string(),
	createTimeUtc: z.string(),
	completedUtc: z.string().optional(),
	stageType: StageType.optional(),
	stage: StageType.optional(),
	stageName: z.string().optional(),
	manualReviewLink: z.string().optional(),
	registrationParameters: z.array(z.strictObject({ key: z.string(), value: z.string() })),
	transactionParameters: z.array(ListParameter),
	fileParameters: z.array(ListParameter),
	documentCount: z.int32(),
	pageCount: z.int32().optional(),
});
export type TransactionListItem = z.infer<typeof TransactionListItem>;

export const TransactionListResponse = z.strictObject({
	items: z.array(TransactionListItem),
	totalItemCount: z.int32(),
});

const T = 'Abbyy.Vantage.PublicApi.Contract.Transactions';
const K = 'Abbyy.Vantage.PublicApi.Contract.Skills';

/** OpenAPI component name → zod schema, for the contract test. */
export const processingComponents = {
	[`${T}.Requests.TransactionCreateRequest`]: TransactionCreateRequest,
	[`${T}.Requests.TransactionDocumentCreateRequest`]: TransactionDocumentCreateRequest,
	[`${T}.Requests.ImageProcessingOptions`]: ImageProcessingOptions,
	[`${T}.Requests.PreprocessingOperationSwitcher`]: PreprocessingOperationSwitcher,
	[`${T}.Requests.TransactionRegistrationParameter`]: TransactionRegistrationParameter,
	[`${T}.Requests.TransactionSkillParameter`]: TransactionSkillParameter,
	[`${T}.Requests.TransactionFileRegistrationParameter`]: TransactionFileRegistrationParameter,
	[`${T}.Requests.TransactionFileMetadataDto`]: TransactionFileMetadataDto,
	[`${T}.Requests.TransactionDocumentFileMetadataDto`]: TransactionDocumentFileMetadataDto,
	[`${T}.Requests.TransactionMetadataDto`]: TransactionMetadataDto,
	[`${T}.Requests.TransactionDocumentMetadataDto`]: TransactionDocumentMetadataDto,
	[`${T}.Requests.TransactionLaunchMetadataDto`]: TransactionLaunchMetadataDto,
	[`${T}.Requests.StageType`]: StageType,
	[`${T}.Requests.CompletedTransactionStatus`]: CompletedTransactionStatus,
	[`${T}.Requests.Parameter`]: Parameter,
	[`${T}.Results.NewTransactionResult`]: NewTransactionResult,
	[`${T}.Results.CreatedTransactionResult`]: CreatedTransactionResult,
	[`${T}.Results.MobileInputLinkResult`]: MobileInputLinkResult,
	[`${T}.Results.NewTransactionDocumentResult`]: NewTransactionDocumentResult,
	[`${T}.Results.TransactionDocumentResult`]: TransactionDocumentResult,
	[`${T}.Results.TransactionDto`]: TransactionDto,
	[`${T}.Results.FileDto`]: FileDto,
	[`${T}.Results.ExtractedDocumentDto`]: ExtractedDocumentDto,
	[`${T}.Results.ResultFileDto`]: ResultFileDto,
	[`${T}.ResultFileType`]: ResultFileType,
	[`${T}.Results.ClassificationDto`]: ClassificationDto,
	[`${T}.Results.ClassDto`]: ClassDto,
	[`${T}.Results.ClassificationConfidenceDto`]: ClassificationConfidenceDto,
	[`${T}.Results.DocumentBusinessRulesErrorDto`]: DocumentBusinessRulesErrorDto,
	[`${T}.Results.TransactionRegistrationParameterDto`]: TransactionRegistrationParameterDto,
	[`${T}.Results.TransactionSkillParameterDto`]: TransactionSkillParameterDto,
	[`${T}.Results.SkillParameterType`]: SkillParameterType,
	[`${T}.TransactionStatus`]: TransactionStatus,
	[`${K}.SkillType`]: SkillType,
	[`${K}.TextFieldFormat`]: TextFieldFormat,
	[`${K}.Results.SkillListItemDto`]: SkillListItemDto,
	[`${K}.Results.SkillDto`]: SkillDto,
	[`${K}.Results.FieldDto`]: FieldDto,
	[`${K}.Results.SkillClassDto`]: SkillClassDto,
	[`${K}.Results.InnerSkillDto`]: InnerSkillDto,
	'Abbyy.Vantage.PublicApi.Contract.FieldType': FieldType,
} as const;

/** The `Model` part of each multipart upload, inline in the OpenAPI document's request body. */
export const multipartModels = {
	'/api/publicapi/v1/transactions/launch': TransactionLaunchMetadataDto,
	'/api/publicapi/v1/transactions/{transactionId}/files': TransactionMetadataDto,
	'/api/publicapi/v1/transactions/{transactionId}/documents/{documentId}/sourceFiles':
		TransactionDocumentMetadataDto,
	'/api/publicapi/v1/invites': CreateAdminInviteData,
} as const;
