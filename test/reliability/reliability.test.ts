/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- writes RELIABILITY.md at the repository root */
/**
 * Reliability: every operation × every fault the simulator can inject, a seeded soak, the
 * bad-input catalogue and awkward-but-valid input. Each cell asserts: record IDs lost = 0,
 * duplicate creations = 0, secrets in outputs or errors = 0. The tables are written to
 * RELIABILITY.md when the suite finishes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { token, api } from '../helpers/http';
import {
	runNode,
	serialize,
	simulatorCredentials,
	type CredentialStore,
	type RunResult,
} from '../harness/n8n';
import { FIXTURE, VantageSimulator, type Fault, type RouteId } from '../simulator/simulator';

const CATALOG = 'Vendors / EU 2026';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const FAST = { maxRetries: 2, retryDelay: 0.01, maxRetryDelay: 2, timeout: 1 };
const MAX_ATTEMPTS = FAST.maxRetries + 1;

let sim: VantageSimulator;
let store: CredentialStore;

beforeEach(async () => {
	sim = new VantageSimulator();
	await sim.start();
	store = simulatorCredentials(sim);
	sim.addCatalog(CATALOG);
});
afterEach(async () => await sim.stop());

const report: { matrix: string[]; soak: string[]; badInput: string[]; awkward: string[] } = {
	matrix: [],
	soak: [],
	badInput: [],
	awkward: [],
};

function secretsIn(result: RunResult): number {
	const text = serialize(result);
	return [FIXTURE.password, FIXTURE.clientSecret, ...sim.issuedTokens()].filter((s) =>
		text.includes(s),
	).length;
}

function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 150);
}

// ------------------------------------------------------------------ fault matrix

interface Operation {
	name: string;
	/** The route the faults hit. */
	route: RouteId;
	/** Creates something: never resent, duplicates counted. */
	creates: boolean;
	/** Requests the operation sends to `route` when nothing goes wrong. */
	requests: number;
	/** Later requests stop after a 401/403/404 (delete batches do). */
	stopsOnFatal?: boolean;
	prepare: () => Promise<{ parameters: INodeParameters; items?: IDataObject[] }>;
}

async function exportOwnedByUser(files = ['a,b\r\n1,2\r\n']): Promise<string> {
	sim.scriptNextExport({ path: ['Succeeded'], files });
	const res = await api(
		sim,
		await token(sim),
		'POST',
		'/api/reporting/v2/exports/transaction-steps',
		{
			filters: { startDate: '2025-11-01T00:00:00Z' },
		},
	);
	return (res.json as { requestId: string }).requestId;
}

const DELETE_IDS = Array.from({ length: 15 }, (_, i) => `rec-${i}`);

const operations: Operation[] = [
	{
		name: 'Create Export',
		route: 'CreateTransactionStepsExportRequest',
		creates: true,
		requests: 1,
		prepare: async () => ({
			parameters: {
				resource: 'report',
				operation: 'createExport',
				startDate: '2025-11-01T00:00:00Z',
			},
		}),
	},
	{
		name: 'Get Export Status',
		route: 'GetExportStatus',
		creates: false,
		requests: 1,
		prepare: async () => ({
			parameters: {
				resource: 'report',
				operation: 'getExportStatus',
				requestId: await exportOwnedByUser(),
			},
		}),
	},
	{
		name: 'Wait For Export',
		route: 'GetExportStatus',
		creates: false,
		requests: 1,
		prepare: async () => ({
			parameters: {
				resource: 'report',
				operation: 'waitForExport',
				requestId: await exportOwnedByUser(),
				options: { pollInterval: 1 },
			},
		}),
	},
	{
		name: 'Download Export Files',
		route: 'GetExportResult',
		creates: false,
		requests: 1,
		prepare: async () => ({
			parameters: {
				resource: 'report',
				operation: 'downloadExportFiles',
				requestId: await exportOwnedByUser(),
			},
		}),
	},
	{
		name: 'Add Document',
		route: 'CreateTransactionDocument',
		creates: true,
		requests: 1,
		prepare: async () => ({
			parameters: {
				resource: 'transactionDocument',
				operation: 'add',
				transactionId: sim.createTransaction(FIXTURE.processSkillId),
			},
		}),
	},
	{
		name: 'Delete Records (3 batches)',
		route: 'DeleteRecords',
		creates: false,
		requests: 3,
		stopsOnFatal: true,
		prepare: async () => {
			sim.seedRecords(CATALOG, DELETE_IDS);
			return {
				items: [{ ids: DELETE_IDS.slice(0, 8) }, { ids: DELETE_IDS.slice(5) }],
				parameters: {
					resource: 'catalog',
					operation: 'deleteRecords',
					catalogId: rl(CATALOG),
					recordIdsSource: 'field',
					inputField: 'ids',
					mode: 'aggregate',
					options: { batchSize: 5 },
				},
			};
		},
	},
	{
		name: 'Reindex',
		route: 'StartCatalogReindex',
		creates: true,
		requests: 1,
		prepare: async () => ({
			parameters: {
				resource: 'catalog',
				operation: 'reindex',
				catalogId: rl(CATALOG),
				waitForCompletion: false,
			},
		}),
	},
];

