import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { recordParams } from '../../helpers/params';

const CATALOG = 'Vendors';
const f = useSimulator();

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

	test('Dry Run outputs the plan and changes nothing', async () => {
		seed(['a', 'b']);
		const result = await runNode({
			credentials: f.store,
			items: [vendor('a', 'A2'), vendor('c')],
			parameters: sync({ dryRun: true }),
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

	test.each(['replace', 'reject'] as const)(
		'100 000 records, 1 %% added, changed and removed, with faults: failures reported, the rest applied, a rerun converges (Vantage mode: %s)',
		async (mode) => {
			f.sim.setRecordUpsert(mode);
			const ids = Array.from({ length: 100000 }, (_, i) => `r${i}`);
			seed(ids);
			// Source: drop r0–r999, change r1000–r1999, add n0–n999.
			const source = [
				...ids.slice(1000).map((id, i) => vendor(id, i < 1000 ? `Changed ${id}` : `Vendor ${id}`)),
				...Array.from({ length: 1000 }, (_, i) => vendor(`n${i}`)),
			];
			f.sim.injectFault(
				'AddRecords',
				{
					kind: 'status',
					status: 400,
					body: { title: 'Bad', status: 400, detail: 'Simulated rejection' },
				},
				1,
			);
			const first = await runNode({
				credentials: f.store,
				items: source,
				parameters: sync({ reindex: false, concurrency: 4 }),
				continueOnFail: true,
			});
			const summary = first.items[0].json;
			expect(summary).toMatchObject({
				toAdd: 1000,
				toUpdate: 1000,
				toDelete: 1000,
				unchanged: 98000,
			});
			// One add batch failed; each of its records is listed with the reason; nothing else is missing.
			const failures = summary.failures as Array<{ id: string; action: string; reasons: string[] }>;
			expect(failures.length).toBeGreaterThan(0);
			expect(failures.every((failure) => failure.reasons[0].includes('Simulated rejection'))).toBe(
				true,
			);
			expect((summary.added as number) + (summary.updated as number) + failures.length).toBe(2000);
			expect(summary.deleted).toBe(1000);
			const second = await runNode({
				credentials: f.store,
				items: source,
				parameters: sync({ reindex: false, concurrency: 4 }),
			});
			expect(second.error).toBeUndefined();
			expect(second.items[0].json).toMatchObject({ toDelete: 0, failed: 0 });
			expect(
				(second.items[0].json.toAdd as number) + (second.items[0].json.toUpdate as number),
			).toBe(failures.length);
			const stored = new Set(f.sim.recordIds(CATALOG));
			expect(stored.size).toBe(100000);
			expect(stored.has('r0')).toBe(false);
			expect(stored.has('n999')).toBe(true);
			expect(f.sim.catalogRecord(CATALOG, 'r1000')?.fields.Name).toEqual(['Changed r1000']);
		},
		120_000,
	);
});
