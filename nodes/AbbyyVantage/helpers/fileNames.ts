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
