import {
	CsvCheck,
	CsvFormatError,
	csvRecords,
	CsvReader,
} from '../../../nodes/AbbyyVantage/helpers/csv';

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
	const counter = new CsvCheck();
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

	test('bytes that are not UTF-8 are refused, naming the line', async () => {
		const broken = Buffer.concat([
			Buffer.from('a,b\r\n1,'),
			Buffer.from([0xff, 0xfe]),
			Buffer.from('\r\n'),
		]);
		await expect(readBytes(broken, 3)).rejects.toThrow('line 2 has bytes that are not UTF-8 text');
	});

	test('a garbled report yields no record from the garbled chunk on', async () => {
		const text = 'a,b\r\n1,2\r\n<html>\r\n';
		const seen: string[][] = [];
		const read = async () => {
			for await (const batch of csvRecords(chunksOf(Buffer.from(text), 10))) seen.push(...batch);
		};
		await expect(read()).rejects.toBeInstanceOf(CsvFormatError);
		expect(seen).toEqual([
			['a', 'b'],
			['1', '2'],
		]);
	});
});

/** What CsvCheck says of `text` pushed in pieces of `size`: the record count, or its error. */
function check(text: Buffer | string, size = 1 << 20): number | string {
	const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
	const checker = new CsvCheck();
	try {
		for (let i = 0; i < data.length; i += size) checker.push(data.subarray(i, i + size));
		return checker.end();
	} catch {
		const { failure } = checker;
		expect(failure).toBeInstanceOf(CsvFormatError);
		expect(failure?.message).toBe(`line ${failure?.line} ${failure?.problem}`);
		return failure?.message ?? 'not a CsvFormatError';
	}
}

describe('CsvCheck: what is not a whole report is refused, naming the line', () => {
	const HEADER = 'Id,Name,Note\r\n1,a,b\r\n';

	test.each([
		[
			'an HTML error page after the header',
			`${HEADER}<html><head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body></html>\r\n`,
			'line 3 has 1 cell where the header has 3',
		],
		['a short row (a body cut)', `${HEADER}2,only`, 'line 3 has 2 cells where the header has 3'],
		['a long row', `${HEADER}2,x,y,z\r\n`, 'line 3 has 4 cells where the header has 3'],
		[
			'a quoted cell that never closes',
			`${HEADER}2,"x\r\ny,z\r\n`,
			'line 3 opens a quoted cell that never closes: the file ends inside it',
		],
		[
			'NUL bytes',
			`${HEADER}2,x,y\r\n\u0000\u0000\u0000\u0000`,
			'line 4 has a NUL byte, which is not text',
		],
		[
			'another control character',
			`${HEADER}2,x\u001b[0m,y\r\n`,
			'line 3 has the control character 0x1b, which is not text',
		],
		[
			'a whole HTML page instead of the report',
			'<!DOCTYPE html>\r\n<html></html>\r\n',
			'line 1 starts like an HTML or XML page, not a CSV header',
		],
	])('%s', (_name, text, message) => {
		for (const size of [1, 2, 5, 1 << 20]) expect(check(text, size)).toBe(message);
	});

	test('lines, not records: a line break inside quotes counts as a line', () => {
		expect(check('Id,Note\r\n1,"two\r\nlines"\r\n2,"three\nli\rnes"\r\n3\r\n')).toBe(
			'line 7 has 1 cell where the header has 2',
		);
		expect(check('Id,Note\n\n1,x\n2\n')).toBe('line 4 has 1 cell where the header has 2');
		for (const size of [1, 2, 3]) {
			expect(check('Id,Note\r\n1,"a\r\nb"\r\n2', size)).toBe(
				'line 4 has 1 cell where the header has 2',
			);
		}
	});

	test('UTF-8: whole characters pass in any pieces; bad, overlong, surrogate or cut sequences do not', () => {
		const good = Buffer.from('\uFEFFName,Ort\r\n"Müller, 日本",🚀\r\n', 'utf8');
		for (const size of [1, 2, 3]) expect(check(good, size)).toBe(2);
		const bad = (bytes: number[]) =>
			check(Buffer.concat([Buffer.from('a\r\n'), Buffer.from(bytes), Buffer.from('\r\n')]), 1);
		for (const bytes of [
			[0x80],
			[0xc0, 0xaf],
			[0xe0, 0x80, 0xaf],
			[0xed, 0xa0, 0x80],
			[0xf4, 0x90, 0x80, 0x80],
			[0xf5, 0x80, 0x80, 0x80],
			[0xc3, 0x41],
		]) {
			expect(bad(bytes)).toBe('line 2 has bytes that are not UTF-8 text');
		}
		expect(check(Buffer.from([0x61, 0x0d, 0x0a, 0xe6, 0x97]))).toBe(
			'line 2 is cut off inside a UTF-8 character',
		);
	});

	test('what a whole report may hold passes: a BOM before a quoted header, blank lines, no last line end', () => {
		expect(check('\uFEFF"Id","Name"\r\n1,"a ""b"""\r\n\r\n2,\r\n,3')).toBe(4);
		expect(check('5" screen,"ab"c\r\n1,2\r\n')).toBe(2);
		// A JSON body is one header cell and no rows: an empty report, not a garbled one.
		expect(check('{"requestId": "7c1e')).toBe(1);
		expect(check('')).toBe(0);
	});
});

describe('CsvCheck: records and bytes', () => {
	test('counts records as CsvReader reads them, whatever the chunks', () => {
		const bytes = Buffer.from(TRICKY, 'utf8');
		for (const size of [1, 2, 3, 11, 1000]) expect(count(bytes, size)).toBe(TRICKY_RECORDS.length);
		expect(count(Buffer.from('a\r\n\r\nb'), 1)).toBe(2);
		expect(count(Buffer.from('5" screen,"ab"c\r\n"x\r\ny",z\r\n'), 2)).toBe(2);
		expect(count(Buffer.alloc(0), 1)).toBe(0);
	});

	test('counts bytes', () => {
		const counter = new CsvCheck();
		counter.push(Buffer.from('ab'));
		counter.push(Buffer.from('c\r\n'));
		expect([counter.end(), counter.bytes]).toEqual([1, 5]);
	});
});
