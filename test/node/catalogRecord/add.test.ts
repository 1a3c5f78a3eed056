import type { IDataObject } from 'n8n-workflow';

import { DateTime } from 'luxon';

import { AbbyyVantage } from '../../../nodes/AbbyyVantage/AbbyyVantage.node';
import { countEvaluations, resourceMapping, runNode } from '../../harness/n8n';
import { maxInFlight, useSimulator } from '../../helpers/fixture';
import { ids, nodeParams, recordParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import {
	definedColumns,
	FAST_RETRIES,
	faultAfter,
	perItemCatalogParams,
	REJECTION,
} from './params';

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
	test('each column mapping is evaluated once per item: the record ID and the values from one evaluation', async () => {
		const mapping = {
			recordId: '={{ $json.sku }}',
			Code: '={{ $json.code }}',
			Name: '={{ $json.title }}',
		};
		const { result, evaluations } = await countEvaluations(
			async () =>
				await runNode({
					credentials: f.store,
					items: ['e1', 'e2', 'e3'].map((sku) => ({ sku, code: sku, title: `Product ${sku}` })),
					parameters: nodeParams('catalogRecord', 'add', {
						catalogId: rl(PRODUCTS),
						columns: definedColumns(mapping),
					}),
				}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.status)).toEqual(['added', 'added', 'added']);
		expect(Object.values(mapping).map(evaluations)).toEqual([3, 3, 3]);
	});

	test('the Columns mapper loads the catalog’s columns after a recordId field, each shown by its ID', async () => {
		const result = (await resourceMapping(f.store, 'getCatalogColumns', {
			catalogId: rl(PRODUCTS),
		})) as {
			fields: IDataObject[];
		};
		// n8n's Record ID From shows the chosen field's ID: every field's label is its ID.
		expect(result.fields.every((field) => field.displayName === field.id)).toBe(true);
		expect(result.fields.map((field) => [field.id, field.type, field.required])).toEqual([
			['recordId', 'string', true],
			['Code', 'string', true],
			['Name', 'string', true],
			['Price', 'number', false],
			['Stock', 'number', false],
			['ValidFrom', 'dateTime', false],
		]);
	});

	test('Add maps without matching (no Record ID From); its recordId notice shows under Map Automatically only', () => {
		const properties = new AbbyyVantage().description.properties.filter((p) =>
			p.displayOptions?.show?.operation?.some((o) => o === 'add' || o === 'sync'),
		);
		const columns = (operation: string) =>
			properties.find(
				(p) => p.name === 'columns' && p.displayOptions?.show?.operation?.includes(operation),
			)?.typeOptions?.resourceMapper;
		expect(columns('add')).toMatchObject({ mode: 'add' });
		expect(columns('add')?.matchingFieldsLabels).toBeUndefined();
		expect(columns('sync')).toMatchObject({
			mode: 'upsert',
			matchingFieldsLabels: { title: 'Record ID From' },
		});
		const notices = properties.filter((p) => p.name === 'recordIdNotice');
		expect(notices).toHaveLength(1);
		expect(notices[0].displayOptions?.show).toMatchObject({
			operation: ['add'],
			'/columns.mappingMode': ['autoMapInputData'],
		});
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
			`Added 0 of 1 record to catalog "${PRODUCTS}"; 1 failed, e.g. "bad-2": CannotBeEmpty Column: Name [item 0]`,
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

	test('batches of at most 5000; the record ID is always recordId (Add matches on nothing, whatever matchingColumns holds)', async () => {
		const items = Array.from({ length: 12001 }, (_, i) => ({
			recordId: `r${i}`,
			Code: `c${i}`,
			Name: `N${i}`,
		}));
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
		expect(f.sim.catalogRecord(PRODUCTS, 'r42')?.fields.Code).toEqual(['c42']);
		expect(f.sim.catalogRecord(PRODUCTS, 'c42')).toBeUndefined();
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
			/^The record ID \("recordId"\) is empty: "" \[item 0\]$/,
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

	describe('fields that are not columns of the catalog', () => {
		test('an auto-mapped field the catalog lacks is refused before any write, naming the fields and the item', async () => {
			const result = await runNode({
				credentials: f.store,
				items: [product('u1'), product('u2', { Colour: 'red', Weight: 3 })],
				parameters: recordParams('add', PRODUCTS),
			});
			expect(result.error?.message).toBe(
				'Fields "Colour", "Weight" are not columns of catalog "Products" [item 1]',
			);
			expect((result.error as { description?: string }).description).toContain(
				'Ignore Unknown Fields',
			);
			expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);
		});

		test('a mapped column the catalog no longer has is refused too, naming it', async () => {
			const result = await runNode({
				credentials: f.store,
				items: [{ sku: 'm9' }],
				parameters: nodeParams('catalogRecord', 'add', {
					catalogId: rl(PRODUCTS),
					columns: definedColumns({
						recordId: '={{ $json.sku }}',
						Code: '={{ $json.sku }}',
						Name: 'Nine',
						Discontinued: 'yes',
					}),
				}),
			});
			expect(result.error?.message).toBe(
				'Field "Discontinued" is not a column of catalog "Products" [item 0]',
			);
			expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);
		});

		test('with Ignore Unknown Fields they are left out and listed: per item, and in the summary', async () => {
			const items = [
				product('i1', { Colour: 'red' }),
				product('i2', { Colour: 'blue', Size: 'L' }),
			];
			const perItem = await runNode({
				credentials: f.store,
				items,
				parameters: recordParams('add', PRODUCTS, { options: { ignoreUnknownFields: true } }),
			});
			expect(perItem.error).toBeUndefined();
			expect(perItem.items.map((i) => [i.json.id, i.json.status, i.json.ignoredFields])).toEqual([
				['i1', 'added', ['Colour']],
				['i2', 'added', ['Colour', 'Size']],
			]);
			expect(f.sim.catalogRecord(PRODUCTS, 'i2')?.fields).not.toHaveProperty('Colour');
			const aggregate = await runNode({
				credentials: f.store,
				items,
				parameters: recordParams('add', PRODUCTS, {
					mode: 'aggregate',
					options: { ignoreUnknownFields: true },
				}),
			});
			expect(aggregate.items[0].json).toMatchObject({ ignoredFields: ['Colour', 'Size'] });
		});
	});

	test('the summary names the duplicate IDs and the items that lost, beside their count', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				product('d2', { Name: 'first' }),
				product('d3'),
				product('d2', { Name: 'second' }),
				product('d2', { Name: 'third' }),
			],
			parameters: recordParams('add', PRODUCTS, { mode: 'aggregate' }),
		});
		expect(result.items[0].json.duplicatesRemoved).toEqual({
			count: 2,
			ids: ['d2'],
			items: [
				{ item: 0, id: 'd2', keptItem: 3 },
				{ item: 2, id: 'd2', keptItem: 3 },
			],
		});
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

	test('Mode has the name, options and values of Delete’s Mode', () => {
		const modeOf = (operation: string) =>
			new AbbyyVantage().description.properties.find(
				(p) => p.name === 'mode' && p.displayOptions?.show?.operation?.includes(operation),
			);
		const add = modeOf('add');
		const remove = modeOf('delete');
		const shape = (p: typeof add) => ({
			displayName: p?.displayName,
			default: p?.default,
			options: (p?.options as Array<{ name: string; value: string }>).map(({ name, value }) => ({
				name,
				value,
			})),
		});
		expect(shape(add)).toEqual(shape(remove));
		expect(shape(add)).toEqual({
			displayName: 'Mode',
			default: 'perItem',
			options: [
				{ name: 'Aggregate All Items', value: 'aggregate' },
				{ name: 'Per Item', value: 'perItem' },
			],
		});
	});

	describe('Concurrency', () => {
		const many = ids('c', 0, 1000).map((id) => product(id));
		beforeEach(() => f.sim.setLatency(50));

		test('Auto (the default) has more than one batch in flight', async () => {
			const result = await runNode({
				credentials: f.store,
				items: many,
				parameters: recordParams('add', PRODUCTS, {
					mode: 'aggregate',
					options: { batchSize: 100 },
				}),
			});
			expect(result.items[0].json).toMatchObject({ added: 1000, failed: 0, batchesSent: 10 });
			expect(maxInFlight(f.sim.requestsTo('AddRecords'))).toBeGreaterThan(1);
		});

		test.each([1, 4])('pinned to %i: never more batches in flight', async (concurrency) => {
			const result = await runNode({
				credentials: f.store,
				items: many,
				parameters: recordParams('add', PRODUCTS, {
					mode: 'aggregate',
					options: { batchSize: 100, concurrency },
				}),
			});
			expect(result.items[0].json).toMatchObject({ added: 1000, failed: 0, batchesSent: 10 });
			// The first batch goes alone; then `concurrency` at a time, read from the simulator's log.
			expect(maxInFlight(f.sim.requestsTo('AddRecords'))).toBe(concurrency);
		});
	});

	describe('values n8n hands over from expressions', () => {
		test('JS Dates and Luxon DateTimes become the day in a Date column; numbers stay numbers', async () => {
			const result = await runNode({
				credentials: f.store,
				timezone: 'Europe/Berlin',
				items: [
					// Auto-mapped: the item's own values, as a Code node or an expression leaves them.
					product('js', { ValidFrom: new Date('2026-03-04T23:30:00.000Z'), Price: 12, Stock: -3 }),
					product('lux', {
						ValidFrom: DateTime.fromISO('2026-12-31T23:59:00', { zone: 'America/New_York' }),
						Price: 0.1,
						Stock: 2 ** 40,
					}),
					product('list', { ValidFrom: [new Date('2026-01-01T12:00:00Z')], Price: 1e21 }),
				],
				parameters: recordParams('add', PRODUCTS),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => i.json.status)).toEqual(['added', 'added', 'added']);
			expect(f.sim.catalogRecord(PRODUCTS, 'js')?.fields).toMatchObject({
				// 23:30 UTC is already the 5th in the workflow's time zone (Berlin).
				ValidFrom: ['2026-03-05'],
				Price: ['12'],
				Stock: ['-3'],
			});
			expect(f.sim.catalogRecord(PRODUCTS, 'lux')?.fields).toMatchObject({
				// A DateTime is read in its own zone: still the 31st in New York.
				ValidFrom: ['2026-12-31'],
				Price: ['0.1'],
				Stock: ['1099511627776'],
			});
			expect(f.sim.catalogRecord(PRODUCTS, 'list')?.fields).toMatchObject({
				ValidFrom: ['2026-01-01'],
				Price: ['1e+21'],
			});
		});

		test('expressions in manual mapping: $today, a Date and numbers', async () => {
			const today = DateTime.now().setZone('Asia/Tokyo').toISODate();
			const result = await runNode({
				credentials: f.store,
				timezone: 'Asia/Tokyo',
				items: [{ sku: 'e1' }],
				parameters: nodeParams('catalogRecord', 'add', {
					catalogId: rl(PRODUCTS),
					columns: definedColumns({
						recordId: '={{ $json.sku }}',
						Code: '={{ $json.sku }}',
						Name: 'From expressions',
						ValidFrom: '={{ $today }}',
						Price: '={{ 19.99 }}',
						Stock: '={{ 1 + 1 }}',
					}),
				}),
			});
			expect(result.error).toBeUndefined();
			expect(f.sim.catalogRecord(PRODUCTS, 'e1')?.fields).toMatchObject({
				ValidFrom: [today],
				Price: ['19.99'],
				Stock: ['2'],
			});
		});

		test('an invalid Date is refused naming the column', async () => {
			const result = await runNode({
				credentials: f.store,
				items: [product('bad-date', { ValidFrom: new Date('not a date') })],
				parameters: recordParams('add', PRODUCTS),
			});
			expect(result.error?.message).toBe(
				'Column "ValidFrom" of record "bad-date" is an invalid date [item 0]',
			);
			expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);
		});
	});

	describe('Vantage’s 500 000 records per catalog', () => {
		const seedUpTo = (count: number) =>
			f.sim.seedCatalogRecords(
				PRODUCTS,
				(function* () {
					for (let i = 0; i < count; i++) {
						yield { id: `s${i}`, fields: { Code: [`s${i}`], Name: ['Seeded'] } };
					}
				})(),
			);

		test('the records already in the catalog count: over the limit, nothing is sent', async () => {
			seedUpTo(499_998);
			const result = await runNode({
				credentials: f.store,
				items: [product('n1'), product('n2'), product('n3')],
				parameters: recordParams('add', PRODUCTS),
			});
			expect(result.error?.message).toBe(
				`Adding 3 records to catalog "${PRODUCTS}", which holds 499998, could take it to 500001 records, over Vantage’s limit of 500000 [item 2]`,
			);
			expect(String((result.error as { description?: string }).description)).toContain(
				'Use Sync, which reads it and counts exactly',
			);
			expect(f.sim.requestsTo('AddRecords')).toHaveLength(0);

			// Up to the limit exactly is allowed.
			const fits = await runNode({
				credentials: f.store,
				items: [product('n1'), product('n2')],
				parameters: recordParams('add', PRODUCTS, { mode: 'aggregate' }),
			});
			expect(fits.items[0].json).toMatchObject({ added: 2, failed: 0 });
			expect(f.sim.recordIds(PRODUCTS)).toHaveLength(500_000);
		}, 60_000);

		test('with Continue On Fail only the catalog over the limit is refused; the others are written', async () => {
			seedUpTo(499_999);
			f.sim.addCatalog('Small', [
				{ name: 'Code', type: 'Text', notEmpty: true },
				{ name: 'Name', type: 'Text', notEmpty: true },
			]);
			const result = await runNode({
				credentials: f.store,
				items: [
					{ catalog: PRODUCTS, ...product('p1') },
					{ catalog: 'Small', recordId: 's1', Code: 's1', Name: 'Small one' },
					{ catalog: PRODUCTS, ...product('p2') },
				],
				parameters: perItemCatalogParams('add'),
				continueOnFail: true,
			});
			expect(result.items.map((i) => [i.json.status ?? 'error', i.pairedItem])).toEqual([
				['error', [{ item: 0 }, { item: 2 }]],
				['added', { item: 1 }],
			]);
			expect(result.items[0].json.error).toMatch(/could take it to 500001 records/);
			expect(f.sim.recordIds('Small')).toEqual(['s1']);
			expect(f.sim.requestsTo('AddRecords').map((r) => r.params.catalogId)).toEqual(['Small']);
		}, 60_000);
	});

	describe('Vantage refuses existing IDs (upsert mode reject): only the existing rows are replaced', () => {
		beforeEach(() => {
			f.sim.setRecordUpsert('reject');
			f.sim.seedCatalogRecords(PRODUCTS, [
				{ id: 'old', fields: { Code: ['old'], Name: ['Stored'] } },
			]);
		});
		const items = [product('old', { Name: 'Renamed' }), product('new')];

		test('both rows of the batch are accounted for: the new one added, the existing one replaced', async () => {
			const result = await runNode({
				credentials: f.store,
				items,
				parameters: recordParams('add', PRODUCTS),
			});
			expect(result.items.map((i) => [i.json.id, i.json.status])).toEqual([
				['old', 'replaced'],
				['new', 'added'],
			]);
			expect(f.sim.catalogRecord(PRODUCTS, 'old')?.fields.Name).toEqual(['Renamed']);
		});

		test('a failed delete fails only the existing row, which stays as it was', async () => {
			faultAfter(f.sim, 'DeleteRecords', 0, REJECTION);
			const result = await runNode({
				credentials: f.store,
				items,
				parameters: recordParams('add', PRODUCTS),
				continueOnFail: true,
			});
			expect(result.items.map((i) => [i.json.id, i.json.status])).toEqual([
				['old', 'failed'],
				['new', 'added'],
			]);
			expect(result.items[0].json.reasons).toEqual([
				'RecordAlreadyExists Id: old',
				expect.stringMatching(/^Deleting it to add it again failed: .*Simulated rejection/),
			]);
			expect(f.sim.catalogRecord(PRODUCTS, 'old')?.fields.Name).toEqual(['Stored']);
			expect(f.sim.catalogRecord(PRODUCTS, 'new')).toBeDefined();
		});

		test('a refused second add says the row was deleted; the new row still counts as added', async () => {
			// The first AddRecords passes; the second (adding the existing row again) is refused.
			faultAfter(f.sim, 'AddRecords', 1, REJECTION);
			const result = await runNode({
				credentials: f.store,
				items,
				parameters: recordParams('add', PRODUCTS, { mode: 'aggregate' }),
				continueOnFail: true,
			});
			expect(result.items[0].json).toMatchObject({
				added: 1,
				replaced: 0,
				failed: 1,
				failedRecords: [
					{
						id: 'old',
						item: 0,
						reasons: [
							'RecordAlreadyExists Id: old',
							expect.stringMatching(
								/^It was deleted to be added again, and adding it again failed: .*Simulated rejection/,
							),
						],
					},
				],
				failedBatches: [expect.objectContaining({ ids: ['old'], step: 'replace' })],
			});
			expect(f.sim.recordIds(PRODUCTS)).toEqual(['new']);
		});

		test('a passing failure while replacing is retried at the end; the new row is not "replaced"', async () => {
			// Four 503s: more than the request's own retries (3), so the batch fails and is sent
			// again at the end of the run.
			faultAfter(f.sim, 'AddRecords', 1, { kind: 'status', status: 503 }, 4);
			const result = await runNode({
				credentials: f.store,
				items,
				parameters: recordParams('add', PRODUCTS, FAST_RETRIES),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => [i.json.id, i.json.status])).toEqual([
				['old', 'replaced'],
				['new', 'added'],
			]);
			expect(f.sim.catalogRecord(PRODUCTS, 'old')?.fields.Name).toEqual(['Renamed']);
			// First add (both rows); delete + add of the existing row, refused four times; again at the end.
			expect(
				f.sim
					.requestsTo('AddRecords')
					.map((r) => [(r.body as Array<{ id: string }>).map((x) => x.id), r.status]),
			).toEqual([
				[['old', 'new'], 200],
				...Array.from({ length: 4 }, () => [['old'], 503]),
				[['old'], 200],
			]);
		});
	});
});