interface FaultCase {
	name: string;
	fault: Fault;
	times: number;
	/** Retried when the request is safe to repeat. */
	transient: boolean;
	/** n8n signs in again and resends once. */
	auth?: 'once' | 'always';
	fatal?: boolean;
}

const problem = (status: number, detail: string) => ({ title: 'Problem', status, detail });

const faults: FaultCase[] = [
	{ name: '429', fault: { kind: 'status', status: 429 }, times: Infinity, transient: true },
	{
		name: '429 + Retry-After',
		fault: { kind: 'status', status: 429, retryAfter: '0' },
		times: Infinity,
		transient: true,
	},
	{
		name: '500',
		fault: { kind: 'status', status: 500, body: problem(500, 'Internal failure') },
		times: Infinity,
		transient: false,
	},
	{ name: '502', fault: { kind: 'status', status: 502 }, times: Infinity, transient: true },
	{ name: '503', fault: { kind: 'status', status: 503 }, times: Infinity, transient: true },
	{ name: '504', fault: { kind: 'status', status: 504 }, times: Infinity, transient: true },
	{ name: 'reset', fault: { kind: 'reset' }, times: Infinity, transient: true },
	{ name: 'timeout', fault: { kind: 'delay', ms: 1300 }, times: Infinity, transient: true },
	{ name: 'malformed JSON', fault: { kind: 'malformedJson' }, times: Infinity, transient: true },
	{
		name: '401 once',
		fault: { kind: 'status', status: 401 },
		times: 1,
		transient: false,
		auth: 'once',
	},
	{
		name: '401 always',
		fault: { kind: 'status', status: 401 },
		times: Infinity,
		transient: false,
		auth: 'always',
		fatal: true,
	},
	{
		name: '403',
		fault: { kind: 'status', status: 403, body: problem(403, 'Forbidden') },
		times: Infinity,
		transient: false,
		fatal: true,
	},
	{
		name: '404',
		fault: { kind: 'status', status: 404, body: problem(404, 'Not found') },
		times: Infinity,
		transient: false,
		fatal: true,
	},
	{
		name: '400 ProblemDetails',
		fault: { kind: 'status', status: 400, body: problem(400, 'Some parameters are invalid') },
		times: Infinity,
		transient: false,
	},
];

function parsesBody(op: Operation): boolean {
	return op.route !== 'GetExportResult' && op.route !== 'DeleteRecords';
}

/** Attempts the transport should make for one logical request under a fault. */
function attemptsPerRequest(op: Operation, f: FaultCase): number {
	if (f.auth) return 2;
	if (f.transient && !op.creates) {
		// Export files are bytes and delete answers are ignored: a "malformed JSON" body is harmless.
		if (f.fault.kind === 'malformedJson' && !parsesBody(op)) return 1;
		return MAX_ATTEMPTS;
	}
	return 1;
}

