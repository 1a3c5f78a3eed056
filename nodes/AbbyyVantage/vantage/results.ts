import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	JsonObject,
} from 'n8n-workflow';

import { apiError, type NodeContext } from '../helpers/errors';
import type { ItemOutput } from '../helpers/items';
import {
	namedSourceFiles,
	shapeClassification,
	shapeDocument,
	splitRows,
} from '../helpers/results';
import { fileStem, safeFileName, withSuffix } from '../helpers/fileNames';
import { endpoints, type VantageClient } from '../transport';
import { TRANSACTION_HINTS, type TransactionInfo, type Transactions } from './transactions';

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

/** What shaping results needs from n8n: the node, and storing binary data. */
export type ResultsContext = NodeContext & {
	helpers: Pick<IExecuteFunctions['helpers'], 'prepareBinaryData'>;
};

/**
 * The source files of each document (by lower-case document id), from GetTransactionDocuments
 * ("Returns the documents that belong to the transaction, including the files attached to each
 * document … before or after processing", OpenAPI document). A Process skill that splits or
 * merges files gives its documents ids of their own, which this list need not know.
 */
async function listedSources(
	client: VantageClient,
	transactionId: string,
	itemIndex: number | undefined,
): Promise<Map<string, string[]>> {
	const listed = await client.request<IDataObject[] | undefined>({
		...endpoints.getTransactionDocuments(transactionId),
		itemIndex,
		action: `reading which files each document of transaction ${transactionId} came from`,
		hints: TRANSACTION_HINTS,
	});
	const sources = new Map<string, string[]>();
	for (const entry of Array.isArray(listed) ? listed : []) {
		const names = (Array.isArray(entry?.sourceFiles) ? entry.sourceFiles : [])
			.map((file) => (file as { name?: unknown } | null)?.name)
			.filter((name): name is string => typeof name === 'string' && name !== '');
		if (typeof entry?.documentId === 'string' && names.length) {
			sources.set(entry.documentId.toLowerCase(), names);
		}
	}
	return sources;
}

/**
 * How a document's `sourceFiles` were found (the `pairing` key; Process Document pairs a One for
 * All Items document with the items those files came from):
 * - `resultJson`: its `Json` result file names them (ExtractedDataTransaction `SourceFiles`);
 * - `transactionDocuments`: Vantage's list of the transaction's documents has it with its files;
 * - `transaction`: the transaction has one file, or one document: all of its files;
 * - `unknown`: nothing says; all of the transaction's files (and, in Process Document, items).
 */
export type Pairing = 'resultJson' | 'transactionDocuments' | 'transaction' | 'unknown';

/**
 * One output item per document of a Processed transaction (or per table row with Split Table
 * Into Items): its fields as plain JSON, classification, business-rule errors, the source files
 * it came from and how they were found (`pairing`) and, on request, its result files as binary
 * fields, named after the source file and the document (`<stem>-doc<n>-<Vantage's name>`).
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
		await client.request<Buffer>({
			...endpoints.downloadFile(transactionId, file.fileId),
			binary: true,
			itemIndex,
			action: `downloading result file "${file.fileName}" of transaction ${transactionId}`,
			hints: TRANSACTION_HINTS,
		});
	const documents = Array.isArray(info.documents) ? info.documents : [];
	const transactionFiles = (info.sourceFiles ?? []).filter(
		(f): f is { id: string; name: string } =>
			!!f && typeof f.id === 'string' && typeof f.name === 'string',
	);
	const allFiles = transactionFiles.map((f) => f.name);
	const certain = documents.length < 2 || allFiles.length < 2;
	// Asked once, and only for a document whose result JSON names no files.
	let listed: Promise<Map<string, string[]>> | undefined;
	const outputs: ItemOutput[] = [];
	// A Processed transaction without documents still gets an item: nothing disappears silently.
	for (const [position, document] of (documents.length ? documents : [{}]).entries()) {
		const documentId = typeof document.id === 'string' ? document.id : null;
		const files = resultFilesOf(document);
		const jsonFile = files.find((f) => f.type === 'Json');
		const wanted = (file: ResultFile) =>
			options.downloadTypes === 'all' || options.downloadTypes.includes(file.type);
		let shaped: ReturnType<typeof shapeDocument>;
		let named: string[] = [];
		const bytesOf = new Map<ResultFile, Buffer>();
		if (jsonFile) {
			const bytes = await download(jsonFile);
			const result = parseResult(ctx, bytes, transactionId, jsonFile, itemIndex);
			shaped = shapeDocument(result, documentId ?? undefined, position);
			named = namedSourceFiles(result, transactionFiles);
			bytesOf.set(jsonFile, bytes);
		}
		let pairing: Pairing;
		let sourceFiles: string[];
		if (named.length) {
			[pairing, sourceFiles] = ['resultJson', named];
		} else if (certain) {
			[pairing, sourceFiles] = ['transaction', allFiles];
		} else {
			listed ??= listedSources(client, transactionId, itemIndex);
			const found = documentId ? (await listed).get(documentId.toLowerCase()) : undefined;
			[pairing, sourceFiles] = found ? ['transactionDocuments', found] : ['unknown', allFiles];
		}
		const stem =
			pairing !== 'unknown' && sourceFiles.length ? fileStem(sourceFiles[0]) : 'document';
		const binary: IBinaryKeyData = {};
		for (const file of files.filter(wanted)) {
			const bytes = bytesOf.get(file) ?? (await download(file));
			binary[binaryKey(file.type, binary)] = await ctx.helpers.prepareBinaryData(
				bytes,
				safeFileName(`${stem}-doc${position + 1}-${file.fileName}`),
				RESULT_TYPES[file.type] ?? 'application/octet-stream',
			);
		}
		// `fields` is added second (after the ids and status) so that the data is at the top of the item.
		const base: IDataObject = {
			transactionId,
			documentId,
			status: info.status,
			fields: {},
			skill: shaped?.skill ?? null,
			classification: shapeClassification(document.classification),
			businessRulesErrors: Array.isArray(document.businessRulesErrors)
				? document.businessRulesErrors
				: [],
			sourceFiles,
			pairing,
			resultFiles: files.map(({ fileId, fileName, type }) => ({ fileId, fileName, type })),
			...(info.manualReviewLink ? { manualReviewLink: info.manualReviewLink } : {}),
			...extra,
		};
		const fields = shaped?.fields ?? {};
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
