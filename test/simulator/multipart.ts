/**
 * A streaming multipart/form-data parser (RFC 7578, RFC 2046 §5.1) with bounded memory: part
 * bodies go to a sink chunk by chunk as they arrive, so uploads of any size pass through holding
 * at most one network chunk and a boundary's length of look-behind. Limits and error texts follow
 * ASP.NET Core's MultipartReader / FormOptions, which the vendor's service runs on.
 */

export interface PartInfo {
	/** The form field name (Content-Disposition `name`). */
	name: string;
	/** Content-Disposition `filename*` (RFC 5987) or `filename`; null for a plain form value. */
	filename: string | null;
	/** The part's Content-Type, if given. */
	contentType: string | null;
}

export interface PartSink {
	write(chunk: Buffer): void;
	end(): void;
}

/** A malformed body: ASP.NET answers these with 400 (InvalidDataException). */
export class MultipartError extends Error {}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
/** ASP.NET's MultipartReader.HeadersLengthLimit and HeadersCountLimit. */
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_HEADERS = 16;
const MAX_BOUNDARY_LENGTH = 70;

/**
 * The boundary of a `multipart/form-data` content type. Throws 'unsupported' for another media
 * type (ASP.NET: 415) and a MultipartError for a missing or too long boundary (ASP.NET: 400).
 */
export function formBoundary(contentType: string | undefined): string | 'unsupported' {
	const [type, ...params] = (contentType ?? '').split(';');
	if (type.trim().toLowerCase() !== 'multipart/form-data') return 'unsupported';
	const param = params
		.map((p) => /^\s*boundary\s*=\s*(?:"([^"]*)"|([^\s;]*))\s*$/i.exec(p))
		.find(Boolean);
	const boundary = param ? (param[1] ?? param[2]) : '';
	if (!boundary) throw new MultipartError('Missing content-type boundary.');
	if (boundary.length > MAX_BOUNDARY_LENGTH) {
		throw new MultipartError(`Multipart boundary length limit ${MAX_BOUNDARY_LENGTH} exceeded.`);
	}
	return boundary;
}

type State = 'preamble' | 'afterBoundary' | 'headers' | 'body' | 'done';

/** Feed it chunks with `push`, then call `end`; it calls `onPart` per part and writes its sink. */
export class MultipartParser {
	private buf: Buffer = Buffer.alloc(0);
	private state: State = 'preamble';
	private sink: PartSink | null = null;
	private readonly dashBoundary: Buffer;
	/** CRLF "--" boundary: what ends a part's body. */
	private readonly delimiter: Buffer;

	constructor(
		boundary: string,
		private readonly onPart: (info: PartInfo) => PartSink,
	) {
		this.dashBoundary = Buffer.from(`--${boundary}`, 'latin1');
		this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
	}

	push(chunk: Buffer): void {
		if (chunk.length === 0) return;
		if (this.buf.length === 0) this.buf = chunk;
		else if (this.state === 'body' && chunk.length >= this.delimiter.length) {
			// The look-behind is shorter than a delimiter: only a delimiter starting in it needs the
			// two joined; otherwise flush it and carry on in the new chunk without copying it.
			const probe = Buffer.concat([this.buf, chunk.subarray(0, this.delimiter.length - 1)]);
			const at = probe.indexOf(this.delimiter);
			if (at !== -1 && at < this.buf.length) this.buf = Buffer.concat([this.buf, chunk]);
			else {
				this.sink?.write(this.buf);
				this.buf = chunk;
			}
		} else this.buf = Buffer.concat([this.buf, chunk]);
		this.run();
	}

	end(): void {
		if (this.state !== 'done') {
			throw new MultipartError(
				'Unexpected end of Stream, the content may have already been read by another component.',
			);
		}
	}

