import { api } from '../helpers/http';
import type { StoredRecord } from './simulator';
import { CATALOGS, problemOf, useRawSimulator } from './testkit';

const s = useRawSimulator();

const NAME = 'Suppliers / 100% "EU"';
const PATH = `${CATALOGS}/${encodeURIComponent(NAME)}`;
const record = (i: number): StoredRecord => ({ id: `r${i}`, fields: { Name: [`N${i}`] } });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const page = async (query = '') => {
	const res = await api(s.sim, s.bearer, 'GET', `${PATH}/records${query}`);
	expect(res.status).toBe(200);
	return (res.json as StoredRecord[]).map((r) => r.id);
};

describe('GetRecords and GetRecord', () => {
	beforeEach(() => s.sim.addCatalog(NAME));

	test('pages in insertion order: default limit 1000, offset past the end gives []', async () => {
		s.sim.seedCatalogRecords(NAME, range(0, 2500).map(record));
		const first = await api(s.sim, s.bearer, 'GET', `${PATH}/records`);
		expect(first.json).toHaveLength(1000);
		expect((first.json as StoredRecord[])[0]).toEqual({ id: 'r0', fields: { Name: ['N0'] } });
		expect(await page('?offset=2000')).toEqual(range(2000, 2500).map((i) => `r${i}`));
		expect(await page('?offset=10&limit=3')).toEqual(['r10', 'r11', 'r12']);
		expect(await page('?Offset=2499&LIMIT=1000')).toEqual(['r2499']);
		expect(await page('?offset=2500')).toEqual([]);
		expect(await page('?offset=2147483647&limit=1')).toEqual([]);
		expect(await page('?offset=&limit=')).toHaveLength(1000);
	});

	test.each([
		['limit=0', 'limit'],
		['limit=1001', 'limit'],
		['limit=-1', 'limit'],
		['offset=-1', 'offset'],
		['offset=abc', 'offset'],
		['limit=1.5', 'limit'],
		['limit=2147483648', 'limit'],
	])('?%s: 400 validation problem naming %s', async (query, key) => {
		const res = await api(s.sim, s.bearer, 'GET', `${PATH}/records?${query}`);
		expect(res.status).toBe(400);
		expect(problemOf(res)).toMatchObject({
			title: 'One or more validation errors occurred.',
			errors: { [key]: [expect.any(String)] },
		});
	});

	test('order after deletes, replacements and re-adds; rowCount stays exact', async () => {
		s.sim.seedCatalogRecords(NAME, range(0, 10).map(record));
		await api(s.sim, s.bearer, 'POST', `${PATH}/records/delete`, ['r0', 'r3', 'r4', 'r9', 'zz']);
		const res = await api(s.sim, s.bearer, 'POST', `${PATH}/records`, [
			{ id: 'r5', fields: { Name: ['five'] } },
			{ id: 'r3', fields: { Name: ['three again'] } },
			{ id: 'new', fields: { Name: ['new'] } },
		]);
		expect(res.json).toEqual({ insertedRowCount: 3, errorRows: {} });
		const ids = ['r1', 'r2', 'r5', 'r6', 'r7', 'r8', 'r3', 'new'];
		expect(await page()).toEqual(ids);
		expect(await page('?offset=1&limit=3')).toEqual(['r2', 'r5', 'r6']);
		expect(await page('?offset=6&limit=5')).toEqual(['r3', 'new']);
		expect(s.sim.recordIds(NAME)).toEqual(ids);
		expect((await api(s.sim, s.bearer, 'GET', PATH)).json).toMatchObject({ rowCount: 8 });
		const five = await api(s.sim, s.bearer, 'GET', `${PATH}/records/r5`);
		expect(five.json).toEqual({ id: 'r5', fields: { Name: ['five'] } });
	});

	test('GetRecord: ids are one encoded path segment; unknown record or catalog 404', async () => {
		const odd = 'a/b ?#%"é';
		s.sim.seedRecords(NAME, [odd, 'delete']);
		const res = await api(s.sim, s.bearer, 'GET', `${PATH}/records/${encodeURIComponent(odd)}`);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({ id: odd, fields: { Name: [odd] } });
		expect(s.sim.requests.at(-1)).toMatchObject({
			route: 'GetRecord',
			params: { catalogId: NAME, recordId: odd },
		});
		// GET …/records/delete is the record named "delete"; POST deletes.
		expect((await api(s.sim, s.bearer, 'GET', `${PATH}/records/delete`)).json).toEqual({
			id: 'delete',
			fields: { Name: ['delete'] },
		});
		const missing = await api(s.sim, s.bearer, 'GET', `${PATH}/records/nope`);
		expect(missing.status).toBe(404);
		expect(problemOf(missing)).toMatchObject({ status: 404, detail: 'Record not found' });
		const noCatalog = await api(s.sim, s.bearer, 'GET', `${CATALOGS}/Nope/records/delete`);
		expect(problemOf(noCatalog)).toMatchObject({ status: 404, detail: 'Catalog not found' });
		expect((await api(s.sim, s.bearer, 'GET', `${CATALOGS}/Nope/records`)).status).toBe(404);
	});

	test('a 200 000-record catalog pages correctly at any offset, also after mass deletes', async () => {
		s.sim.seedCatalogRecords(NAME, range(0, 200_000).map(record));
		expect(await page('?offset=199999')).toEqual(['r199999']);
		expect(await page('?offset=150000&limit=2')).toEqual(['r150000', 'r150001']);
		// Delete every even record below 100 000, in batches of 5000 as clients do.
		const even = range(0, 50_000).map((i) => `r${i * 2}`);
		for (let i = 0; i < even.length; i += 5000) {
			const res = await api(
				s.sim,
				s.bearer,
				'POST',
				`${PATH}/records/delete`,
				even.slice(i, i + 5000),
			);
			expect(res.status).toBe(200);
		}
		expect((await api(s.sim, s.bearer, 'GET', PATH)).json).toMatchObject({ rowCount: 150_000 });
		expect(await page('?offset=0&limit=3')).toEqual(['r1', 'r3', 'r5']);
		expect(await page('?offset=49999&limit=3')).toEqual(['r99999', 'r100000', 'r100001']);
		expect(await page('?offset=149999')).toEqual(['r199999']);
	});
});