describe('fault matrix: every operation × every fault', () => {
	for (const op of operations) {
		for (const f of faults) {
			test(`${op.name} × ${f.name}`, async () => {
				const { parameters, items } = await op.prepare();
				const before = sim.createdCounts();
				sim.clearLog();
				sim.injectFault(op.route, f.fault, f.times);
				const result = await runNode({
					credentials: store,
					items,
					continueOnFail: true,
					parameters: { ...parameters, requestOptions: FAST },
				});
				const attempts = sim.requestsTo(op.route).length;
				const after = sim.createdCounts();
				const created =
					after.exports -
					before.exports +
					(after.documents - before.documents) +
					(after.reindexes - before.reindexes);
				const duplicateCreates = op.creates ? Math.max(0, created - 1) : 0;
				const json = result.items[0]?.json ?? {};
				const error = typeof json.error === 'string' ? json.error : '';
				let idsLost = 0;
				if (op.route === 'DeleteRecords') {
					idsLost =
						(json.uniqueIdsSent as number) -
						(json.idsDeleted as number) -
						(json.idsFailed as number);
					// Whatever was reported deleted is gone; whatever is still there was reported failed.
					const failedIds = new Set(
						((json.failedBatches as Array<{ ids: string[] }>) ?? []).flatMap((b) => b.ids),
					);
					for (const id of sim.recordIds(CATALOG)) if (!failedIds.has(id)) idsLost++;
				}
				const secrets = secretsIn(result);

				const perRequest = attemptsPerRequest(op, f);
				const expectedAttempts =
					op.requests === 1
						? perRequest
						: f.auth === 'once'
							? perRequest + (op.requests - 1)
							: f.fatal && op.stopsOnFatal
								? perRequest
								: perRequest * op.requests;
				const outcome = error ? `error: ${error}` : 'success';
				report.matrix.push(
					`| ${op.name} | ${f.name} | ${attempts} | ${cell(outcome)} | ${idsLost} | ${duplicateCreates} | ${secrets} |`,
				);

				expect({ idsLost, duplicateCreates, secrets }).toEqual({
					idsLost: 0,
					duplicateCreates: 0,
					secrets: 0,
				});
				expect(attempts).toBe(expectedAttempts);
				if (f.auth === 'once' || (f.fault.kind === 'malformedJson' && !parsesBody(op))) {
					expect(error).toBe('');
				} else {
					expect(error).toMatch(/\[item 0\]$/);
				}
				if (
					op.creates &&
					['reset', 'timeout', 'malformed JSON', '500', '502', '503', '504'].includes(f.name)
				) {
					expect(json.errorDescription).toMatch(/may have reached ABBYY Vantage and been applied/);
				}
			});
		}
	}
});

// ------------------------------------------------------------------ soak

describe('soak', () => {
	test('10 000 items with 1 % seeded random faults: every record ID accounted for', async () => {
		const items = Array.from({ length: 10000 }, (_, i) => ({
			ids: [`soak-${i}-a`, `soak-${i}-b`, `soak-${i}-a`],
		}));
		sim.seedRecords(
			CATALOG,
			items.flatMap((item) => item.ids),
		);
		sim.injectRandomFaults(
			0.01,
			[
				{ kind: 'status', status: 429 },
				{ kind: 'status', status: 503 },
				{ kind: 'status', status: 502 },
				{ kind: 'reset' },
				{ kind: 'status', status: 500, body: problem(500, 'Internal failure') },
				{ kind: 'status', status: 400, body: problem(400, 'Some parameters are invalid') },
			],
			20261122,
		);
		const started = Date.now();
		const result = await runNode({
			credentials: store,
			items,
			continueOnFail: true,
			parameters: {
				resource: 'catalog',
				operation: 'deleteRecords',
				catalogId: rl(CATALOG),
				recordIdsSource: 'field',
				inputField: 'ids',
				mode: 'perItem',
				requestOptions: FAST,
			},
		});
		const seconds = (Date.now() - started) / 1000;
		expect(result.items).toHaveLength(10000);
		let deleted = 0;
		let failed = 0;
		const reportedFailed = new Set<string>();
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			const json = item.json;
			expect(json.uniqueIdsSent).toBe(2);
			expect(json.duplicatesRemoved).toBe(1);
			expect((json.idsDeleted as number) + (json.idsFailed as number)).toBe(2);
			deleted += json.idsDeleted as number;
			failed += json.idsFailed as number;
			for (const batch of (json.failedBatches as Array<{ ids: string[] }>) ?? [])
				for (const id of batch.ids) reportedFailed.add(id);
		});
		const remaining = sim.recordIds(CATALOG);
		expect(new Set(remaining)).toEqual(reportedFailed);
		expect(deleted + failed).toBe(20000);
		const faulted = sim.requestsTo('DeleteRecords').filter((r) => r.fault).length;
		expect(faulted).toBeGreaterThan(40);
		expect(secretsIn(result)).toBe(0);
		report.soak.push(
			`| 10 000 items × 3 IDs (2 unique), Per Item | 1 % seeded: 429, 502, 503, reset, 500, 400 | ${sim.requestsTo('DeleteRecords').length} | ${faulted} | ${deleted} | ${failed} | ${remaining.length} | 0 | ${seconds.toFixed(1)} s |`,
		);
	}, 180_000);
});

// ------------------------------------------------------------------ bad input

