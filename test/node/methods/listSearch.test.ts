import { listSearch } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';

const CATALOG = 'Vendors / EU 2026';
const f = useSimulator((sim) => sim.addCatalog(CATALOG));

describe('Catalog picker (list search)', () => {
	test('lists catalogs by name, filtered as the user types', async () => {
		f.sim.addCatalog('Customers');
		const all = (await listSearch(f.store, 'searchCatalogs')) as {
			results: Array<{ name: string; value: string }>;
		};
		expect(all.results).toEqual([
			{ name: 'Customers', value: 'Customers' },
			{ name: 'Products', value: 'Products' },
			{ name: 'Vendors', value: 'Vendors' },
			{ name: CATALOG, value: CATALOG },
		]);
		const filtered = (await listSearch(f.store, 'searchCatalogs', 'eu 20')) as {
			results: unknown[];
		};
		expect(filtered.results).toEqual([{ name: CATALOG, value: CATALOG }]);
	});
});
