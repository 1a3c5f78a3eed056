import { parsedAnswer, runAgent } from '../../harness/tool';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { VENDOR_COLUMNS, vendorRow, vendorRows } from '../../helpers/vendorCatalog';

const CATALOG = 'Vendors';
const f = useSimulator((sim) => {
	sim.addCatalog(CATALOG, VENDOR_COLUMNS);
	sim.seedCatalogRecords(CATALOG, vendorRows(200));
});

describe('ABBYY Vantage Tool: a catalog lookup by a model', () => {
	test.each(['engine', 'supply'] as const)(
		'%s path: offered with its description and $fromAI schema; a search by VAT ID answers the one vendor',
		async (path) => {
			const vendor = vendorRow(42);
			const run = await runAgent({
				path,
				credentials: f.store,
				tools: [{ name: 'Find vendor', parameters: nodeParams('catalogRecord', 'getMany') }],
				calls: [
					{
						tool: 'Find_vendor',
						args: { catalogId: CATALOG, search: vendor.fields.VatId[0], limit: 5 },
					},
				],
			});
			expect(run.offered.map((t) => t.name)).toEqual(['Find_vendor']);
			const [tool] = run.offered;
			expect(tool.description).toMatch(/^Searches the records of an ABBYY Vantage data catalog/);
			expect(Object.keys(tool.schema).sort()).toEqual(['catalogId', 'limit', 'search']);
			expect(tool.schema.catalogId).toMatchObject({ type: 'string', optional: false });
			expect(tool.schema.search).toMatchObject({ type: 'string', optional: true, default: '' });
			expect(tool.schema.limit).toMatchObject({ type: 'number', optional: true, default: 10 });
			const answer = parsedAnswer(run.answers[0]);
			expect(answer).toEqual({
				returned: 1,
				results: [{ id: vendor.id, fields: Object.fromEntries(Object.entries(vendor.fields).map(([k, v]) => [k, v[0]])) }],
			});
		},
	);
});