interface BadCase {
	name: string;
	parameters: INodeParameters;
	items?: IDataObject[];
	credentials?: IDataObject;
	message: RegExp;
}

const del = (extra: IDataObject = {}): INodeParameters => ({
	resource: 'catalog',
	operation: 'deleteRecords',
	catalogId: rl(CATALOG),
	recordIdsSource: 'field',
	inputField: 'ids',
	...extra,
});

const badCases: BadCase[] = [
	{
		name: 'empty record ID',
		items: [{ ids: [''] }],
		parameters: del(),
		message: /^Input Field "ids": the ID at position 0 is empty/,
	},
	{
		name: 'whitespace record ID',
		items: [{ ids: ['a', ' \t '] }],
		parameters: del(),
		message: /position 1 is only whitespace/,
	},
	{
		name: 'number as record ID',
		items: [{ ids: [12] }],
		parameters: del(),
		message: /position 0 is number, not text/,
	},
	{
		name: 'boolean as record ID',
		items: [{ ids: [true] }],
		parameters: del(),
		message: /position 0 is boolean, not text/,
	},
	{
		name: 'nested array of IDs',
		items: [{ ids: [['a', 'b']] }],
		parameters: del(),
		message: /position 0 is a nested array/,
	},
	{
		name: 'null record ID',
		items: [{ ids: ['a', null] }],
		parameters: del(),
		message: /position 1 is null, not text/,
	},
	{
		name: 'object as record ID',
		items: [{ ids: [{}] }],
		parameters: del(),
		message: /position 0 is object, not text/,
	},
	{
		name: '0 IDs (empty array)',
		items: [{ ids: [] }],
		parameters: del(),
		message: /^No record IDs to delete/,
	},
	{
		name: '0 IDs (blank typed list)',
		parameters: del({ recordIdsSource: 'list', recordIds: ' , \n ' }),
		message: /^No record IDs to delete/,
	},
	{
		name: 'missing input field',
		items: [{ other: [] }],
		parameters: del(),
		message: /^Input Field "ids" does not exist/,
	},
	{
		name: 'Record IDs expression giving a number',
		parameters: del({ recordIdsSource: 'list', recordIds: '={{ 42 }}' }),
		message: /^Record IDs must be text or an array, not 42/,
	},
	{
		name: 'catalog exactly "."',
		items: [{ ids: ['a'] }],
		parameters: del({ catalogId: rl('.') }),
		message: /^Catalog must not be "\." or "\.\."/,
	},
	{
		name: 'catalog exactly ".."',
		items: [{ ids: ['a'] }],
		parameters: del({ catalogId: rl('..') }),
		message: /^Catalog must not be "\." or "\.\."/,
	},
	{
		name: 'blank catalog',
		items: [{ ids: ['a'] }],
		parameters: del({ catalogId: rl('   ') }),
		message: /^Catalog is empty/,
	},
	{
		name: 'Batch Size 0',
		items: [{ ids: ['a'] }],
		parameters: del({ options: { batchSize: 0 } }),
		message: /^Batch Size must be between 1 and 5000, not 0/,
	},
	{
		name: 'Batch Size 5001',
		items: [{ ids: ['a'] }],
		parameters: del({ options: { batchSize: 5001 } }),
		message: /^Batch Size must be between 1 and 5000, not 5001/,
	},
	{
		name: 'unknown Mode value',
		items: [{ ids: ['a'] }],
		parameters: del({ mode: '={{ "all" }}' }),
		message: /^Mode must be one of "perItem", "aggregate", not "all"/,
	},
	{
		name: 'unknown Record IDs Source value',
		items: [{ ids: ['a'] }],
		parameters: del({ recordIdsSource: '={{ "csv" }}', recordIds: 'a' }),
		message: /^Record IDs Source must be one of "list", "field", not "csv"/,
	},
	{
		name: 'empty Request ID',
		parameters: { resource: 'report', operation: 'getExportStatus', requestId: '={{ "  " }}' },
		message: /^Request ID is empty/,
	},
	{
		name: 'Request ID exactly ".."',
		parameters: { resource: 'report', operation: 'waitForExport', requestId: '..' },
		message: /^Request ID must not be "\." or "\.\."/,
	},
	{
		name: 'empty Transaction ID',
		parameters: { resource: 'transactionDocument', operation: 'add', transactionId: '={{ "" }}' },
		message: /^Transaction ID is empty/,
	},
	{
		name: 'Transaction ID exactly "."',
		parameters: { resource: 'transactionDocument', operation: 'add', transactionId: '.' },
		message: /^Transaction ID must not be "\." or "\.\."/,
	},
	{
		name: 'negative Index',
		parameters: {
			resource: 'transactionDocument',
			operation: 'add',
			transactionId: 't',
			additionalFields: { index: -2 },
		},
		message: /^Index must be between 0 and 2147483647, not -2/,
	},
	{
		name: 'fractional Index',
		parameters: {
			resource: 'transactionDocument',
			operation: 'add',
			transactionId: 't',
			additionalFields: { index: 0.5 },
		},
		message: /^Index must be a whole number, not 0.5/,
	},
	{
		name: 'unknown Auto Crop value',
		parameters: {
			resource: 'transactionDocument',
			operation: 'add',
			transactionId: 't',
			additionalFields: { autoCrop: '={{ "Sometimes" }}' },
		},
		message: /^Auto Crop must be one of "Default", "Yes", "No", not "Sometimes"/,
	},
	{
		name: 'invalid Start Date',
		parameters: { resource: 'report', operation: 'createExport', startDate: 'last Tuesday' },
		message: /^Start Date is not a valid date/,
	},
	{
		name: 'impossible calendar date',
		parameters: { resource: 'report', operation: 'createExport', startDate: '2025-13-01T00:00:00' },
		message: /^Start Date is not a valid date/,
	},
	{
		name: 'End Date before Start Date',
		parameters: {
			resource: 'report',
			operation: 'createExport',
			startDate: '2025-11-10T00:00:00Z',
			additionalFields: { endDate: '2025-11-09T00:00:00Z' },
		},
		message: /^End Date \(.*\) is before Start Date/,
	},
	{
		name: 'File Index negative',
		parameters: {
			resource: 'report',
			operation: 'downloadExportFiles',
			requestId: 'r',
			files: 'one',
			fileIndex: -1,
		},
		message: /^File Index must be between 0 and 2147483647, not -1/,
	},
	{
		name: 'unknown Files value',
		parameters: {
			resource: 'report',
			operation: 'downloadExportFiles',
			requestId: 'r',
			files: '={{ "some" }}',
		},
		message: /^Files must be one of "all", "one", not "some"/,
	},
	{
		name: 'Poll Interval below 1 s',
		parameters: {
			resource: 'report',
			operation: 'waitForExport',
			requestId: 'r',
			options: { pollInterval: 0.2 },
		},
		message: /^Poll Interval must be between 1 and 86400 seconds/,
	},
	{
		name: 'Max Retries above 10',
		parameters: {
			resource: 'report',
			operation: 'getExportStatus',
			requestId: 'r',
			requestOptions: { maxRetries: 11 },
		},
		message: /^Max Retries must be between 0 and 10, not 11/,
	},
	{
		name: 'Custom base URL: http to a non-loopback host',
		credentials: { baseUrl: 'http://vantage.example.com' },
		parameters: { resource: 'report', operation: 'getExportStatus', requestId: 'r' },
		message: /^Credential: Base URL must use https:\/\//,
	},
	{
		name: 'Custom base URL with a query',
		credentials: { baseUrl: 'https://vantage.example.com/?a=1' },
		parameters: { resource: 'report', operation: 'getExportStatus', requestId: 'r' },
		message: /^Credential: Base URL must not contain a query/,
	},
	{
		name: 'Custom base URL with credentials in it',
		credentials: { baseUrl: 'https://me:pw@vantage.example.com' },
		parameters: { resource: 'report', operation: 'getExportStatus', requestId: 'r' },
		message: /^Credential: Base URL must not contain a user name or password/,
	},
	{
		name: 'Custom base URL with a fragment',
		credentials: { baseUrl: 'https://vantage.example.com/#top' },
		parameters: { resource: 'report', operation: 'getExportStatus', requestId: 'r' },
		message: /^Credential: Base URL must not contain a fragment/,
	},
];

