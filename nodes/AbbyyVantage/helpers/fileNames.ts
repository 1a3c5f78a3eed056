/**
 * A value as part of an output file name: characters that file systems, ZIP archives or e-mail
 * attachments reject become `_`, and `.`/`..` or an empty result cannot escape a folder.
 */
export function safeFileName(name: string, fallback = 'file'): string {
	// eslint-disable-next-line no-control-regex
	const cleaned = name.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_').trim();
	if (cleaned === '' || /^\.+$/.test(cleaned)) return fallback;
	return cleaned.slice(0, 200);
}

/**
 * "invoice.pdf" → "invoice-2.pdf". Not "invoice (2).pdf": Vantage would store the parentheses as
 * `_`, and the name in the output would not be the one in the transaction.
 */
export function withSuffix(name: string, n: number): string {
	const dot = name.lastIndexOf('.');
	return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

/** "scan.final.pdf" → "scan.final": a file name without its extension. */
export function fileStem(name: string): string {
	const dot = name.lastIndexOf('.');
	return dot > 0 ? name.slice(0, dot) : name;
}
