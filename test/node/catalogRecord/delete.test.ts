import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { maxInFlight, useSimulator } from '../../helpers/fixture';
import { recordDeleteParams, ids, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const CATALOG = 'Vendors / EU 2026';
const f = useSimulator((sim) => sim.addCatalog(CATALOG));
const deleteParams = (extra: IDataObject = {}) => recordDeleteParams(CATALOG, extra);

function sentBodies(): string[][] {
	return f.sim.requestsTo('DeleteRecords').map((r) => r.body as string[]);
}

describe('Catalog Record → Delete: Aggregate All Items', () => {
	test('12 345 unique IDs with duplicates over items → exactly ceil(unique / 5000) requests holding every ID once', async () => {
		const all = ids('vendor-', 0, 12345);
		f.sim.seedRecords(CATALOG, all);
		// Four items with overlapping ranges: 14 000 IDs requested, 12 345 unique.
		const items = [
			{ ids: all.slice(0, 4000) },
			{ ids: all.slice(3000, 8000) },
			{ ids: all.slice(7500, 12345) },
			{ ids: all.slice(12345 - 155) },
		];
		const requested = items.reduce((n, item) => n + item.ids.length, 0);
		// Each later occurrence is dropped; the first (the item named as kept) is sent.
		const duplicateIds = [...all.slice(3000, 4000), ...all.slice(7500, 8000), ...all.slice(12190)];
		const result = await runNode({
			credentials: f.store,
			items,
			parameters: deleteParams({ mode: 'aggregate' }),
		});
		expect(result.error).toBeUndefined();
		const bodies = sentBodies();
		expect(bodies).toHaveLength(Math.ceil(12345 / 5000));
		expect(bodies.map((b) => b.length)).toEqual([5000, 5000, 2345]);
		const sent = bodies.flat();
		expect(sent).toHaveLength(12345);
		expect(new Set(sent).size).toBe(12345);
		expect(f.sim.recordIds(CATALOG)).toEqual([]);
		for (const request of f.sim.requestsTo('DeleteRecords')) {
			expect(request.path).toBe(
				'/api/publicapi/v1/catalogs/Vendors%20%2F%20EU%202026/records/delete',
			);
			expect(request.params.catalogId).toBe(CATALOG);
		}
		expect(result.items).toEqual([
			{
				json: {
					catalogId: CATALOG,
					idsRequested: requested,
					uniqueIdsSent: 12345,
					duplicatesRemoved: {
						count: requested - 12345,
						ids: [...duplicateIds].sort().slice(0, 100),
						items: all.slice(3000, 3100).map((id) => ({ item: 1, id, keptItem: 0 })),
					},
					batchesSent: 3,
					idsDeleted: 12345,
					idsFailed: 0,
					failedBatches: [],
					items: 4,
				},
				pairedItem: [{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }],
			},
		]);
	});

	test('Batch Size and Concurrency are honoured', async () => {
		const all = ids('r', 0, 1000);
		f.sim.seedRecords(CATALOG, all);
		f.sim.setLatency(50);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: all }],
			parameters: deleteParams({ mode: 'aggregate', options: { batchSize: 100, concurrency: 4 } }),
		});
		expect(result.items[0].json).toMatchObject({ batchesSent: 10, idsDeleted: 1000 });
		expect(sentBodies().every((b) => b.length === 100)).toBe(true);
		// Four requests at a time, never more: read from the simulator's log, not from a clock.
		expect(maxInFlight(f.sim.requestsTo('DeleteRecords'))).toBe(4);
	});

	test('Concurrency Auto (the default) grows past its start of 4 in flight, never past 16', async () => {
		const all = ids('r', 0, 6000);
		f.sim.seedRecords(CATALOG, all);
		f.sim.setLatency(30);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: all }],
			parameters: deleteParams({ mode: 'aggregate', options: { batchSize: 50 } }),
		});
		expect(result.items[0].json).toMatchObject({ batchesSent: 120, idsDeleted: 6000 });
		const inFlight = maxInFlight(f.sim.requestsTo('DeleteRecords'));
		expect(inFlight).toBeGreaterThan(4);
		expect(inFlight).toBeLessThanOrEqual(16);
		expect(f.sim.recordIds(CATALOG)).toEqual([]);
	});

	test('items naming different catalogs get one summary per catalog, paired with their items', async () => {
		f.sim.seedRecords(CATALOG, ['a', 'b']);
		f.sim.seedRecords(FIXTURE.catalogId, ['c']);
		const result = await runNode({
			credentials: f.store,
			items: [
				{ catalog: CATALOG, ids: ['a'] },
				{ catalog: FIXTURE.catalogId, ids: ['c'] },
				{ catalog: CATALOG, ids: ['b', 'a'] },
			],
			parameters: deleteParams({ mode: 'aggregate', catalogId: rl('={{ $json.catalog }}') }),
		});
		expect(
			result.items.map((i) => [
				i.json.catalogId,
				i.json.idsDeleted,
				i.json.duplicatesRemoved,
				i.pairedItem,
			]),
		).toEqual([
			[
				CATALOG,
				2,
				{ count: 1, ids: ['a'], items: [{ item: 2, id: 'a', keptItem: 0 }] },
				[{ item: 0 }, { item: 2 }],
			],
			[FIXTURE.catalogId, 1, { count: 0, ids: [], items: [] }, [{ item: 1 }]],
		]);
	});

	test('a batch failing in the middle is reported with its IDs; the others count as deleted', async () => {
		const all = ids('id-', 0, 12000);
		f.sim.seedRecords(CATALOG, all);
		// The second request fails with a ProblemDetails 400 (not retried: the service said no).
		f.sim.injectFault('DeleteRecords', { kind: 'delay', ms: 0 }, 1);
		f.sim.injectFault(
			'DeleteRecords',
			{
				kind: 'status',
				status: 400,
				body: { title: 'Bad Request', status: 400, detail: 'Record id "id-7000" is locked' },
			},
			1,
		);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: all }],
			parameters: deleteParams({ mode: 'aggregate' }),
		});
		expect(sentBodies()).toHaveLength(3);
		expect(result.error?.message).toBe(
			`Deleted 7000 of 12000 record IDs from catalog "${CATALOG}"; 5000 in 1 failed batch were not deleted: ABBYY Vantage rejected the request: Record id "id-7000" is locked [item 0]`,
		);
		const description = (result.error as { description?: string }).description!;
		expect(description.startsWith('Not deleted (5000): id-5000, id-5001,')).toBe(true);
		// The description names a few; the error item holds every ID (failedBatches).
		expect(description).toMatch(/and 4980 more\. Every ID not deleted is in failedBatches/);
		expect(f.sim.recordIds(CATALOG)).toEqual(ids('id-', 5000, 10000));
	});

	test('with Continue On Fail the summary item carries the same facts', async () => {
		f.sim.seedRecords(CATALOG, ids('id-', 0, 150));
		f.sim.injectFault('DeleteRecords', { kind: 'status', status: 500 }, 1);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: ids('id-', 0, 100) }, { ids: ids('id-', 50, 150) }],
			parameters: deleteParams({ mode: 'aggregate', options: { batchSize: 50 } }),
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(1);
		const json = result.items[0].json;
		expect(json).toMatchObject({
			catalogId: CATALOG,
			idsRequested: 200,
			uniqueIdsSent: 150,
			duplicatesRemoved: {
				count: 50,
				ids: ids('id-', 50, 100).sort(),
				items: ids('id-', 50, 100).map((id) => ({ item: 1, id, keptItem: 0 })),
			},
			batchesSent: 3,
			idsDeleted: 100,
			idsFailed: 50,
			httpCode: '500',
		});
		expect((json.failedBatches as IDataObject[])[0]).toMatchObject({
			batch: 0,
			ids: ids('id-', 0, 50),
			httpCode: '500',
		});
		expect(json.error).toMatch(/^Deleted 100 of 150 record IDs/);
		expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		// Every ID is accounted for: deleted + failed = unique.
		expect((json.idsDeleted as number) + (json.idsFailed as number)).toBe(json.uniqueIdsSent);
	});

	test('an unknown catalog stops after the first 404; later batches are reported as not sent', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: ids('x', 0, 12) }],
			parameters: deleteParams({
				mode: 'aggregate',
				catalogId: rl('No such catalog'),
				options: { batchSize: 5 },
			}),
			continueOnFail: true,
		});
		expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(1);
		const json = result.items[0].json;
		expect(json).toMatchObject({ batchesSent: 1, idsDeleted: 0, idsFailed: 12 });
		expect((json.failedBatches as IDataObject[]).map((b) => b.error)).toEqual([
			expect.stringMatching(/^ABBYY Vantage could not find it: Catalog not found/),
			'Not sent: an earlier batch failed with HTTP 404',
			'Not sent: an earlier batch failed with HTTP 404',
		]);
	});

	test('Reindex After Delete starts a reindex, and waits for it when asked', async () => {
		f.sim.seedRecords(CATALOG, ['a', 'b']);
		f.sim.scriptNextReindex({ outcome: 'Completed', after: { polls: 0 } });
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: ['a'] }, { ids: ['b'] }],
			parameters: deleteParams({
				mode: 'aggregate',
				options: { reindexAfterDelete: true, waitForReindex: true },
			}),
		});
		expect(result.items[0].json.reindex).toMatchObject({
			catalogId: CATALOG,
			currentState: 'Completed',
			polls: 1,
		});
		expect(f.sim.requestsTo().map((r) => r.route)).toEqual([
			'Token',
			'DeleteRecords',
			'StartCatalogReindex',
			'GetReindexOperation',
		]);
	});
});

