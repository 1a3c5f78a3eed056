/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the docs */
/**
 * What is said about the operations elsewhere is held to the resource tables
 * (actions/<resource>/<Resource>.resource.ts): README's Operations table and docs/operations.md
 * name every operation once (./operationTables.ts writes them), the ABBYY Vantage Tool describes
 * every operation or its table says none is needed, and README and package.json count the
 * vendor's operations as the OpenAPI documents do (./vendorCalls.test.ts proves the node reaches
 * each of them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DESTRUCTIVE, TOOLS } from '../../nodes/AbbyyVantage/agent/tools';
import { operationTables } from '../../nodes/AbbyyVantage/actions/router';
import { packageImports } from './imports';
import { openApiOperations } from './openapi';
import {
	expectedNames,
	namedOperations,
	OPERATIONS_DOC,
	README,
	updatedOperationsDoc,
	updatedReadme,
} from './operationTables';

const WRITE =
	'npx ts-node --transpile-only --prefer-ts-exts test/contract/operationTables.ts --write';
const readme = readFileSync(README, 'utf8');
const operationsDoc = readFileSync(OPERATIONS_DOC, 'utf8');

describe('the operation tables of README and docs/operations.md', () => {
	test(`README names every operation once, under its resource, and the trigger's events (else: ${WRITE})`, () => {
		expect(updatedReadme(readme, expectedNames())).toBe(readme);
	});

	test(`docs/operations.md names every operation once, under its resource (else: ${WRITE})`, () => {
		expect(updatedOperationsDoc(operationsDoc, namedOperations())).toBe(operationsDoc);
	});

	test('an operation left out is added, a name that is none is taken out, the words stay', () => {
		const names = expectedNames();
		const row = (text: string) => text.split('\n').find((line) => line.startsWith('| Report |'))!;
		const dropped = readme.replace('Get Many Exports, ', '').replace('Create Export,', 'Rename,');
		expect(row(updatedReadme(dropped, names))).toBe(
			'| Report | Get Export Status, Wait For Export, Download Export Files, Get Document Changes, Get Field Changes, **Get Quality Summary**, Create Export, Get Many Exports | [Reports and quality](docs/reports-and-quality.md) |',
		);
		const doc = operationsDoc
			.split('\n')
			.filter((line) => !line.startsWith('| Report | Get Many Exports |'))
			.map((line) =>
				line.replace('| Catalog | Get Many / Get |', '| Catalog | Get Many / Drop / Get |'),
			)
			.join('\n');
		const updated = updatedOperationsDoc(doc, namedOperations()).split('\n');
		expect(updated).toContain(
			'| Report | Get Many Exports | List your export requests with their status and file count. |',
		);
		expect(updated.filter((line) => line.startsWith('| Catalog | Get Many / Get |'))).toHaveLength(
			1,
		);
	});
});

describe('the ABBYY Vantage Tool describes every operation, or its table says none is needed', () => {
	const rows = Object.entries(operationTables).flatMap(([resource, table]) =>
		Object.entries(table).map(
			([operation, row]) =>
				[
					`${resource}.${operation}`,
					(row as { toolDescription?: string }).toolDescription,
				] as const,
		),
	);

	test.each(rows)('%s', (key, toolDescription) => {
		const said = [
			key in TOOLS && 'a description of its own in agent/tools.ts',
			toolDescription === 'generic' && "toolDescription: 'generic' in its resource's table",
		].filter(Boolean);
		expect(said).toHaveLength(1);
	});

	test('the tool descriptions and the guarded operations are operations of the node', () => {
		const keys: string[] = rows.map(([key]) => key);
		expect(Object.keys(TOOLS).filter((key) => !keys.includes(key))).toEqual([]);
		expect(Object.keys(DESTRUCTIVE).filter((key) => !keys.includes(key))).toEqual([]);
	});
});

test('every operation has its test, where its code is: test/node/<resource>/[<family>/]<operation>.test.ts', () => {
	const ROOT = join(__dirname, '..', '..');
	const operationFiles = packageImports().paths.filter((path) => path.endsWith('.operation.ts'));
	const misplaced = Object.entries(operationTables).flatMap(([resource, table]) =>
		Object.keys(table).flatMap((operation) => {
			const code = operationFiles.find((path) =>
				path.match(
					new RegExp(
						`^nodes/AbbyyVantage/actions/${resource}/(?:[^/]+/)?${operation}\\.operation\\.ts$`,
					),
				),
			);
			const folder = code?.replace(/^nodes\/AbbyyVantage\/actions\//, '').replace(/[^/]+$/, '');
			const test = `test/node/${folder}${operation}.test.ts`;
			const key = `${resource}.${operation}`;
			return existsSync(join(ROOT, test)) ? [] : [`${key}: no ${test}`];
		}),
	);
	expect(misplaced).toEqual([]);
});

describe('README and package.json count the vendor operations as the OpenAPI documents declare them', () => {
	const claimed = (text: string) =>
		[
			...text.matchAll(/all (\d+) operations of Vantage's public Processing and Reporting APIs/gi),
		].map((m) => Number(m[1]));
	const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
		description: string;
	};

	test.each([
		['README.md', readme],
		['package.json', pkg.description],
	])('%s', (_, text) => {
		expect(claimed(text)).toEqual([openApiOperations.length]);
	});
});
