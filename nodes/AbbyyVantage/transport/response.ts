/** Reading what n8n's HTTP helper returned: JSON, bytes, or a body left unread as a stream. */
import { bodyText } from '../../../credentials/AbbyyVantageApi.endpoints';

export const MALFORMED = Symbol('malformed');

/** JSON whatever the content type (Vantage declares text/plain too); empty bodies are fine. */
export function parseResponse(response: unknown): unknown {
	if (response === undefined || response === null) return undefined;
	if (Buffer.isBuffer(response) || typeof response === 'string') {
		const text = bodyText(response);
		if (text.trim() === '') return undefined;
		try {
			return JSON.parse(text);
		} catch {
			return MALFORMED;
		}
	}
	return response;
}

/** A binary answer (a download) as bytes, whatever form the HTTP helper gave it in. */
export function toBuffer(response: unknown): Buffer {
	if (Buffer.isBuffer(response)) return response;
	if (response instanceof ArrayBuffer) return Buffer.from(response);
	if (typeof response === 'string') return Buffer.from(response, 'utf8');
	if (response === undefined || response === null) return Buffer.alloc(0);
	return Buffer.from(JSON.stringify(response), 'utf8');
}

/** A response body n8n gave unread (`encoding: 'stream'`): a Node.js Readable, typed loosely. */
export interface Readable extends AsyncIterable<Uint8Array> {
	destroy(error?: Error): void;
}

export function isReadable(value: unknown): value is Readable {
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as Partial<Readable>)[Symbol.asyncIterator] === 'function' &&
		typeof (value as Partial<Readable>).destroy === 'function'
	);
}

/** At most this much of an error answer is read (a ProblemDetails is far smaller). */
const ERROR_BODY_MAX = 64 * 1024;

/**
 * The body of an error answer to a `stream` request is a stream too: read it (up to 64 KB), so
 * that the error can quote Vantage's ProblemDetails as it does for any other request.
 */
export async function readErrorBody(body: unknown): Promise<unknown> {
	if (!isReadable(body)) return body;
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			chunks.push(Buffer.from(chunk));
			size += chunk.length;
			if (size >= ERROR_BODY_MAX) break;
		}
	} catch {
		// What arrived is what there is.
	} finally {
		body.destroy();
	}
	return Buffer.concat(chunks).subarray(0, ERROR_BODY_MAX);
}
