/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console -- reads and writes the docs */
/**
 * README's Operations table and the tables of docs/operations.md, kept to the node's resource
 * tables (actions/<resource>/<Resource>.resource.ts) and the trigger's events: every operation is
 * named once under its resource, nothing else is. A row's words stay as written; an operation
 * missing from them is added (README: its name at the end of its resource's row; docs: a row of
 * its own after its resource's last, saying what its label says), a name that is no operation
 * any more is taken out. test/contract/operationTables.test.ts fails while the files differ from
 * what this makes of them; to write them:
 *
 *   npx ts-node --transpile-only --prefer-ts-exts test/contract/operationTables.ts --write
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { operationTables, resourceOptions } from '../../nodes/AbbyyVantage/actions/router';
import { EVENTS } from '../../nodes/AbbyyVantageTrigger/events';

const ROOT = resolve(__dirname, '../..');

/** An operation as the docs name it: its resource's and its own display name, its label. */
export interface NamedOperation {
	resource: string;
	name: string;
	description: string;
}

/** Every operation of the node, by display names, in the resource tables' order. */
export function namedOperations(): NamedOperation[] {
	return Object.entries(operationTables).flatMap(([resource, table]) =>
		Object.values(table).map(({ name, description }) => ({
			resource: resourceOptions.find((r) => r.value === resource)!.name,
			name,
			description,
		})),
	);
}

/** README's name for the trigger's row. */
export const TRIGGER_ROW = '*Trigger*';

/** A cell's entry as a name: without `**` and without what is in parentheses. */
const plain = (entry: string) =>
	entry
		.replace(/\([^()]*\)/g, '')
		.replace(/\*\*/g, '')
		.trim();

/** A cell's entries, split at the commas outside parentheses. */
function entriesOf(cell: string): string[] {
	const entries: string[] = [];
	let depth = 0;
	let current = '';
	for (const char of cell) {
		if (char === '(') depth++;
		if (char === ')') depth--;
		if (char === ',' && depth === 0) {
			entries.push(current.trim());
			current = '';
		} else current += char;
	}
	if (current.trim()) entries.push(current.trim());
	return entries;
}

const cellsOf = (line: string) => line.split('|').slice(1, -1);
const rowOf = (cells: string[]) => `|${cells.join('|')}|`;

/** README with its Operations table's rows naming exactly `names` (resource → operation names). */
export function updatedReadme(text: string, names: Map<string, string[]>): string {
	const lines = text.split('\n');
	const start = lines.findIndex((line) => line === '## Operations');
	const seen = new Set<string>();
	for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
		const cells = cellsOf(lines[i]);
		const wanted = names.get(cells[0]?.trim() ?? '');
		if (!lines[i].startsWith('|') || !wanted) continue;
		seen.add(cells[0].trim());
		const kept = entriesOf(cells[1]).filter((entry) => wanted.includes(plain(entry)));
		const missing = wanted.filter((name) => !kept.some((entry) => plain(entry) === name));
		cells[1] = ` ${[...kept, ...missing].join(', ')} `;
		lines[i] = rowOf(cells);
	}
	const absent = [...names.keys()].filter((resource) => !seen.has(resource));
	if (absent.length) {
		// A row of its own before the trigger's (or after the table's last row).
		let at = start + 1;
		while (at < lines.length && !lines[at].startsWith('|')) at++;
		while (
			at < lines.length &&
			lines[at].startsWith('|') &&
			cellsOf(lines[at])[0].trim() !== TRIGGER_ROW
		)
			at++;
		const rows = absent.map((resource) =>
			rowOf([` ${resource} `, ` ${names.get(resource)!.join(', ')} `, ' ']),
		);
		lines.splice(at, 0, ...rows);
	}
	return lines.join('\n');
}

/**
 * docs/operations.md with its tables' rows (`| Resource | Operation / Operation | What it does |`)
 * naming every operation once.
 */
export function updatedOperationsDoc(text: string, operations: NamedOperation[]): string {
	const lines = text.split('\n');
	const resources = new Set(operations.map((op) => op.resource));
	const isRow = (line: string) =>
		line.startsWith('|') && resources.has(cellsOf(line)[0]?.trim() ?? '');
	const seen = new Set<string>();
	const lastRowOf = new Map<string, number>();
	const out: string[] = [];
	for (const line of lines) {
		if (!isRow(line)) {
			out.push(line);
			continue;
		}
		const cells = cellsOf(line);
		const resource = cells[0].trim();
		const names = cells[1]
			.split(' / ')
			.map((name) => name.trim())
			.filter(
				(name) =>
					operations.some((op) => op.resource === resource && op.name === plain(name)) &&
					!seen.has(`${resource} → ${plain(name)}`),
			);
		if (!names.length) continue;
		names.forEach((name) => seen.add(`${resource} → ${plain(name)}`));
		cells[1] = ` ${names.join(' / ')} `;
		out.push(rowOf(cells));
		lastRowOf.set(resource, out.length - 1);
	}
	const missing = operations.filter((op) => !seen.has(`${op.resource} → ${op.name}`));
	// From the last, so that earlier positions stay where they are.
	for (const op of [...missing].reverse()) {
		const after = lastRowOf.get(op.resource) ?? Math.max(...lastRowOf.values());
		out.splice(after + 1, 0, rowOf([` ${op.resource} `, ` ${op.name} `, ` ${op.description}. `]));
	}
	return out.join('\n');
}

/** What is expected of each table: the node's operations, README's trigger row the events. */
export function expectedNames(): Map<string, string[]> {
	const names = new Map<string, string[]>();
	for (const op of namedOperations())
		names.set(op.resource, [...(names.get(op.resource) ?? []), op.name]);
	names.set(
		TRIGGER_ROW,
		Object.values(EVENTS).map((event) => event.name),
	);
	return names;
}

export const README = join(ROOT, 'README.md');
export const OPERATIONS_DOC = join(ROOT, 'docs', 'operations.md');

if (require.main === module) {
	const write = process.argv.includes('--write');
	const files: Array<[string, (text: string) => string]> = [
		[README, (text) => updatedReadme(text, expectedNames())],
		[OPERATIONS_DOC, (text) => updatedOperationsDoc(text, namedOperations())],
	];
	for (const [file, update] of files) {
		const text = readFileSync(file, 'utf8');
		const updated = update(text);
		if (updated === text) console.log(`${file}: as the resource tables say`);
		else if (write) {
			writeFileSync(file, updated);
			console.log(`${file}: written`);
		} else console.log(`${file}: differs (run with --write)`);
	}
}
