import type { IDataObject, JsonObject } from 'n8n-workflow';

import { apiError, operationError, withErrorOutput, type NodeContext } from '../helpers/errors';
import type { InputFile } from '../helpers/binaryInput';
import { buildMultipart } from '../helpers/multipart';
import { lastState, pollUntil, type PollSettings } from '../helpers/polling';
import { count } from '../helpers/text';
import { describeDuration } from '../helpers/time';
import { endpoints, isWaitHiccup, type VantageClient } from '../transport';
import { SKILL_HINTS } from './skills';

/** Advice for transaction requests, by status. */
export const TRANSACTION_HINTS = {
	403: 'The transaction may belong to another tenant.',
	404: 'Transactions are deleted two weeks after processing (the default retention) or when deleted through the API.',
};

/** A registration or skill parameter as the API takes and gives it: `{ key, value }`. */
export interface KeyValue {
	key: string;
	value: string;
}

/** What a new transaction carries besides its files (CreateTransaction, LaunchTransaction). */
export interface TransactionParameters {
	registrationParameters: KeyValue[];
	skillParameters: KeyValue[];
}

/** In Manual Review: keep waiting for the operator, or output the review link and stop waiting. */
export type OnManualReview = 'wait' | 'output';

/** GetTransactionInfo's TransactionDto, as far as the node reads it. */
export interface TransactionInfo extends IDataObject {
	id: string;
	status: string;
	manualReviewLink?: string | null;
	error?: string | null;
	documents?: IDataObject[] | null;
	sourceFiles?: Array<{ id: string; name: string }> | null;
}

/** Statuses of a transaction that ended without results (TransactionStatus). */
export const FAILED_STATUSES: readonly string[] = ['Failed', 'Canceled'];
/** Statuses after which a transaction changes no more (TransactionStatus). */
export const FINAL_STATUSES: readonly string[] = ['Processed', ...FAILED_STATUSES];

export interface WaitOutcome {
	info: TransactionInfo;
	polls: number;
	/** Status checks that failed with a passing problem and were repeated. */
	failedPolls: number;
	/** Stopped because the transaction waits in Manual Review and the user asked to stop. */
	stoppedForReview: boolean;
}

/**
 * The mechanics of a transaction's life (Processing API): create or launch, add files, start,
 * read, wait, delete. Operations compose these; every request that creates something is sent
 * once (the transport never resends it), and errors name the transaction once one exists.
 */
export class Transactions {
	constructor(
		private readonly ctx: NodeContext,
		private readonly client: VantageClient,
	) {}

	/** CreateTransaction: an empty transaction of `skillId`. */
	async create(
		skillId: string,
		parameters: TransactionParameters,
		itemIndex: number,
		generateMobileInputLink = false,
	): Promise<IDataObject & { transactionId: string }> {
		const body: IDataObject = { skillId };
		if (parameters.registrationParameters.length)
			body.registrationParameters = parameters.registrationParameters;
		if (parameters.skillParameters.length) body.skillParameters = parameters.skillParameters;
		if (generateMobileInputLink) body.generateMobileInputLink = true;
		const response = await this.client.request<IDataObject | undefined>({
			...endpoints.createTransaction(),
			body,
			itemIndex,
			action: `creating a transaction of skill "${skillId}"`,
			hints: SKILL_HINTS,
		});
		return {
			...(response ?? {}),
			transactionId: this.requireId(response, itemIndex, 'transaction'),
		};
	}

	/** LaunchTransaction: create, add the files and start in one request. */
	async launch(
		skillId: string,
		parameters: TransactionParameters,
		files: InputFile[],
		itemIndex: number,
	): Promise<string> {
		const model: IDataObject = { files: files.map(fileMetadata) };
		if (parameters.registrationParameters.length)
			model.registrationParameters = parameters.registrationParameters;
		if (parameters.skillParameters.length) model.skillParameters = parameters.skillParameters;
		const response = await this.client.request<IDataObject | undefined>({
			...endpoints.launchTransaction(),
			qs: { skillId },
			upload: async () => await buildMultipart(model, files),
			itemIndex,
			action: `launching a transaction of skill "${skillId}" with ${describeFiles(files)}`,
			hints: {
				...SKILL_HINTS,
				400: 'Vantage refused the files or the skill; check that the files are documents the skill can read.',
			},
		});
		return this.requireId(response, itemIndex, 'transaction');
	}

