/**
 * The node reaches every operation of ABBYY's two OpenAPI documents, and writes each call in one
 * home. Read from the code (./vendorCalls.ts): from the `execute` of every operation of the
 * node's resource tables, through the calls and references of the code, to the uses of
 * `endpoints.<operation>` (transport/endpoints.ts names each operation; ./endpoints.test.ts holds
 * them to the documents). A vendor operation only the trigger calls, or one written again beside
 * its home, fails here; so does a Vantage path written outside transport/endpoints.ts.
 */
import { operationTables } from '../../nodes/AbbyyVantage/actions/router';
import { endpoints } from '../../nodes/AbbyyVantage/transport/endpoints';
import { TEST_PATH } from '../../credentials/AbbyyVantageApi.endpoints';
import { packageImports } from './imports';
import { openApiOperations } from './openapi';
import { ENDPOINTS_FILE, vendorCalls } from './vendorCalls';

const operationIdOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

describe('every vendor operation is reached from the node, each from one home', () => {
	const { paths } = packageImports();
	const calls = vendorCalls(paths);
	const operations = Object.entries(operationTables).flatMap(([resource, table]) =>
		Object.keys(table).map((operation) => ({ resource, operation })),
	);
	/** actions/<resource>/<operation>.operation.ts, or in a family's folder of the resource. */
	const filesOf = ({ resource, operation }: { resource: string; operation: string }) =>
		paths.filter((path) =>
			new RegExp(
				`^nodes/AbbyyVantage/actions/${resource}/([^/]+/)?${operation}\\.operation\\.ts$`,
			).test(path),
		);

	test('each operation of the resource tables is one file, and each operation file is one of them', () => {
		expect(operations.filter((op) => filesOf(op).length !== 1)).toEqual([]);
		const operationFiles = paths.filter((path) => path.endsWith('.operation.ts'));
		expect(operationFiles.sort()).toEqual(operations.flatMap(filesOf).sort());
	});

	test('every operationId of the two documents is reached from an operation of the node', () => {
		const roots = operations.flatMap(filesOf).map((path) => calls.exported(path, 'execute'));
		expect(roots.filter((root) => root === undefined)).toEqual([]);
		const reached = new Set([...calls.reached(roots as string[])].map(operationIdOf));
		expect(openApiOperations.map((op) => op.operationId).filter((id) => !reached.has(id))).toEqual(
			[],
		);
		expect(reached.size).toBe(openApiOperations.length);
	});

	test('each vendor operation is written in one home; every other place calls the home', () => {
		const written = [...calls.homes].map(([name, homes]) => [name, [...homes].sort()] as const);
		expect(written.filter(([, homes]) => homes.length !== 1)).toEqual([]);
		expect(written.map(([name]) => name).sort()).toEqual(Object.keys(endpoints).sort());
		// Both nodes list export requests through the home that the node's Get Many Exports uses.
		expect([...calls.homes.get('listExportRequests')!]).toEqual([
			'nodes/AbbyyVantage/vantage/exports.ts#listExportRequests',
		]);
	});

	test(`no Vantage API path is written outside ${ENDPOINTS_FILE} but the credential's Test request, which is GetCatalogs`, () => {
		expect(calls.pathsOutside).toEqual([`credentials/AbbyyVantageApi.endpoints.ts: ${TEST_PATH}`]);
		expect(endpoints.getCatalogs()).toMatchObject({ method: 'GET', path: TEST_PATH });
	});

	test('the reading is not vacuous: a call only the trigger makes is not reached, a call written twice has two homes', () => {
		const sources: Record<string, string> = {
			[ENDPOINTS_FILE]: 'export const endpoints = { a: () => 1, b: () => 2, c: () => 3 };',
			'nodes/AbbyyVantage/transport/index.ts': "export { endpoints } from './endpoints';",
			'nodes/AbbyyVantage/vantage/things.ts': [
				"import { endpoints } from '../transport';",
				'export function listA() { return endpoints.a(); }',
				'export function readB() { return endpoints.b(); }',
				'export class Things { c() { return endpoints.c(); } other() { return 0; } }',
			].join('\n'),
			'nodes/AbbyyVantage/actions/r/op.operation.ts': [
				"import { readB, Things } from '../../vantage/things';",
				'const things = new Things();',
				'export async function execute() { return readB() + things.c(); }',
			].join('\n'),
			'nodes/AbbyyVantageTrigger/events/e.ts': [
				"import { endpoints } from '../../AbbyyVantage/transport';",
				'export function poll() { return endpoints.a(); }',
			].join('\n'),
		};
		const read = vendorCalls(Object.keys(sources), (path) => sources[path]);
		const root = read.exported('nodes/AbbyyVantage/actions/r/op.operation.ts', 'execute');
		expect(root).toBe('nodes/AbbyyVantage/actions/r/op.operation.ts#execute');
		expect([...read.reached([root!])].sort()).toEqual(['b', 'c']);
		expect([...read.homes.get('a')!].sort()).toEqual([
			'nodes/AbbyyVantage/vantage/things.ts#listA',
			'nodes/AbbyyVantageTrigger/events/e.ts#poll',
		]);
		expect([...read.homes.get('c')!]).toEqual(['nodes/AbbyyVantage/vantage/things.ts#Things.c']);
	});
});
