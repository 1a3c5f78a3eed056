import type { IBinaryData, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { operationError } from '../helpers/errors';
import { extensionFor } from '../helpers/binaryInput';
import { describeUrl, fileNameFromDisposition, fileNameFromPath } from '../helpers/fileUrl';
import { streamFromOf } from '../helpers/multipart';
import { count } from '../helpers/text';
import { CancelledError } from '../helpers/time';

/**
 * A document fetched from its link (Process Document and Add Files with File URL), for an agent
 * or a workflow that has a presigned storage link rather than a file. It goes through n8n's own
 * `helpers.httpRequest` (proxy settings, n8n 2.x's SSRF protection when it is on), never with the
 * Vantage credential: the link is someone else's server. The body streams into n8n's binary store
 * (on disk in n8n's filesystem mode) and stops at the size limit; redirects are followed by the
 * node, each checked, at most `maxRedirects`.
 */
export interface FileUrlLimits {
	maxBytes: number;
	maxRedirects: number;
	/** No bytes for this long ends the download. */
	timeoutMs: number;
}

export interface DownloadedFile {
	binary: IBinaryData;
	size: number;
	fileName: string;
	mimeType: string;
}

const MB = 1024 * 1024;

interface FullResponse {
	statusCode: number;
	headers?: unknown;
	body?: unknown;
}

function header(headers: unknown, name: string): string | undefined {
	if (!headers || typeof headers !== 'object') return undefined;
	const h = headers as { get?: (n: string) => unknown } & Record<string, unknown>;
	const value = typeof h.get === 'function' ? h.get(name) : h[name.toLowerCase()];
	if (value === undefined || value === null) return undefined;
	return Array.isArray(value) ? String(value[0]) : String(value);
}

function close(body: unknown): void {
	(body as { destroy?: () => void } | undefined)?.destroy?.();
}

class TooLarge extends Error {}

function describeSize(bytes: number): string {
	return bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : count(bytes, 'byte');
}

/** Download `url` into n8n's binary store. Failures name the link without its query. */
export async function downloadFile(
	ctx: IExecuteFunctions,
	url: URL,
	limits: FileUrlLimits,
	itemIndex: number,
): Promise<DownloadedFile> {
	const shown = describeUrl(url);
	const fail = (message: string, description?: string) =>
		operationError(ctx.getNode(), itemIndex, `File URL ${shown}: ${message}`, { description });
	let current = url;
	for (let redirects = 0; ; redirects++) {
		const options: IHttpRequestOptions = {
			method: 'GET',
			url: current.href,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: limits.timeoutMs,
			headers: { Accept: '*/*' },
			abortSignal: ctx.getExecutionCancelSignal(),
		};
		let response: FullResponse;
		try {
			response = (await ctx.helpers.httpRequest(options)) as FullResponse;
		} catch (error) {
			throw fail(
				`the download failed without an answer (${(error as Error)?.message?.slice(0, 200) ?? 'no reason given'})`,
				'Check that the link is reachable from n8n, then try again.',
			);
		}
		const status = response.statusCode;
		if (status >= 300 && status < 400) {
			close(response.body);
			const location = header(response.headers, 'location');
			if (!location) throw fail(`answered HTTP ${status} without saying where to`);
			if (redirects >= limits.maxRedirects) {
				throw fail(
					`redirected more than ${count(limits.maxRedirects, 'time')}`,
					'Give the link the file is finally served from.',
				);
			}
			let next: URL;
			try {
				next = new URL(location, current);
			} catch {
				throw fail(`redirected to an address that is not a URL`);
			}
			if (next.protocol !== 'http:' && next.protocol !== 'https:') {
				throw fail(
					`redirected to a ${next.protocol.replace(/:$/, '')} link; only http and https are fetched`,
				);
			}
			current = next;
			continue;
		}
		if (status < 200 || status >= 300) {
			close(response.body);
			throw fail(
				`answered HTTP ${status}`,
				status === 401 || status === 403
					? 'The link may have expired (presigned links do) or need a sign-in: get a fresh link.'
					: status === 404
						? 'There is no file at this link.'
						: 'The server holding the file refused it; try again later or get another link.',
			);
		}
		const length = Number(header(response.headers, 'content-length'));
		if (Number.isFinite(length) && length > limits.maxBytes) {
			close(response.body);
			throw fail(
				`the file is ${describeSize(length)}, more than Max File Size (${describeSize(limits.maxBytes)})`,
				'Raise Max File Size, or split the file.',
			);
		}
		const mimeType =
			header(response.headers, 'content-type')?.split(';')[0].trim() || 'application/octet-stream';
		const fileName =
			fileNameFromDisposition(header(response.headers, 'content-disposition')) ??
			fileNameFromPath(current) ??
			`document.${extensionFor(mimeType)}`;
		const body = new IdleWatch(response.body, limits.timeoutMs);
		let size = 0;
		async function* limited(): AsyncGenerator<Uint8Array> {
			for await (const chunk of body.chunks()) {
				size += chunk.length;
				if (size > limits.maxBytes) throw new TooLarge();
				yield chunk;
			}
		}
		const from = streamFromOf(response.body);
		let binary: IBinaryData;
		try {
			const source = from ? from(limited()) : await collect(limited());
			binary = await ctx.helpers.prepareBinaryData(
				source as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0],
				fileName,
				mimeType,
			);
		} catch (error) {
			if (error instanceof TooLarge || size > limits.maxBytes) {
				throw fail(
					`the file is larger than Max File Size (${describeSize(limits.maxBytes)})`,
					'Raise Max File Size, or split the file.',
				);
			}
			if (ctx.getExecutionCancelSignal()?.aborted) {
				throw new NodeOperationError(ctx.getNode(), new CancelledError().message, { itemIndex });
			}
			throw fail(
				`the download broke off after ${describeSize(size)} (${(error as Error)?.message?.slice(0, 200) ?? 'no reason given'})`,
				'Try again.',
			);
		} finally {
			body.close();
		}
		if (size === 0) throw fail('the file is empty');
		return { binary, size, fileName, mimeType };
	}
}