	/** AddFilesToTransaction, or AddFilesToTransactionDocument when `documentId` is given. */
	async addFiles(
		transactionId: string,
		files: InputFile[],
		itemIndex: number,
		documentId?: string,
	): Promise<void> {
		// Documents take no image options of their own per file (TransactionDocumentFileMetadataDto).
		const model = documentId
			? { files: files.map(() => ({})) }
			: { files: files.map(fileMetadata) };
		await this.client.request({
			...(documentId
				? endpoints.addFilesToTransactionDocument(transactionId, documentId)
				: endpoints.addFilesToTransaction(transactionId)),
			upload: async () => await buildMultipart(model, files),
			// The docs describe a list of the added files; the OpenAPI document an empty body.
			ignoreBody: true,
			itemIndex,
			action: `adding ${describeFiles(files)} to transaction ${transactionId}${documentId ? `, document ${documentId}` : ''}`,
			hints: {
				...TRANSACTION_HINTS,
				400: 'Files can be added only to a transaction that has not been started, and each upload is limited to 2 GB.',
				409: 'A file with the same name is already in the transaction, or the document has too many files.',
			},
		});
	}

	/** StartTransaction. */
	async start(transactionId: string, itemIndex: number): Promise<void> {
		await this.client.request({
			...endpoints.startTransaction(transactionId),
			ignoreBody: true,
			itemIndex,
			action: `starting transaction ${transactionId}`,
			hints: {
				...TRANSACTION_HINTS,
				400: 'A transaction can be started once, and only when it holds files.',
			},
		});
	}

	/** GetTransactionInfo. */
	async get(transactionId: string, itemIndex?: number): Promise<TransactionInfo> {
		const body = await this.client.request<IDataObject | undefined>({
			...endpoints.getTransactionInfo(transactionId),
			itemIndex,
			action: `reading transaction ${transactionId}`,
			hints: TRANSACTION_HINTS,
		});
		return {
			...(body ?? {}),
			id: typeof body?.id === 'string' ? body.id : transactionId,
			status: typeof body?.status === 'string' ? body.status : 'Unknown',
		};
	}

	/**
	 * The names of the files already in the transaction (TransactionDto `sourceFiles`: "Source
	 * files that were uploaded to the transaction"), which new files must not repeat.
	 */
	async sourceFileNames(transactionId: string, itemIndex: number): Promise<string[]> {
		const info = await this.get(transactionId, itemIndex);
		return (Array.isArray(info.sourceFiles) ? info.sourceFiles : [])
			.map((file) => file?.name)
			.filter((name): name is string => typeof name === 'string');
	}

	/**
	 * Poll until the transaction is Processed, Failed or Canceled, or waits in Manual Review and
	 * `onManualReview` says to stop. A timeout throws, naming the transaction and its last state.
	 */
	async wait(
		transactionId: string,
		poll: PollSettings,
		onManualReview: OnManualReview,
		itemIndex: number,
	): Promise<WaitOutcome> {
		const inReview = (info: TransactionInfo) =>
			info.status === 'Processing' &&
			typeof info.manualReviewLink === 'string' &&
			info.manualReviewLink !== '';
		const outcome = await pollUntil(
			async () => await this.get(transactionId, itemIndex),
			(info) =>
				FINAL_STATUSES.includes(info.status) || (onManualReview === 'output' && inReview(info)),
			poll,
			this.client.signal,
			isWaitHiccup,
		);
		const info = outcome.value;
		if (outcome.timedOut || !info) {
			throw operationError(
				this.ctx.getNode(),
				itemIndex,
				`Transaction ${transactionId} did not finish within ${describeDuration(poll.timeoutMs)}; last status: ${lastState(info?.status, outcome)}${info && inReview(info) ? ' (waiting for Manual Review)' : ''}`,
				{
					description:
						'It keeps processing in Vantage. Pick it up later with Wait For Transaction or Get Results, or raise Wait Timeout.',
					output: {
						transactionId,
						status: info?.status ?? null,
						manualReviewLink: info?.manualReviewLink ?? null,
						polls: outcome.polls,
						failedPolls: outcome.failedPolls,
					},
				},
			);
		}
		return {
			info,
			polls: outcome.polls,
			failedPolls: outcome.failedPolls,
			stoppedForReview: !FINAL_STATUSES.includes(info.status),
		};
	}

