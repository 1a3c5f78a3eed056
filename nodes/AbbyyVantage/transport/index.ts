import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	redact,
	resolveBaseUrl,
	takeSignInFailure,
} from '../../../credentials/AbbyyVantageApi.endpoints';
import { CancelledError, pause } from '../helpers/time';
import type { Endpoint } from './endpoints';
import {
	answerLost,
	httpFailure,
	isLoadSignal,
	isNotFound,
	isTooMany,
	thrownFailure,
	type Failure,
	type FullResponse,
} from './failure';
import { AUTO_LIMITS, RequestLimiter, sharedLimiter, type Slot } from './limiter';
import { toNodeApiError } from './nodeApiError';
import { MALFORMED, parseResponse, readErrorBody, toBuffer } from './response';
import { DEFAULT_RETRY_SETTINGS, parseRetryAfter, retryDelay, type RetrySettings } from './retry';
import { readWebhookCredential, servesWebhook } from './webhookCredentials';
import {
	VANTAGE_API,
	credentialProblem,
	credentialTypeOf,
	renewalFor,
	secretsOf,
	type CredentialType,
	type Renewal,
} from './auth';

export { endpoints, type Endpoint } from './endpoints';
export { isTransientError, isWaitHiccup } from './failure';

/** How many requests may be in flight: Auto (adaptive) or a pinned number. */
export type Concurrency = 'auto' | number;
export { DEFAULT_RETRY_SETTINGS, type RetrySettings } from './retry';

/** The ABBYY Vantage API credential's type; the OAuth2 one is chosen by Authentication (./auth.ts). */
export const CREDENTIAL_TYPE = VANTAGE_API;

/** Tokens a request may be given after a 401 before it signs in itself (another may be stale too). */
const MAX_TOKEN_SWAPS = 2;

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
	/** Return the body unread, as a Node.js Readable (reports too large to hold; see ./stream.ts). */
	stream?: boolean;
	/** Only the status matters (delete records answers 200 with an empty body); skip parsing. */
	ignoreBody?: boolean;
	itemIndex?: number;
	/** What the node is doing, for error descriptions ("creating the export"). */
	action: string;
	/** Extra advice per HTTP status. */
	hints?: Partial<Record<number, string>>;
}

type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IWebhookFunctions;

/** A request body that is not JSON: a multipart upload as bytes or as a stream. */
export interface UploadBody {
	/** A Buffer, or a Node.js Readable (typed loosely: community nodes cannot import `stream`). */
	body: Buffer | object;
	contentType: string;
	/** Byte length, when known: sent as Content-Length. */
	length?: number;
}

/** Where requests go, and the token renewal that signs in again after a 401. */
interface Connection {
	baseUrl: string;
	/** Signing in again after a 401, once for all requests in flight. */
	tokens: Renewal;
}

/** What one HTTP attempt gave: the parsed answer, or what went wrong. */
type Attempt<T> =
	| { ok: true; value: T }
	| {
			ok: false;
			failure: Failure;
			/** Other requests of this limiter were in flight with it. */
			crowded?: boolean;
	  };

/**
 * The only code that talks to ABBYY Vantage. It sends through n8n's
 * `httpRequestWithAuthentication` (credential sign-in, proxy, cancellation), keeps the number of
 * requests in flight within the limiter, retries what is safe to retry, signs in again once per
 * token expiry for all requests in flight, and turns failures into NodeApiErrors without secrets.
 */
export class VantageClient {
	private connection?: Connection;

	/** The first request runs alone, so a run over many items signs in once, not once per item. */
	private firstRequest?: Promise<unknown>;

	/**
	 * The decrypted credential, read once per execution and handed to every request: n8n would
	 * otherwise load and decrypt it again for each one. n8n writes a new token into this same
	 * object when it signs in, so later requests use it.
	 */
	private credentials?: ICredentialDataDecryptedObject;

	private credentialsOption?: IAdditionalCredentialOptions;

