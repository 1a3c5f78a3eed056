/**
 * CSV as it streams in (RFC 4180: quoted cells, "" for a quote, line breaks inside quotes; CRLF,
 * LF or CR line ends), for the QA reports, which can be hundreds of megabytes: text is read chunk
 * by chunk, and only the record being read is held. Lenient where real files are: a quote inside
 * an unquoted cell is kept as it is, characters after a closing quote are added to the cell, an
 * unterminated quote ends at the end of the file, and empty lines are no records.
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

/**
 * The records of UTF-8 CSV bytes arriving in chunks, a batch per chunk. A character split across
 * two chunks is decoded whole; a byte-order mark is dropped; bytes that are not UTF-8 become U+FFFD.
 */
export async function* csvRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<string[][]> {
	const decoder = new TextDecoder('utf-8');
	const reader = new CsvReader();
	for await (const chunk of source) {
		const records = reader.push(decoder.decode(chunk, { stream: true }));
		if (records.length) yield records;
	}
	const records = [...reader.push(decoder.decode()), ...reader.end()];
	if (records.length) yield records;
}

/**
 * Counts the records of CSV bytes without decoding them, by the same rules as CsvReader: quotes,
 * commas and line ends are ASCII, never part of a multi-byte UTF-8 character.
 */
export class CsvRecordCounter {
	records = 0;
	bytes = 0;
	private quoted = false;
	private quoteSeen = false;
	private cellEmpty = true;
	private started = false;
	private afterCr = false;

	push(chunk: Uint8Array): void {
		this.bytes += chunk.length;
		const n = chunk.length;
		let i = 0;
		while (i < n) {
			const c = chunk[i];
			if (this.quoted) {
				if (this.quoteSeen) {
					this.quoteSeen = false;
					if (c === QUOTE) i++;
					else this.quoted = false;
					continue;
				}
				const quote = chunk.indexOf(QUOTE, i);
				if (quote === -1) break;
				this.quoteSeen = true;
				i = quote + 1;
				continue;
			}
			if (this.afterCr) {
				this.afterCr = false;
				if (c === LF) {
					i++;
					continue;
				}
			}
			if (c === COMMA) {
				this.cellEmpty = true;
				this.started = true;
			} else if (c === LF || c === CR) {
				if (this.started) this.records++;
				this.started = false;
				this.cellEmpty = true;
				this.afterCr = c === CR;
			} else if (c === QUOTE && this.cellEmpty) {
				this.quoted = true;
				this.cellEmpty = false;
				this.started = true;
			} else {
				this.cellEmpty = false;
				this.started = true;
			}
			i++;
		}
	}

	/** Records in all, the last one counted even without a line end. */
	end(): number {
		if (this.started) this.records++;
		this.started = false;
		this.quoted = false;
		this.quoteSeen = false;
		return this.records;
	}
}
