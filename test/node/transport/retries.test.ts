import type { INodeParameters } from 'n8n-workflow';

import type { Failure } from '../../../nodes/AbbyyVantage/transport/failure';
import {
	backoffDelay,
	parseRetryAfter,
	retryDelay,
	type FailedAttempt,
} from '../../../nodes/AbbyyVantage/transport/retry';
import { runNode, serialize, simulatorCredentials } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { FAST_RETRIES, nodeParams, rl } from '../../helpers/params';
import { FIXTURE, VantageSimulator, type Fault, type RouteId } from '../../simulator/simulator';
import { createExport } from '../report/exports/exportkit';

const f = useSimulator();

const newExport = async () => await createExport(f, { path: ['Succeeded'] });

const statusParams = (requestId: string, requestOptions = FAST_RETRIES): INodeParameters =>
	nodeParams('report', 'getExportStatus', { requestId, requestOptions });

describe('retries of requests that are safe to repeat', () => {
	test.each([
		['429 without Retry-After', { kind: 'status', status: 429 }],
		['429 with Retry-After', { kind: 'status', status: 429, retryAfter: '0' }],
		['502', { kind: 'status', status: 502 }],
		['503', { kind: 'status', status: 503 }],
		['504', { kind: 'status', status: 504 }],
		['a connection reset', { kind: 'reset' }],
		['a malformed JSON body', { kind: 'malformedJson' }],
	] as Array<[string, Fault]>)('%s twice, then success: 3 attempts', async (_name, fault) => {
		const requestId = await newExport();
		f.sim.clearLog();
		f.sim.injectFault('GetExportStatus', fault, 2);
		const result = await runNode({ credentials: f.store, parameters: statusParams(requestId) });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			requestId,
			status: 'Succeeded',
			totalFileCount: 1,
		});
		expect(f.sim.requestsTo('GetExportStatus')).toHaveLength(3);
	});

	test('a timeout is retried like a network failure', async () => {
		const requestId = await newExport();
		f.sim.clearLog();
		f.sim.injectFault('GetExportStatus', { kind: 'delay', ms: 1500 }, 1);
		const result = await runNode({
			credentials: f.store,
			parameters: statusParams(requestId, { ...FAST_RETRIES, timeout: 1 }),
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.requestsTo('GetExportStatus')).toHaveLength(2);
	});

	test('a 500 on a read is sent again within Max Retries, then shows the service detail', async () => {
		const requestId = await newExport();
		f.sim.clearLog();
		f.sim.injectFault('GetExportStatus', { kind: 'status', status: 500 }, 1);
		const once = await runNode({ credentials: f.store, parameters: statusParams(requestId) });
		expect(once.error).toBeUndefined();
		expect(once.items[0].json).toMatchObject({ requestId, status: 'Succeeded' });
		expect(f.sim.requestsTo('GetExportStatus').map((r) => r.status)).toEqual([500, 200]);

		f.sim.clearLog();
		f.sim.injectFault(
			'GetExportStatus',
			{
				kind: 'status',
				status: 500,
				body: { title: 'Internal Server Error', status: 500, detail: 'Warehouse unavailable' },
			},
			Infinity,
		);
		const always = await runNode({ credentials: f.store, parameters: statusParams(requestId) });
		expect(always.error?.message).toBe(
			'ABBYY Vantage answered HTTP 500: Warehouse unavailable [item 0]',
		);
		expect((always.error as { description?: string }).description).toMatch(/after 4 attempts/);
		expect(f.sim.requestsTo('GetExportStatus')).toHaveLength(FAST_RETRIES.maxRetries + 1);
	});

	test('a 500 is worth another try on reads only: writes keep their rules', () => {
		const settings = { maxRetries: 3, initialDelayMs: 1000, maxDelayMs: 5000, timeoutMs: 1 };
		const failure: Failure = { kind: 'http', status: 500 };
		const delay = (change: Partial<FailedAttempt>) =>
			retryDelay(
				{ failure, attempt: 0, idempotent: true, adaptive: false, crowded: false, ...change },
				settings,
				() => 1,
			);
		expect(delay({ read: true })).toBe(1000);
		expect(delay({ read: true, attempt: 3 })).toBeUndefined();
		// A delete by ID or a record batch answered 500, and anything that creates: not sent again.
		expect(delay({ read: false })).toBeUndefined();
		expect(delay({ read: false, idempotent: false })).toBeUndefined();
		expect(delay({ read: true, failure: { kind: 'http', status: 501 } })).toBeUndefined();
	});

	test('retries are bounded: Max Retries + 1 attempts, then the last error', async () => {
		const requestId = await newExport();
		f.sim.clearLog();
		f.sim.injectFault('GetExportStatus', { kind: 'status', status: 503 }, Infinity);
		const result = await runNode({
			credentials: f.store,
			parameters: statusParams(requestId, { ...FAST_RETRIES, maxRetries: 2 }),
		});
		expect(result.error?.message).toBe('ABBYY Vantage answered HTTP 503: Simulated 503 [item 0]');
		expect((result.error as { description?: string }).description).toMatch(/after 3 attempts/);
		expect((result.error as { httpCode?: string }).httpCode).toBe('503');
		expect(f.sim.requestsTo('GetExportStatus')).toHaveLength(3);
	});

	test('Retry-After is honoured', async () => {
		const requestId = await newExport();
		f.sim.clearLog();
		f.sim.injectFault('GetExportStatus', { kind: 'status', status: 429, retryAfter: '1' }, 1);
		const result = await runNode({ credentials: f.store, parameters: statusParams(requestId) });
		expect(result.error).toBeUndefined();
		const [first, second] = f.sim.requestsTo('GetExportStatus');
		expect(second.at - first.at).toBeGreaterThanOrEqual(950);
	});

	test('a Retry-After beyond Max Retry Delay ends the retries at once', async () => {
		const requestId = await newExport();
		f.sim.clearLog();
		f.sim.injectFault('GetExportStatus', { kind: 'status', status: 429, retryAfter: '120' }, 1);
		const result = await runNode({ credentials: f.store, parameters: statusParams(requestId) });
		expect(result.error?.message).toMatch(/^ABBYY Vantage is limiting the request rate/);
		expect(f.sim.requestsTo('GetExportStatus')).toHaveLength(1);
		expect(result.elapsedMs).toBeLessThan(2000);
	});

	test('backoff grows exponentially, is capped and jittered; Retry-After parses both forms', () => {
		const settings = { maxRetries: 5, initialDelayMs: 1000, maxDelayMs: 5000, timeoutMs: 1 };
		expect([0, 1, 2, 3].map((a) => backoffDelay(a, settings, () => 1))).toEqual([
			1000, 2000, 4000, 5000,
		]);
		expect(backoffDelay(1, settings, () => 0)).toBe(1500);
		expect(parseRetryAfter('3')).toBe(3000);
		expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8000);
		expect(parseRetryAfter('soon')).toBeUndefined();
	});

	test('Auto: a 429 without Retry-After among requests in flight is resent when the halved limit has room', () => {
		const settings = { maxRetries: 3, initialDelayMs: 1000, maxDelayMs: 5000, timeoutMs: 1 };
		const tooMany: Failure = { kind: 'http', status: 429 };
		const refused = (change: Partial<FailedAttempt> = {}): FailedAttempt => ({
			failure: tooMany,
			attempt: 0,
			idempotent: false,
			adaptive: true,
			crowded: true,
			...change,
		});
		const delay = (attempt: FailedAttempt) => retryDelay(attempt, settings, () => 1);
		// No timed wait: the request queues for a slot under the limit that has just halved.
		expect(delay(refused())).toBe(0);
		// Otherwise the retry delay: a second refusal, a pinned number, a request alone in flight.
		expect(delay(refused({ attempt: 1 }))).toBe(2000);
		expect(delay(refused({ adaptive: false }))).toBe(1000);
		expect(delay(refused({ crowded: false }))).toBe(1000);
		// A Retry-After is what the service asked for; a 503 waits the delay; the budget still ends it.
		expect(delay(refused({ failure: { ...tooMany, retryAfter: '2' } }))).toBe(2000);
		expect(delay(refused({ failure: { kind: 'http', status: 503 }, idempotent: true }))).toBe(1000);
		expect(delay(refused({ attempt: 3 }))).toBeUndefined();
		// A creating request that may have been processed is never resent, crowded or not.
		expect(delay(refused({ failure: { kind: 'http', status: 503 } }))).toBeUndefined();
	});

	test('cancelling the execution stops a retry wait at once', async () => {
		const requestId = await newExport();
		f.sim.injectFault('GetExportStatus', { kind: 'status', status: 503 }, Infinity);
		const result = await runNode({
			credentials: f.store,
			parameters: statusParams(requestId, { ...FAST_RETRIES, retryDelay: 20, maxRetryDelay: 60 }),
			cancelAfterMs: 300,
		});
		expect(result.elapsedMs).toBeLessThan(3000);
		expect(result.status).toBe('canceled');
	});
});

