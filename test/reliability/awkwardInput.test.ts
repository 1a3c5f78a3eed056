/** Awkward but valid input arrives at the simulator exactly as given. */
import { runNode } from '../harness/n8n';
import { useSimulator } from '../helpers/fixture';
import { recordDeleteParams, recordParams, nodeParams, rl } from '../helpers/params';
import { CATALOG, record } from './shared';

const f = useSimulator((sim) => sim.addCatalog(CATALOG));

describe('awkward but valid input arrives exactly as given', () => {
	test('record IDs with / ? # % " and non-ASCII are sent intact in the body', async () => {
		const ids = [
			'a/b',
			'q?x=1',
			'#hash',
			'50%',
			'say "hi"',
			'Ärger',
			'日本語',
			'emoji 🚀',
			' padded ',
		];
		f.sim.seedRecords(CATALOG, ids);
		await runNode({
			credentials: f.store,
			items: [{ ids }],
			parameters: recordDeleteParams(CATALOG),
		});
		const sent = f.sim.requestsTo('DeleteRecords')[0].body;
		expect(sent).toEqual(ids);
		expect(f.sim.recordIds(CATALOG)).toEqual([]);
		record(
			'awkward',
			`| Record IDs \`a/b\`, \`q?x=1\`, \`#hash\`, \`50%\`, \`say "hi"\`, \`Ärger\`, \`日本語\`, \`emoji 🚀\`, \` padded \` | body equals the input, all deleted |`,
		);
	});

	test.each(['Vendors 2026', 'EU/Vendors', '100% vendors', 'a..b', 'Zürich'])(
		'catalog %j travels as one encoded path segment',
		async (name) => {
			f.sim.addCatalog(name);
			await runNode({
				credentials: f.store,
				parameters: nodeParams('catalog', 'reindex', {
					catalogId: rl(name),
					waitForCompletion: false,
				}),
			});
			const [request] = f.sim.requestsTo('StartCatalogReindex');
			expect(request.params.catalogId).toBe(name);
			expect(request.path.split('/')).toHaveLength(7);
			record(
				'awkward',
				`| Catalog \`${name}\` | path \`${request.path}\`, decoded back to the name |`,
			);
		},
	);

	test('100 000 IDs in one item are chunked into 20 requests of 5000', async () => {
		const ids = Array.from({ length: 100000 }, (_, i) => `bulk-${i}`);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids }],
			parameters: recordDeleteParams(CATALOG),
		});
		// Batches travel concurrently (Concurrency Auto), so they may arrive in any order.
		const position = (id: string) => Number(id.slice('bulk-'.length));
		const bodies = f.sim
			.requestsTo('DeleteRecords')
			.map((r) => r.body as string[])
			.sort((a, b) => position(a[0]) - position(b[0]));
		expect(bodies.map((b) => b.length)).toEqual(Array(20).fill(5000));
		expect(bodies.flat()).toEqual(ids);
		expect(result.items[0].json).toMatchObject({ idsDeleted: 100000, batchesSent: 20 });
		record(
			'awkward',
			'| 100 000 IDs in one item | 20 requests × 5000 sent concurrently, each ID once in input order within its batch, all confirmed |',
		);
	});

	test('auto-mapped items with fields that are not columns, with Ignore Unknown Fields: only the columns are sent, the rest named', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				{ recordId: 'x-1', Name: 'Northwind', Country: 'US', buyer: 'Ann', 'Ländercode ✓': 'us' },
			],
			parameters: recordParams('add', CATALOG, { options: { ignoreUnknownFields: true } }),
		});
		expect(result.error).toBeUndefined();
		const [sent] = f.sim.requestsTo('AddRecords')[0].body as Array<{ fields: object }>;
		expect(sent.fields).toEqual({ Name: ['Northwind'], Country: ['US'] });
		expect(result.items[0].json.ignoredFields).toEqual(['buyer', 'Ländercode ✓']);
		record(
			'awkward',
			`| Catalog Record Add, Map Automatically, fields \`buyer\` and \`Ländercode ✓\` that are no columns, Ignore Unknown Fields on | body holds Name and Country only; the item lists ignoredFields ${JSON.stringify(result.items[0].json.ignoredFields)} |`,
		);
	});
});
