import {
	formBoundary,
	MultipartError,
	MultipartParser,
	parseHeaderParams,
	type PartInfo,
} from './multipart';
import { BOUNDARY, multipart } from './uploadkit';

interface Parsed extends PartInfo {
	body: Buffer;
	chunks: Buffer[];
	ended: boolean;
}

/** Parse `body` fed in chunks of `size` bytes (or the given split points). */
function parse(body: Buffer, size = body.length): Parsed[] {
	const parts: Parsed[] = [];
	const parser = new MultipartParser(BOUNDARY, (info) => {
		const part: Parsed = { ...info, body: Buffer.alloc(0), chunks: [], ended: false };
		parts.push(part);
		return {
			write: (chunk) => part.chunks.push(Buffer.from(chunk)),
			end: () => {
				part.body = Buffer.concat(part.chunks);
				part.ended = true;
			},
		};
	});
	for (let i = 0; i < body.length; i += size) parser.push(body.subarray(i, i + size));
	parser.end();
	return parts;
}

const sample = () =>
	multipart([
		{ name: 'Model', contentType: 'application/json', data: '{"files":[{"index":1}]}' },
		{ name: 'Files', filename: 'a.pdf', contentType: 'application/pdf', data: '%PDF-1.4 a' },
		// A body holding CRLF and dashes that look almost like the delimiter.
		{ name: 'Files', filename: 'b.txt', data: `x\r\n--${BOUNDARY.slice(0, -1)}\r\n--\r\ny` },
		{ name: 'Files', filename: 'empty.bin', data: '' },
	]);

describe('streaming multipart parser', () => {
	test.each([1, 2, 3, 7, 64, 1000])('the same parts whatever the chunk size (%i)', (size) => {
		const parts = parse(sample(), size);
		expect(
			parts.map((p) => [p.name, p.filename, p.contentType, p.body.toString(), p.ended]),
		).toEqual([
			['Model', null, 'application/json', '{"files":[{"index":1}]}', true],
			['Files', 'a.pdf', 'application/pdf', '%PDF-1.4 a', true],
			['Files', 'b.txt', null, `x\r\n--${BOUNDARY.slice(0, -1)}\r\n--\r\ny`, true],
			['Files', 'empty.bin', null, '', true],
		]);
	});

	test('binary bodies pass byte for byte, split anywhere', () => {
		const data = Buffer.alloc(70_000);
		for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 256;
		const body = multipart([{ name: 'Files', filename: 'bin', data }]);
		for (const size of [1, 13, 4096, 65536])
			expect(parse(body, size)[0].body.equals(data)).toBe(true);
	});

	test('preamble, transport padding and epilogue are ignored', () => {
		const body = Buffer.from(
			`This is a preamble\r\n--${BOUNDARY}  \r\nContent-Disposition: form-data; name="x"\r\n\r\nv\r\n--${BOUNDARY}--\r\nepilogue`,
		);
		expect(parse(body, 5).map((p) => [p.name, p.body.toString()])).toEqual([['x', 'v']]);
	});

	test('a body without its closing delimiter is an error', () => {
		const body = sample();
		const cut = body.subarray(0, body.length - 10);
		expect(() => parse(cut)).toThrow(MultipartError);
		expect(() => parse(cut)).toThrow(/Unexpected end of Stream/);
	});

	test('a part without Content-Disposition, or with neither name nor filename, is an error', () => {
		const noDisposition = Buffer.from(
			`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nv\r\n--${BOUNDARY}--\r\n`,
		);
		expect(() => parse(noDisposition)).toThrow(/neither a name nor a filename/);
		const nameless = Buffer.from(
			`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nv\r\n--${BOUNDARY}--\r\n`,
		);
		expect(() => parse(nameless)).toThrow(/neither a name nor a filename/);
	});

	test('oversized part headers are an error', () => {
		const body = Buffer.from(
			`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\nv\r\n--${BOUNDARY}--\r\n`,
		);
		expect(() => parse(body, 1000)).toThrow(/Line length limit/);
	});

	test('file names: quoted with escapes, and filename* (RFC 5987) first', () => {
		const header = (d: string) =>
			Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${d}\r\n\r\nv\r\n--${BOUNDARY}--\r\n`);
		expect(parse(header('form-data; name="Files"; filename="a \\"b\\".pdf"'))[0].filename).toBe(
			'a "b".pdf',
		);
		expect(
			parse(
				header(`form-data; name=Files; filename="x.pdf"; filename*=UTF-8''na%C3%AFve%20%231.pdf`),
			)[0].filename,
		).toBe('naïve #1.pdf');
		// An empty file name makes the part a plain form value, as in ASP.NET.
		expect(parse(header('form-data; name="Files"; filename=""'))[0].filename).toBeNull();
		expect(parseHeaderParams('form-data; name="a;b"; filename=c.txt').params).toEqual(
			new Map([
				['name', 'a;b'],
				['filename', 'c.txt'],
			]),
		);
	});

	test('the boundary comes from the content type', () => {
		expect(formBoundary('multipart/form-data; boundary=abc')).toBe('abc');
		expect(formBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
		expect(formBoundary('application/json')).toBe('unsupported');
		expect(formBoundary(undefined)).toBe('unsupported');
		expect(() => formBoundary('multipart/form-data')).toThrow('Missing content-type boundary.');
		expect(() => formBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toThrow(
			'Multipart boundary length limit 70 exceeded.',
		);
	});
});
