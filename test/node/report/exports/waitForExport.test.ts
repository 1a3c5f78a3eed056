import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../../harness/n8n';
import { useSimulator } from '../../../helpers/fixture';
import { nodeParams } from '../../../helpers/params';
import { createExport } from './exportkit';

const f = useSimulator();

describe('Wait For Export', () => {
	const wait = (extra: IDataObject = {}, options: IDataObject = {}) =>
		nodeParams('report', 'waitForExport', {
			requestId: '={{ $json.id }}',
			options: { pollInterval: 1, ...options },
			...extra,
		});

	test.each([
		['one file', ['x,y\r\n']],
		['several files', ['a\r\n', 'b\r\n', 'c\r\n', 'd\r\n']],
	])('Succeeded with %s → status plus file indexes', async (_name, files) => {
		const id = await createExport(f, { path: ['Queued', 'Succeeded'], files });
		const result = await runNode({ credentials: f.store, items: [{ id }], parameters: wait() });
		expect(result.items[0].json).toMatchObject({
			requestId: id,
			status: 'Succeeded',
			totalFileCount: files.length,
			fileIndexes: files.map((_, i) => i),
			polls: 2,
		});
	});

	test.each(['Failed', 'Cancelled'] as const)(
		'%s → an error with the status and correlation id',
		async (outcome) => {
			const id = await createExport(f, { path: ['Processing', outcome] });
			const result = await runNode({ credentials: f.store, items: [{ id }], parameters: wait() });
			const correlationId = (result.error as { context?: IDataObject })?.context;
			expect(correlationId).toBeDefined();
			expect(result.error?.message).toMatch(
				new RegExp(
					`^Export ${id} ended with status ${outcome} \\(correlation ID [0-9a-f-]{36}\\) \\[item 0\\]$`,
				),
			);
		},
	);

	test('with Continue On Fail, a failed export is an item carrying status, correlation id and pairing', async () => {
		const ok = await createExport(f, { path: ['Succeeded'] });
		const failed = await createExport(f, { path: ['Failed'] });
		const result = await runNode({
			credentials: f.store,
			items: [{ id: ok }, { id: failed }],
			parameters: wait(),
			continueOnFail: true,
		});
		expect(result.items[0].json).toMatchObject({ requestId: ok, status: 'Succeeded' });
		expect(result.items[1]).toEqual({
			json: expect.objectContaining({
				requestId: failed,
				status: 'Failed',
				correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
				error: expect.stringContaining(`Export ${failed} ended with status Failed`),
			}),
			pairedItem: { item: 1 },
		});
	});

	test('never finishing → a timeout error with the last status seen', async () => {
		const id = await createExport(f, { path: ['Queued', 'Processing'] });
		const result = await runNode({
			credentials: f.store,
			items: [{ id }],
			parameters: wait({}, { timeout: 2 }),
		});
		expect(result.error?.message).toBe(
			`Export ${id} did not finish within 2 seconds; last status: Processing [item 0]`,
		);
	});

	test('cancelling the execution stops the wait at once', async () => {
		const id = await createExport(f, { path: ['Processing'] });
		const result = await runNode({
			credentials: f.store,
			items: [{ id }],
			parameters: wait({}, { pollInterval: 30 }),
			cancelAfterMs: 400,
		});
		expect(result.status).toBe('canceled');
		// Stopped long before the 30 s poll interval was over.
		expect(result.elapsedMs).toBeLessThan(10_000);
		expect(f.sim.requestsTo('GetExportStatus')).toHaveLength(1);
	});

	test('several input items wait concurrently, not one after another', async () => {
		const ids = [];
		for (let i = 0; i < 4; i++)
			ids.push(
				await createExport(f, { path: ['Processing', 'Succeeded'], advanceEvery: { ms: 1500 } }),
			);
		const result = await runNode({
			credentials: f.store,
			items: ids.map((id) => ({ id })),
			parameters: wait(),
		});
		expect(result.items.map((item) => item.json.status)).toEqual([
			'Succeeded',
			'Succeeded',
			'Succeeded',
			'Succeeded',
		]);
		// Concurrent: every export had its first poll before any export's last one.
		const polls = f.sim.requestsTo('GetExportStatus');
		const firstPoll = (id: string) => polls.findIndex((r) => r.params.requestId === id);
		const lastPoll = (id: string) =>
			polls.length - 1 - [...polls].reverse().findIndex((r) => r.params.requestId === id);
		expect(Math.max(...ids.map(firstPoll))).toBeLessThan(Math.min(...ids.map(lastPoll)));
	});

	test.each([
		[
			'a Wait Interval under one second',
			{ pollInterval: 0.5 },
			/^Wait Interval must be between 1 and 86400 seconds, not 0.5 \[item 0\]$/,
		],
		[
			'a negative Timeout',
			{ timeout: -1 },
			/^Wait Timeout must be between 1 and 604800 seconds, not -1 \[item 0\]$/,
		],
		[
			'a non-numeric interval',
			{ pollInterval: 'soon' },
			/^Wait Interval must be a number of seconds, not "soon"/,
		],
	])('rejects %s before any request', async (_name, options, message) => {
		const result = await runNode({
			credentials: f.store,
			items: [{ id: 'x' }],
			parameters: wait({}, options),
		});
		expect(result.error?.message).toMatch(message);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('a definite answer (404) ends the wait at once', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [{ id: '7d7c1e6e-0000-4000-8000-000000000000' }],
			parameters: wait({}, { pollInterval: 1 }),
		});
		expect(result.error?.message).toMatch(/^ABBYY Vantage could not find it/);
		expect(f.sim.requestsTo('GetExportStatus')).toHaveLength(1);
	});

	test('when every poll fails until Timeout, the error says the state is unknown and why', async () => {
		const id = await createExport(f, { path: ['Processing'] });
		f.sim.injectFault('GetExportStatus', { kind: 'status', status: 503 }, Infinity);
		const result = await runNode({
			credentials: f.store,
			items: [{ id }],
			parameters: {
				...wait({}, { pollInterval: 1, timeout: 1 }),
				requestOptions: { maxRetries: 0 },
			},
			continueOnFail: true,
		});
		expect(result.items[0].json.error).toMatch(
			/did not finish within 1 second; last status: unknown, no status check succeeded \(ABBYY Vantage answered HTTP 503: Simulated 503\) \[item 0\]$/,
		);
		expect(result.items[0].json.failedPolls).toBeGreaterThanOrEqual(1);
	});
});
