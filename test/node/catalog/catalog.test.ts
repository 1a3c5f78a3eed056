import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const f = useSimulator();

describe('Catalog → Get Many, Get, Clear', () => {
	test('Get Many lists the catalogs; Get gives columns and row count', async () => {
		f.sim.seedRecords('Vendors', ['a', 'b']);
		const many = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
		});
		expect(many.items.map((i) => i.json.id)).toEqual(
			expect.arrayContaining(['Vendors', FIXTURE.productCatalogId]),
		);
		const one = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'get', { catalogId: rl('Vendors') }),
		});
		expect(one.items[0].json).toMatchObject({
			id: 'Vendors',
			rowCount: 2,
			columns: [
				{ name: 'Name', type: 'Text', notEmpty: true },
				{ name: 'Country', type: 'Text', notEmpty: false },
			],
		});
	});

	test('Clear needs the confirmation; then it removes every record and says how many', async () => {
		f.sim.seedRecords('Vendors', ['a', 'b', 'c']);
		const refused = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'clear', { catalogId: rl('Vendors') }),
		});
		expect(refused.error?.message).toBe(
			'Clear of catalog "Vendors" was not confirmed: turn on Delete All Records [item 0]',
		);
		expect(f.sim.requests).toHaveLength(0);
		const cleared = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'clear', { catalogId: rl('Vendors'), confirm: true }),
		});
		expect(cleared.items[0].json).toEqual({
			catalogId: 'Vendors',
			cleared: true,
			recordsRemoved: 3,
		});
		expect(f.sim.recordIds('Vendors')).toEqual([]);
	});
});
