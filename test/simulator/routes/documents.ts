/* eslint-disable @n8n/community-nodes/require-node-api-error --
 * Test infrastructure, never shipped: the simulator passes on HTTP problems, not n8n node errors. */
/**
 * Transaction documents and downloads (Processing v1): create, list, read and delete documents,
 * upload a document's source files, download source files and result files.
 *
 * Downloads answer application/octet-stream; so do their errors, as the OpenAPI document declares
 * (a ProblemDetails JSON text in an octet-stream response). A source file over 8 MB was kept only in
 * part: its download returns the first 64 KB, marked by `x-simulator-truncated: true` and
 * `x-simulator-size` / `x-simulator-sha256` headers giving the size and hash of what was uploaded.
 */
import { randomUUID } from 'node:crypto';

import {
	HttpProblem,
	notFound,
	problem,
	readJson,
	respond,
	route,
	type Reply,
	type RequestContext,
	type Route,
} from '../http';
import type { Processing } from '../processing/lifecycle';
import {
	filesOf,
	listedDocuments,
	type DocumentState,
	type SourceFile,
	type TransactionState,
} from '../processing/state';
import { receiveUpload } from '../processing/uploads';
import * as S from '../schemas';
import type { SimulatorCore } from '../server';
import { checkFiles } from './transactions';

const TX = '/api/publicapi/v1/transactions/:transactionId';
const DOC = `${TX}/documents/:documentId`;
const OCTET = 'application/octet-stream';

export class DocumentsArea {
	readonly routes: Route[];

	constructor(
		private readonly core: SimulatorCore,
		private readonly processing: Processing,
	) {
		this.routes = [
			route('CreateTransactionDocument', 'POST', `${TX}/documents`, (c) => this.create(c)),
			route('GetTransactionDocuments', 'GET', `${TX}/documents`, (c) => {
				const tx = this.find(c);
				return respond(
					200,
					S.TransactionDocumentResult.array(),
					listedDocuments(tx).map((d) => this.documentResult(tx, d)),
				);
			}),
			route('GetTransactionDocument', 'GET', DOC, (c) => {
				const tx = this.find(c);
				const doc = this.processing.store.document(c, tx);
				return respond(200, S.TransactionDocumentResult, this.documentResult(tx, doc));
			}),
			route('DeleteTransactionDocument', 'DELETE', DOC, (c) => this.remove(c)),
			route(
				'AddFilesToTransactionDocument',
				'POST',
				`${DOC}/sourceFiles`,
				(c) => this.addFiles(c),
				{
					stream: true,
				},
			),
			route(
				'DownloadTransactionDocumentSourceFile',
				'GET',
				`${DOC}/sourceFiles/:fileId/download`,
				(c) =>
					octet(() => {
						const tx = this.find(c);
						const doc = this.processing.store.document(c, tx);
						const file = filesOf(tx, doc).find((f) => f.id === c.params.fileId.toLowerCase());
						if (!file) throw notFound('Transaction or file not found');
						return sourceBytes(file);
					}),
			),
			route('DownloadFile', 'GET', `${TX}/files/:fileId/download`, (c) =>
				octet(() => this.download(c)),
			),
		];
	}

	private find(ctx: RequestContext): TransactionState {
		return this.processing.store.find(ctx);
	}

	private documentResult(tx: TransactionState, doc: DocumentState) {
		return {
			documentId: doc.id,
			sourceFiles: filesOf(tx, doc).map((f) => ({ id: f.id, name: f.name })),
		};
	}

	private create(ctx: RequestContext): Reply {
		const tx = this.find(ctx);
		const body = readJson(ctx, S.TransactionDocumentCreateRequest);
		const skill = this.processing.skills.get(tx.skillId);
		if (skill?.type !== 'Process' && tx.documents.length >= 1) {
			throw problem(400, 'Bad Request', 'Non-process skills allow only one document');
		}
		if (tx.status !== 'New')
			throw problem(400, 'Bad Request', 'Transaction has already been started');
		const doc = {
			id: randomUUID(),
			index: body.index ?? null,
			imageProcessingOptions: body.imageProcessingOptions,
			explicit: true,
			fileIds: [],
			page: 1,
			resultFiles: [],
			ruleErrors: [],
		};
		tx.documents.push(doc);
		this.processing.store.counts.documents++;
		return respond(201, S.NewTransactionDocumentResult, { documentId: doc.id });
	}

	private remove(ctx: RequestContext): Reply {
		const tx = this.find(ctx);
		const doc = this.processing.store.document(ctx, tx);
		if (tx.status !== 'New')
			throw problem(400, 'Bad Request', 'Transaction has already been started');
		tx.documents = tx.documents.filter((d) => d !== doc);
		tx.files = tx.files.filter((f) => f.documentId !== doc.id);
		return { status: 200, empty: true };
	}

	private async addFiles(ctx: RequestContext): Promise<Reply> {
		const upload = await receiveUpload(
			ctx,
			S.TransactionDocumentMetadataDto,
			this.core.options.maxUploadBytes,
		);
		const tx = this.find(ctx);
		const doc = this.processing.store.document(ctx, tx);
		if (tx.status !== 'New')
			throw problem(400, 'Bad Request', 'Transaction has already been started');
		checkFiles(
			upload.files,
			upload.model?.files,
			tx.files.map((f) => f.name),
			'document',
		);
		const added = this.processing.addFiles(tx, upload.files, upload.model?.files, doc);
		this.processing.store.counts.uploads++;
		this.processing.store.counts.filesUploaded += added.length;
		return { status: 200, empty: true };
	}

	/** A result file's bytes, or (inferred: allowed) a source file's. */
	private download(ctx: RequestContext): Reply {
		let tx: TransactionState;
		try {
			tx = this.find(ctx);
		} catch (error) {
			if (error instanceof HttpProblem && error.status === 404) {
				throw notFound('Transaction or file not found');
			}
			throw error;
		}
		const fileId = ctx.params.fileId.toLowerCase();
		for (const doc of tx.status === 'Processed' ? tx.documents : []) {
			const file = doc.resultFiles.find((f) => f.fileId === fileId);
			if (file) {
				return {
					status: 200,
					bytes: this.processing.results.content(tx, doc, file),
					contentType: OCTET,
				};
			}
		}
		const source = tx.files.find((f) => f.id === fileId);
		if (source) return sourceBytes(source);
		throw notFound('Transaction or file not found');
	}
}

function sourceBytes(file: SourceFile): Reply {
	return {
		status: 200,
		bytes: file.head,
		contentType: OCTET,
		headers: file.truncated
			? {
					'x-simulator-truncated': 'true',
					'x-simulator-size': String(file.size),
					'x-simulator-sha256': file.sha256,
				}
			: {},
	};
}

/** Errors of a download are ProblemDetails JSON with the declared application/octet-stream type. */
function octet(handler: () => Reply): Reply {
	try {
		return handler();
	} catch (error) {
		if (error instanceof HttpProblem && error.body) {
			throw new HttpProblem(error.status, error.body, { ...error.headers, 'content-type': OCTET });
		}
		throw error;
	}
}
