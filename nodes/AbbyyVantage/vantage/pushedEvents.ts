import { equalBytes, fromHex, hmacSha256, toHex, utf8 } from '../helpers/hmac';

/**
 * What an event pushed by the Custom-activity script must be (custom-activity/n8n-events.js,
 * specVersion 1), and the checks that refuse everything else, in the contract's order: size and
 * content type, then the signature header, the timestamp's freshness and the HMAC, then the body.
 * Pure: its two receivers hand it the request's parts, the secrets and the time: the ABBYY Vantage
 * Instant Trigger (the tenant's n8n-events-url) and a waiting Process Document or Wait For
 * Transaction (the transaction's n8nResumeUrl, ../actions/transaction/resume.ts).
 */

/**
 * The transaction registration parameter that holds a waiting execution's resume URL: the script
 * posts the event there too (custom-activity/n8n-events.js, RESUME_PARAMETER).
 */
export const RESUME_URL_PARAMETER = 'n8nResumeUrl';

/** The largest body accepted, in bytes. The script's events are far smaller (at most 100 document ids). */
export const MAX_BODY_BYTES = 16 * 1024;

/** A timestamp older than this is refused: a captured request cannot be replayed later. */
export const MAX_AGE_SECONDS = 5 * 60;

/** A timestamp this far ahead of n8n's clock is still accepted (clocks drift); further ahead, refused. */
export const MAX_FUTURE_SECONDS = 60;

/** The longest eventId accepted: the script's are `<transactionId>.<event>.<12 characters>`. */
const MAX_EVENT_ID_LENGTH = 200;

export const TIMESTAMP_HEADER = 'x-vantage-timestamp';
export const SIGNATURE_HEADER = 'x-vantage-signature';

/** The script's two events: placed after the Review step, or before it. */
export const EVENT_HINTS = ['transaction.processed', 'transaction.manualReview'] as const;
export type EventHint = (typeof EVENT_HINTS)[number];

/** A verified event. Only `transactionId` is trusted; `event` is a hint of what to wait for. */
export interface PushedEvent {
	eventId: string;
	transactionId: string;
	event: EventHint;
}

/** The parts of an HTTP request the checks read. */
export interface EventRequest {
	headers: Record<string, string | string[] | undefined>;
	/** The body's bytes as received (n8n keeps them as `rawBody`). */
	rawBody?: Uint8Array | string;
	/** The body as n8n parsed it, used only when the raw bytes are not available. */
	body?: unknown;
}

/** The refusal of a well-formed, fresh request whose signature none of the secrets made. */
export const SIGNATURE_MISMATCH = 'the signature does not match';

export type RefusalStatus = 400 | 401 | 413 | 415;