	private run(): void {
		for (;;) {
			switch (this.state) {
				case 'preamble': {
					const at = this.buf.indexOf(this.dashBoundary);
					if (at === -1) {
						this.keepTail(this.dashBoundary.length - 1);
						return;
					}
					this.buf = this.buf.subarray(at + this.dashBoundary.length);
					this.state = 'afterBoundary';
					break;
				}
				case 'afterBoundary': {
					if (this.buf.length < 2) return;
					if (this.buf[0] === 0x2d && this.buf[1] === 0x2d) {
						this.state = 'done';
						this.buf = Buffer.alloc(0);
						return;
					}
					const eol = this.buf.indexOf(CRLF);
					if (eol === -1) {
						if (this.buf.length > 1024)
							throw new MultipartError('Invalid multipart boundary line.');
						return;
					}
					// Transport padding (spaces, tabs) may follow a boundary.
					if (!/^[ \t]*$/.test(this.buf.toString('latin1', 0, eol))) {
						throw new MultipartError('Invalid multipart boundary line.');
					}
					this.buf = this.buf.subarray(eol + 2);
					this.state = 'headers';
					break;
				}
				case 'headers': {
					let end: number;
					let headerText: string;
					if (this.buf.length >= 2 && this.buf[0] === 0x0d && this.buf[1] === 0x0a) {
						end = 2;
						headerText = '';
					} else {
						const at = this.buf.indexOf(HEADER_END);
						if (at === -1) {
							if (this.buf.length > MAX_HEADER_BYTES) {
								throw new MultipartError(`Line length limit ${MAX_HEADER_BYTES} exceeded.`);
							}
							return;
						}
						if (at > MAX_HEADER_BYTES) {
							throw new MultipartError(`Line length limit ${MAX_HEADER_BYTES} exceeded.`);
						}
						end = at + 4;
						headerText = this.buf.toString('utf8', 0, at);
					}
					this.buf = this.buf.subarray(end);
					this.sink = this.onPart(partInfo(headerText));
					this.state = 'body';
					break;
				}
				case 'body': {
					const at = this.buf.indexOf(this.delimiter);
					if (at === -1) {
						const safe = this.buf.length - (this.delimiter.length - 1);
						if (safe > 0) {
							this.sink?.write(this.buf.subarray(0, safe));
							this.buf = this.buf.subarray(safe);
						}
						return;
					}
					if (at > 0) this.sink?.write(this.buf.subarray(0, at));
					this.sink?.end();
					this.sink = null;
					this.buf = this.buf.subarray(at + this.delimiter.length);
					this.state = 'afterBoundary';
					break;
				}
				case 'done':
					// The epilogue is ignored.
					this.buf = Buffer.alloc(0);
					return;
			}
		}
	}

	private keepTail(length: number): void {
		if (this.buf.length > length)
			this.buf = Buffer.from(this.buf.subarray(this.buf.length - length));
	}
}

function partInfo(headerText: string): PartInfo {
	const headers = new Map<string, string>();
	const lines = headerText ? headerText.split('\r\n') : [];
	if (lines.length > MAX_HEADERS) {
		throw new MultipartError(`Multipart headers count limit ${MAX_HEADERS} exceeded.`);
	}
	for (const line of lines) {
		const colon = line.indexOf(':');
		if (colon <= 0) throw new MultipartError(`Invalid header line: ${line}`);
		headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
	}
	const disposition = headers.get('content-disposition');
	if (!disposition) throw new MultipartError('Form section has neither a name nor a filename.');
	const { type, params } = parseHeaderParams(disposition);
	if (type.toLowerCase() !== 'form-data') {
		throw new MultipartError(`Unexpected Content-Disposition type: ${type}`);
	}
	const filenameStar = params.get('filename*');
	const filename =
		filenameStar !== undefined ? decodeRfc5987(filenameStar) : params.get('filename');
	const name = params.get('name');
	if (name === undefined && !filename) {
		throw new MultipartError('Form section has neither a name nor a filename.');
	}
	return {
		name: name ?? '',
		// ASP.NET: a part is a file when filename or filename* is non-empty.
		filename: filename ? filename : null,
		contentType: headers.get('content-type') ?? null,
	};
}

/** `form-data; name="Files"; filename="a \"b\".pdf"` → type and lower-cased parameter names. */
export function parseHeaderParams(value: string): { type: string; params: Map<string, string> } {
	const params = new Map<string, string>();
	const semi = value.indexOf(';');
	const type = (semi === -1 ? value : value.slice(0, semi)).trim();
	let i = semi === -1 ? value.length : semi + 1;
	while (i < value.length) {
		while (i < value.length && /[\s;]/.test(value[i])) i++;
		const eq = value.indexOf('=', i);
		if (eq === -1) break;
		const key = value.slice(i, eq).trim().toLowerCase();
		i = eq + 1;
		while (value[i] === ' ') i++;
		let v = '';
		if (value[i] === '"') {
			i++;
			while (i < value.length && value[i] !== '"') {
				if (value[i] === '\\' && i + 1 < value.length) i++;
				v += value[i++];
			}
			i++;
		} else {
			const end = value.indexOf(';', i);
			v = value.slice(i, end === -1 ? value.length : end).trim();
			i = end === -1 ? value.length : end;
		}
		if (!params.has(key)) params.set(key, v);
	}
	return { type, params };
}

/** RFC 5987 ext-value: `UTF-8''na%C3%AFve.pdf`. */
function decodeRfc5987(value: string): string {
	const m = /^([^']*)'[^']*'(.*)$/.exec(value);
	if (!m) return value;
	try {
		const bytes = Buffer.from(
			m[2].replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
			'latin1',
		);
		return bytes.toString(/^iso-8859-1$/i.test(m[1]) ? 'latin1' : 'utf8');
	} catch {
		return value;
	}
}