	/** A webhook request's shared credential read: hands it the token this client used last. */
	private shareToken?: (token: string) => void;

	private tokenShared?: string;

	private nodeCopy?: INode;

	private limiterInUse?: RequestLimiter;

	/** The credential the node's Authentication parameter chose. */
	private readonly credentialType: CredentialType;

	constructor(
		private readonly ctx: Context,
		readonly settings: RetrySettings = DEFAULT_RETRY_SETTINGS,
	) {
		this.credentialType = credentialTypeOf(ctx);
	}

	get signal(): AbortSignal | undefined {
		const ctx = this.ctx as Partial<IExecuteFunctions>;
		return typeof ctx.getExecutionCancelSignal === 'function'
			? ctx.getExecutionCancelSignal()
			: undefined;
	}

	/**
	 * Concurrency for this run: a number pins how many requests are in flight; Auto shares the
	 * adaptive limiter of this execution and credential.
	 */
	useConcurrency(concurrency: Concurrency): void {
		this.limiterInUse =
			concurrency === 'auto'
				? this.sharedLimiter()
				: new RequestLimiter({ initial: concurrency, max: concurrency, adaptive: false });
	}

	get limiter(): RequestLimiter {
		this.limiterInUse ??= this.sharedLimiter();
		return this.limiterInUse;
	}

