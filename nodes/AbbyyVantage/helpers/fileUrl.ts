import { FILE_URL_MAX_CHARS } from '../constants';
import { allowsHost, type AllowedHost } from './allowedHosts';
import { noted } from './errors';
import { safeFileName } from './fileNames';
import { whyInternal } from './internalAddress';
import { count } from './text';

/**
 * A document given by its link (File URL): checks before any request, and the file name the
 * answer gives it. Pure functions; the download is transport/download.ts.
 */

/** The link, or why it cannot be used: only http and https are fetched, up to a length. */
export function parseFileUrl(value: string): URL | string {
	const text = value.trim();
	if (text.length > FILE_URL_MAX_CHARS) {
		return `is longer than ${count(FILE_URL_MAX_CHARS, 'character')} (${text.length})`;
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return 'is not a URL (it must start with http:// or https://)';
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return `must be an http or https link, not ${url.protocol.replace(/:$/, '')}`;
	}
	// Normalising may lengthen it (percent-encoding): the link sent is the normalised one.
	if (url.href.length > FILE_URL_MAX_CHARS) {
		return `is longer than ${count(FILE_URL_MAX_CHARS, 'character')} once normalised (${url.href.length})`;
	}
	return url;
}

/**
 * The internal hosts File URL may fetch from, as read for one item: the user's list, and why
 * entries the user wrote do not count (an expression, when the node runs as a tool).
 */
export interface AllowedInternalHosts {
	hosts: AllowedHost[];
	/** Added to a refusal's advice. */
	note?: string;
}

/**
 * Why the link's host is where a document never lives and the user has not allowed it, as the
 * end of "its host …" ("is a loopback address (n8n’s own machine)"); undefined when it may be
 * fetched. The host is WHATWG URL's hostname, so user-info ("http://files@127.0.0.1/") and every
 * spelling of an address are already read as the host they reach.
 */
export function internalHostRefusal(url: URL, allowed: AllowedInternalHosts): string | undefined {
	const why = whyInternal(url.hostname);
	if (!why || allowsHost(allowed.hosts, url)) return undefined;
	return `is ${why}`;
}

/**
 * "File URL … was not fetched: its host …" for the link itself, or "…: it redirected to …, whose
 * host …" for a redirect's target. Neither shows a query.
 */
export function notFetched(link: URL, hop: URL | undefined, reason: string): string {
	return hop
		? `File URL ${describeUrl(link)} was not fetched: it redirected to ${describeUrl(hop)}, whose host ${reason}`
		: `File URL ${describeUrl(link)} was not fetched: its host ${reason}`;
}

/** What to do about a link refused for its internal host. */
export function internalHostAdvice(allowed: AllowedInternalHosts): string {
	return [
		'Documents are not fetched from internal addresses: a link to one may be an attempt to make n8n read its own network (server-side request forgery). Use a link to the file on a public server (e.g. a presigned storage link); if the file really is on an internal server, list that host in Allowed Internal Hosts, e.g. files.corp.example.com, 10.20.0.5:8080 or 10.20.0.0/16.',
		allowed.note ?? '',
	]
		.filter(Boolean)
		.join(' ');
}

/** What to do when n8n's own SSRF protection refused a link. */
export const N8N_SSRF_ADVICE =
	'n8n’s SSRF protection (N8N_SSRF_PROTECTION_ENABLED) does not connect to this address, and Allowed Internal Hosts does not override it. If the file really is there, an n8n administrator must allow it as well: N8N_SSRF_ALLOWED_HOSTNAMES for names, N8N_SSRF_ALLOWED_IP_RANGES for addresses.';

/**
 * Whether an error is n8n's SSRF protection refusing a connection (n8n 2.x @n8n/backend-network:
 * SsrfBlockedIpError, SsrfBlockedHostnameError, "The request was blocked because …"). Read from
 * the error's own name and message, as n8n's HTTP client may wrap it (the wrapper keeps the message).
 */
export function isN8nSsrfRefusal(error: unknown): boolean {
	const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
	return (
		/^Ssrf\w*Error$/.test(String(name)) ||
		/^The request was blocked because\b/i.test(String(message ?? ''))
	);
}

/**
 * Why File URL refused a link, kept on the error for the tool's answer (agent/run.ts): `internal`
 * and `n8n` are refusals a model must not work around, `setting` is the user's list being wrong.
 */
export type LinkRefusal = 'internal' | 'n8n' | 'setting';

export function refusedLink<E extends Error>(error: E, refusal: LinkRefusal): E {
	return noted(error, { linkRefusal: refusal });
}

export function linkRefusalOf(error: unknown): LinkRefusal | undefined {
	return error !== null && typeof error === 'object'
		? (error as { linkRefusal?: LinkRefusal }).linkRefusal
		: undefined;
}

/**
 * A link as messages and outputs show it: scheme, host and path. The query and any user name or
 * password are left out: a presigned link's signature is in its query, and it grants access.
 */
export function describeUrl(url: URL): string {
	return `${url.protocol}//${url.host}${url.pathname}${url.search ? ' (query not shown)' : ''}`;
}

/**
 * The file name a Content-Disposition header gives (RFC 6266): `filename*` (RFC 8187, UTF-8)
 * first, then `filename`; only the last path segment is kept.
 */
export function fileNameFromDisposition(header: string | undefined): string | undefined {
	if (!header) return undefined;
	const extended = /filename\*\s*=\s*([\w-]*)'[^']*'([^;]+)/i.exec(header);
	if (extended && /^utf-8$/i.test(extended[1])) {
		try {
			const name = baseName(decodeURIComponent(extended[2].trim()));
			if (name) return safeFileName(name);
		} catch {
			// A malformed escape: fall back to the plain `filename`.
		}
	}
	const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header);
	const value = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]?.trim()) : undefined;
	const name = value ? baseName(value) : '';
	return name ? safeFileName(name) : undefined;
}

/** The last segment of the link's path, decoded ("…/Invoice%2012.pdf" → "Invoice 12.pdf"). */
export function fileNameFromPath(url: URL): string | undefined {
	const segment = url.pathname.split('/').filter(Boolean).pop();
	if (!segment) return undefined;
	let name = segment;
	try {
		name = decodeURIComponent(segment);
	} catch {
		// Kept as it is.
	}
	name = baseName(name);
	return name ? safeFileName(name) : undefined;
}

function baseName(name: string): string {
	return (name.split(/[/\\]/).pop() ?? '').trim();
}