	/** A Failed or Canceled transaction as an error carrying Vantage's `error` text. */
	failure(info: TransactionInfo, itemIndex: number): Error {
		const reason = typeof info.error === 'string' && info.error ? `: ${info.error}` : '';
		return apiError(
			this.ctx.getNode(),
			itemIndex,
			{ ...info } as JsonObject,
			`Transaction ${info.id} ended with status ${info.status}${reason}`,
			{
				description:
					info.status === 'Failed'
						? 'Vantage could not process the files. Check them (format, damage, password protection) and process them again.'
						: 'The transaction was canceled in Vantage.',
				output: { transactionId: info.id, status: info.status, error: info.error ?? null },
			},
		);
	}

	/** DeleteTransaction (asynchronous in Vantage: it may stay readable for a moment). */
	async delete(transactionId: string, itemIndex: number): Promise<void> {
		await this.client.request({
			...endpoints.deleteTransaction(transactionId),
			ignoreBody: true,
			itemIndex,
			action: `deleting transaction ${transactionId}`,
			hints: TRANSACTION_HINTS,
		});
	}

	/**
	 * Delete after its results are in the output: a failure to delete is reported in the output
	 * (`transactionDeleted: false` with the reason), not as a failure of the results.
	 */
	async deleteAfterReading(transactionId: string, itemIndex: number): Promise<IDataObject> {
		return await this.delete(transactionId, itemIndex).then(
			() => ({ transactionDeleted: true }),
			(error: Error) => ({ transactionDeleted: false, deleteError: error.message }),
		);
	}

	/** Errors after the transaction exists carry its id in the error item. */
	tagged(error: unknown, transactionId: string): unknown {
		return error instanceof Error
			? withErrorOutput(error, { transactionId }, { keepExisting: true })
			: error;
	}

	private requireId(response: IDataObject | undefined, itemIndex: number, what: string): string {
		const id = response?.transactionId;
		if (typeof id !== 'string' || id === '') {
			throw apiError(
				this.ctx.getNode(),
				itemIndex,
				(response ?? {}) as JsonObject,
				`ABBYY Vantage answered without a ${what} ID`,
				{
					description: 'The transaction may have been created: check Vantage before running again.',
				},
			);
		}
		return id;
	}
}

/**
 * DownloadFile: a result or source file of a transaction, as bytes. `action` says which file, in
 * errors.
 */
export async function downloadTransactionFile(
	client: VantageClient,
	transactionId: string,
	fileId: string,
	itemIndex: number | undefined,
	action = `downloading file ${fileId} of transaction ${transactionId}`,
): Promise<Buffer> {
	return await client.request<Buffer>({
		...endpoints.downloadFile(transactionId, fileId),
		binary: true,
		itemIndex,
		action,
		hints: TRANSACTION_HINTS,
	});
}

/**
 * GetTransactionDocuments: the documents of a transaction, each with the files attached to it.
 * `action` says what for, in errors.
 */
export async function listTransactionDocuments(
	client: VantageClient,
	transactionId: string,
	itemIndex: number | undefined,
	action = `listing the documents of transaction ${transactionId}`,
): Promise<IDataObject[]> {
	const documents = await client.request<IDataObject[] | undefined>({
		...endpoints.getTransactionDocuments(transactionId),
		itemIndex,
		action,
		hints: TRANSACTION_HINTS,
	});
	return Array.isArray(documents) ? documents : [];
}

/** A file's TransactionFileMetadataDto: the image options of the item it came from. */
function fileMetadata(file: InputFile): IDataObject {
	return file.imageProcessingOptions ? { imageProcessingOptions: file.imageProcessingOptions } : {};
}

export function describeFiles(files: Array<{ name: string }>): string {
	return files.length === 1 ? `file "${files[0].name}"` : count(files.length, 'file');
}
