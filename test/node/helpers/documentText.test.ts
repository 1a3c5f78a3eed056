import {
	boundText,
	decodeText,
	DOCUMENT_TEXT_MAX_CHARS,
} from '../../../nodes/AbbyyVantage/helpers/documentText';

describe('a document’s text for LLM steps', () => {
	test('decoded as UTF-8, or UTF-16 when a byte order mark says so', () => {
		const text = 'Rechnung Nr. 7 – Größe 💶\r\nZeile 2';
		expect(decodeText(Buffer.from(text, 'utf8'))).toBe(text);
		expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toBe(
			text,
		);
		const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
		expect(decodeText(le)).toBe(text);
		const be = Buffer.from(Buffer.from(text, 'utf16le')).swap16();
		expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be, Buffer.from([0x41])]))).toBe(
			text,
		);
	});

	test('a text within the limit is kept whole, with no note', () => {
		expect(boundText('short text')).toEqual({ text: 'short text' });
		const exact = 'x'.repeat(DOCUMENT_TEXT_MAX_CHARS);
		expect(boundText(exact).text).toBe(exact);
	});

	test('a longer one is cut at a line break near the limit, never inside a character, and says so twice', () => {
		const line = `${'word '.repeat(15)}\n`;
		const long = line.repeat(3000);
		const { text, note } = boundText(long, 10_000);
		expect(text.length).toBeLessThanOrEqual(10_000);
		const [kept, marker] = text.split('\n[… text cut here');
		expect(kept.endsWith('word ')).toBe(true);
		expect(long.startsWith(`${kept}\n`)).toBe(true);
		expect(marker).toBe(
			`: the first ${kept.length.toLocaleString('en-US')} of ${long.length.toLocaleString('en-US')} characters are above]`,
		);
		expect(note).toBe(
			`The text was cut to its first ${kept.length.toLocaleString('en-US')} of ${long.length.toLocaleString('en-US')} characters (the node's limit is 10,000); the whole text is the Text result file (Download Result Files)`,
		);
		// One line of 20 000 emoji: cut at the limit, between characters, whatever its parity.
		for (const max of [10_001, 10_002]) {
			const emoji = boundText('💶'.repeat(20_000), max).text.split('\n[…')[0];
			expect(emoji).toBe('💶'.repeat(Math.floor(emoji.length / 2)));
		}
	});
});