describe('bad-input catalogue: refused before any request', () => {
	test.each(badCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const credentials = c.credentials ? simulatorCredentials(sim, c.credentials) : store;
		const result = await runNode({ credentials, items: c.items, parameters: c.parameters });
		const message = result.error?.message ?? '';
		report.badInput.push(`| ${c.name} | ${cell(message)} | ${sim.requests.length} |`);
		expect(message).toMatch(c.message);
		expect(message).toMatch(/(\[item \d+\]$)|^Credential:/);
		expect(sim.requests).toHaveLength(0);
	});

	test('the catalogue has at least 30 cases', () => {
		expect(badCases.length).toBeGreaterThanOrEqual(30);
	});
});

// ------------------------------------------------------------------ awkward but valid

describe('awkward but valid input arrives exactly as given', () => {
	test('record IDs with / ? # % " and non-ASCII are sent intact in the body', async () => {
		const ids = [
			'a/b',
			'q?x=1',
			'#hash',
			'50%',
			'say "hi"',
			'Ärger',
			'日本語',
			'emoji 🚀',
			' padded ',
		];
		sim.seedRecords(CATALOG, ids);
		await runNode({
			credentials: store,
			items: [{ ids }],
			parameters: del(),
		});
		const sent = sim.requestsTo('DeleteRecords')[0].body;
		expect(sent).toEqual(ids);
		expect(sim.recordIds(CATALOG)).toEqual([]);
		report.awkward.push(
			`| Record IDs \`a/b\`, \`q?x=1\`, \`#hash\`, \`50%\`, \`say "hi"\`, \`Ärger\`, \`日本語\`, \`emoji 🚀\`, \` padded \` | body equals the input, all deleted |`,
		);
	});

	test.each(['Vendors 2026', 'EU/Vendors', '100% vendors', 'a..b', 'Zürich'])(
		'catalog %j travels as one encoded path segment',
		async (name) => {
			sim.addCatalog(name);
			await runNode({
				credentials: store,
				parameters: {
					resource: 'catalog',
					operation: 'reindex',
					catalogId: rl(name),
					waitForCompletion: false,
				},
			});
			const [request] = sim.requestsTo('StartCatalogReindex');
			expect(request.params.catalogId).toBe(name);
			expect(request.path.split('/')).toHaveLength(7);
			report.awkward.push(
				`| Catalog \`${name}\` | path \`${request.path}\`, decoded back to the name |`,
			);
		},
	);

	test('100 000 IDs in one item are chunked into 20 requests of 5000', async () => {
		const ids = Array.from({ length: 100000 }, (_, i) => `bulk-${i}`);
		const result = await runNode({ credentials: store, items: [{ ids }], parameters: del() });
		const bodies = sim.requestsTo('DeleteRecords').map((r) => r.body as string[]);
		expect(bodies.map((b) => b.length)).toEqual(Array(20).fill(5000));
		expect(bodies.flat()).toEqual(ids);
		expect(result.items[0].json).toMatchObject({ idsDeleted: 100000, batchesSent: 20 });
		report.awkward.push(
			'| 100 000 IDs in one item | 20 requests × 5000, bodies in order, all confirmed |',
		);
	});
});

