import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { AbbyyVantage } from '../../../nodes/AbbyyVantage/AbbyyVantage.node';

import { countEvaluations, runNode } from '../../harness/n8n';
import { maxInFlight, useSimulator } from '../../helpers/fixture';
import { ids, recordParams } from '../../helpers/params';
import type { RouteId } from '../../simulator/simulator';
import {
	definedColumns,
	FAST_RETRIES,
	faultAfter,
	perItemCatalogParams,
	REJECTION,
} from './params';

const CATALOG = 'Vendors';
// Reindexes complete at their first poll: the tests wait for them without waiting 5 s.
const f = useSimulator((sim) =>
	sim.setDefaultReindexScript({ outcome: 'Completed', after: { polls: 0 } }),
);

const vendor = (id: string, name = `Vendor ${id}`, country = 'DE') => ({
	recordId: id,
	Name: name,
	Country: country,
});
const seed = (ids: string[]) =>
	f.sim.seedCatalogRecords(
		CATALOG,
		ids.map((id) => ({ id, fields: { Name: [`Vendor ${id}`], Country: ['DE'] } })),
	);

const sync = (options: IDataObject = {}) => recordParams('sync', CATALOG, { options });
const dryRun = () => recordParams('sync', CATALOG, { dryRun: true });

describe('Catalog Record → Sync', () => {
	test('adds the new, updates the changed, deletes the rest, leaves the unchanged; then reindexes', async () => {
		seed(['keep', 'change', 'gone']);
		const result = await runNode({
			credentials: f.store,
			items: [vendor('keep'), vendor('change', 'Renamed'), vendor('new')],
			parameters: sync(),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			catalogId: CATALOG,
			dryRun: false,
			sourceRecords: 3,
			currentRecords: 3,
			toAdd: 1,
			toUpdate: 1,
			toDelete: 1,
			unchanged: 1,
			added: 1,
			updated: 1,
			deleted: 1,
			failed: 0,
			reindex: { currentState: 'Completed' },
		});
		expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(f.sim.recordIds(CATALOG).sort()).toEqual(['change', 'keep', 'new']);
		expect(f.sim.catalogRecord(CATALOG, 'change')?.fields.Name).toEqual(['Renamed']);
		// Only what changed was written.
		expect(
			(f.sim.requestsTo('AddRecords')[0].body as IDataObject[]).map((r) => r.id).sort(),
		).toEqual(['change', 'new']);
	});

	test('each column mapping is evaluated once per item: the record ID and the values from one evaluation', async () => {
		seed(['v1', 'v2']);
		const items = [1, 2, 3, 4, 5].map((i) => ({ code: `v${i}`, name: `Vendor v${i}`, land: 'DE' }));
		const mapping = {
			recordId: '={{ $json.code }}',
			Name: '={{ $json.name }}',
			Country: '={{ $json.land }}',
		};
		const { result, evaluations } = await countEvaluations(
			async () =>
				await runNode({
					credentials: f.store,
					items,
					parameters: recordParams('sync', CATALOG, {
						columns: definedColumns(mapping),
						options: { reindex: false },
					}),
				}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ toAdd: 3, unchanged: 2, failed: 0 });
		// Five items, each expression five times (it was ten: once for the ID, once for the record).
		expect(Object.values(mapping).map(evaluations)).toEqual([5, 5, 5]);
	});

	test('Dry Run is a parameter of its own, not an option', () => {
		const properties = new AbbyyVantage().description.properties.filter((p) =>
			p.displayOptions?.show?.operation?.includes('sync'),
		);
		expect(properties.some((p) => p.name === 'dryRun')).toBe(true);
		// One node version: nothing is shown or hidden by version.
		expect(properties.filter((p) => p.displayOptions?.show?.['@version'])).toEqual([]);
		const options = properties.filter((p) => p.name === 'options');
		expect(options).toHaveLength(1);
		expect((options[0].options as INodeProperties[]).map((o) => o.name)).not.toContain('dryRun');
	});

	test('Dry Run outputs the plan and changes nothing', async () => {
		seed(['a', 'b']);
		const result = await runNode({
			credentials: f.store,
			items: [vendor('a', 'A2'), vendor('c')],
			parameters: dryRun(),
		});
		expect(result.items[0].json).toMatchObject({
			dryRun: true,
			toAdd: 1,
			toUpdate: 1,
			toDelete: 1,
			deleteLimitExceeded: false,
			plan: { add: ['c'], update: ['a'], delete: ['b'] },
		});
		expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);
		expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(0);
	});

	test('an almost empty source does not wipe the catalog: over Max Share to Delete nothing is written', async () => {
		seed(Array.from({ length: 10 }, (_, i) => `v${i}`));
		const result = await runNode({
			credentials: f.store,
			items: [vendor('v0')],
			parameters: sync(),
		});
		expect(result.error?.message).toBe(
			`Sync would delete 9 of the 10 records in catalog "${CATALOG}" (90 %), more than Max Share to Delete (50 %) [item 0]`,
		);
		expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(0);
		expect(f.sim.recordIds(CATALOG)).toHaveLength(10);

		const raised = await runNode({
			credentials: f.store,
			items: [vendor('v0')],
			parameters: sync({ maxDeleteShare: 100, reindex: false }),
		});
		expect(raised.items[0].json).toMatchObject({ deleted: 9 });
	});

	test('the limit counts in records, singular or plural, and a bad Max Share is refused before any request', async () => {
		seed(['x']);
		const one = await runNode({ credentials: f.store, items: [vendor('y')], parameters: sync() });
		expect(one.error?.message).toBe(
			`Sync would delete 1 of the 1 record in catalog "${CATALOG}" (100 %), more than Max Share to Delete (50 %) [item 0]`,
		);
		f.sim.clearLog();
		const bad = await runNode({
			credentials: f.store,
			items: [vendor('y')],
			parameters: sync({ maxDeleteShare: 150 }),
		});
		expect(bad.error?.message).toBe(
			'Max Share to Delete must be between 0 and 100, not 150 [item 0]',
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	describe('source items that cannot be read (Continue On Fail)', () => {
		test('a record whose source item is invalid is kept as it is, not deleted', async () => {
			seed(['a', 'b', 'c']);
			const result = await runNode({
				credentials: f.store,
				items: [vendor('a'), vendor('b', 'x'.repeat(300)), vendor('c'), vendor('d')],
				parameters: sync(),
				continueOnFail: true,
			});
			expect(result.items.map((i) => i.pairedItem)).toEqual([
				{ item: 1 },
				[{ item: 0 }, { item: 2 }, { item: 3 }],
			]);
			expect(result.items[0].json.error).toBe(
				'Column "Name" of record "b" is 300 characters long; Vantage stores at most 256 [item 1]',
			);
			expect(result.items[1].json).toMatchObject({
				currentRecords: 3,
				toAdd: 1,
				toUpdate: 0,
				toDelete: 0,
				unchanged: 2,
				invalidSourceItems: 1,
				keptAsIs: {
					records: 1,
					ids: ['b'],
					reason: expect.stringMatching(/^Their source items could not be read/),
				},
				added: 1,
				deleted: 0,
				failed: 0,
			});
			expect(f.sim.recordIds(CATALOG).sort()).toEqual(['a', 'b', 'c', 'd']);
			expect(f.sim.catalogRecord(CATALOG, 'b')?.fields.Name).toEqual(['Vendor b']);
			expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(0);
		});

		test('an item whose record ID cannot be read: nothing is deleted (deleteSkipped), the rest is applied', async () => {
			seed(['a', 'gone']);
			const items = [vendor('a', 'A2'), { recordId: '', Name: 'No ID' }, vendor('new')];
			const dry = await runNode({
				credentials: f.store,
				items,
				parameters: dryRun(),
				continueOnFail: true,
			});
			const skipped = {
				records: 1,
				reason:
					'The record ID of source item 1 could not be read, so no record can be proven missing from the source; nothing was deleted. Fix those items and run again.',
			};
			expect(dry.items[1].json).toMatchObject({
				toDelete: 1,
				deleteSkipped: skipped,
				plan: { delete: ['gone'] },
			});
			const result = await runNode({
				credentials: f.store,
				items,
				parameters: sync(),
				continueOnFail: true,
			});
			expect(result.items[0]).toMatchObject({
				json: { error: 'The record ID ("recordId") is empty: "" [item 1]' },
				pairedItem: { item: 1 },
			});
			expect(result.items[1].json).toMatchObject({
				toAdd: 1,
				toUpdate: 1,
				toDelete: 1,
				invalidSourceItems: 1,
				keptAsIs: { records: 0, ids: [] },
				deleteSkipped: skipped,
				added: 1,
				updated: 1,
				deleted: 0,
				failed: 0,
				reindex: { currentState: 'Completed' },
			});
			expect(f.sim.recordIds(CATALOG).sort()).toEqual(['a', 'gone', 'new']);
			expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(0);
		});

		test('an item whose catalog cannot be read: no catalog deletes anything', async () => {
			seed(['a', 'gone']);
			const result = await runNode({
				credentials: f.store,
				items: [
					{ catalog: CATALOG, ...vendor('a') },
					{ catalog: '', ...vendor('where') },
				],
				parameters: perItemCatalogParams('sync'),
				continueOnFail: true,
			});
			expect(result.items[0].json.error).toBe('Catalog is empty [item 1]');
			expect(result.items[1].json).toMatchObject({
				toDelete: 1,
				deleted: 0,
				deleteSkipped: {
					records: 1,
					reason: expect.stringMatching(/^The catalog of source item 1 could not be read/),
				},
			});
			expect(f.sim.recordIds(CATALOG).sort()).toEqual(['a', 'gone']);
		});
	});

	describe('Vantage’s 500 000 records per catalog, counted exactly', () => {
		const seedMany = (count: number) =>
			f.sim.seedCatalogRecords(
				CATALOG,
				(function* () {
					for (let i = 0; i < count; i++) yield { id: `s${i}`, fields: { Name: [`S ${i}`] } };
				})(),
			);

		test('a sync that would leave more than 500 000 records is refused before any write', async () => {
			seedMany(499_999);
			// Item 2 has no record ID: nothing can be deleted, so the catalog would only grow.
			const result = await runNode({
				credentials: f.store,
				items: [vendor('n1'), vendor('n2'), { Name: 'No ID' }],
				parameters: sync(),
				continueOnFail: true,
			});
			expect(result.items.map((i) => i.json.error)).toEqual([
				'The record ID ("recordId") is empty: undefined [item 2]',
				`Sync would leave catalog "${CATALOG}" with 500001 records (499999 now, 2 to add, 0 to delete), over Vantage’s limit of 500000 [item 0]`,
			]);
			expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);
		}, 120_000);

		test('deletes make room: a sync ending at or under the limit runs where Add would refuse', async () => {
			seedMany(499_999);
			const result = await runNode({
				credentials: f.store,
				items: [vendor('s0', 'S 0'), vendor('n1'), vendor('n2')],
				parameters: sync({ maxDeleteShare: 100, reindex: false }),
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({
				currentRecords: 499_999,
				toAdd: 2,
				toDelete: 499_998,
				added: 2,
				deleted: 499_998,
				failed: 0,
			});
			expect(f.sim.recordIds(CATALOG).sort()).toEqual(['n1', 'n2', 's0']);
		}, 120_000);
	});

	test('a field the catalog does not have is refused before any write, not counted as unchanged', async () => {
		seed(['a']);
		const items = [vendor('a'), { ...vendor('b'), Region: 'EU' }];
		const refused = await runNode({ credentials: f.store, items, parameters: sync() });
		expect(refused.error?.message).toBe(
			'Field "Region" is not a column of catalog "Vendors" [item 1]',
		);
		expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);
		expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(0);

		const ignored = await runNode({
			credentials: f.store,
			items,
			parameters: sync({ ignoreUnknownFields: true }),
		});
		expect(ignored.items[0].json).toMatchObject({
			toAdd: 1,
			unchanged: 1,
			added: 1,
			ignoredFields: ['Region'],
		});
		expect(f.sim.catalogRecord(CATALOG, 'b')?.fields).toEqual({
			Name: ['Vendor b'],
			Country: ['DE'],
		});
	});

	test('duplicatesRemoved names the duplicate IDs and the items that lost, beside their count', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				vendor('a', 'first'),
				vendor('b'),
				vendor('a', 'second'),
				vendor('c'),
				vendor('c', 'last'),
			],
			parameters: dryRun(),
		});
		expect(result.items[0].json).toMatchObject({
			sourceRecords: 3,
			duplicatesRemoved: {
				count: 2,
				ids: ['a', 'c'],
				items: [
					{ item: 0, id: 'a', keptItem: 2 },
					{ item: 3, id: 'c', keptItem: 4 },
				],
			},
		});
	});

	test('auto-mapped items lacking a column keep its stored value, and the next run is all unchanged', async () => {
		f.sim.seedCatalogRecords(CATALOG, [
			{ id: 'a', fields: { Name: ['A'], Country: ['DE'] } },
			{ id: 'b', fields: { Name: ['B'], Country: ['FR'] } },
		]);
		// Item 0 has no Country (as JSON from an API that leaves out empty fields); item 1 has one.
		const items = [
			{ recordId: 'a', Name: 'A renamed' },
			{ recordId: 'b', Name: 'B', Country: 'FR' },
		];
		const first = await runNode({ credentials: f.store, items, parameters: sync() });
		expect(first.items[0].json).toMatchObject({ toUpdate: 1, unchanged: 1, updated: 1 });
		expect(f.sim.catalogRecord(CATALOG, 'a')?.fields).toEqual({
			Name: ['A renamed'],
			Country: ['DE'],
		});
		f.sim.clearLog();
		const second = await runNode({ credentials: f.store, items, parameters: sync() });
		expect(second.items[0].json).toMatchObject({
			toAdd: 0,
			toUpdate: 0,
			toDelete: 0,
			unchanged: 2,
		});
		expect(second.items[0].json.reindex).toBeUndefined();
		expect(f.sim.requestsTo().filter((r) => r.method === 'POST' && r.route !== 'Token')).toEqual(
			[],
		);
	});

	test.each([false, true])(
		'a partly failed sync still reindexes what it applied, then reports the failure (Continue On Fail: %s)',
		async (continueOnFail) => {
			seed(['keep', 'change']);
			// Batch Size 1: the first AddRecords (the update of "change") is refused, "new" is added.
			faultAfter(f.sim, 'AddRecords', 0, REJECTION);
			const result = await runNode({
				credentials: f.store,
				items: [vendor('keep'), vendor('change', 'Renamed'), vendor('new')],
				parameters: sync({ batchSize: 1 }),
				continueOnFail,
			});
			const [start] = f.sim.requestsTo('StartCatalogReindex');
			expect(start).toBeDefined();
			expect(start.seq).toBeGreaterThan(
				Math.max(...f.sim.requestsTo('AddRecords').map((r) => r.seq)),
			);
			if (continueOnFail) {
				expect(result.items[0].json).toMatchObject({
					error: expect.stringMatching(/^Sync of catalog "Vendors" left 1 record not done/),
					added: 1,
					updated: 0,
					failed: 1,
					reindex: { currentState: 'Completed' },
				});
			} else {
				expect(result.error?.message).toMatch(
					/^Sync of catalog "Vendors" left 1 record not done, e\.g\. update "change": /,
				);
				expect(String((result.error as { description?: string }).description)).toMatch(
					/^Everything else was applied and reindexed\./,
				);
			}
			expect(f.sim.recordIds(CATALOG).sort()).toEqual(['change', 'keep', 'new']);
		},
	);

	test.each([false, true])(
		'several catalogs: every one is planned and checked before any is written (Continue On Fail: %s)',
		async (continueOnFail) => {
			f.sim.addCatalog('Suppliers');
			seed(['a1', 'a2']);
			f.sim.seedRecords('Suppliers', ids('s', 0, 10));
			const result = await runNode({
				credentials: f.store,
				items: [
					{ catalog: CATALOG, ...vendor('a1', 'Changed') },
					{ catalog: CATALOG, ...vendor('a2') },
					{ catalog: CATALOG, ...vendor('a3') },
					// Suppliers: only 1 of its 10 records in the source, so 9 would be deleted.
					{ catalog: 'Suppliers', ...vendor('s0', 's0') },
				],
				parameters: perItemCatalogParams('sync'),
				continueOnFail,
			});
			const refusal =
				'Sync would delete 9 of the 10 records in catalog "Suppliers" (90 %), more than Max Share to Delete (50 %) [item 3]';
			if (!continueOnFail) {
				expect(result.error?.message).toBe(refusal);
				// Vendors, planned first, was not written either.
				expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);
				expect(f.sim.requestsTo('DeleteRecords')).toHaveLength(0);
				expect(f.sim.catalogRecord(CATALOG, 'a1')?.fields.Name).toEqual(['Vendor a1']);
				return;
			}
			expect(result.items.map((i) => [i.json.error ?? i.json.catalogId, i.pairedItem])).toEqual([
				[refusal, [{ item: 3 }]],
				[CATALOG, [{ item: 0 }, { item: 1 }, { item: 2 }]],
			]);
			expect(f.sim.recordIds(CATALOG).sort()).toEqual(['a1', 'a2', 'a3']);
			expect(f.sim.recordIds('Suppliers')).toHaveLength(10);
			// Both catalogs were read before the first write.
			const firstWrite = f.sim.requestsTo('AddRecords')[0].seq;
			expect(
				f.sim
					.requestsTo('GetRecords')
					.filter((r) => r.params.catalogId === 'Suppliers')
					.every((r) => r.seq < firstWrite),
			).toBe(true);
		},
	);

	test('Concurrency Auto (the default) has more than one batch in flight', async () => {
		f.sim.setLatency(50);
		const result = await runNode({
			credentials: f.store,
			items: ids('n', 0, 1000).map((id) => vendor(id)),
			parameters: sync({ batchSize: 100, reindex: false }),
		});
		expect(result.items[0].json).toMatchObject({ added: 1000, failed: 0 });
		expect(f.sim.requestsTo('AddRecords')).toHaveLength(10);
		expect(maxInFlight(f.sim.requestsTo('AddRecords'))).toBeGreaterThan(1);
	});

	describe.each(['replace', 'reject'] as const)(
		'100 000 records, 1 %% added, changed and removed, batches of 200 (Vantage mode: %s)',
		(mode) => {
			const all = ids('r', 0, 100_000);
			// Source: drop r0–r999, change r1000–r1999, add n0–n999.
			const source = [
				...all.slice(1000).map((id, i) => vendor(id, i < 1000 ? `Changed ${id}` : `Vendor ${id}`)),
				...ids('n', 0, 1000).map((id) => vendor(id)),
			];
			const run = async (continueOnFail = false) =>
				await runNode({
					credentials: f.store,
					items: source,
					parameters: recordParams('sync', CATALOG, {
						options: { reindex: false, batchSize: 200 },
						...FAST_RETRIES,
					}),
					continueOnFail,
				});
			const writes = () => [
				...f.sim.requestsTo('AddRecords'),
				...f.sim.requestsTo('DeleteRecords'),
			];
			/** The next sync finds nothing to do and sends no write. */
			const converged = async () => {
				f.sim.clearLog();
				const again = await run();
				expect(again.error).toBeUndefined();
				expect(again.items[0].json).toMatchObject({
					currentRecords: 100_000,
					toAdd: 0,
					toUpdate: 0,
					toDelete: 0,
					unchanged: 100_000,
					failed: 0,
				});
				expect(writes()).toHaveLength(0);
				const stored = new Set(f.sim.recordIds(CATALOG));
				expect(stored.size).toBe(100_000);
				expect(stored.has('r0')).toBe(false);
				expect(stored.has('n999')).toBe(true);
				expect(f.sim.catalogRecord(CATALOG, 'r1000')?.fields.Name).toEqual(['Changed r1000']);
			};
			beforeEach(() => {
				f.sim.setRecordUpsert(mode);
				seed(all);
			});

			test('one refused delete batch and one refused add batch: exactly their records fail, the rest is applied, reruns converge', async () => {
				// The third of 5 delete batches and the fifth of 10 add batches are refused (400: a
				// definite answer, not sent again). Which batch that is depends on the order they
				// arrive in: the simulator's log says.
				faultAfter(f.sim, 'DeleteRecords', 2, REJECTION);
				faultAfter(f.sim, 'AddRecords', 4, REJECTION);
				const first = await run(true);
				const refused = (route: RouteId) => f.sim.requestsTo(route).filter((r) => r.status === 400);
				expect(refused('DeleteRecords')).toHaveLength(1);
				expect(refused('AddRecords')).toHaveLength(1);
				const notDeleted = refused('DeleteRecords')[0].body as string[];
				const notWritten = (refused('AddRecords')[0].body as Array<{ id: string }>).map(
					(r) => r.id,
				);
				expect([notDeleted.length, notWritten.length]).toEqual([200, 200]);
				const failedUpdates = notWritten.filter((id) => id.startsWith('r')).length;
				const failedAdds = notWritten.length - failedUpdates;

				const summary = first.items[0].json;
				expect(summary).toMatchObject({
					currentRecords: 100_000,
					toAdd: 1000,
					toUpdate: 1000,
					toDelete: 1000,
					unchanged: 98_000,
					added: 1000 - failedAdds,
					updated: 1000 - failedUpdates,
					deleted: 800,
					failed: 400,
				});
				const failures = summary.failures as Array<{
					id: string;
					action: string;
					reasons: string[];
				}>;
				const idsOf = (action: (a: string) => boolean) =>
					failures
						.filter((x) => action(x.action))
						.map((x) => x.id)
						.sort();
				expect(idsOf((a) => a === 'delete')).toEqual([...notDeleted].sort());
				expect(idsOf((a) => a !== 'delete')).toEqual([...notWritten].sort());
				for (const failure of failures) {
					expect(failure.reasons.join()).toContain('Simulated rejection');
					if (failure.action !== 'delete') {
						expect(failure.action).toBe(failure.id.startsWith('n') ? 'add' : 'update');
					}
				}
				expect(
					(summary.failedBatches as Array<{ action: string; ids: string[] }>).map((b) => [
						b.action,
						b.ids.length,
					]),
				).toEqual([
					['delete', 200],
					['add', 200],
				]);
				// The catalog holds exactly what was applied.
				const stored = new Set(f.sim.recordIds(CATALOG));
				expect(stored.size).toBe(100_000 - 800 + 1000 - failedAdds);
				expect(notDeleted.every((id) => stored.has(id))).toBe(true);
				for (const id of notWritten) {
					if (id.startsWith('n')) expect(stored.has(id)).toBe(false);
					else expect(f.sim.catalogRecord(CATALOG, id)?.fields.Name).toEqual([`Vendor ${id}`]);
				}

				// The rerun applies exactly what failed; the one after it has nothing to do.
				f.sim.clearLog();
				const second = await run();
				expect(second.error).toBeUndefined();
				expect(second.items[0].json).toMatchObject({
					toAdd: failedAdds,
					toUpdate: failedUpdates,
					toDelete: 200,
					added: failedAdds,
					updated: failedUpdates,
					deleted: 200,
					failed: 0,
				});
				await converged();
			}, 120_000);

			test('429, 503 and dropped connections on AddRecords, DeleteRecords and GetRecords: nothing fails, a rerun has nothing to do', async () => {
				const passing = (route: RouteId, faults: Array<Parameters<typeof faultAfter>[3]>) => {
					for (const fault of faults) faultAfter(f.sim, route, 1, fault);
				};
				passing('GetRecords', [
					{ kind: 'status', status: 503 },
					{ kind: 'status', status: 429 },
					{ kind: 'reset' },
				]);
				passing('DeleteRecords', [
					{ kind: 'status', status: 429 },
					{ kind: 'status', status: 503 },
					{ kind: 'reset', after: true },
				]);
				passing('AddRecords', [
					{ kind: 'status', status: 429 },
					{ kind: 'status', status: 503 },
					{ kind: 'reset' },
					// Handled, then the answer is lost: sent again, the rows are already there.
					{ kind: 'reset', after: true },
				]);
				const first = await run();
				expect(first.error).toBeUndefined();
				expect(first.items[0].json).toMatchObject({
					toAdd: 1000,
					toUpdate: 1000,
					toDelete: 1000,
					added: 1000,
					updated: 1000,
					deleted: 1000,
					failed: 0,
					failures: [],
					failedBatches: [],
				});
				// Every injected fault was met.
				const faulted = (route: RouteId) =>
					f.sim.requestsTo(route).filter((r) => r.fault && r.fault !== 'delay').length;
				expect([faulted('GetRecords'), faulted('DeleteRecords'), faulted('AddRecords')]).toEqual([
					3, 3, 4,
				]);
				await converged();
			}, 120_000);
		},
	);
});
