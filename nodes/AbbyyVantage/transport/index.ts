import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { baseUrlProblem, resolveBaseUrl } from '../../../credentials/AbbyyVantageApi.endpoints';
import { CancelledError, pause } from '../helpers/time';
import type { Endpoint } from './endpoints';
import { describeFailure, toNodeApiError, type Failure } from './errors';
import {
	backoffDelay,
	DEFAULT_RETRY_SETTINGS,
	parseRetryAfter,
	RETRYABLE_STATUSES,
	type RetrySettings,
} from './retry';

export { endpoints, type Endpoint } from './endpoints';
export { DEFAULT_RETRY_SETTINGS, type RetrySettings } from './retry';

export const CREDENTIAL_TYPE = 'abbyyVantageApi';

/** One call: an endpoint from `endpoints` (method, encoded path, whether it may be resent) and its data. */
export interface VantageRequest extends Endpoint {
	body?: unknown;
	qs?: IDataObject;
	/**
	 * A multipart upload, built again for every attempt: a streamed body can be read only once.
	 * Mutually exclusive with `body`.
	 */
	upload?: () => Promise<UploadBody>;
	/** Return the body as bytes (export result files, downloads). */
	binary?: boolean;
	/** Only the status matters (delete records answers 200 with an empty body); skip parsing. */
	ignoreBody?: boolean;
	itemIndex?: number;
	/** What the node is doing, for error descriptions ("creating the export"). */
	action: string;
	/** Extra advice per HTTP status. */
	hints?: Partial<Record<number, string>>;
}

type Context = IExecuteFunctions | ILoadOptionsFunctions;

/** A request body that is not JSON: a multipart upload as bytes or as a stream. */
export interface UploadBody {
	/** A Buffer, or a Node.js Readable (typed loosely: community nodes cannot import `stream`). */
	body: Buffer | object;
	contentType: string;
	/** Byte length, when known: sent as Content-Length. */
	length?: number;
}

/**
 * The only code that talks to ABBYY Vantage. It sends through n8n's
 * `httpRequestWithAuthentication` (credential sign-in, one refresh on 401, proxy, cancellation),
 * retries what is safe to retry, and turns failures into NodeApiErrors without secrets.
 */
export class VantageClient {
	private baseUrl?: string;

	/** The first request runs alone, so a run over many items signs in once, not once per item. */
	private firstRequest?: Promise<unknown>;

	/**
	 * The decrypted credential, read once per execution and handed to every request: n8n would
	 * otherwise load and decrypt it again for each one. n8n writes a refreshed token into this same
	 * object, so later requests use it.
	 */
	private credentials?: ICredentialDataDecryptedObject;

	private credentialsOption?: IAdditionalCredentialOptions;

	private nodeCopy?: INode;

	constructor(
		private readonly ctx: Context,
		readonly settings: RetrySettings = DEFAULT_RETRY_SETTINGS,
	) {}

	get signal(): AbortSignal | undefined {
		const ctx = this.ctx as Partial<IExecuteFunctions>;
		return typeof ctx.getExecutionCancelSignal === 'function'
			? ctx.getExecutionCancelSignal()
			: undefined;
	}

	async request<T = unknown>(req: VantageRequest): Promise<T> {
		if (!this.firstRequest) {
			const first = this.send<T>(req);
			this.firstRequest = first.catch(() => undefined);
			return await first;
		}
		await this.firstRequest;
		return await this.send<T>(req);
	}

	private async resolveBaseUrl(itemIndex?: number): Promise<string> {
		if (this.baseUrl) return this.baseUrl;
		const credentials = await this.ctx.getCredentials(CREDENTIAL_TYPE);
		this.credentials = credentials;
		const problem = baseUrlProblem(credentials);
		if (problem) {
			throw new NodeOperationError(this.node, `Credential: ${problem}`, {
				itemIndex,
				description: 'Open the ABBYY Vantage credential and correct Region or Base URL.',
			});
		}
		this.baseUrl = resolveBaseUrl(credentials);
		return this.baseUrl;
	}

