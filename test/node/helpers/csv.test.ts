import { csvRecords, CsvReader, CsvRecordCounter } from '../../../nodes/AbbyyVantage/helpers/csv';

/** Every record of `text`, pushed in pieces cut at `cuts` (character offsets). */
function read(text: string, cuts: number[] = []): string[][] {
	const reader = new CsvReader();
	const records: string[][] = [];
	let from = 0;
	for (const cut of [...cuts, text.length]) {
		records.push(...reader.push(text.slice(from, cut)));
		from = cut;
	}
	return [...records, ...reader.end()];
}

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
	for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readBytes(bytes: Buffer, size: number): Promise<string[][]> {
	const records: string[][] = [];
	for await (const batch of csvRecords(chunksOf(bytes, size))) records.push(...batch);
	return records;
}

function count(bytes: Buffer, size: number): number {
	const counter = new CsvRecordCounter();
	for (let i = 0; i < bytes.length; i += size) counter.push(bytes.subarray(i, i + size));
	return counter.end();
}

/** A report with every hard case: quotes, escaped quotes, commas and line breaks in quotes. */
const TRICKY =
	'Id,Name,Note\r\n' +
	'1,"Müller, Schmidt & Söhne","said ""hi""\r\nthen left"\r\n' +
	'2,plain,\r\n' +
	'3,"",""\r\n' +
	'4,日本語 🚀,"a\nb"\r\n';
const TRICKY_RECORDS = [
	['Id', 'Name', 'Note'],
	['1', 'Müller, Schmidt & Söhne', 'said "hi"\r\nthen left'],
	['2', 'plain', ''],
	['3', '', ''],
	['4', '日本語 🚀', 'a\nb'],
];

describe('CsvReader', () => {
	test('quoted cells, escaped quotes, commas and line breaks inside quotes', () => {
		expect(read(TRICKY)).toEqual(TRICKY_RECORDS);
	});

	test('the same records whatever the pieces: cut at every position, inside quotes too', () => {
		for (let cut = 0; cut <= TRICKY.length; cut++) {
			expect(read(TRICKY, [cut])).toEqual(TRICKY_RECORDS);
		}
		// One character at a time: every "" and CRLF is split across pieces.
		expect(
			read(
				TRICKY,
				Array.from({ length: TRICKY.length }, (_, i) => i),
			),
		).toEqual(TRICKY_RECORDS);
	});

	test('CRLF, LF and CR line ends; a CRLF split between pieces is one line end', () => {
		expect(read('a,b\r\n1,2\n3,4\r5,6')).toEqual([
			['a', 'b'],
			['1', '2'],
			['3', '4'],
			['5', '6'],
		]);
		expect(read('a\r\nb\r\n', [2])).toEqual([['a'], ['b']]);
	});

	test('empty lines are no records; an empty cell is one', () => {
		expect(read('a,b\r\n\r\n\n1,\r\n,\r\n')).toEqual([
			['a', 'b'],
			['1', ''],
			['', ''],
		]);
		expect(read('')).toEqual([]);
		expect(read('\r\n')).toEqual([]);
	});

	test('the last record without a line end', () => {
		expect(read('a,b\r\n1,"x"')).toEqual([
			['a', 'b'],
			['1', 'x'],
		]);
	});

	test('lenient where files are not RFC 4180: stray quotes, text after a closing quote, an unterminated quote', () => {
		expect(read('5" screen,"ab"c,x\r\n')).toEqual([['5" screen', 'abc', 'x']]);
		expect(read('a,"never closed\r\nstill inside')).toEqual([
			['a', 'never closed\r\nstill inside'],
		]);
	});
});

describe('csvRecords (bytes)', () => {
	const bytes = Buffer.from(`\uFEFF${TRICKY}`, 'utf8');

	test('multi-byte UTF-8 characters split across chunks are decoded whole; the BOM is dropped', async () => {
		for (const size of [1, 2, 3, 5, 7, 64]) {
			expect(await readBytes(bytes, size)).toEqual(TRICKY_RECORDS);
		}
	});

	test('bytes that are not UTF-8 become U+FFFD instead of failing', async () => {
		const broken = Buffer.concat([
			Buffer.from('a,b\r\n1,'),
			Buffer.from([0xff, 0xfe]),
			Buffer.from('\r\n'),
		]);
		expect(await readBytes(broken, 3)).toEqual([
			['a', 'b'],
			['1', '\uFFFD\uFFFD'],
		]);
	});
});

describe('CsvRecordCounter', () => {
	test('counts records as CsvReader reads them, whatever the chunks', () => {
		const bytes = Buffer.from(TRICKY, 'utf8');
		for (const size of [1, 2, 3, 11, 1000]) expect(count(bytes, size)).toBe(TRICKY_RECORDS.length);
		expect(count(Buffer.from('a\r\n\r\nb'), 1)).toBe(2);
		expect(count(Buffer.from('5" screen,"ab"c\r\n"x\r\ny"\r\n'), 2)).toBe(2);
		expect(count(Buffer.alloc(0), 1)).toBe(0);
	});

	test('counts bytes', () => {
		const counter = new CsvRecordCounter();
		counter.push(Buffer.from('ab'));
		counter.push(Buffer.from('c\r\n'));
		expect([counter.end(), counter.bytes]).toEqual([1, 5]);
	});
});