describe('Catalog Record → Delete: Per Item', () => {
	test('each item deletes its own IDs and gets its own result', async () => {
		f.sim.seedRecords(CATALOG, ['a', 'b', 'c']);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: ['a', 'a'] }, { ids: ['b', 'c', 'missing'] }],
			parameters: deleteParams({ mode: 'perItem' }),
		});
		expect(
			result.items.map((i) => [
				i.json.idsRequested,
				i.json.uniqueIdsSent,
				i.json.idsDeleted,
				i.pairedItem,
			]),
		).toEqual([
			[2, 1, 1, { item: 0 }],
			[3, 3, 3, { item: 1 }],
		]);
		expect(sentBodies()).toEqual([['a'], ['b', 'c', 'missing']]);
		// The same shape as Add's and Sync's: the item that repeated an ID, and the one sent.
		expect(result.items.map((i) => i.json.duplicatesRemoved)).toEqual([
			{ count: 1, ids: ['a'], items: [{ item: 0, id: 'a', keptItem: 0 }] },
			{ count: 0, ids: [], items: [] },
		]);
	});

	test('items are handled concurrently under Auto (the default), one at a time when pinned to 1', async () => {
		const items = Array.from({ length: 8 }, (_, i) => ({ ids: [`p${i}`] }));
		f.sim.setLatency(30);
		for (const [options, concurrent] of [
			[{}, true],
			[{ concurrency: 1 }, false],
		] as const) {
			f.sim.seedRecords(CATALOG, ids('p', 0, 8));
			f.sim.clearLog();
			const result = await runNode({
				credentials: f.store,
				items,
				parameters: deleteParams({ mode: 'perItem', options }),
			});
			expect(result.items.map((i) => [i.json.idsDeleted, i.pairedItem])).toEqual(
				items.map((_, item) => [1, { item }]),
			);
			const inFlight = maxInFlight(f.sim.requestsTo('DeleteRecords'));
			if (concurrent) expect(inFlight).toBeGreaterThan(1);
			else expect(inFlight).toBe(1);
			expect(f.sim.recordIds(CATALOG)).toEqual([]);
		}
	});

	test('typed IDs: commas and new lines separate, spaces around them are trimmed', async () => {
		await runNode({
			credentials: f.store,
			parameters: deleteParams({ recordIdsSource: 'list', recordIds: 'a, b\n c ,\n\nd' }),
		});
		expect(sentBodies()).toEqual([['a', 'b', 'c', 'd']]);
	});

	test('an expression returning an array is sent as given, awkward characters intact', async () => {
		const awkward = ['a/b', 'what?', 'tag#1', '100%', 'say "hi"', 'Zürich ✓', ' padded '];
		await runNode({
			credentials: f.store,
			items: [{ list: awkward }],
			parameters: deleteParams({ recordIdsSource: 'list', recordIds: '={{ $json.list }}' }),
		});
		expect(sentBodies()).toEqual([awkward]);
	});

	test('From Input Field reads nested paths and single string values', async () => {
		await runNode({
			credentials: f.store,
			items: [{ data: { ids: ['n1', 'n2'] } }, { data: { ids: 'single' } }],
			parameters: deleteParams({ inputField: 'data.ids' }),
		});
		expect(sentBodies()).toEqual([['n1', 'n2'], ['single']]);
	});
});

