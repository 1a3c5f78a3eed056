import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const f = useSimulator();

describe('Catalog → Get Many', () => {
	test('Get Many lists the catalogs', async () => {
		f.sim.seedRecords('Vendors', ['a', 'b']);
		const many = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
		});
		expect(many.items.map((i) => i.json.id)).toEqual(
			expect.arrayContaining(['Vendors', FIXTURE.productCatalogId]),
		);
	});

	test('Limit returns the first catalogs, one item each, in the order Vantage lists them', async () => {
		for (const name of ['Parts', 'Customers / EU', 'Plants']) f.sim.addCatalog(name);
		const all = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
		});
		const listed = all.items.map((i) => i.json.id);
		expect(listed).toHaveLength(5);
		const some = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'getMany', { limit: 2 }),
		});
		expect(some.error).toBeUndefined();
		expect(some.items.map((i) => [i.json, i.pairedItem])).toEqual(
			listed.slice(0, 2).map((id) => [{ id, name: id }, { item: 0 }]),
		);
		// The list is one request whatever the limit (GetCatalogs is not paged).
		expect(f.sim.requestsTo('GetCatalogs')).toHaveLength(2);
	});

	test('a Limit that is not a whole number is refused before any request', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'getMany', { limit: 1.5 }),
		});
		expect(result.error?.message).toBe('Limit must be a whole number, not 1.5 [item 0]');
		expect(f.sim.requests).toHaveLength(0);
	});
});