describe('requests that create something are sent exactly once', () => {
	const faults: Array<[string, Fault]> = [
		['500', { kind: 'status', status: 500 }],
		['502', { kind: 'status', status: 502 }],
		['503', { kind: 'status', status: 503 }],
		['504', { kind: 'status', status: 504 }],
		['a reset before handling', { kind: 'reset' }],
		['a reset after handling', { kind: 'reset', after: true }],
		['a malformed JSON body', { kind: 'malformedJson' }],
		['a timeout', { kind: 'delay', ms: 1500 }],
	];

	const creators: Array<[string, RouteId, () => INodeParameters]> = [
		[
			'Create Export',
			'CreateTransactionStepsExportRequest',
			() => nodeParams('report', 'createExport', { startDate: '2025-11-01T00:00:00Z' }),
		],
		[
			'Add Document',
			'CreateTransactionDocument',
			() =>
				nodeParams('transactionDocument', 'add', {
					transactionId: f.sim.createTransaction(FIXTURE.processSkillId),
				}),
		],
		[
			'Reindex',
			'StartCatalogReindex',
			() =>
				nodeParams('catalog', 'reindex', {
					catalogId: rl('Vendors'),
					waitForCompletion: false,
				}),
		],
	];

	for (const [operation, route, params] of creators) {
		test.each(faults)(`${operation} under %s`, async (_name, fault) => {
			f.sim.injectFault(route, fault, Infinity);
			const result = await runNode({
				credentials: f.store,
				parameters: { ...params(), requestOptions: { ...FAST_RETRIES, timeout: 1 } },
			});
			expect(result.error).toBeDefined();
			expect(f.sim.requestsTo(route)).toHaveLength(1);
			const error = result.error as { message: string; description?: string };
			expect(error.message).toMatch(/\[item 0\]$/);
			if (fault.kind !== 'status' || fault.status >= 500) {
				expect(error.description).toMatch(
					/may have reached ABBYY Vantage and been applied; it was not sent again/,
				);
			}
		});

		test(`${operation}: a 429 means not processed, so it is sent again and created exactly once`, async () => {
			f.sim.injectFault(route, { kind: 'status', status: 429, retryAfter: '0' }, 2);
			const before = f.sim.createdCounts();
			const result = await runNode({
				credentials: f.store,
				parameters: { ...params(), requestOptions: FAST_RETRIES },
			});
			expect(result.error).toBeUndefined();
			expect(f.sim.requestsTo(route).map((r) => r.status)).toEqual([
				429,
				429,
				route === 'CreateTransactionDocument' ? 201 : 200,
			]);
			const after = f.sim.createdCounts();
			const created =
				after.exports +
				after.documents +
				after.reindexes -
				(before.exports + before.documents + before.reindexes);
			expect(created).toBe(1);
		});

		test(`${operation}: a 429 that never ends fails after the retries and says it was not processed`, async () => {
			f.sim.injectFault(route, { kind: 'status', status: 429 }, Infinity);
			const result = await runNode({
				credentials: f.store,
				parameters: { ...params(), requestOptions: FAST_RETRIES },
			});
			expect(f.sim.requestsTo(route)).toHaveLength(FAST_RETRIES.maxRetries + 1);
			const error = result.error as { message: string; description?: string };
			expect(error.message).toMatch(/^ABBYY Vantage is limiting the request rate/);
			expect(error.description).toMatch(
				/4 of the 4 attempts were answered 429 \(too many requests\), which means not processed/,
			);
			expect(error.description).not.toMatch(/may have reached/);
		});
	}

	test('a refused connection never left, so even a creating request is sent again', async () => {
		const closed = await (async () => {
			// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- a port nobody listens on
			const { createServer } = await import('node:net');
			return await new Promise<number>((resolve) => {
				const server = createServer();
				server.listen(0, '127.0.0.1', () => {
					const { port } = server.address() as { port: number };
					server.close(() => resolve(port));
				});
			});
		})();
		const store = { ...f.store, data: { ...f.store.data, baseUrl: `http://127.0.0.1:${closed}` } };
		const result = await runNode({
			credentials: store as typeof f.store,
			parameters: {
				...nodeParams('report', 'createExport', { startDate: '2025-11-01T00:00:00Z' }),
				requestOptions: FAST_RETRIES,
			},
		});
		// The sign-in itself cannot connect: the error says so, and no creating request went anywhere.
		expect(result.error?.message).toMatch(
			/Could not reach the ABBYY Vantage token endpoint|Could not reach ABBYY Vantage/,
		);
		expect(f.sim.requests).toHaveLength(0);
	});
});