class IdleTimeout extends Error {
	constructor(ms: number) {
		super(`no data arrived for ${ms / 1000} s`);
	}
}

/** How often the watch checks for a stalled body. */
const WATCH_MS = 1000;

/**
 * A response body read chunk by chunk; when no chunk arrives for `idleMs`, reading fails with
 * IdleTimeout at once. Destroying the stream is not enough: a body n8n's HTTP helper hands over
 * may keep a pending read open until the socket closes, so the read is raced against the watch.
 */
class IdleWatch {
	private waitingSince?: number;
	private done = false;
	private readonly stalled: Promise<never>;
	private stall!: (error: Error) => void;

	constructor(
		private readonly body: unknown,
		private readonly idleMs: number,
	) {
		this.stalled = new Promise<never>((_, reject) => (this.stall = reject));
		this.stalled.catch(() => undefined);
	}

	async *chunks(): AsyncGenerator<Uint8Array> {
		const body = this.body as Partial<AsyncIterable<Uint8Array>> | Buffer | null | undefined;
		if (!body || Buffer.isBuffer(body) || typeof body[Symbol.asyncIterator] !== 'function') {
			// A host that ignored `encoding: 'stream'` gave the body whole.
			if (body) yield Buffer.isBuffer(body) ? body : Buffer.from(String(body), 'utf8');
			return;
		}
		const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
		void this.watch();
		try {
			for (;;) {
				this.waitingSince = Date.now();
				const next = await Promise.race([iterator.next(), this.stalled]);
				this.waitingSince = undefined;
				if (next.done) return;
				yield next.value;
			}
		} finally {
			this.close();
		}
	}

	close(): void {
		if (this.done) return;
		this.done = true;
		(this.body as { destroy?: () => void } | undefined)?.destroy?.();
	}

	private async watch(): Promise<void> {
		while (!this.done) {
			await sleep(Math.min(WATCH_MS, this.idleMs));
			const since = this.waitingSince;
			if (!this.done && since !== undefined && Date.now() - since >= this.idleMs) {
				this.stall(new IdleTimeout(this.idleMs));
				this.close();
				return;
			}
		}
	}
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of source) chunks.push(Buffer.from(chunk));
	return Buffer.concat(chunks);
}
