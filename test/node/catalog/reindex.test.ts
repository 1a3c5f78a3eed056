import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { expectSchedule, pollPauses, useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';

const CATALOG = 'Vendors / EU 2026';
const f = useSimulator((sim) => sim.addCatalog(CATALOG));

describe('Reindex', () => {
	const reindex = (extra: IDataObject = {}): INodeParameters =>
		nodeParams('catalog', 'reindex', {
			catalogId: rl(CATALOG),
			options: { pollInterval: 1 },
			...extra,
		});

	test('waits until Completed and outputs the operation record', async () => {
		f.sim.scriptNextReindex({ outcome: 'Completed', after: { polls: 1 } });
		const result = await runNode({ credentials: f.store, parameters: reindex() });
		expect(result.items[0].json).toEqual({
			catalogId: CATALOG,
			operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			currentState: 'Completed',
			indexModelId: expect.any(String),
			workflowProcessingId: expect.any(String),
			created: expect.any(String),
			completed: expect.any(String),
			polls: 2,
			failedPolls: 0,
		});
		expect(
			f.sim.requestsTo('GetReindexOperation').every((r) => r.params.catalogId === CATALOG),
		).toBe(true);
	});

	test('at default settings a reindex that completes in 1 s is noticed at the second poll, a second after the first', async () => {
		f.sim.scriptNextReindex({ outcome: 'Completed', after: { ms: 1000 } });
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'reindex', { catalogId: rl(CATALOG) }),
		});
		expect(result.items[0].json).toMatchObject({ currentState: 'Completed', polls: 2 });
		const polls = f.sim.requestsTo('GetReindexOperation');
		expect(polls).toHaveLength(2);
		expectSchedule(pollPauses(polls));
	});

	test('Failed is a clear error naming the catalog and operation', async () => {
		f.sim.scriptNextReindex({ outcome: 'Failed', after: { polls: 0 } });
		const result = await runNode({ credentials: f.store, parameters: reindex() });
		expect(result.error?.message).toMatch(
			new RegExp(
				`^Reindex of catalog "${CATALOG}" failed \\(operation [0-9a-f-]{36}\\) \\[item 0\\]$`,
			),
		);
	});

	test('without waiting, the started operation is returned at once', async () => {
		f.sim.scriptNextReindex({ outcome: 'Never' });
		const result = await runNode({
			credentials: f.store,
			parameters: reindex({ waitForCompletion: false }),
		});
		expect(result.items[0].json).toMatchObject({ catalogId: CATALOG, currentState: 'InProgress' });
		expect(f.sim.requestsTo('GetReindexOperation')).toHaveLength(0);
	});

	test('a reindex that never ends times out with the last state', async () => {
		f.sim.scriptNextReindex({ outcome: 'Never' });
		const result = await runNode({
			credentials: f.store,
			parameters: reindex({ options: { pollInterval: 1, timeout: 1 } }),
		});
		expect(result.error?.message).toBe(
			`Reindex of catalog "${CATALOG}" did not finish within 1 second; last state: InProgress [item 0]`,
		);
	});

	test('cancelling stops the wait at once', async () => {
		f.sim.scriptNextReindex({ outcome: 'Never' });
		const result = await runNode({
			credentials: f.store,
			parameters: reindex({ options: { pollInterval: 60 } }),
			cancelAfterMs: 300,
		});
		expect(result.status).toBe('canceled');
		// Stopped long before the 60 s poll interval was over.
		expect(result.elapsedMs).toBeLessThan(10_000);
	});

	describe('many items', () => {
		const catalogs = ['A', 'B', 'C'];
		const items = catalogs.map((catalog) => ({ catalog }));
		const byItem = (extra: IDataObject = {}) =>
			reindex({ catalogId: rl('={{ $json.catalog }}'), ...extra });
		beforeEach(() => {
			for (const name of catalogs) f.sim.addCatalog(name);
		});

		/** Seq of each item's StartCatalogReindex and of the last poll of its operation. */
		const spans = (operationIds: string[]) =>
			operationIds.map((id) => {
				const polls = f.sim
					.requestsTo('GetReindexOperation')
					.filter((r) => r.params.operationId === id);
				return { lastPoll: polls[polls.length - 1].seq };
			});

		test('under Auto (the default) the waits run at the same time', async () => {
			f.sim.setDefaultReindexScript({ outcome: 'Completed', after: { ms: 1200 } });
			const result = await runNode({ credentials: f.store, items, parameters: byItem() });
			expect(result.error).toBeUndefined();
			expect(
				result.items.map((i) => [i.json.catalogId, i.json.currentState, i.pairedItem]),
			).toEqual(catalogs.map((catalog, item) => [catalog, 'Completed', { item }]));
			// Every reindex started before the first wait was over.
			const starts = f.sim.requestsTo('StartCatalogReindex').map((r) => r.seq);
			const [first] = spans(result.items.map((i) => String(i.json.operationId)));
			expect(starts).toHaveLength(3);
			expect(Math.max(...starts)).toBeLessThan(first.lastPoll);
		});

		test('pinned to 1, each reindex starts after the previous wait is over', async () => {
			f.sim.setDefaultReindexScript({ outcome: 'Completed', after: { polls: 0 } });
			const result = await runNode({
				credentials: f.store,
				items,
				parameters: byItem({ options: { pollInterval: 1, concurrency: 1 } }),
			});
			expect(result.error).toBeUndefined();
			const starts = f.sim.requestsTo('StartCatalogReindex').map((r) => r.seq);
			const waits = spans(result.items.map((i) => String(i.json.operationId)));
			expect(starts[1]).toBeGreaterThan(waits[0].lastPoll);
			expect(starts[2]).toBeGreaterThan(waits[1].lastPoll);
		});

		test('bad input in item 2 of 3 stops the run before any request', async () => {
			const result = await runNode({
				credentials: f.store,
				items: [...items.slice(0, 2), { catalog: '' }],
				parameters: byItem(),
			});
			expect(result.error?.message).toBe('Catalog is empty [item 2]');
			expect(f.sim.requests).toHaveLength(0);
		});

		test('when Vantage refuses item 2, the error names the reindexes items 0 and 1 started', async () => {
			f.sim.setDefaultReindexScript({ outcome: 'Completed', after: { polls: 0 } });
			f.sim.injectFault('StartCatalogReindex', { kind: 'delay', ms: 0 }, 2);
			f.sim.injectFault('StartCatalogReindex', {
				kind: 'status',
				status: 400,
				body: { title: 'Bad', status: 400, detail: 'Simulated refusal' },
			});
			const result = await runNode({
				credentials: f.store,
				items,
				// Pinned to 1: items 0 and 1 have started (and finished) before item 2 is refused.
				parameters: byItem({ options: { pollInterval: 1, concurrency: 1 } }),
			});
			expect(result.error?.message).toMatch(/\[item 2\]$/);
			const operations = f.sim
				.requestsTo('StartCatalogReindex')
				.filter((r) => r.status === 200)
				.map((r) => r.params.catalogId);
			expect(operations).toEqual(['A', 'B']);
			const description = String((result.error as { description?: string }).description);
			expect(description).toMatch(
				/Before the run stopped, other items had created: reindex [0-9a-f-]{36} of catalog "A" \(item 0\), reindex [0-9a-f-]{36} of catalog "B" \(item 1\)\./,
			);
		});
	});
});