export type Verdict =
	| { ok: true; event: PushedEvent }
	| { ok: false; status: RefusalStatus; reason: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function header(request: EventRequest, name: string): string | undefined {
	const value = request.headers[name];
	// A repeated header arrives as a list: it is not the one value the script sends.
	return typeof value === 'string' ? value : undefined;
}

function refuse(status: RefusalStatus, reason: string): Verdict {
	return { ok: false, status, reason };
}

/** The body's size in bytes: the raw bytes when known, else the declared Content-Length. */
function bodySize(request: EventRequest): number | undefined {
	const { rawBody } = request;
	if (rawBody instanceof Uint8Array) return rawBody.length;
	if (typeof rawBody === 'string') return utf8(rawBody).length;
	const declared = Number(header(request, 'content-length'));
	return Number.isFinite(declared) ? declared : undefined;
}

/** The body as JSON, from the raw bytes when known (a BOM allowed), else as n8n parsed it. */
function parsedBody(request: EventRequest): unknown {
	const { rawBody } = request;
	if (rawBody === undefined) return request.body;
	const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
	try {
		return JSON.parse(text.replace(/^\uFEFF/, ''));
	} catch {
		return undefined;
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "v1:" + timestamp + ":" + eventId + ":" + transactionId: what the script signs. */
export function signedText(timestamp: string, eventId: string, transactionId: string): string {
	return `v1:${timestamp}:${eventId}:${transactionId}`;
}

/**
 * Whether `signature` (32 bytes) is the HMAC of `text` under one of `secrets`. Every secret is
 * tried, so the time taken does not tell which one matched.
 */
function signedByOneOf(secrets: string[], text: string, signature: Uint8Array): boolean {
	const message = utf8(text);
	let matched = false;
	for (const secret of secrets) {
		if (equalBytes(hmacSha256(utf8(secret), message), signature)) matched = true;
	}
	return matched;
}

/**
 * Check a pushed event. `secrets` are the Event Secret credential's Secret and, during a
 * rotation, its Previous Secret (empty ones are left out by the caller); `nowMs` is n8n's clock.
 */
export function checkEvent(request: EventRequest, secrets: string[], nowMs: number): Verdict {
	const size = bodySize(request);
	if (size !== undefined && size > MAX_BODY_BYTES) {
		return refuse(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
	}
	const mediaType = (header(request, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
	if (mediaType !== 'application/json') {
		return refuse(415, 'the body must be application/json');
	}

	const signatureHeader = header(request, SIGNATURE_HEADER)?.trim();
	const match = signatureHeader ? /^v1=([0-9a-fA-F]{64})$/.exec(signatureHeader) : null;
	if (!match) return refuse(401, 'the X-Vantage-Signature header is missing or malformed');
	const signature = fromHex(match[1])!;
	const timestamp = header(request, TIMESTAMP_HEADER)?.trim();
	if (!timestamp || !/^\d{1,12}$/.test(timestamp)) {
		return refuse(401, 'the X-Vantage-Timestamp header is missing or malformed');
	}
	const age = nowMs / 1000 - Number(timestamp);
	if (age > MAX_AGE_SECONDS) {
		return refuse(401, `the timestamp is more than ${MAX_AGE_SECONDS / 60} minutes old`);
	}
	if (-age > MAX_FUTURE_SECONDS) {
		return refuse(401, `the timestamp is more than ${MAX_FUTURE_SECONDS} seconds in the future`);
	}

	// The signature covers the event's id and transaction id, read from the body.
	const body = parsedBody(request);
	const eventId = isObject(body) ? body.eventId : undefined;
	const transactionId = isObject(body) ? body.transactionId : undefined;
	if (
		typeof eventId !== 'string' ||
		typeof transactionId !== 'string' ||
		secrets.length === 0 ||
		!signedByOneOf(secrets, signedText(timestamp, eventId, transactionId), signature)
	) {
		return refuse(401, SIGNATURE_MISMATCH);
	}

	// Signed by Vantage: now the body itself.
	if (!isObject(body) || body.specVersion !== 1) {
		return refuse(400, 'specVersion must be 1');
	}
	if (!(EVENT_HINTS as readonly unknown[]).includes(body.event)) {
		return refuse(400, `event must be one of ${EVENT_HINTS.join(', ')}`);
	}
	if (!UUID.test(transactionId)) return refuse(400, 'transactionId must be a UUID');
	if (eventId.length === 0 || eventId.length > MAX_EVENT_ID_LENGTH) {
		return refuse(400, `eventId must be 1 to ${MAX_EVENT_ID_LENGTH} characters`);
	}
	if (
		body.documentIds !== undefined &&
		!(Array.isArray(body.documentIds) && body.documentIds.every((id) => typeof id === 'string'))
	) {
		return refuse(400, 'documentIds must be a list of strings');
	}
	if (
		body.documentCount !== undefined &&
		!(Number.isInteger(body.documentCount) && (body.documentCount as number) >= 0)
	) {
		return refuse(400, 'documentCount must be a whole number');
	}
	return {
		ok: true,
		event: { eventId, transactionId, event: body.event as EventHint },
	};
}

/**
 * The resume URL a transaction's list entry carries (its registration parameter
 * RESUME_URL_PARAMETER), or undefined. Vantage's list entries give `registrationParameters` as
 * `{ key, value }` items (inferred, vantage-api.md §2).
 */
export function resumeUrlOf(entry: Record<string, unknown> | undefined): string | undefined {
	const parameters = entry?.registrationParameters;
	if (!Array.isArray(parameters)) return undefined;
	for (const parameter of parameters as unknown[]) {
		if (!isObject(parameter) || parameter.key !== RESUME_URL_PARAMETER) continue;
		return typeof parameter.value === 'string' && parameter.value !== ''
			? parameter.value
			: undefined;
	}
	return undefined;
}

/** An event as the script sends it, with the headers that sign it. */
export interface SignedEvent {
	body: string;
	headers: Record<string, string>;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * The event the script sends after Review (`transaction.processed`) for `transactionId`, signed
 * with `secret` at `nowMs` as the script signs it: what the polling trigger's safety net re-sends
 * to a resume URL whose push was lost. Its event id is new (the script's form, 12 random base-36
 * characters): a receiver that took the lost one would refuse a repeated id.
 */
export function signedEvent(secret: string, transactionId: string, nowMs: number): SignedEvent {
	const event: EventHint = 'transaction.processed';
	let random = '';
	for (let i = 0; i < 12; i++) random += BASE36[Math.floor(Math.random() * 36)];
	const eventId = `${transactionId}.${event}.${random}`;
	const timestamp = String(Math.floor(nowMs / 1000));
	const signature = toHex(
		hmacSha256(utf8(secret), utf8(signedText(timestamp, eventId, transactionId))),
	);
	return {
		body: JSON.stringify({
			specVersion: 1,
			event,
			eventId,
			transactionId,
			sentAt: new Date(nowMs).toISOString(),
		}),
		headers: {
			'Content-Type': 'application/json',
			'X-Vantage-Timestamp': timestamp,
			'X-Vantage-Signature': `v1=${signature}`,
		},
	};
}
