import { safeFileName } from './fileNames';

/**
 * A document given by its link (File URL): checks before any request, and the file name the
 * answer gives it. Pure functions; the download is transport/download.ts.
 */

/** The link, or why it cannot be used: only http and https are fetched. */
export function parseFileUrl(value: string): URL | string {
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return 'is not a URL (it must start with http:// or https://)';
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return `must be an http or https link, not ${url.protocol.replace(/:$/, '')}`;
	}
	return url;
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