	private sharedLimiter(): RequestLimiter {
		const ctx = this.ctx as Partial<IExecuteFunctions>;
		const executionId = typeof ctx.getExecutionId === 'function' ? ctx.getExecutionId() : undefined;
		const credentialId = this.node.credentials?.[this.credentialType]?.id;
		if (!executionId) return new RequestLimiter({ ...AUTO_LIMITS, adaptive: true });
		return sharedLimiter(`${executionId}:${credentialId ?? ''}`);
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

	/** The Vantage address requests go to (the credential's Region or Base URL); sends nothing. */
	async baseUrl(itemIndex?: number): Promise<string> {
		return (await this.connect(itemIndex)).baseUrl;
	}

	/** The base URL and the token renewal of this run, from the credential read once. */
	private async connect(itemIndex?: number): Promise<Connection> {
		if (this.connection) return this.connection;
		// A webhook request (a push) shares the read with the node's other requests of the moment,
		// and the token n8n signs in for with the requests after it.
		let credentials: ICredentialDataDecryptedObject;
		if (servesWebhook(this.ctx)) {
			const read = await readWebhookCredential(this.ctx, this.credentialType);
			credentials = read.data;
			this.shareToken = (token) => read.share({ accessToken: token });
		} else {
			credentials = await this.ctx.getCredentials(this.credentialType);
		}
		this.credentials = credentials;
		const problem = credentialProblem(this.credentialType, credentials);
		if (problem) {
			throw new NodeOperationError(this.node, problem.message, {
				itemIndex,
				description: problem.description,
			});
		}
		const baseUrl = resolveBaseUrl(credentials);
		this.connection = {
			baseUrl,
			tokens: renewalFor(this.ctx, this.credentialType, credentials, this.node, baseUrl),
		};
		return this.connection;
	}

	private async send<T>(req: VantageRequest): Promise<T> {
		const { baseUrl, tokens } = await this.connect(req.itemIndex);
		const options: IHttpRequestOptions = {
			method: req.method,
			url: baseUrl + req.path,
			qs: req.qs,
			// Lists in a query as repeated keys (statusFilter=A&statusFilter=B), as ASP.NET binds them.
			arrayFormat: 'repeat',
			headers: { Accept: req.binary || req.stream ? '*/*' : 'application/json' },
			timeout: this.settings.timeoutMs,
		};
		if (req.body !== undefined) {
			options.body = JSON.stringify(req.body);
			options.headers = { ...options.headers, 'Content-Type': 'application/json' };
		}
		if (req.binary) options.encoding = 'arraybuffer';
		if (req.stream) options.encoding = 'stream';
		// A request with a body is never redirected by Vantage, and following redirects makes the
		// HTTP client keep a copy of every chunk written (a 200 MB upload held twice in memory).
		if (req.body !== undefined || req.upload) options.disableFollowRedirect = true;

		let signedInAgain = false;
		let tokensSwapped = 0;
		let refusedForLoad = 0;
		let answerWasLost = false;
		let renewing: (() => void) | undefined;
		for (let attempt = 0; ; attempt++) {
			if (!renewing) await tokens.settled();
			const tokenUsed = tokens.tokenInUse();
			const result = await this.attempt<T>(req, options);
			renewing?.();
			renewing = undefined;
			if (result.ok) {
				this.passTokenOn();
				return result.value;
			}
			const { failure } = result;
			if (failure.kind === 'cancelled') throw this.cancelled(req);
			if (
				failure.kind === 'http' &&
				failure.status === 401 &&
				!signedInAgain &&
				tokensSwapped < MAX_TOKEN_SWAPS
			) {
				// Expired or revoked token: another token, or one sign-in for every request in flight,
				// then send again. Vantage refused the request without handling it: resending is safe.
				// Sent without a token, the request signed in first: that new token was refused.
				// A refresh Vantage refused fails the request, saying to reconnect (./auth.ts).
				const replaced = await tokens.replace(tokenUsed || tokens.tokenInUse()).then(
					(next) => ({ next }),
					(error: unknown) => ({ error }),
				);
				if ('error' in replaced) throw this.renewalFailed(req, replaced.error, attempt + 1);
				renewing = replaced.next;
				if (renewing) signedInAgain = true;
				else tokensSwapped++;
				continue;
			}
			// A delete sent again after an answer that never came: "not found" is the first one's work.
			if (req.method === 'DELETE' && answerWasLost && isNotFound(failure)) {
				return undefined as T;
			}
			answerWasLost ||= answerLost(failure);
			if (isTooMany(failure)) refusedForLoad++;
			const delay = retryDelay(
				{
					failure,
					attempt,
					idempotent: req.idempotent,
					read: req.method === 'GET',
					adaptive: this.limiter.adaptive,
					crowded: result.crowded === true,
				},
				this.settings,
			);
			if (delay === undefined) {
				throw toNodeApiError(
					this.node,
					{ ...failure, kind: failure.kind },
					{
						itemIndex: req.itemIndex,
						action: req.action,
						attempts: attempt + 1,
						creates: !req.idempotent,
						refusedForLoad,
						hints: req.hints,
					},
				);
			}
			try {
				if (delay > 0) await pause(delay, this.signal);
			} catch {
				throw this.cancelled(req);
			}
		}
	}

	/** One HTTP attempt within the limiter; the limiter learns from the answer. */
	private async attempt<T>(req: VantageRequest, options: IHttpRequestOptions): Promise<Attempt<T>> {
		let slot: Slot;
		try {
			slot = await this.limiter.acquire(this.signal);
		} catch {
			return { ok: false, failure: { kind: 'cancelled' } };
		}
		try {
			const outcome = await this.sendOnce(req, options);
			if (!('kind' in outcome)) {
				this.limiter.succeeded();
				return { ok: true, value: outcome.value as T };
			}
			const failure = outcome;
			if (isLoadSignal(failure)) {
				// Other senders pause for a Retry-After, but never longer than a retry may wait.
				const asked = parseRetryAfter(failure.retryAfter);
				this.limiter.throttled(
					asked === undefined ? undefined : Math.min(asked, this.settings.maxDelayMs),
					slot,
				);
			} else if (failure.kind === 'http' || failure.kind === 'malformed') {
				this.limiter.succeeded();
			}
			return { ok: false, failure, crowded: slot.position > 1 };
		} finally {
			slot.release();
		}
	}

	/**
	 * One request through n8n, its answer read from the response: n8n returns every answer (error
	 * statuses too) with status, headers and body, so nothing depends on how an n8n version wraps
	 * an HTTP error. What n8n throws had no answer: a sign-in the credential refused (it says why
	 * itself), a cancelled execution, a timeout, a socket error.
	 */
	private async sendOnce(
		req: VantageRequest,
		options: IHttpRequestOptions,
	): Promise<{ value: unknown } | Failure> {
		// n8n writes into the options it gets (signal, auth header): each attempt starts clean.
		const attemptOptions: IHttpRequestOptions = {
			...options,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
		};
		const started = Date.now();
		let answer: FullResponse;
		try {
			if (req.upload) {
				const upload = await req.upload();
				attemptOptions.body = upload.body as IHttpRequestOptions['body'];
				attemptOptions.headers = {
					...options.headers,
					'Content-Type': upload.contentType,
					...(upload.length !== undefined ? { 'Content-Length': String(upload.length) } : {}),
				};
			}
			answer = (await this.ctx.helpers.httpRequestWithAuthentication.call(
				this.ctx,
				this.credentialType,
				attemptOptions,
				this.credentialOptions(),
			)) as FullResponse;
		} catch (error) {
			if (this.signal?.aborted) return { kind: 'cancelled' };
			const signIn = takeSignInFailure(this.credentials);
			if (signIn) return { kind: 'signIn', message: signIn };
			const failure = thrownFailure(error, Date.now() - started, this.settings.timeoutMs);
			if (failure.message) failure.message = redact(failure.message, this.secrets());
			return failure;
		}
		if (answer.statusCode < 200 || answer.statusCode >= 300) {
			// An error answer to a stream request comes as a stream too: its ProblemDetails is read.
			if (req.stream) answer.body = await readErrorBody(answer.body);
			return httpFailure(answer);
		}
		if (req.stream) return { value: answer.body };
		if (req.binary) return { value: toBuffer(answer.body) };
		if (req.ignoreBody) return { value: undefined };
		const parsed = parseResponse(answer.body);
		return parsed === MALFORMED ? { kind: 'malformed' } : { value: parsed };
	}

	/** A token Vantage accepted (maybe one n8n just signed in for), for the node's next requests. */
	private passTokenOn(): void {
		const token = this.credentials?.accessToken;
		if (!this.shareToken || typeof token !== 'string' || !token || token === this.tokenShared)
			return;
		this.tokenShared = token;
		this.shareToken(token);
	}

	/** What must never appear in a message: the credential's secrets and token. */
	private secrets(): unknown[] {
		return secretsOf(this.credentials);
	}

	/** The access token could not be replaced: the reason, as a sign-in failure of this item. */
	private renewalFailed(req: VantageRequest, error: unknown, attempts: number): NodeApiError {
		const message = error instanceof Error ? error.message : String(error);
		return toNodeApiError(
			this.node,
			{ kind: 'signIn', message: redact(message, this.secrets()) },
			{ itemIndex: req.itemIndex, action: req.action, attempts, creates: false },
		);
	}

	private cancelled(req: VantageRequest): NodeOperationError {
		return new NodeOperationError(this.node, new CancelledError().message, {
			itemIndex: req.itemIndex,
		});
	}

	/**
	 * The decrypted credential handed to n8n with every request: n8n signs in with this object and
	 * writes the new token into it, and the sign-in's failure is recorded under it.
	 */
	private credentialOptions(): IAdditionalCredentialOptions | undefined {
		if (this.credentialsOption !== undefined || !this.credentials) return this.credentialsOption;
		const ref = this.node.credentials?.[this.credentialType];
		this.credentialsOption = {
			credentialsDecrypted: {
				id: ref?.id ?? '',
				name: ref?.name ?? '',
				type: this.credentialType,
				data: this.credentials,
			},
		};
		return this.credentialsOption;
	}

	/** `getNode()` deep-copies the node on every call; it does not change during a run. */
	private get node(): INode {
		this.nodeCopy ??= this.ctx.getNode();
		return this.nodeCopy;
	}
}
