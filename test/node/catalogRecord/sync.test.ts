import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { AbbyyVantage } from '../../../nodes/AbbyyVantage/AbbyyVantage.node';

import { countEvaluations, runNode } from '../../harness/n8n';
import { maxInFlight } from '../../helpers/fixture';
import { ids, recordParams } from '../../helpers/params';
import {
	definedColumns,
	faultAfter,
	perItemCatalogParams,
	REJECTION,
	syncVendors,
	useVendorCatalog,
	vendor,
	VENDORS,
} from './params';

const CATALOG = VENDORS;
const { f, seed } = useVendorCatalog();

const sync = syncVendors;
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
});
