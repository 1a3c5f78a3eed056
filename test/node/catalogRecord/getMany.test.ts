import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import { VENDOR_COLUMNS, vendorRows } from '../../helpers/vendorCatalog';

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

	test('Search keeps the records whose ID or a column contains the text (case and spaces ignored), reading pages only until Limit have matched', async () => {
		f.sim.addCatalog(CATALOG, VENDOR_COLUMNS);
		f.sim.seedCatalogRecords(CATALOG, vendorRows(3500));
		const search = async (text: string, fields = {}) =>
			await runNode({
				credentials: f.store,
				parameters: nodeParams('catalogRecord', 'getMany', {
					catalogId: rl(CATALOG),
					search: text,
					...fields,
				}),
			});
		// One vendor by its VAT ID, typed with spaces and in lower case: every page is read.
		const byVat = await search('de 100 015 838', { returnAll: true });
		expect(byVat.items.map((i) => i.json.id)).toEqual(['V-10002']);
		expect(byVat.items[0].json.fields).toMatchObject({ VatId: ['DE100015838'] });
		expect(f.sim.requestsTo('GetRecords')).toHaveLength(4);
		// By record ID, and by a column shared by many: Limit 5 is reached on the first page.
		f.sim.clearLog();
		expect((await search('v-13499')).items.map((i) => i.json.id)).toEqual(['V-13499']);
		f.sim.clearLog();
		const inCologne = await search('KÖLN', { limit: 5 });
		expect(inCologne.items.map((i) => i.json.id)).toEqual([
			'V-10003',
			'V-10009',
			'V-10015',
			'V-10021',
			'V-10027',
		]);
		expect(f.sim.requestsTo('GetRecords')).toHaveLength(1);
		// Nothing matches: no items.
		expect((await search('no such vendor', { returnAll: true })).items).toEqual([]);
	});
});
