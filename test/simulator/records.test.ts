import { api, token } from '../helpers/http';
import { FIXTURE, VantageSimulator } from './simulator';
import { CATALOGS, problemOf, useRawSimulator } from './testkit';

const s = useRawSimulator();

const PRODUCTS = `${CATALOGS}/${FIXTURE.productCatalogId}`;
const add = async (records: unknown, path = PRODUCTS) =>
	await api(s.sim, s.bearer, 'POST', `${path}/records`, records);
const product = (id: string, extra: Record<string, string[]> = {}) => ({
	id,
	fields: { Code: [id.toUpperCase()], Name: [`Product ${id}`], ...extra },
});

describe('AddRecords', () => {
	test('the Products fixture catalog has one column of each type and no records', async () => {
		const res = await api(s.sim, s.bearer, 'GET', PRODUCTS);
		expect(res.json).toEqual({
			id: 'Products',
			name: 'Products',
			columns: [
				{ name: 'Code', type: 'Text', notEmpty: true },
				{ name: 'Name', type: 'Text', notEmpty: true },
				{ name: 'Price', type: 'Double', notEmpty: false },
				{ name: 'Stock', type: 'Integer', notEmpty: false },
				{ name: 'ValidFrom', type: 'Date', notEmpty: false },
			],
			rowCount: 0,
		});
		expect(s.sim.catalogColumns(FIXTURE.productCatalogId)).toHaveLength(5);
	});

	test('valid rows are inserted as sent, several values and empty strings included', async () => {
		const full = product('p1', {
			Price: ['12.5'],
			Stock: ['-3'],
			ValidFrom: ['2026-01-31'],
		});
		const multi = product('p2', { Name: ['Widget', 'Gadget'], Price: [''], Stock: [] });
		const res = await add([full, multi]);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({ insertedRowCount: 2, errorRows: {} });
		expect(s.sim.catalogRecord(FIXTURE.productCatalogId, 'p1')).toEqual(full);
		expect(s.sim.catalogRecords(FIXTURE.productCatalogId)).toEqual([full, multi]);
		expect(s.sim.createdCounts().recordsAdded).toBe(2);
		expect((await api(s.sim, s.bearer, 'GET', PRODUCTS)).json).toMatchObject({ rowCount: 2 });
	});

	test('rejected rows answer 200 with their reasons; the other rows are inserted', async () => {
		const res = await add([
			{ id: 'missing', fields: { Code: ['M'] } },
			{ id: 'blank', fields: { Code: ['', ''], Name: ['B'] } },
			product('unknown', { Colour: ['red'], colour: ['blue'] }),
			product('ok'),
			product('long', { Name: ['x'.repeat(257)] }),
			product('edge', { Name: ['x'.repeat(256)] }),
			product('price', { Price: ['12,5'] }),
			{ id: 'many', fields: { Code: [''], Stock: ['1.5'], Extra: ['?'] } },
		]);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			insertedRowCount: 2,
			errorRows: {
				missing: ['CannotBeEmpty Column: Name'],
				blank: ['CannotBeEmpty Column: Code'],
				unknown: ['UnknownColumn Column: Colour', 'UnknownColumn Column: colour'],
				long: ['ValueTooLong Column: Name'],
				price: ['InvalidValue Column: Price'],
				many: [
					'UnknownColumn Column: Extra',
					'CannotBeEmpty Column: Code',
					'CannotBeEmpty Column: Name',
					'InvalidValue Column: Stock',
				],
			},
		});
		expect(s.sim.recordIds(FIXTURE.productCatalogId)).toEqual(['ok', 'edge']);
	});

	test.each([
		['Price', ['12.5', '-3', '+0.25', '.5', '7.', '1e3', '-2.5E-4', '0']],
		['Stock', ['0', '-3', '+42', '9223372036854775807', '-9223372036854775808']],
		[
			'ValidFrom',
			[
				'2026-01-31',
				'2024-02-29',
				'2026-01-31T12:00',
				'2026-01-31T12:00:00Z',
				'2026-01-31T23:59:59.1234567+02:00',
			],
		],
	])('%s accepts %j', async (column, values) => {
		const res = await add(values.map((v, i) => product(`v${i}`, { [column]: [v] })));
		expect(res.json).toEqual({ insertedRowCount: values.length, errorRows: {} });
	});

	test.each([
		['Price', ['12,5', '1,000.5', 'abc', '1.2.3', 'NaN', 'Infinity', '1e999', ' 1', '0x10', '€5']],
		['Stock', ['1.5', '1e3', '1,000', '9223372036854775808', 'ten', '12 ', '-']],
		[
			'ValidFrom',
			[
				'31.01.2026',
				'01/31/2026',
				'2026-1-31',
				'2026-02-30',
				'2025-02-29',
				'2026-13-01',
				'2026-00-10',
				'2026-01-31T24:00',
				'2026-01-31T12:60',
				'tomorrow',
			],
		],
	])('%s rejects %j as InvalidValue', async (column, values) => {
		const res = await add(values.map((v, i) => product(`v${i}`, { [column]: [v] })));
		expect(res.json).toEqual({
			insertedRowCount: 0,
			errorRows: Object.fromEntries(
				values.map((_, i) => [`v${i}`, [`InvalidValue Column: ${column}`]]),
			),
		});
	});

	test('an id twice in one request: the second occurrence is rejected', async () => {
		const res = await add([
			product('a'),
			product('a', { Price: ['2'] }),
			{ id: 'b', fields: {} },
			product('b'),
		]);
		expect(res.json).toEqual({
			insertedRowCount: 1,
			errorRows: {
				a: ['DuplicateRecordId Id: a'],
				b: ['CannotBeEmpty Column: Code', 'CannotBeEmpty Column: Name', 'DuplicateRecordId Id: b'],
			},
		});
		expect(s.sim.catalogRecords(FIXTURE.productCatalogId)).toEqual([product('a')]);
	});

	test("upsert 'replace' (default): an existing id is replaced in place and counted", async () => {
		await add([product('a'), product('b'), product('c')]);
		const res = await add([product('b', { Price: ['9.99'] }), product('d')]);
		expect(res.json).toEqual({ insertedRowCount: 2, errorRows: {} });
		expect(s.sim.recordIds(FIXTURE.productCatalogId)).toEqual(['a', 'b', 'c', 'd']);
		expect(s.sim.catalogRecord(FIXTURE.productCatalogId, 'b')?.fields.Price).toEqual(['9.99']);
		expect(s.sim.createdCounts().recordsAdded).toBe(5);
		// A rejected replacement leaves the stored record alone.
		await add([product('b', { Stock: ['many'] })]);
		expect(s.sim.catalogRecord(FIXTURE.productCatalogId, 'b')?.fields.Price).toEqual(['9.99']);
	});

	test("upsert 'reject': an existing id is reported and the stored record is unchanged", async () => {
		await add([product('a', { Price: ['1'] })]);
		s.sim.setRecordUpsert('reject');
		const res = await add([product('a', { Price: ['2'] }), product('b')]);
		expect(res.json).toEqual({
			insertedRowCount: 1,
			errorRows: { a: ['RecordAlreadyExists Id: a'] },
		});
		expect(s.sim.catalogRecord(FIXTURE.productCatalogId, 'a')?.fields.Price).toEqual(['1']);
		// Field errors come first; a deleted id can be added again.
		expect((await add([{ id: 'a', fields: { Code: ['A'] } }])).json).toEqual({
			insertedRowCount: 0,
			errorRows: { a: ['CannotBeEmpty Column: Name', 'RecordAlreadyExists Id: a'] },
		});
		await api(s.sim, s.bearer, 'POST', `${PRODUCTS}/records/delete`, ['a']);
		expect((await add([product('a')])).json).toEqual({ insertedRowCount: 1, errorRows: {} });
		expect(s.sim.recordIds(FIXTURE.productCatalogId)).toEqual(['b', 'a']);
		s.sim.setRecordUpsert('replace');
		expect((await add([product('a')])).json).toEqual({ insertedRowCount: 1, errorRows: {} });
	});

	test('the record limit: rows beyond it are CatalogIsFull; replacements still go in', async () => {
		s.sim.setMaxRecordsPerCatalog(3);
		await add([product('a')]);
		const res = await add([product('b'), product('c'), product('d'), product('a'), product('e')]);
		expect(res.json).toEqual({
			insertedRowCount: 3,
			errorRows: { d: ['CatalogIsFull'], e: ['CatalogIsFull'] },
		});
		expect((await api(s.sim, s.bearer, 'GET', PRODUCTS)).json).toMatchObject({ rowCount: 3 });
		// Field errors are reported instead: the row would not have gone in anyway.
		expect((await add([{ id: 'f', fields: {} }])).json).toMatchObject({
			errorRows: { f: ['CannotBeEmpty Column: Code', 'CannotBeEmpty Column: Name'] },
		});
		await api(s.sim, s.bearer, 'POST', `${PRODUCTS}/records/delete`, ['b']);
		expect((await add([product('d'), product('e')])).json).toEqual({
			insertedRowCount: 1,
			errorRows: { e: ['CatalogIsFull'] },
		});
		expect(s.sim.recordIds(FIXTURE.productCatalogId)).toEqual(['a', 'c', 'd']);
	});

	test('the vendor limit: 500 000 records per catalog by default', async () => {
		s.sim.seedCatalogRecords(
			FIXTURE.productCatalogId,
			(function* () {
				for (let i = 0; i < 499_999; i++) yield product(`s${i}`);
			})(),
		);
		expect((await add([product('last'), product('over')])).json).toEqual({
			insertedRowCount: 1,
			errorRows: { over: ['CatalogIsFull'] },
		});
		expect((await api(s.sim, s.bearer, 'GET', PRODUCTS)).json).toMatchObject({ rowCount: 500_000 });
	});

	test('the limit and the upsert mode are simulator options too', async () => {
		const sim = new VantageSimulator({ maxRecordsPerCatalog: 1, recordUpsert: 'reject' });
		await sim.start();
		try {
			expect(sim.options).toMatchObject({ maxRecordsPerCatalog: 1, recordUpsert: 'reject' });
			const bearer = await token(sim);
			const post = async (body: unknown) =>
				(await api(sim, bearer, 'POST', `${PRODUCTS}/records`, body)).json;
			expect(await post([product('a'), product('b')])).toEqual({
				insertedRowCount: 1,
				errorRows: { b: ['CatalogIsFull'] },
			});
			expect(await post([product('a')])).toEqual({
				insertedRowCount: 0,
				errorRows: { a: ['RecordAlreadyExists Id: a'] },
			});
		} finally {
			await sim.stop();
		}
		expect(new VantageSimulator().options).toMatchObject({
			maxRecordsPerCatalog: 500000,
			recordUpsert: 'replace',
		});
	});

	test.each([[0], [5001]])('%i records: 400 "Wrong number of records"', async (count) => {
		const res = await add(Array.from({ length: count }, (_, i) => product(`p${i}`)));
		expect(res.status).toBe(400);
		expect(problemOf(res)).toMatchObject({
			title: 'One or more validation errors occurred.',
			errors: { $: ['Wrong number of records: send 1 to 5000.'] },
		});
	});

	test.each([
		['an empty array', []],
		['5001 records', Array.from({ length: 5001 }, (_, i) => product(`p${i}`))],
		['an empty id', [{ id: '', fields: { Code: ['A'], Name: ['A'] } }]],
		['no id', [{ fields: { Code: ['A'], Name: ['A'] } }]],
		['no fields', [{ id: 'p1' }]],
		['an extra property', [{ ...product('p1'), name: 'x' }]],
		['a value that is not a list', [{ id: 'p1', fields: { Code: 'A', Name: ['A'] } }]],
		['a number value', [{ id: 'p1', fields: { Code: [1], Name: ['A'] } }]],
		['an object, not a list', { records: [product('p1')] }],
	])('rejects %s with a 400 validation problem and adds nothing', async (_name, body) => {
		const res = await add(body);
		expect(res.status).toBe(400);
		expect(problemOf(res)).toMatchObject({
			title: 'One or more validation errors occurred.',
			status: 400,
			errors: expect.any(Object),
		});
		expect(s.sim.recordIds(FIXTURE.productCatalogId)).toEqual([]);
	});

	test('5000 records in one request; unknown catalog 404, wrong media type 415', async () => {
		const many = Array.from({ length: 5000 }, (_, i) => product(`p${i}`));
		expect((await add(many)).json).toEqual({ insertedRowCount: 5000, errorRows: {} });
		const missing = await add([product('x')], `${CATALOGS}/Nope`);
		expect(missing.status).toBe(404);
		expect(problemOf(missing)).toMatchObject({ status: 404, detail: 'Catalog not found' });
		const text = await api(s.sim, s.bearer, 'POST', `${PRODUCTS}/records`, '[]', {
			'content-type': 'text/plain',
		});
		expect(text.status).toBe(415);
		expect(s.sim.requests.at(-1)).toMatchObject({
			route: 'AddRecords',
			params: { catalogId: 'Products' },
		});
	});
});
