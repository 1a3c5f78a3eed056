import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	JsonObject,
} from 'n8n-workflow';

import { apiError, type NodeContext } from '../helpers/errors';
import type { ItemOutput } from '../helpers/items';
import { boundText, decodeText } from '../helpers/documentText';
import { shapeClassification, shapeDocument, splitRows } from '../helpers/extractedData';
import { decideReview, type ReviewRules } from '../helpers/reviewDecision';
import { fileStem, safeFileName, withSuffix } from '../helpers/fileNames';
import type { VantageClient } from '../transport';
import { sourcePairing, type PairedSources } from './pairing';
import { downloadTransactionFile, type TransactionInfo, type Transactions } from './transactions';

/** ResultFileType of the OpenAPI document, with the MIME type each is downloaded as. */
export const RESULT_TYPES: Record<string, string> = {
	Json: 'application/json',
	FieldsJson: 'application/json',
	OcrJson: 'application/json',
	Pdf: 'application/pdf',
	Text: 'text/plain',
	Docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	Xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	Pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
	Csv: 'text/csv',
	Xml: 'application/xml',
	Alto: 'application/xml',
	Html: 'text/html',
	Tiff: 'image/tiff',
	Jpeg: 'image/jpeg',
	Png: 'image/png',
	FieldPicture: 'image/png',
};

export interface ResultOptions {
	includeFieldDetails: boolean;
	splitTable?: string;
	/** Result file types to attach as binary fields. */
	downloadTypes: string[] | 'all';
	deleteAfterReading: boolean;
	/** Needs Review's rules: each document marked `needsReview` with `reviewReasons`. */
	review?: ReviewRules;
	/** Include Document Text: each document's plain text (its `Text` result files) as `text`. */
	documentText?: boolean;
}

interface ResultFile {
	fileId: string;
	fileName: string;
	type: string;
}

function resultFilesOf(document: IDataObject): ResultFile[] {
	return (Array.isArray(document.resultFiles) ? document.resultFiles : []).filter(
		(f): f is ResultFile =>
			!!f && typeof f === 'object' && typeof (f as ResultFile).fileId === 'string',
	);
}

/** "FieldsJson" → "fieldsJson": the binary field a result file goes to. */
function binaryKey(type: string, taken: IBinaryKeyData): string {
	const base = type ? type[0].toLowerCase() + type.slice(1) : 'file';
	let key = base;
	for (let n = 2; key in taken; n++) key = `${base}_${n}`;
	return key;
}

/** A document's result files are named after its first source file, when that is known. */
function resultFileStem({ pairing, sourceFiles }: PairedSources): string {
	return pairing !== 'unknown' && sourceFiles.length ? fileStem(sourceFiles[0]) : 'document';
}

/**
 * A document's result files as binary fields named after their type ("pdf", "xlsx"), each file
 * named `<stem>-doc<n>-<Vantage's name>`.
 */
async function resultBinaries(
	ctx: ResultsContext,
	files: ResultFile[],
	bytesOf: (file: ResultFile) => Promise<Buffer>,
	stem: string,
	position: number,
): Promise<IBinaryKeyData> {
	const binary: IBinaryKeyData = {};
	for (const file of files) {
		const bytes = await bytesOf(file);
		binary[binaryKey(file.type, binary)] = await ctx.helpers.prepareBinaryData(
			bytes,
			safeFileName(`${stem}-doc${position + 1}-${file.fileName}`),
			RESULT_TYPES[file.type] ?? 'application/octet-stream',
		);
	}
	return binary;
}

/** What shaping results needs from n8n: the node, and storing binary data. */
export type ResultsContext = NodeContext & {
	helpers: Pick<IExecuteFunctions['helpers'], 'prepareBinaryData'>;
};

/**
 * A document's plain text for `text` (Include Document Text): its `Text` result files, decoded and
 * bounded (../helpers/documentText.ts), with `textNote` when it was cut or there is none.
 */
async function documentTextOf(
	files: ResultFile[],
	bytesOf: (file: ResultFile) => Promise<Buffer>,
	failed: boolean,
): Promise<IDataObject> {
	const textFiles = files.filter((f) => f.type === 'Text');
	if (!textFiles.length) {
		return {
			text: null,
			textNote: failed
				? 'The transaction has no results, so no text'
				: 'Vantage returned no Text result file for this document: the skill must export Text for it to be here',
		};
	}
	const parts: string[] = [];
	for (const file of textFiles) parts.push(decodeText(await bytesOf(file)));
	const { text, note } = boundText(parts.join('\n\n'));
	return note ? { text, textNote: note } : { text };
}

/**
 * One output item per document of a Processed transaction (or per table row with Split Table
 * Into Items): its fields as plain JSON, classification, business-rule errors, the source files
 * it came from and how they were found (`pairing`, see ./pairing.ts) and, on request, whether it
 * needs review and why (`needsReview`, `reviewReasons`, decided per document: its rows share it),
 * its plain text (`text`) and its result files as binary fields, named after the source file and
 * the document (`<stem>-doc<n>-<Vantage's name>`). Each result file is downloaded once.
 */
