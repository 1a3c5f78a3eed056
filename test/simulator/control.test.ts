import { sleep } from 'n8n-workflow';

import { api, raw, requestToken } from '../helpers/http';
import { CATALOGS, useRawSimulator } from './testkit';

const s = useRawSimulator();

describe('HTTP control API (for other processes)', () => {
	test('inject a fault, read the log, revoke tokens, script an export', async () => {
		await raw(`${s.sim.url}/__simulator/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				route: 'GetCatalogs',
				fault: { kind: 'status', status: 429, retryAfter: '2' },
				times: 'always',
			}),
		});
		expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).status).toBe(429);
		expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).status).toBe(429);
		await raw(`${s.sim.url}/__simulator/faults`, { method: 'DELETE' });
		expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).status).toBe(200);

		const log = (await raw(`${s.sim.url}/__simulator/requests`)).json as Array<{ route: string }>;
		expect(log.map((r) => r.route)).toEqual(['GetCatalogs', 'GetCatalogs', 'GetCatalogs']);

		await raw(`${s.sim.url}/__simulator/revoke-tokens`, { method: 'POST' });
		expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).status).toBe(401);
	});

	test('token lifetime: tokens issued afterwards expire after it (401); a bad value is refused', async () => {
		const lifetime = async (seconds: unknown) =>
			await raw(`${s.sim.url}/__simulator/token-lifetime`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ seconds }),
			});
		expect((await lifetime(1.5)).status).toBe(400);
		expect((await lifetime(-1)).status).toBe(400);
		expect((await lifetime(1)).status).toBe(200);
		const issued = await requestToken(s.sim);
		expect((issued.json as { expires_in: number }).expires_in).toBe(1);
		const bearer = (issued.json as { access_token: string }).access_token;
		expect((await api(s.sim, bearer, 'GET', CATALOGS)).status).toBe(200);
		await sleep(1100);
		expect((await api(s.sim, bearer, 'GET', CATALOGS)).status).toBe(401);
		// The token issued before keeps the lifetime it was issued with.
		expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).status).toBe(200);
	});
});

describe('HTTP control API: catalogs', () => {
	const control = async (method: string, path: string, body?: unknown) =>
		await raw(`${s.sim.url}/__simulator/${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});

	test('add a catalog with columns and records; state reports each record count', async () => {
		const columns = [
			{ name: 'Sku', type: 'Text', notEmpty: true },
			{ name: 'Weight', type: 'Double', notEmpty: false },
		];
		const records = [
			{ id: 'a', fields: { Sku: ['A-1'], Weight: ['1.5'] } },
			{ id: 'b', fields: { Sku: ['B-2'] } },
		];
		const res = await control('POST', 'catalogs', { name: 'Parts / 2026', columns, records });
		expect(res.status).toBe(200);
		expect(s.sim.catalogColumns('Parts / 2026')).toEqual(columns);
		expect(s.sim.catalogRecords('Parts / 2026')).toEqual(records);
		await control('POST', 'catalogs', { name: 'Ids', recordIds: ['x', 'y', 'z'] });
		expect(s.sim.catalogRecord('Ids', 'y')).toEqual({ id: 'y', fields: { Name: ['y'] } });
		const state = (await control('GET', 'state')).json as {
			catalogs: Array<{ id: string; recordCount: number }>;
		};
		expect(state.catalogs).toEqual([
			{ id: 'Vendors', recordCount: 0 },
			{ id: 'Products', recordCount: 0 },
			{ id: 'Parts / 2026', recordCount: 2 },
			{ id: 'Ids', recordCount: 3 },
		]);
	});

	test('record upsert mode and the record limit', async () => {
		const path = `${CATALOGS}/Products/records`;
		const row = (id: string) => ({ id, fields: { Code: [id], Name: [id] } });
		expect((await control('POST', 'record-upsert', { mode: 'reject' })).status).toBe(200);
		expect(s.sim.options.recordUpsert).toBe('reject');
		await api(s.sim, s.bearer, 'POST', path, [row('a')]);
		expect((await api(s.sim, s.bearer, 'POST', path, [row('a')])).json).toEqual({
			insertedRowCount: 0,
			errorRows: { a: ['RecordAlreadyExists Id: a'] },
		});
		expect((await control('POST', 'record-upsert', { mode: 'merge' })).status).toBe(400);
		expect(s.sim.options.recordUpsert).toBe('reject');
		await control('POST', 'record-upsert', { mode: 'replace' });
		expect(s.sim.options.recordUpsert).toBe('replace');

		expect((await control('POST', 'max-records-per-catalog', { max: 1 })).status).toBe(200);
		expect((await api(s.sim, s.bearer, 'POST', path, [row('b')])).json).toEqual({
			insertedRowCount: 0,
			errorRows: { b: ['CatalogIsFull'] },
		});
		expect((await control('POST', 'max-records-per-catalog', { max: 'lots' })).status).toBe(400);
		expect(s.sim.options.maxRecordsPerCatalog).toBe(1);

		const stats = (await control('GET', 'stats')).json as { created: { recordsAdded: number } };
		expect(stats.created.recordsAdded).toBe(1);
	});
});

test('catalog controls reject what the API could not answer: 400, nothing added', async () => {
	const post = async (body: unknown) =>
		(
			await raw(`${s.sim.url}/__simulator/catalogs`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			})
		).status;
	expect(await post({ columns: [] })).toBe(400);
	expect(await post({ name: 'A', columns: [{ name: 'X', type: 'Money', notEmpty: false }] })).toBe(
		400,
	);
	const twice = { name: 'X', type: 'Text', notEmpty: false };
	expect(await post({ name: 'B', columns: [twice, twice] })).toBe(400);
	expect(await post({ name: 'C', records: [{ id: 'r', fields: { Name: 'flat' } }] })).toBe(400);
	expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).json).toEqual([
		{ id: 'Vendors', name: 'Vendors' },
		{ id: 'Products', name: 'Products' },
	]);
});
