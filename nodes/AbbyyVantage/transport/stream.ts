import type { INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { streamFromOf } from '../helpers/multipart';
import { CancelledError, pause } from '../helpers/time';
import { thrownFailure } from './failure';
import type { VantageClient, VantageRequest } from './index';
import { toNodeApiError } from './nodeApiError';
import { isReadable, type Readable } from './response';
import { backoffDelay } from './retry';

/**
 * Downloads read as they arrive (the QA reports: hundreds of megabytes), never held whole. The
 * client's `stream` requests give the body unread once the answer's headers are in; this reads it,
 * with a timeout while no bytes arrive, and sends the (safe, idempotent) request again from the
 * start when the body breaks off, up to Max Retries, as the client retries any safe request.
 */

/** How often the idle timeout is checked. */
const WATCH_MS = 1000;

/** What `readStreamed` hands to its reader. */
export interface StreamedBody {
	/** The body's bytes as they arrive. */
	chunks: AsyncIterable<Uint8Array>;
	/**
	 * `source` as a Node.js Readable of the response's own class (community nodes cannot import
	 * `stream`), e.g. for n8n's binary store; undefined when the host gave the body whole.
	 */
	readable(source: AsyncIterable<Uint8Array>): object | undefined;
}

/** No bytes arrived for the Timeout: reported as a timeout (ETIMEDOUT). */
class IdleTimeout extends Error {
	readonly code = 'ETIMEDOUT';
	constructor(ms: number) {
		super(`No data arrived for ${ms} ms (timeout)`);
	}
}

/**
 * A response body, its chunks yielded as they come, destroyed when no bytes arrive for `idleMs`
 * while it is being read (time the reader spends between chunks does not count). When the body
 * breaks off, the chunks simply end and `failure` holds the stream's error: the reader's result
 * is then dropped (see readStreamed).
 */
class WatchedBody {
	failure?: unknown;
	/** When the reader asked for the next chunk that has not arrived yet. */
	private waitingSince?: number;
	private done = false;

	constructor(
		private readonly response: unknown,
		private readonly idleMs: number,
	) {}

	async *chunks(): AsyncGenerator<Uint8Array> {
		const response = this.response;
		if (!isReadable(response)) {
			// A host that ignored `encoding: 'stream'` gave the body whole.
			if (response !== undefined && response !== null) {
				yield Buffer.isBuffer(response) ? response : Buffer.from(String(response), 'utf8');
			}
			return;
		}
		void this.watch(response);
		const chunks = response[Symbol.asyncIterator]();
		try {
			for (;;) {
				this.waitingSince = Date.now();
				const next = await chunks.next();
				this.waitingSince = undefined;
				if (next.done) break;
				yield next.value;
			}
		} catch (error) {
			this.failure = error ?? new Error('The download broke off');
		} finally {
			this.close();
		}
	}

	close(): void {
		if (this.done) return;
		this.done = true;
		if (isReadable(this.response)) this.response.destroy();
	}

	private async watch(stream: Readable): Promise<void> {
		while (!this.done) {
			await sleep(Math.min(WATCH_MS, this.idleMs));
			const since = this.waitingSince;
			if (!this.done && since !== undefined && Date.now() - since >= this.idleMs) {
				stream.destroy(new IdleTimeout(this.idleMs));
				return;
			}
		}
	}
}

/**
 * Send `req` as a `stream` request and hand its body to `consume`. When the body breaks off (a
 * reset, the Timeout passing without data), what `consume` made of it is dropped and the request
 * is sent again from the start, at most Max Retries times, with the client's backoff; after that
 * the failure is a NodeApiError as the client words it. What `consume` throws ends the download
 * at once, unless the body had broken off (then it is read again). The body is closed however
 * `consume` ends (also when it stops reading early).
 */
export async function readStreamed<T>(
	node: INode,
	client: VantageClient,
	req: VantageRequest,
	consume: (body: StreamedBody) => Promise<T>,
): Promise<T> {
	for (let attempt = 0; ; attempt++) {
		const response = await client.request<unknown>({ ...req, stream: true, binary: false });
		const body = new WatchedBody(response, client.settings.timeoutMs);
		const from = isReadable(response) ? streamFromOf(response) : undefined;
		let result: T | undefined;
		let thrown: { error: unknown } | undefined;
		try {
			result = await consume({ chunks: body.chunks(), readable: (source) => from?.(source) });
		} catch (error) {
			thrown = { error };
		} finally {
			body.close();
		}
		if (body.failure === undefined) {
			if (thrown) throw thrown.error;
			return result as T;
		}
		// What the reader made of a body that broke off (a cut row, a quote left open) is no
		// verdict on the report, whatever it returned or threw: it is read again.
		if (client.signal?.aborted) {
			throw new NodeOperationError(node, new CancelledError().message, {
				itemIndex: req.itemIndex,
			});
		}
		// The stream's own error (a reset, the idle timeout), not one n8n wrapped; the answer had begun.
		const failure = { ...thrownFailure(body.failure, 0, Infinity), midAnswer: true };
		if (attempt >= client.settings.maxRetries) {
			throw toNodeApiError(node, failure, {
				itemIndex: req.itemIndex,
				action: req.action,
				attempts: attempt + 1,
				creates: false,
				hints: req.hints,
			});
		}
		const delay = backoffDelay(attempt, client.settings);
		const waited = await pause(delay, client.signal).then(
			() => true,
			() => false,
		);
		if (!waited) {
			throw new NodeOperationError(node, new CancelledError().message, {
				itemIndex: req.itemIndex,
			});
		}
	}
}