afterAll(() => {
	if (!report.matrix.length) return;
	const lines = [
		'# Reliability',
		'',
		'Generated by `npm test` (`test/reliability/reliability.test.ts`) against the bundled ABBYY Vantage',
		`simulator, through n8n-core's execution engine. Settings: Max Retries ${FAST.maxRetries}, Retry Delay`,
		`${FAST.retryDelay} s, Timeout ${FAST.timeout} s, Continue On Fail on. Every row is asserted, not just recorded:`,
		'record IDs lost = 0, duplicate creations = 0, secrets in outputs or errors = 0, and the attempt count',
		'matches the transport rules (safe requests retried on 429/502/503/504/timeouts/network/malformed',
		'bodies; creating requests sent once; n8n signs in again once on 401; delete batches stop after',
		'401/403/404).',
		'',
		'## Fault matrix (faults persist unless marked "once")',
		'',
		'| Operation | Fault | Attempts | Outcome | IDs lost | Duplicate creations | Secrets |',
		'|---|---|---|---|---|---|---|',
		...report.matrix,
		'',
		'## Soak',
		'',
		'| Run | Faults | Delete requests | Faulted | IDs deleted | IDs failed | Left in catalog | Unaccounted | Time |',
		'|---|---|---|---|---|---|---|---|---|',
		...report.soak,
		'',
		'Every ID still in the catalog is one reported in a failed batch, and every reported deletion is gone.',
		'',
		'## Bad-input catalogue (no request is sent)',
		'',
		'| Input | Error | Requests sent |',
		'|---|---|---|',
		...report.badInput,
		'',
		'## Awkward but valid input',
		'',
		'| Input | What arrived at the simulator |',
		'|---|---|',
		...report.awkward,
		'',
	];
	writeFileSync(join(__dirname, '..', '..', 'RELIABILITY.md'), lines.join('\n'));
});