describe('path parameters', () => {
	const awkward = [
		'Vendors 2026',
		'EU/Vendors',
		'what?',
		'tag#1',
		'100%',
		'a..b',
		'..hidden',
		'x/../y',
		'Zürich ✓',
	];

	test.each(awkward)('catalog %j travels as one encoded segment', async (name) => {
		f.sim.addCatalog(name);
		f.sim.seedRecords(name, ['r1']);
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalogRecord', 'delete', {
				catalogId: rl(name),
				recordIds: 'r1',
			}),
		});
		expect(result.error).toBeUndefined();
		const [request] = f.sim.requestsTo('DeleteRecords');
		expect(request.params).toEqual({ catalogId: name });
		expect(request.path).toBe(
			`/api/publicapi/v1/catalogs/${encodeURIComponent(name)}/records/delete`,
		);
		expect(f.sim.recordIds(name)).toEqual([]);
	});

	test.each(['.', '..'])(
		'a path parameter that is exactly %j is refused before any request',
		async (value) => {
			for (const parameters of [
				nodeParams('catalog', 'reindex', { catalogId: rl(value) }),
				nodeParams('report', 'getExportStatus', { requestId: value }),
				nodeParams('transactionDocument', 'add', { transactionId: value }),
			]) {
				const result = await runNode({ credentials: f.store, parameters });
				expect(result.error?.message).toMatch(
					/(Catalog|Request ID|Transaction ID) must not be "\." or "\.\." \[item 0\]/,
				);
			}
			expect(f.sim.requests).toHaveLength(0);
		},
	);
});

