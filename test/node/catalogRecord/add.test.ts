import type { IDataObject } from 'n8n-workflow';

import { resourceMapping, runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, recordParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const PRODUCTS = FIXTURE.productCatalogId;
const f = useSimulator();

const product = (id: string, extra: IDataObject = {}) => ({
	recordId: id,
	Code: id,
	Name: `Product ${id}`,
	Price: 9.5,
	Stock: 3,
	ValidFrom: '2026-01-01',
	...extra,
});

describe('Catalog Record → Add', () => {
	test('the Columns mapper loads the catalog’s columns after a Record ID field', async () => {
		const result = (await resourceMapping(f.store, 'getCatalogColumns', {
			catalogId: rl(PRODUCTS),
		})) as {
			fields: IDataObject[];
		};
		expect(result.fields.map((field) => [field.id, field.type, field.required])).toEqual([
			['recordId', 'string', true],
			['Code', 'string', true],
			['Name', 'string', true],
			['Price', 'number', false],
			['Stock', 'number', false],
			['ValidFrom', 'dateTime', false],
		]);
	});

	test('values become the API’s string arrays as the column type expects; one item per record', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				product('p1', { Name: ['Bolt', 'Schraube'], Price: '12.50', Stock: 7 }),
				product('p2'),
			],
			parameters: recordParams('add', PRODUCTS),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => [i.json.id, i.json.status, i.pairedItem])).toEqual([
			['p1', 'added', { item: 0 }],
			['p2', 'added', { item: 1 }],
		]);
		expect(f.sim.requestsTo('AddRecords')).toHaveLength(1);
		expect(f.sim.catalogRecord(PRODUCTS, 'p1')).toEqual({
			id: 'p1',
			fields: {
				Code: ['p1'],
				Name: ['Bolt', 'Schraube'],
				Price: ['12.5'],
				Stock: ['7'],
				ValidFrom: ['2026-01-01'],
			},
		});
	});

	test('rows Vantage rejects (200 with errorRows) come out as failed with their reasons; nothing is lost', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [product('ok-1'), product('bad-1', { Name: '' }), product('ok-2')],
			parameters: recordParams('add', PRODUCTS, { mode: 'aggregate' }),
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			recordsRequested: 3,
			added: 2,
			failed: 1,
			failedRecords: [{ id: 'bad-1', item: 1, reasons: ['CannotBeEmpty Column: Name'] }],
		});
		expect(f.sim.recordIds(PRODUCTS).sort()).toEqual(['ok-1', 'ok-2']);

		const strict = await runNode({
			credentials: f.store,
			items: [product('bad-2', { Name: '' })],
			parameters: recordParams('add', PRODUCTS),
		});
		expect(strict.error?.message).toBe(
			`Added 0 of 1 records to catalog "${PRODUCTS}"; 1 failed, e.g. "bad-2": CannotBeEmpty Column: Name [item 0]`,
		);
	});

	test.each(['replace', 'reject'] as const)(
		're-adding an existing ID replaces the record (Vantage mode: %s)',
		async (mode) => {
			f.sim.setRecordUpsert(mode);
			await runNode({
				credentials: f.store,
				items: [product('p1')],
				parameters: recordParams('add', PRODUCTS),
			});
			const again = await runNode({
				credentials: f.store,
				items: [product('p1', { Name: 'Renamed' })],
				parameters: recordParams('add', PRODUCTS),
			});
			expect(again.error).toBeUndefined();
			expect(again.items[0].json.status).toBe(mode === 'replace' ? 'added' : 'replaced');
			expect(f.sim.catalogRecord(PRODUCTS, 'p1')?.fields.Name).toEqual(['Renamed']);
			expect(f.sim.recordIds(PRODUCTS)).toEqual(['p1']);
		},
	);

	test('batches of at most 5000, the record ID taken from a chosen column', async () => {
		const items = Array.from({ length: 12001 }, (_, i) => ({ Code: `c${i}`, Name: `N${i}` }));
		const result = await runNode({
			credentials: f.store,
			items,
			parameters: recordParams('add', PRODUCTS, {
				mode: 'aggregate',
				columns: {
					mappingMode: 'autoMapInputData',
					value: null,
					matchingColumns: ['Code'],
					schema: [],
				},
			}),
		});
		expect(result.items[0].json).toMatchObject({ added: 12001, failed: 0, batchesSent: 3 });
		expect(f.sim.requestsTo('AddRecords').map((r) => (r.body as unknown[]).length)).toEqual([
			5000, 5000, 2001,
		]);
		expect(f.sim.catalogRecord(PRODUCTS, 'c42')?.fields.Code).toEqual(['c42']);
	});

	test('a later item with the same ID wins; the earlier one is reported as skipped', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [product('d1', { Name: 'old' }), product('d1', { Name: 'new' })],
			parameters: recordParams('add', PRODUCTS),
		});
		expect(result.items.map((i) => i.json.status)).toEqual(['skipped', 'added']);
		expect(f.sim.catalogRecord(PRODUCTS, 'd1')?.fields.Name).toEqual(['new']);
	});

	test.each([
		[
			'a value over 256 characters',
			{ Name: 'x'.repeat(257) },
			/^Column "Name" of record "v1" is 257 characters long; Vantage stores at most 256 \[item 0\]$/,
		],
		[
			'text in a number column',
			{ Price: 'cheap' },
			/^Column "Price" of record "v1" must be a number, not "cheap" \[item 0\]$/,
		],
		[
			'a fraction in an Integer column',
			{ Stock: 1.5 },
			/^Column "Stock" of record "v1" must be a whole number, not 1.5 \[item 0\]$/,
		],
		[
			'an empty record ID',
			{ recordId: '' },
			/^The record ID \("Record ID"\) is empty: "" \[item 0\]$/,
		],
	])('%s is refused before any write', async (_name, extra, message) => {
		const result = await runNode({
			credentials: f.store,
			items: [product('v1', extra)],
			parameters: recordParams('add', PRODUCTS),
		});
		expect(result.error?.message).toMatch(message);
		expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);
	});

	test('Reindex After Adding starts a reindex and waits for it', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [product('r1')],
			parameters: recordParams('add', PRODUCTS, { options: { reindex: true } }),
		});
		expect(result.items[0].json.reindex).toMatchObject({ currentState: 'Completed' });
		expect(f.sim.requestsTo('StartCatalogReindex')).toHaveLength(1);
	});

	test('manual mapping: values defined below, per item', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [{ sku: 'm1', title: 'Manual' }],
			parameters: nodeParams('catalogRecord', 'add', {
				catalogId: rl(PRODUCTS),
				columns: {
					mappingMode: 'defineBelow',
					value: {
						recordId: '={{ $json.sku }}',
						Code: '={{ $json.sku }}',
						Name: '={{ $json.title }}',
					},
					matchingColumns: ['recordId'],
					schema: [],
				},
			}),
		});
		expect(result.items[0].json).toMatchObject({ id: 'm1', status: 'added' });
		expect(f.sim.catalogRecord(PRODUCTS, 'm1')?.fields).toEqual({ Code: ['m1'], Name: ['Manual'] });
	});
});
