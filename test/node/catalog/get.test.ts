import { runNode } from '../../harness/n8n';
import { maxInFlight, useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';

const f = useSimulator();

describe('Catalog → Get', () => {
	test('Get gives columns and row count', async () => {
		f.sim.seedRecords('Vendors', ['a', 'b']);
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

	test.each([
		['Auto (the default)', {}, (peak: number) => expect(peak).toBeGreaterThan(1)],
		['pinned to 1', { options: { concurrency: 1 } }, (peak: number) => expect(peak).toBe(1)],
	])('Concurrency %s: items are read at the same time', async (_name, extra, check) => {
		const catalogs = ['A', 'B', 'C', 'D', 'E', 'F'];
		for (const name of catalogs) f.sim.addCatalog(name);
		f.sim.setLatency(100);
		const result = await runNode({
			credentials: f.store,
			items: catalogs.map((catalog) => ({ catalog })),
			parameters: nodeParams('catalog', 'get', {
				catalogId: rl('={{ $json.catalog }}'),
				...extra,
			}),
		});
		expect(result.error).toBeUndefined();
		// Output in input order, each paired with its item, whatever order the answers came in.
		expect(result.items.map((i) => [i.json.id, i.pairedItem])).toEqual(
			catalogs.map((id, item) => [id, { item }]),
		);
		check(maxInFlight(f.sim.requestsTo('GetCatalog')));
	});
});
