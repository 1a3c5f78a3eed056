/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * End-to-end tooling, never shipped: reads what n8n wrote to disk. */
/** Reading what a workflow wrote: hashes of files, CSV rows, spreadsheet rows. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { HOST } from './n8n';

export function sha256(bytes: Buffer | string): string {
	return createHash('sha256').update(bytes).digest('hex');
}

export function sha256File(path: string): string {
	return sha256(readFileSync(path));
}

/**
 * RFC 4180 CSV (the kind n8n's Convert to File writes): fields separated by `delimiter`, records by
 * CRLF or LF, fields in double quotes may hold delimiters, line breaks and doubled quotes.
 */
export function parseCsv(text: string, delimiter = ','): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	const body = text.replace(/^\uFEFF/, '');
	for (let i = 0; i < body.length; i++) {
		const c = body[i];
		if (quoted) {
			if (c === '"' && body[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === delimiter) {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && body[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += c;
	}
	if (field !== '' || row.length) {
		row.push(field);
		rows.push(row);
	}
	return rows;
}

/** CSV text as objects keyed by the header row. */
export function csvRecords(text: string): {
	header: string[];
	records: Array<Record<string, string>>;
} {
	const [header = [], ...rows] = parseCsv(text);
	return {
		header,
		records: rows.map((cells) =>
			Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])),
		),
	};
}

/**
 * The first sheet of an .xlsx file as records keyed by its header row, every cell as text. Read
 * with the SheetJS copy n8n ships, which its Convert to File writes with (`@e965/xlsx` in n8n 2.x,
 * `xlsx` in 1.x).
 */
export function xlsxRecords(path: string): {
	header: string[];
	records: Array<Record<string, string>>;
} {
	const bytes = readFileSync(path);
	// An .xlsx file is a ZIP archive.
	if (bytes.subarray(0, 2).toString('latin1') !== 'PK')
		throw new Error(`${path} is not a ZIP archive`);
	const hostRequire = createRequire(join(HOST, 'package.json'));
	let sheetJs: unknown;
	try {
		sheetJs = hostRequire('@e965/xlsx');
	} catch {
		sheetJs = hostRequire('xlsx');
	}
	const xlsx = sheetJs as {
		read: (data: Buffer) => { SheetNames: string[]; Sheets: Record<string, unknown> };
		utils: {
			sheet_to_json: (sheet: unknown, options: object) => string[][];
		};
	};
	const workbook = xlsx.read(bytes);
	const sheet = workbook.Sheets[workbook.SheetNames[0]];
	const [header = [], ...rows] = xlsx.utils.sheet_to_json(sheet, {
		header: 1,
		raw: false,
		defval: '',
	});
	return {
		header,
		records: rows.map((cells) =>
			Object.fromEntries(header.map((name, i) => [name, String(cells[i] ?? '')])),
		),
	};
}
