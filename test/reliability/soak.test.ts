/** A seeded soak: many items, random faults, every record ID accounted for. */
import { runNode } from '../harness/n8n';
import { useSimulator } from '../helpers/fixture';
import { recordDeleteParams } from '../helpers/params';
import { CATALOG, FAST, problem, record, secretsIn } from './shared';

const f = useSimulator((sim) => sim.addCatalog(CATALOG));

describe('soak', () => {
	test('10 000 items with 1 % seeded random faults: every record ID accounted for', async () => {
		const items = Array.from({ length: 10000 }, (_, i) => ({
			ids: [`soak-${i}-a`, `soak-${i}-b`, `soak-${i}-a`],
		}));
		f.sim.seedRecords(
			CATALOG,
			items.flatMap((item) => item.ids),
		);
		f.sim.injectRandomFaults(
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
			credentials: f.store,
			items,
			continueOnFail: true,
			parameters: recordDeleteParams(CATALOG, { mode: 'perItem', requestOptions: FAST }),
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
			expect(json.duplicatesRemoved).toEqual({
				count: 1,
				ids: [`soak-${index}-a`],
				items: [{ item: index, id: `soak-${index}-a`, keptItem: index }],
			});
			expect((json.idsDeleted as number) + (json.idsFailed as number)).toBe(2);
			deleted += json.idsDeleted as number;
			failed += json.idsFailed as number;
			for (const batch of (json.failedBatches as Array<{ ids: string[] }>) ?? [])
				for (const id of batch.ids) reportedFailed.add(id);
		});
		const remaining = f.sim.recordIds(CATALOG);
		expect(new Set(remaining)).toEqual(reportedFailed);
		expect(deleted + failed).toBe(20000);
		const faulted = f.sim.requestsTo('DeleteRecords').filter((r) => r.fault).length;
		expect(faulted).toBeGreaterThan(40);
		expect(secretsIn(f, result)).toBe(0);
		record(
			'soak',
			`| 10 000 items × 3 IDs (2 unique), Per Item | 1 % seeded: 429, 502, 503, reset, 500, 400 | ${f.sim.requestsTo('DeleteRecords').length} | ${faulted} | ${deleted} | ${failed} | ${remaining.length} | 0 | ${seconds.toFixed(1)} s |`,
		);
	}, 180_000);
});
