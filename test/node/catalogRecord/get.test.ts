import { runNode } from '../../harness/n8n';
import { maxInFlight, useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';

const CATALOG = 'Vendors';
const f = useSimulator();

describe('Catalog Record → Get', () => {
	test('Get reads one record by ID; an unknown ID is a readable 404', async () => {
		f.sim.seedCatalogRecords(CATALOG, [{ id: 'a/b 1', fields: { Name: ['A'], Country: ['FR'] } }]);
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalogRecord', 'get', { catalogId: rl(CATALOG), recordId: 'a/b 1' }),
		});
		expect(result.items[0].json).toEqual({
			catalogId: CATALOG,
			id: 'a/b 1',
			fields: { Name: ['A'], Country: ['FR'] },
		});
		expect(f.sim.requestsTo('GetRecord')[0].path).toBe(
			'/api/publicapi/v1/catalogs/Vendors/records/a%2Fb%201',
		);
		const missing = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalogRecord', 'get', { catalogId: rl(CATALOG), recordId: 'nope' }),
		});
		expect(missing.error?.message).toMatch(/^ABBYY Vantage could not find it/);
	});

	test.each([
		['Auto (the default)', {}, (peak: number) => expect(peak).toBeGreaterThan(1)],
		['pinned to 1', { options: { concurrency: 1 } }, (peak: number) => expect(peak).toBe(1)],
	])(
		'Concurrency %s: records of many items are read at the same time',
		async (_name, extra, check) => {
			const ids = Array.from({ length: 8 }, (_, i) => `v${i}`);
			f.sim.seedRecords(CATALOG, ids);
			f.sim.setLatency(100);
			const result = await runNode({
				credentials: f.store,
				items: ids.map((id) => ({ id })),
				parameters: nodeParams('catalogRecord', 'get', {
					catalogId: rl(CATALOG),
					recordId: '={{ $json.id }}',
					...extra,
				}),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => [i.json.id, i.pairedItem])).toEqual(
				ids.map((id, item) => [id, { item }]),
			);
			check(maxInFlight(f.sim.requestsTo('GetRecord')));
		},
	);
});