export async function documentItems(
	ctx: ResultsContext,
	client: VantageClient,
	info: TransactionInfo,
	options: ResultOptions,
	itemIndex: number | undefined,
	extra: IDataObject = {},
): Promise<ItemOutput[]> {
	const transactionId = info.id;
	const download = async (file: ResultFile) =>
		await downloadTransactionFile(
			client,
			transactionId,
			file.fileId,
			itemIndex,
			`downloading result file "${file.fileName}" of transaction ${transactionId}`,
		);
	const pairSources = sourcePairing(client, info, itemIndex);
	const wanted = (file: ResultFile) =>
		options.downloadTypes === 'all' || options.downloadTypes.includes(file.type);
	const documents = Array.isArray(info.documents) ? info.documents : [];
	// The error a trigger's item carries for a transaction that did not end Processed.
	const transactionError = typeof extra.error === 'string' && extra.error ? extra.error : null;
	const outputs: ItemOutput[] = [];
	// A Processed transaction without documents still gets an item: nothing disappears silently.
	for (const [position, document] of (documents.length ? documents : [{}]).entries()) {
		const documentId = typeof document.id === 'string' ? document.id : null;
		const files = resultFilesOf(document);
		const jsonFile = files.find((f) => f.type === 'Json');
		let shaped: ReturnType<typeof shapeDocument>;
		let result: unknown;
		const bytesOf = new Map<ResultFile, Buffer>();
		const read = async (file: ResultFile) => {
			let bytes = bytesOf.get(file);
			if (!bytes) {
				bytes = await download(file);
				bytesOf.set(file, bytes);
			}
			return bytes;
		};
		if (jsonFile) {
			result = parseResult(ctx, await read(jsonFile), transactionId, jsonFile, itemIndex);
			shaped = shapeDocument(result, documentId ?? undefined, position);
		}
		const paired = await pairSources(documentId, result);
		const { pairing, sourceFiles } = paired;
		const text = options.documentText
			? await documentTextOf(files, read, transactionError !== null)
			: undefined;
		const binary = await resultBinaries(
			ctx,
			files.filter(wanted),
			read,
			resultFileStem(paired),
			position,
		);
		const fields = shaped?.fields ?? {};
		const businessRulesErrors = Array.isArray(document.businessRulesErrors)
			? document.businessRulesErrors
			: [];
		const decision = options.review
			? decideReview(
					{
						fields,
						fieldDetails: shaped?.fieldDetails ?? {},
						classification: document.classification,
						businessRulesErrors,
						transactionError,
					},
					options.review,
				)
			: undefined;
		// `fields` is added second (after the ids and status) so that the data is at the top of the
		// item, the review decision right after it.
		const base: IDataObject = {
			transactionId,
			documentId,
			status: info.status,
			fields: {},
			...decision,
			skill: shaped?.skill ?? null,
			classification: shapeClassification(document.classification),
			businessRulesErrors,
			sourceFiles,
			pairing,
			resultFiles: files.map(({ fileId, fileName, type }) => ({ fileId, fileName, type })),
			...(info.manualReviewLink ? { manualReviewLink: info.manualReviewLink } : {}),
			...extra,
			...text,
		};
		const rows = options.splitTable
			? splitRows(fields, options.splitTable)
			: [{ fields, row: undefined as number | null | undefined }];
		for (const { fields: rowFields, row } of rows) {
			const json: IDataObject = { ...base, fields: rowFields };
			if (row !== undefined) json.tableRow = row;
			if (options.includeFieldDetails) json.fieldDetails = shaped?.fieldDetails ?? {};
			outputs.push(Object.keys(binary).length ? { json, binary } : { json });
		}
	}
	return outputs;
}

/**
 * Result file names unique across the output (a folder they are written to, a ZIP, an e-mail):
 * a name already given to another file gets "-2", "-3"… before its extension, in output order.
 * Rows of one document (Split Table Into Items) share its files and keep their names.
 */
export function uniqueResultFileNames(items: Array<{ binary?: IBinaryKeyData }>): void {
	const used = new Set<string>();
	const named = new Set<IBinaryData>();
	for (const item of items) {
		for (const data of Object.values(item.binary ?? {})) {
			if (named.has(data) || typeof data.fileName !== 'string') continue;
			named.add(data);
			const original = data.fileName;
			let name = original;
			for (let n = 2; used.has(name.toLowerCase()); n++) name = withSuffix(original, n);
			used.add(name.toLowerCase());
			data.fileName = name;
		}
	}
}

function parseResult(
	ctx: NodeContext,
	bytes: Buffer,
	transactionId: string,
	file: ResultFile,
	itemIndex: number | undefined,
): unknown {
	try {
		return JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
	} catch {
		throw apiError(
			ctx.getNode(),
			itemIndex,
			{ transactionId, fileId: file.fileId } as JsonObject,
			`The result file "${file.fileName}" of transaction ${transactionId} is not valid JSON`,
			{ output: { transactionId } },
		);
	}
}

/**
 * The items of a processed transaction (Get Results, Process Document), then the transaction
 * deleted when Delete After Reading is on: the outcome is written into every item.
 */
export async function readResults(
	ctx: ResultsContext,
	client: VantageClient,
	transactions: Pick<Transactions, 'deleteAfterReading'>,
	info: TransactionInfo,
	options: ResultOptions,
	itemIndex: number,
	extra: IDataObject = {},
): Promise<ItemOutput[]> {
	const outputs = await documentItems(ctx, client, info, options, itemIndex, extra);
	if (options.deleteAfterReading) {
		const deleted = await transactions.deleteAfterReading(info.id, itemIndex);
		for (const output of outputs) Object.assign(output.json, deleted);
	}
	return outputs;
}