	private async send<T>(req: VantageRequest): Promise<T> {
		const node = this.node;
		const baseUrl = await this.resolveBaseUrl(req.itemIndex);
		const options: IHttpRequestOptions = {
			method: req.method,
			url: baseUrl + req.path,
			qs: req.qs,
			headers: { Accept: req.binary ? '*/*' : 'application/json' },
			timeout: this.settings.timeoutMs,
		};
		if (req.body !== undefined) {
			options.body = JSON.stringify(req.body);
			options.headers = { ...options.headers, 'Content-Type': 'application/json' };
		}
		if (req.binary) options.encoding = 'arraybuffer';

		let resentAfterSignIn = false;
		for (let attempt = 0; ; attempt++) {
			let failure: Failure;
			let singleUseBody = false;
			try {
				// n8n writes into the options it gets (signal, auth header): each attempt starts clean.
				const attemptOptions = { ...options };
				if (req.upload) {
					const upload = await req.upload();
					singleUseBody = !Buffer.isBuffer(upload.body);
					attemptOptions.body = upload.body as IHttpRequestOptions['body'];
					attemptOptions.headers = {
						...options.headers,
						'Content-Type': upload.contentType,
						...(upload.length !== undefined ? { 'Content-Length': String(upload.length) } : {}),
					};
				}
				const response: unknown = await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx,
					CREDENTIAL_TYPE,
					attemptOptions,
					this.credentialOptions(),
				);
				if (req.binary) return toBuffer(response) as T;
				if (req.ignoreBody) return undefined as T;
				const parsed = parseResponse(response);
				if (parsed !== MALFORMED) return parsed as T;
				failure = { kind: 'malformed' };
			} catch (error) {
				failure = this.signal?.aborted ? { kind: 'cancelled' } : describeFailure(error);
			}
			if (failure.kind === 'cancelled') {
				throw new NodeOperationError(node, new CancelledError().message, {
					itemIndex: req.itemIndex,
				});
			}
			// After a 401 n8n signs in again, but does not resend a streamed body it has consumed.
			// Vantage refused the request before handling it, so sending it once more is safe.
			if (
				singleUseBody &&
				!resentAfterSignIn &&
				failure.kind === 'http' &&
				failure.status === 401
			) {
				resentAfterSignIn = true;
				continue;
			}
			const delay = this.retryDelay(req, failure, attempt);
			if (delay === undefined) {
				throw toNodeApiError(
					node,
					{ ...failure, kind: failure.kind },
					{
						itemIndex: req.itemIndex,
						action: req.action,
						attempts: attempt + 1,
						creates: !req.idempotent,
						hints: req.hints,
					},
				);
			}
			try {
				await pause(delay, this.signal);
			} catch {
				throw new NodeOperationError(node, new CancelledError().message, {
					itemIndex: req.itemIndex,
				});
			}
		}
	}

	private credentialOptions(): IAdditionalCredentialOptions | undefined {
		if (this.credentialsOption !== undefined || !this.credentials) return this.credentialsOption;
		const ref = this.node.credentials?.[CREDENTIAL_TYPE];
		this.credentialsOption = ref?.id
			? {
					credentialsDecrypted: {
						id: ref.id,
						name: ref.name,
						type: CREDENTIAL_TYPE,
						data: this.credentials,
					},
				}
			: undefined;
		return this.credentialsOption;
	}

	/** `getNode()` deep-copies the node on every call; it does not change during a run. */
	private get node(): INode {
		this.nodeCopy ??= this.ctx.getNode();
		return this.nodeCopy;
	}

	/** Milliseconds to wait before sending again, or undefined to give up now. */
	private retryDelay(req: VantageRequest, failure: Failure, attempt: number): number | undefined {
		if (!req.idempotent || attempt >= this.settings.maxRetries) return undefined;
		const transient =
			failure.kind === 'network' ||
			failure.kind === 'timeout' ||
			failure.kind === 'malformed' ||
			(failure.kind === 'http' && RETRYABLE_STATUSES.has(failure.status ?? 0));
		if (!transient) return undefined;
		const asked = parseRetryAfter(failure.retryAfter);
		if (asked !== undefined) {
			// Waiting less than asked would only be refused again; more than the ceiling is not allowed.
			return asked <= this.settings.maxDelayMs ? asked : undefined;
		}
		return backoffDelay(attempt, this.settings);
	}
}

const MALFORMED = Symbol('malformed');

/** JSON whatever the content type (Vantage declares text/plain too); empty bodies are fine. */
function parseResponse(response: unknown): unknown {
	if (response === undefined || response === null) return undefined;
	if (Buffer.isBuffer(response) || typeof response === 'string') {
		const text = Buffer.isBuffer(response) ? response.toString('utf8') : response;
		if (text.trim() === '') return undefined;
		try {
			return JSON.parse(text);
		} catch {
			return MALFORMED;
		}
	}
	return response;
}

function toBuffer(response: unknown): Buffer {
	if (Buffer.isBuffer(response)) return response;
	if (response instanceof ArrayBuffer) return Buffer.from(response);
	if (typeof response === 'string') return Buffer.from(response, 'utf8');
	if (response === undefined || response === null) return Buffer.alloc(0);
	return Buffer.from(JSON.stringify(response), 'utf8');
}
