/**
 * CSV as it streams in (RFC 4180: quoted cells, "" for a quote, line breaks inside quotes; CRLF,
 * LF or CR line ends), for the QA reports, which can be hundreds of megabytes: text is read chunk
 * by chunk, and only the record being read is held. CsvReader is lenient where real files are: a
 * quote inside an unquoted cell is kept as it is, characters after a closing quote are added to
 * the cell, and empty lines are no records. What is not a whole report is refused (CsvCheck): a
 * record with more or fewer cells than the header, a quoted cell still open at the end, bytes
 * that are not UTF-8 text (control characters such as NUL, invalid sequences), a header that
 * starts like an HTML page. A proxy or gateway that breaks a download (an error page after the
 * header, a body cut short, zeros from a cache) produces exactly these.
 */

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** Records from text pushed in pieces of any size: a piece may end inside a cell or a quote. */
export class CsvReader {
	private cells: string[] = [];
	private cell = '';
	/** Inside a quoted cell. */
	private quoted = false;
	/** A quote was just read inside a quoted cell: an escaped quote ("") or the cell's end. */
	private quoteSeen = false;
	/** Nothing read into the current cell yet: only here does a quote open a quoted cell. */
	private cellEmpty = true;
	/** Anything read of the current record (an empty line is no record). */
	private started = false;
	/** The last line end was CR: a LF right after it belongs to the same line end. */
	private afterCr = false;

	/** The records this piece of text completed. */
	push(text: string): string[][] {
		const records: string[][] = [];
		const n = text.length;
		let i = 0;
		while (i < n) {
			if (this.quoted) {
				if (this.quoteSeen) {
					this.quoteSeen = false;
					if (text.charCodeAt(i) === QUOTE) {
						this.cell += '"';
						i++;
					} else {
						// The closing quote: read this character again, outside the quotes.
						this.quoted = false;
					}
					continue;
				}
				const quote = text.indexOf('"', i);
				if (quote === -1) {
					this.cell += text.slice(i);
					break;
				}
				this.cell += text.slice(i, quote);
				this.quoteSeen = true;
				i = quote + 1;
				continue;
			}
			const c = text.charCodeAt(i);
			if (this.afterCr) {
				this.afterCr = false;
				if (c === LF) {
					i++;
					continue;
				}
			}
			if (c === COMMA) {
				this.cells.push(this.cell);
				this.cell = '';
				this.cellEmpty = true;
				this.started = true;
				i++;
			} else if (c === LF || c === CR) {
				if (this.started) records.push(this.take());
				this.afterCr = c === CR;
				i++;
			} else if (c === QUOTE && this.cellEmpty) {
				this.quoted = true;
				this.cellEmpty = false;
				this.started = true;
				i++;
			} else {
				// A run of plain characters, up to the next separator or line end.
				let j = i + 1;
				while (j < n) {
					const d = text.charCodeAt(j);
					if (d === COMMA || d === LF || d === CR) break;
					j++;
				}
				this.cell += text.slice(i, j);
				this.cellEmpty = false;
				this.started = true;
				i = j;
			}
		}
		return records;
	}

	/** The last record, when the text does not end with a line end. */
	end(): string[][] {
		this.quoted = false;
		this.quoteSeen = false;
		this.afterCr = false;
		return this.started ? [this.take()] : [];
	}

	private take(): string[] {
		this.cells.push(this.cell);
		const record = this.cells;
		this.cells = [];
		this.cell = '';
		this.cellEmpty = true;
		this.started = false;
		return record;
	}
}

/** Where and why CSV bytes are not a whole report: `line` is the line in the file, from 1. */
export class CsvFormatError extends Error {
	constructor(
		readonly line: number,
		readonly problem: string,
	) {
		super(`line ${line} ${problem}`);
		this.name = 'CsvFormatError';
	}
}

/**
 * The records of UTF-8 CSV bytes arriving in chunks, a batch per chunk. A character split across
 * two chunks is decoded whole; a byte-order mark is dropped. Every chunk is checked (CsvCheck)
 * before its records are read: a report that is not whole throws CsvFormatError.
 */
export async function* csvRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<string[][]> {
	const decoder = new TextDecoder('utf-8');
	const check = new CsvCheck();
	const reader = new CsvReader();
	for await (const chunk of source) {
		check.push(chunk);
		const records = reader.push(decoder.decode(chunk, { stream: true }));
		if (records.length) yield records;
	}
	check.end();
	const records = [...reader.push(decoder.decode()), ...reader.end()];
	if (records.length) yield records;
}

const LT = 0x3c;
const BOM = [0xef, 0xbb, 0xbf];

/** Control characters that never occur in text: all below 0x20 but tab, LF, VT, FF and CR. */
function isControl(c: number): boolean {
	return c < 0x20 && (c < 0x09 || c > 0x0d);
}

/**
 * Checks CSV bytes as they pass, without decoding or holding them, by the same rules as
 * CsvReader (quotes, commas and line ends are ASCII, never part of a multi-byte UTF-8 character),
 * and counts their records and bytes. Throws CsvFormatError, naming the line, where the bytes stop
 * being a whole report: a record whose cell count differs from the header's, a header that starts
 * with "<" (an HTML or XML page), a control character (NUL …) or a byte sequence that is not
 * UTF-8, and at the end a quoted cell that never closed or a character cut off.
 */
