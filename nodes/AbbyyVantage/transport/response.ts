/** Reading what n8n's HTTP helper returned. */
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
