import { api } from '../helpers/http';
import { FIXTURE } from './simulator';
import { CATALOGS, problemOf, randomId, useRawSimulator } from './testkit';

const s = useRawSimulator();

describe('catalogs', () => {
	const weird = 'Vendors / EU 2026';
	const enc = (id: string) => `${CATALOGS}/${encodeURIComponent(id)}`;

	beforeEach(() => {
		s.sim.addCatalog(weird);
		s.sim.seedRecords(weird, ['r1', 'r2', 'r3', 'r/4?#%"é']);
	});

	test('list and get; catalog ids are names with spaces and slashes, sent as one encoded segment', async () => {
		const list = await api(s.sim, s.bearer, 'GET', CATALOGS);
		expect(list.json).toEqual(expect.arrayContaining([{ id: weird, name: weird }]));
		const one = await api(s.sim, s.bearer, 'GET', enc(weird));
		expect(one.json).toMatchObject({ id: weird, rowCount: 4 });
		// The same name with its `/` left raw is another path: not found.
		expect((await api(s.sim, s.bearer, 'GET', `${CATALOGS}/Vendors%20/%20EU%202026`)).status).toBe(
			404,
		);
		expect((await api(s.sim, s.bearer, 'GET', enc('nope'))).status).toBe(404);
		expect(s.sim.requests.at(-1)?.params).toEqual({ catalogId: 'nope' });
	});

	test('the fixture catalogs; GetCatalog gives the columns and the exact rowCount', async () => {
		const list = await api(s.sim, s.bearer, 'GET', CATALOGS);
		expect(list.json).toEqual([
			{ id: FIXTURE.catalogId, name: FIXTURE.catalogId },
			{ id: FIXTURE.productCatalogId, name: FIXTURE.productCatalogId },
			{ id: weird, name: weird },
		]);
		expect((await api(s.sim, s.bearer, 'GET', enc(weird))).json).toEqual({
			id: weird,
			name: weird,
			columns: [
				{ name: 'Name', type: 'Text', notEmpty: true },
				{ name: 'Country', type: 'Text', notEmpty: false },
			],
			rowCount: 4,
		});
		await api(s.sim, s.bearer, 'POST', `${enc(weird)}/records/delete`, ['r1', 'r1', 'nope']);
		expect((await api(s.sim, s.bearer, 'GET', enc(weird))).json).toMatchObject({ rowCount: 3 });
		// Adding a catalog again replaces it, records dropped.
		s.sim.addCatalog(weird, [{ name: 'Code', type: 'Integer', notEmpty: true }]);
		expect((await api(s.sim, s.bearer, 'GET', enc(weird))).json).toMatchObject({
			columns: [{ name: 'Code', type: 'Integer', notEmpty: true }],
			rowCount: 0,
		});
	});

	test('clear: 200 with an empty body, every record gone, the columns kept', async () => {
		const res = await api(s.sim, s.bearer, 'POST', `${enc(weird)}/clear`);
		expect(res.status).toBe(200);
		expect(res.text).toBe('');
		expect(s.sim.recordIds(weird)).toEqual([]);
		expect((await api(s.sim, s.bearer, 'GET', enc(weird))).json).toMatchObject({
			rowCount: 0,
			columns: [{ name: 'Name' }, { name: 'Country' }],
		});
		expect((await api(s.sim, s.bearer, 'GET', `${enc(weird)}/records`)).json).toEqual([]);
		expect(s.sim.requests.at(-3)).toMatchObject({
			route: 'ClearCatalog',
			params: { catalogId: weird },
		});
		// Clearing an empty catalog is fine; the catalog takes records again.
		expect((await api(s.sim, s.bearer, 'POST', `${enc(weird)}/clear`)).status).toBe(200);
		const added = await api(s.sim, s.bearer, 'POST', `${enc(weird)}/records`, [
			{ id: 'r1', fields: { Name: ['again'] } },
		]);
		expect(added.json).toEqual({ insertedRowCount: 1, errorRows: {} });
		expect(s.sim.catalogRecords(weird)).toEqual([{ id: 'r1', fields: { Name: ['again'] } }]);
		// Other catalogs are untouched.
		s.sim.seedRecords(FIXTURE.catalogId, ['v1']);
		await api(s.sim, s.bearer, 'POST', `${enc(weird)}/clear`);
		expect(s.sim.recordIds(FIXTURE.catalogId)).toEqual(['v1']);
	});

	test('clear: unknown catalog 404, nothing cleared', async () => {
		const res = await api(s.sim, s.bearer, 'POST', `${enc('Vendors / EU')}/clear`);
		expect(res.status).toBe(404);
		expect(problemOf(res)).toMatchObject({ status: 404, detail: 'Catalog not found' });
		expect(s.sim.recordIds(weird)).toHaveLength(4);
	});

	test('delete records: 200 with an empty body, unknown ids ignored', async () => {
		const res = await api(s.sim, s.bearer, 'POST', `${enc(weird)}/records/delete`, [
			'r1',
			'missing',
			'r/4?#%"é',
		]);
		expect(res.status).toBe(200);
		expect(res.text).toBe('');
		expect(s.sim.recordIds(weird)).toEqual(['r2', 'r3']);
		expect(s.sim.requests.at(-1)).toMatchObject({
			route: 'DeleteRecords',
			params: { catalogId: weird },
			body: ['r1', 'missing', 'r/4?#%"é'],
		});
	});

	test.each([
		['an empty array', []],
		['5001 ids', Array.from({ length: 5001 }, (_, i) => `id${i}`)],
		['a number', ['r1', 5]],
		['a nested array', [['r1']]],
		['an object', { ids: ['r1'] }],
		['a null', [null]],
	])('delete records rejects %s with 400 and deletes nothing', async (_name, body) => {
		const res = await api(s.sim, s.bearer, 'POST', `${enc(weird)}/records/delete`, body);
		expect(res.status).toBe(400);
		expect(problemOf(res)).toMatchObject({
			title: 'One or more validation errors occurred.',
			status: 400,
		});
		expect(s.sim.recordIds(weird)).toHaveLength(4);
	});

	test('delete records accepts exactly 5000 ids', async () => {
		const ids = Array.from({ length: 5000 }, (_, i) => `id${i}`);
		expect((await api(s.sim, s.bearer, 'POST', `${enc(weird)}/records/delete`, ids)).status).toBe(
			200,
		);
	});

	test('delete records: unknown catalog 404, wrong media type 415, empty body 400, bad JSON 400', async () => {
		expect(
			(await api(s.sim, s.bearer, 'POST', `${enc('nope')}/records/delete`, ['r1'])).status,
		).toBe(404);
		const url = `${enc(weird)}/records/delete`;
		expect(
			(await api(s.sim, s.bearer, 'POST', url, '["r1"]', { 'content-type': 'text/plain' })).status,
		).toBe(415);
		expect(
			(
				await api(s.sim, s.bearer, 'POST', url, '["r1"]', {
					'content-type': 'application/json-patch+json',
				})
			).status,
		).toBe(200);
		expect(
			(await api(s.sim, s.bearer, 'POST', url, '', { 'content-type': 'application/json' })).status,
		).toBe(400);
		expect((await api(s.sim, s.bearer, 'POST', url, '["r2"', {})).status).toBe(400);
	});

	test('add records reports rejected rows with 200; get records pages', async () => {
		const res = await api(s.sim, s.bearer, 'POST', `${enc(weird)}/records`, [
			{ id: 'n1', fields: { Name: ['ACME'] } },
			{ id: 'n2', fields: { Name: [''] } },
			{ id: 'n3', fields: { Name: ['X'], Colour: ['red'] } },
		]);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			insertedRowCount: 1,
			errorRows: { n2: ['CannotBeEmpty Column: Name'], n3: ['UnknownColumn Column: Colour'] },
		});
		const page = await api(s.sim, s.bearer, 'GET', `${enc(weird)}/records?offset=4&limit=10`);
		expect(page.json).toEqual([{ id: 'n1', fields: { Name: ['ACME'] } }]);
		expect((await api(s.sim, s.bearer, 'GET', `${enc(weird)}/records?limit=1001`)).status).toBe(
			400,
		);
		expect(
			(await api(s.sim, s.bearer, 'POST', `${enc(weird)}/records`, [{ id: '', fields: {} }]))
				.status,
		).toBe(400);
	});

	test('reindex: InProgress → Completed, scripted Failed, unknown operation 404', async () => {
		const started = await api(s.sim, s.bearer, 'POST', `${enc(weird)}/reindex`);
		expect(started.status).toBe(200);
		const op = started.json as { id: string; currentState: string };
		expect(op.currentState).toBe('InProgress');
		const first = await api(s.sim, s.bearer, 'GET', `${enc(weird)}/reindex/${op.id}`);
		expect(first.json).toMatchObject({ currentState: 'InProgress', completed: null });
		const second = await api(s.sim, s.bearer, 'GET', `${enc(weird)}/reindex/${op.id}`);
		expect(second.json).toMatchObject({ currentState: 'Completed', completed: expect.any(String) });

		s.sim.scriptNextReindex({ outcome: 'Failed', after: { polls: 0 } });
		const failing = (await api(s.sim, s.bearer, 'POST', `${enc(weird)}/reindex`)).json as {
			id: string;
		};
		expect(
			(await api(s.sim, s.bearer, 'GET', `${enc(weird)}/reindex/${failing.id}`)).json,
		).toMatchObject({ currentState: 'Failed' });

		expect((await api(s.sim, s.bearer, 'GET', `${enc(weird)}/reindex/${randomId()}`)).status).toBe(
			404,
		);
		expect((await api(s.sim, s.bearer, 'GET', `${enc('Vendors')}/reindex/${op.id}`)).status).toBe(
			404,
		);
	});
});