export class CsvCheck {
	records = 0;
	bytes = 0;
	/** What this check threw, for callers that see it only through another layer (a stream). */
	failure?: CsvFormatError;
	/** The header's cell count: every record must have as many. */
	width?: number;
	private line = 1;
	/** The line where the record being read starts. */
	private recordLine = 1;
	/** Commas read in the record so far. */
	private commas = 0;
	private quoted = false;
	/** The line where the open quoted cell started. */
	private quoteLine = 0;
	private quoteSeen = false;
	private cellEmpty = true;
	private started = false;
	/** The last line end was CR: a LF right after it belongs to it (records). */
	private afterCr = false;
	/** The last byte was CR (lines, inside quotes too). */
	private lineCr = false;
	/** Bytes of a leading byte-order mark matched so far; -1 once past the start. */
	private bom = 0;
	/** UTF-8: continuation bytes still expected, and the range the next one must be in. */
	private need = 0;
	private low = 0x80;
	private high = 0xbf;

	push(chunk: Uint8Array): void {
		this.bytes += chunk.length;
		const n = chunk.length;
		for (let i = 0; i < n; i++) {
			const c = chunk[i];
			this.text(c);
			if (this.bom >= 0) {
				if (c === BOM[this.bom]) {
					// A byte-order mark is no part of the first cell (TextDecoder drops it too).
					if (++this.bom === BOM.length) this.bom = -1;
					continue;
				}
				if (this.bom > 0) this.content();
				this.bom = -1;
			}
			this.csv(c);
			if (c === LF) {
				if (!this.lineCr) this.line++;
				this.lineCr = false;
			} else {
				if (c === CR) this.line++;
				this.lineCr = c === CR;
			}
		}
	}

	/** Records in all (the header too), the last one counted even without a line end. */
	end(): number {
		if (this.need > 0) this.fail(this.line, 'is cut off inside a UTF-8 character');
		if (this.quoted && !this.quoteSeen) {
			this.fail(this.quoteLine, 'opens a quoted cell that never closes: the file ends inside it');
		}
		this.quoted = false;
		this.quoteSeen = false;
		if (this.bom > 0) this.content();
		this.bom = -1;
		if (this.started) this.endRecord();
		return this.records;
	}

	/** UTF-8 well-formedness (Unicode Table 3-7) and no control characters. */
	private text(c: number): void {
		if (this.need > 0) {
			if (c < this.low || c > this.high) this.notUtf8();
			this.low = 0x80;
			this.high = 0xbf;
			this.need--;
			return;
		}
		if (c < 0x80) {
			if (isControl(c)) {
				const name =
					c === 0 ? 'a NUL byte' : `the control character 0x${c.toString(16).padStart(2, '0')}`;
				this.fail(this.line, `has ${name}, which is not text`);
			}
			return;
		}
		if (c >= 0xc2 && c <= 0xdf) this.need = 1;
		else if (c >= 0xe0 && c <= 0xef) {
			this.need = 2;
			if (c === 0xe0) this.low = 0xa0;
			if (c === 0xed) this.high = 0x9f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			this.need = 3;
			if (c === 0xf0) this.low = 0x90;
			if (c === 0xf4) this.high = 0x8f;
		} else this.notUtf8();
	}

	private notUtf8(): never {
		return this.fail(this.line, 'has bytes that are not UTF-8 text');
	}

	private fail(line: number, problem: string): never {
		this.failure = new CsvFormatError(line, problem);
		throw this.failure;
	}

	private csv(c: number): void {
		if (this.quoted) {
			if (!this.quoteSeen) {
				if (c === QUOTE) this.quoteSeen = true;
				return;
			}
			this.quoteSeen = false;
			// "" is a quote inside the cell; anything else follows the closing quote.
			if (c === QUOTE) return;
			this.quoted = false;
		}
		if (this.afterCr) {
			this.afterCr = false;
			if (c === LF) return;
		}
		if (c === COMMA) {
			this.commas++;
			this.cellEmpty = true;
			this.start();
		} else if (c === LF || c === CR) {
			if (this.started) this.endRecord();
			this.afterCr = c === CR;
		} else if (c === QUOTE && this.cellEmpty) {
			this.start();
			this.quoted = true;
			this.quoteLine = this.line;
			this.cellEmpty = false;
		} else {
			if (!this.started && this.records === 0 && c === LT) {
				this.fail(this.line, 'starts like an HTML or XML page, not a CSV header');
			}
			this.content();
		}
	}

	private content(): void {
		this.start();
		this.cellEmpty = false;
	}

	private start(): void {
		if (this.started) return;
		this.started = true;
		this.recordLine = this.line;
	}

	private endRecord(): void {
		const cells = this.commas + 1;
		if (this.width === undefined) this.width = cells;
		else if (cells !== this.width) {
			this.fail(
				this.recordLine,
				`has ${cells} ${cells === 1 ? 'cell' : 'cells'} where the header has ${this.width}`,
			);
		}
		this.records++;
		this.commas = 0;
		this.started = false;
		this.cellEmpty = true;
	}
}

/** The benchmark's raw client counts records with the same class. */
export { CsvCheck as CsvRecordCounter };
