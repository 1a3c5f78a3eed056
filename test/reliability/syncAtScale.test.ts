/**
 * Catalog Record → Sync at Vantage's scale: 500 000 records per catalog counted exactly, and
 * 100 000-record syncs under refused batches and passing problems that converge on a rerun. The
 * rest of Sync is unit-tested in test/node/catalogRecord/sync.test.ts.
 */
import { runNode } from '../harness/n8n';
import { ids, recordParams } from '../helpers/params';
import {
	FAST_RETRIES,
	faultAfter,
	REJECTION,
	syncVendors,
	useVendorCatalog,
	vendor,
	VENDORS,
} from '../node/catalogRecord/params';
import type { RouteId } from '../simulator/simulator';

const CATALOG = VENDORS;
const { f, seed } = useVendorCatalog();

const sync = syncVendors;

describe('Catalog Record → Sync at scale', () => {
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
