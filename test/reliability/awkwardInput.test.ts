/** Awkward but valid input arrives at the simulator exactly as given. */
import { readBinary, runNode } from '../harness/n8n';
import { useSimulator } from '../helpers/fixture';
import { recordDeleteParams, recordParams, nodeParams, qaParams, rl } from '../helpers/params';
import { seedQualityScenario } from '../simulator/qualitykit';
import { FIXTURE } from '../simulator/simulator';
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
	test('a report with no rows: no items; a CSV File of the header alone; a summary of zeros', async () => {
		const parameters = { startDate: '2030-01-01T00:00:00Z' };
		const items = await runNode({
			credentials: f.store,
			parameters: qaParams('getFieldChanges', parameters),
		});
		const file = await runNode({
			credentials: f.store,
			parameters: qaParams('getDocumentChanges', { ...parameters, output: 'binary' }),
		});
		const summary = await runNode({
			credentials: f.store,
			parameters: qaParams('getQualitySummary', parameters),
		});
		expect([items.error, items.items]).toEqual([undefined, []]);
		expect(file.items[0].json.rows).toBe(0);
		expect((await readBinary(file.items[0])).toString()).toMatch(/^ProcessSkillId,[^\n]*\r\n$/);
		expect(
			summary.items.map((i) => [i.json.level, i.json.documents, i.json.straightThroughPercent]),
		).toEqual([['total', 0, null]]);
		record(
			'awkward',
			'| A QA report with no rows (a period without transactions) | Get Field Changes: no items, no error; CSV File: the header row alone, `rows: 0`; Get Quality Summary: one total item, 0 documents, percentages null |',
		);
	});

	test('report cells with commas, quotes and non-ASCII, in a file name, arrive intact', async () => {
		seedQualityScenario(f.sim);
		f.sim.seedCompletedTransactions(1, {
			skillId: FIXTURE.processSkillId,
			files: [{ name: 'Rechnung Müller; „Ärger“ 日本語.txt', text: 'InvoiceNumber: X' }],
		});
		const result = await runNode({
			credentials: f.store,
			parameters: qaParams('getDocumentChanges', { returnAll: true }),
		});
		const names = [...new Set(result.items.map((i) => i.json.DocumentName))];
		expect(names).toEqual([
			'scan 1, "March".pdf',
			'photo.jpg',
			'receipt.pdf',
			'Rechnung Müller; „Ärger“ 日本語.txt',
		]);
		record(
			'awkward',
			'| Report cells `scan 1, "March".pdf` (comma and quotes, sent quoted) and `Rechnung Müller; „Ärger“ 日本語.txt` | each read back as one cell, exactly |',
		);
	});

	test('a 200 000-row report: the CSV File streamed whole; with Limit 100 only 100 items', async () => {
		// 10 000 transactions × 2 documents × 10 fields.
		f.sim.seedCompletedTransactions(10_000, { skillId: FIXTURE.processSkillId });
		const file = await runNode({
			credentials: f.store,
			parameters: qaParams('getFieldChanges', { output: 'binary' }),
		});
		expect(file.error).toBeUndefined();
		const bytes = await readBinary(file.items[0]);
		expect(file.items[0].json).toMatchObject({ rows: 200_000, fileSize: bytes.length });
		expect(bytes.toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(200_001);
		const limited = await runNode({
			credentials: f.store,
			parameters: qaParams('getFieldChanges', { limit: 100 }),
		});
		expect(limited.items).toHaveLength(100);
		record(
			'awkward',
			`| A 200 000-row field changes report (${Math.round(bytes.length / 1e6)} MB) | CSV File: 200 000 rows counted, the stored bytes equal the served ones; One Item per Row with Limit 100: 100 items, the download closed early (500 000 rows on disk: test/node/report/getFieldChanges.filesystem.test.ts) |`,
		);
	}, 60_000);
});
