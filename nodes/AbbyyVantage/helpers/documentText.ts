/**
 * A document's plain text for LLM steps: the `Text` result file Vantage exports for it
 * (ResultFileType `Text`), decoded and bounded. Pure.
 */

/**
 * The most characters of a document's text an item carries. About 25 000 tokens: room in any
 * current model's context for the text and the prompt around it, about 30 pages of dense text, and
 * an item n8n can store in every execution's data without trouble (n8n keeps each node's output in
 * its database). A longer text is cut here, saying so in the text itself (a model must know it
 * did not read everything) and in `textNote`; the whole file is the `Text` result file
 * (Download Result Files).
 */
export const DOCUMENT_TEXT_MAX_CHARS = 100_000;

/** How far back from the limit a cut looks for a line break, so that no line is cut in half. */
const CUT_AT_LINE_WITHIN = 2_000;

/** The text of a Text result file: UTF-8 unless a byte order mark says UTF-16. */
export function decodeText(bytes: Buffer): string {
	if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
		return bytes.subarray(2).toString('utf16le');
	}
	if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
		// Big-endian: swap each pair of bytes (a trailing odd byte cannot be a character).
		const swapped = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
		return swapped.swap16().toString('utf16le');
	}
	return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

export interface BoundedText {
	text: string;
	/** Set when the text was cut: what was kept of how much. */
	note?: string;
}

/** The marker a cut text ends with. */
export function cutMarker(kept: number, total: number): string {
	return `\n[… text cut here: the first ${kept.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters are above]`;
}

/**
 * `text` within `max` characters: whole, or cut at the last line break near the limit (else at
 * the limit, never inside a surrogate pair), ending with a marker that says so.
 */
export function boundText(text: string, max = DOCUMENT_TEXT_MAX_CHARS): BoundedText {
	if (text.length <= max) return { text };
	const room = Math.max(0, max - cutMarker(text.length, text.length).length);
	let end = room;
	const lineBreak = text.lastIndexOf('\n', room);
	if (lineBreak > 0 && room - lineBreak <= CUT_AT_LINE_WITHIN) end = lineBreak;
	const code = text.charCodeAt(end - 1);
	if (code >= 0xd800 && code <= 0xdbff) end -= 1;
	return {
		text: text.slice(0, end) + cutMarker(end, text.length),
		note: `The text was cut to its first ${end.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters (the node's limit is ${max.toLocaleString('en-US')}); the whole text is the Text result file (Download Result Files)`,
	};
}
