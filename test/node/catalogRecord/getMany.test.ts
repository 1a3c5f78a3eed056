import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';

const CATALOG = 'Vendors';
const f = useSimulator();

describe('Catalog Record → Get Many', () => {
	test('Get Many pages with the API’s page size; Return All reads every record once', async () => {
		f.sim.seedRecords(
			CATALOG,
			Array.from({ length: 2500 }, (_, i) => `id${i}`),
		);
		const all = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalogRecord', 'getMany', {
				catalogId: rl(CATALOG),
				returnAll: true,
			}),
		});
		expect(all.items).toHaveLength(2500);
		expect(new Set(all.items.map((i) => i.json.id)).size).toBe(2500);
		expect(f.sim.requestsTo('GetRecords').map((r) => r.query)).toEqual([
			{ offset: '0', limit: '1000' },
			{ offset: '1000', limit: '1000' },
			{ offset: '2000', limit: '1000' },
		]);
		f.sim.clearLog();
		const some = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalogRecord', 'getMany', { catalogId: rl(CATALOG), limit: 1200 }),
		});
		expect(some.items).toHaveLength(1200);
		expect(f.sim.requestsTo('GetRecords').map((r) => r.query.limit)).toEqual(['1000', '200']);
	});
});