describe('Catalog Record → Delete: bad input never causes a request', () => {
	test.each([
		['an empty ID', { ids: ['a', ''] }, 'Input Field "ids": the ID at position 1 is empty ("")'],
		[
			'a whitespace ID',
			{ ids: ['a', '   '] },
			'Input Field "ids": the ID at position 1 is only whitespace ("   ")',
		],
		[
			'a number',
			{ ids: ['a', 42] },
			'Input Field "ids": the ID at position 1 is number, not text (42)',
		],
		[
			'a nested array',
			{ ids: [['a']] },
			'Input Field "ids": the ID at position 0 is a nested array, not an ID (["a"])',
		],
		['a null', { ids: [null] }, 'Input Field "ids": the ID at position 0 is null, not text (null)'],
		[
			'an object',
			{ ids: [{ id: 'a' }] },
			'Input Field "ids": the ID at position 0 is object, not text ({"id":"a"})',
		],
		['a missing field', { other: 1 }, 'Input Field "ids" does not exist in the input item'],
	])('%s', async (_name, item, message) => {
		for (const mode of ['perItem', 'aggregate']) {
			const result = await runNode({
				credentials: f.store,
				items: [{ ids: ['fine'] }, item],
				parameters: deleteParams({ mode }),
			});
			expect(result.error?.message).toBe(`${message} [item 1]`);
		}
		// Both modes read and check every item before the first request.
		expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(0);
	});

	test('no IDs at all: an item in Per Item mode, or every item in Aggregate mode', async () => {
		const perItem = await runNode({
			credentials: f.store,
			items: [{ ids: ['fine'] }, { ids: [] }],
			parameters: deleteParams(),
		});
		expect(perItem.error?.message).toBe('No record IDs to delete: Record IDs is empty [item 1]');
		f.sim.clearLog();
		// Aggregating, one empty item contributes nothing; all of them empty is a mistake.
		const some = await runNode({
			credentials: f.store,
			items: [{ ids: ['fine'] }, { ids: [] }],
			parameters: deleteParams({ mode: 'aggregate' }),
		});
		expect(some.items[0].json).toMatchObject({ idsDeleted: 1, items: 2 });
		f.sim.clearLog();
		const none = await runNode({
			credentials: f.store,
			items: [{ ids: [] }, { ids: [] }],
			parameters: deleteParams({ mode: 'aggregate' }),
		});
		expect(none.error?.message).toBe('No record IDs to delete: Record IDs is empty [item 0]');
		expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(0);
	});

	test('typed text with nothing in it', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: deleteParams({ recordIdsSource: 'list', recordIds: ' ,\n, ' }),
		});
		expect(result.error?.message).toBe('No record IDs to delete: Record IDs is empty [item 0]');
		expect(f.sim.requests).toHaveLength(0);
	});

	test.each([
		['Batch Size 0', { batchSize: 0 }, 'Batch Size must be between 1 and 5000, not 0 [item 0]'],
		[
			'Batch Size 5001',
			{ batchSize: 5001 },
			'Batch Size must be between 1 and 5000, not 5001 [item 0]',
		],
		['Batch Size 2.5', { batchSize: 2.5 }, 'Batch Size must be a whole number, not 2.5 [item 0]'],
		['Concurrency 0', { concurrency: 0 }, 'Concurrency must be between 1 and 16, not 0 [item 0]'],
	])('%s is refused', async (_name, options, message) => {
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: ['a'] }],
			parameters: deleteParams({ options }),
		});
		expect(result.error?.message).toBe(message);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('an unknown Mode from an expression is refused', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: ['a'] }],
			parameters: deleteParams({ mode: '={{ "everything" }}' }),
		});
		expect(result.error?.message).toBe(
			'Mode must be one of "perItem", "aggregate", not "everything" [item 0]',
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('Skip Invalid IDs skips them and lists them in the output', async () => {
		f.sim.seedRecords(CATALOG, ['a', 'b']);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: ['a', '', 7] }, { ids: [null, 'b'] }],
			parameters: deleteParams({ mode: 'aggregate', options: { skipInvalidIds: true } }),
		});
		expect(sentBodies()).toEqual([['a', 'b']]);
		expect(result.items[0].json.invalidIds).toEqual([
			{ item: 0, position: 1, value: '""', reason: 'empty' },
			{ item: 0, position: 2, value: '7', reason: 'number, not text' },
			{ item: 1, position: 0, value: 'null', reason: 'null, not text' },
		]);
	});

	test('with Continue On Fail in aggregate mode, a bad item becomes an error item and the rest is deleted', async () => {
		f.sim.seedRecords(CATALOG, ['a']);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: ['a'] }, { ids: [''] }],
			parameters: deleteParams({ mode: 'aggregate' }),
			continueOnFail: true,
		});
		expect(result.items).toEqual([
			{
				json: expect.objectContaining({ error: expect.stringMatching(/position 0 is empty/) }),
				pairedItem: { item: 1 },
			},
			{ json: expect.objectContaining({ idsDeleted: 1 }), pairedItem: [{ item: 0 }] },
		]);
	});

	test('Per Item with Reindex After Delete reindexes each catalog once, after all items', async () => {
		f.sim.addCatalog('Other');
		f.sim.seedRecords(CATALOG, ['a', 'b', 'c']);
		f.sim.seedRecords('Other', ['x']);
		const result = await runNode({
			credentials: f.store,
			items: [
				{ catalog: CATALOG, ids: ['a'] },
				{ catalog: 'Other', ids: ['x'] },
				{ catalog: CATALOG, ids: ['b'] },
				{ catalog: CATALOG, ids: ['c'] },
			],
			parameters: deleteParams({
				mode: 'perItem',
				catalogId: rl('={{ $json.catalog }}'),
				options: { reindexAfterDelete: true, waitForReindex: true, reindexPollInterval: 1 },
			}),
		});
		expect(result.error).toBeUndefined();
		expect(
			f.sim
				.requestsTo('StartCatalogReindex')
				.map((r) => r.params.catalogId)
				.sort(),
		).toEqual(['Other', CATALOG].sort());
		// All deletes come before the reindexes.
		const seqs = f.sim.requests.filter(
			(r) => r.route === 'DeleteRecords' || r.route === 'StartCatalogReindex',
		);
		expect(seqs.map((r) => r.route)).toEqual([
			'DeleteRecords',
			'DeleteRecords',
			'DeleteRecords',
			'DeleteRecords',
			'StartCatalogReindex',
			'StartCatalogReindex',
		]);
		for (const item of result.items)
			expect(item.json.reindex).toMatchObject({ currentState: 'Completed' });
	});

	test('a rate-limit storm does not fail a clean-up: batches refused with 429 are sent again at the end', async () => {
		const all = ids('storm-', 0, 20000);
		f.sim.seedRecords(CATALOG, all);
		// Every request is refused twice in a row at first: more than one retry inside a request allows.
		f.sim.injectFault('DeleteRecords', { kind: 'status', status: 429, retryAfter: '0' }, 6);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: all }],
			parameters: {
				...deleteParams({ mode: 'aggregate', options: { batchSize: 5000, concurrency: 1 } }),
				requestOptions: { maxRetries: 1, retryDelay: 0.01 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			idsDeleted: 20000,
			idsFailed: 0,
			failedBatches: [],
		});
		expect(result.items[0].json.batchesRetriedAtEnd).toBeGreaterThan(0);
		expect(f.sim.recordIds(CATALOG)).toEqual([]);
	});
});