describe('responses and errors', () => {
	test('JSON is parsed whatever the content type (text/plain here)', async () => {
		await f.sim.stop();
		f.sim = new VantageSimulator({ jsonContentType: 'text/plain; charset=utf-8' });
		await f.sim.start();
		f.store = simulatorCredentials(f.sim);
		const requestId = await newExport();
		const result = await runNode({ credentials: f.store, parameters: statusParams(requestId) });
		expect(result.items[0].json).toMatchObject({
			requestId,
			status: 'Succeeded',
			totalFileCount: 1,
		});
	});

	test('an empty 200 body is accepted (delete records)', async () => {
		f.sim.seedRecords('Vendors', ['a']);
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalogRecord', 'delete', {
				catalogId: rl('Vendors'),
				recordIds: 'a',
			}),
		});
		expect(result.items[0].json).toMatchObject({ idsDeleted: 1, idsFailed: 0 });
	});

	test('ProblemDetails become NodeApiErrors with detail, status and item; 404 for an unknown export', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [{ id: 'x' }, { id: 'y' }],
			parameters: { ...statusParams('={{ $json.id }}'), requestId: '={{ $json.id }}' },
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(2);
		expect(result.items[1]).toMatchObject({
			json: {
				error: 'ABBYY Vantage could not find it: Report request not found [item 1]',
				httpCode: '404',
			},
			pairedItem: { item: 1 },
		});
	});

	test('403 explains the role rule', async () => {
		f.store = simulatorCredentials(f.sim, { username: FIXTURE.operatorUsername });
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('report', 'createExport', {
				startDate: '2025-11-01T00:00:00Z',
			}),
		});
		expect(result.error?.message).toBe(
			'ABBYY Vantage denied access: Only Tenant Administrators and Processing Supervisors can access reports. [item 0]',
		);
		expect((result.error as { description?: string }).description).toMatch(
			/Tenant Administrators and Processing Supervisors may use reports/,
		);
	});

	test('no password, client secret or token anywhere in outputs and errors', async () => {
		const requestId = await newExport();
		const runs = [
			await runNode({ credentials: f.store, parameters: statusParams(requestId) }),
			await runNode({ credentials: f.store, parameters: statusParams('missing') }),
			await runNode({
				credentials: f.store,
				parameters: statusParams('missing'),
				continueOnFail: true,
			}),
		];
		f.sim.injectFault('*', { kind: 'status', status: 503 }, Infinity);
		runs.push(await runNode({ credentials: f.store, parameters: statusParams(requestId) }));
		f.sim.clearFaults();
		f.sim.injectFault('*', { kind: 'reset' }, Infinity);
		runs.push(await runNode({ credentials: f.store, parameters: statusParams(requestId) }));
		const token = f.store.data.accessToken as string;
		expect(token.length).toBeGreaterThan(10);
		for (const run of runs) {
			const text = serialize(run);
			expect(text).not.toContain(FIXTURE.password);
			expect(text).not.toContain(FIXTURE.clientSecret);
			expect(text).not.toContain(token);
		}
	});
});
