import type { IBinaryData, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { forItem, operationError } from '../helpers/errors';
import { allowsAddress, allowsHost, portOf } from '../helpers/allowedHosts';
import { extensionFor } from '../helpers/binaryInput';
import {
	describeUrl,
	fileNameFromDisposition,
	fileNameFromPath,
	internalHostAdvice,
	internalHostRefusal,
	isN8nSsrfRefusal,
	N8N_SSRF_ADVICE,
	notFetched,
	refusedLink,
	type AllowedInternalHosts,
} from '../helpers/fileUrl';
import { parseIp, whyInternalIp } from '../helpers/internalAddress';
import { streamFromOf } from '../helpers/multipart';
import { count } from '../helpers/text';
import { CancelledError } from '../helpers/time';
import { FILE_URL_MAX_CHARS } from '../constants';

/**
 * A document fetched from its link (Process Document and Add Files with File URL), for an agent
 * or a workflow that has a presigned storage link rather than a file. It goes through n8n's own
 * `helpers.httpRequest` (proxy settings, n8n 2.x's SSRF protection when it is on), never with the
 * Vantage credential: the link is someone else's server. The body streams into n8n's binary store
 * (on disk in n8n's filesystem mode) and stops at the size limit; redirects are followed by the
 * node, at most `maxRedirects`.
 *
 * Before each request, the link itself and every redirect's target, the host is checked
 * (`checkTarget`): an internal address or local name the user did not list in Allowed Internal
 * Hosts is refused, and so is a name that resolves to one, where n8n lets the node resolve names
 * (n8n 2.x's egress filter). Nothing is sent to a refused host.
 */
export interface FileUrlLimits {
	maxBytes: number;
	maxRedirects: number;
	/** No bytes for this long ends the download. */
	timeoutMs: number;
	/** The internal hosts the user allowed (Allowed Internal Hosts). */
	allowed: AllowedInternalHosts;
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
	const fail = (message: string, description?: string) => {
		const text = `File URL ${shown}: ${message}`;
		const error = operationError(ctx.getNode(), itemIndex, text, { description });
		// NodeOperationError swaps a message that mentions a network code (ENOTFOUND…) for a
		// generic text without the link or the item; ours already says what happened.
		error.message = forItem(text, itemIndex);
		return error;
	};
	let current = url;
	for (let redirects = 0; ; redirects++) {
		await checkTarget(ctx, url, current === url ? undefined : current, limits.allowed, itemIndex);
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
			if (isN8nSsrfRefusal(error)) {
				throw n8nRefusal(ctx, url, current === url ? undefined : current, error, itemIndex);
			}
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
			if (next.href.length > FILE_URL_MAX_CHARS) {
				throw fail(
					`redirected to a link longer than ${count(FILE_URL_MAX_CHARS, 'character')} (${next.href.length})`,
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

/**
 * Refuses `target` (the link, or with `hop` a redirect's target) when its host is internal and
 * not listed: first by what the host is (an address in any spelling, a local name), then, for a
 * name the user did not list, by what it resolves to. n8n 2.x lends nodes its egress filter
 * (`helpers.getSecureEgressFilter`, n8n 2.41+): its lookup resolves the name and, when n8n's SSRF
 * protection is on, checks the name and its addresses against n8n's own lists first; with the
 * protection off it is a plain lookup. The 'safe' policy applies n8n's lists exactly when the
 * administrator turned them on; the node's own rules apply to the addresses either way (they are
 * wider than n8n's default list: shared 100.64/10, multicast, IPv6 carrying IPv4). A lookup that
 * fails is no refusal: the request then fails on its own. Older lines lend no filter: there a
 * public name that resolves to an internal address is not caught here (docs/process-documents.md).
 */
async function checkTarget(
	ctx: IExecuteFunctions,
	link: URL,
	hop: URL | undefined,
	allowed: AllowedInternalHosts,
	itemIndex: number,
): Promise<void> {
	const target = hop ?? link;
	const refuse = (reason: string) =>
		refusedLink(
			operationError(ctx.getNode(), itemIndex, notFetched(link, hop, reason), {
				description: internalHostAdvice(allowed),
			}),
			'internal',
		);
	const refusal = internalHostRefusal(target, allowed);
	if (refusal) throw refuse(refusal);
	if (parseIp(target.hostname) || allowsHost(allowed.hosts, target)) return;
	const lookup = secureLookup(ctx);
	if (!lookup) return;
	let addresses: LookupAddress[];
	try {
		addresses = await lookup(target.hostname);
	} catch (error) {
		if (isN8nSsrfRefusal(error)) throw n8nRefusal(ctx, link, hop, error, itemIndex);
		return;
	}
	const port = portOf(target);
	for (const { address } of addresses) {
		const ip = parseIp(address);
		const why = ip && whyInternalIp(ip);
		if (ip && why && !allowsAddress(allowed.hosts, ip, port)) {
			throw refuse(`resolves to ${address}, ${why}`);
		}
	}
}

function n8nRefusal(
	ctx: IExecuteFunctions,
	link: URL,
	hop: URL | undefined,
	error: unknown,
	itemIndex: number,
): NodeOperationError {
	const said = String((error as Error)?.message ?? '').slice(0, 200);
	return refusedLink(
		operationError(
			ctx.getNode(),
			itemIndex,
			notFetched(link, hop, `was refused by n8n’s SSRF protection (${said})`),
			{ description: N8N_SSRF_ADVICE },
		),
		'n8n',
	);
}

interface LookupAddress {
	address: string;
	family?: number;
}

/** The structural part of n8n 2.41+'s NodeEgressFilter the node uses (absent on older lines). */
interface EgressFilter {
	createSecureLookup?: () => (
		hostname: string,
		options: { all: true },
		callback: (error: Error | null, addresses?: LookupAddress[] | string) => void,
	) => void;
}

/** n8n's lookup for a host name, as a promise; undefined where n8n lends none. */
function secureLookup(
	ctx: IExecuteFunctions,
): ((hostname: string) => Promise<LookupAddress[]>) | undefined {
	const helpers = ctx.helpers as Partial<{
		getSecureEgressFilter: (policy?: 'safe' | 'enforced' | 'unsafe') => EgressFilter | undefined;
	}>;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	let lookup: ReturnType<NonNullable<EgressFilter['createSecureLookup']>>;
	try {
		const filter = helpers.getSecureEgressFilter('safe');
		if (typeof filter?.createSecureLookup !== 'function') return undefined;
		lookup = filter.createSecureLookup();
	} catch {
		return undefined;
	}
	return async (hostname) =>
		await new Promise<LookupAddress[]>((resolve, reject) => {
			lookup(hostname, { all: true }, (error, addresses) => {
				if (error) reject(error);
				else if (Array.isArray(addresses)) resolve(addresses);
				else resolve(typeof addresses === 'string' ? [{ address: addresses }] : []);
			});
		});
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
