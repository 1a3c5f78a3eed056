import { api, requestToken } from '../helpers/http';
import { FIXTURE } from './simulator';
import { CATALOGS, EXPORTS, TRANSACTIONS, useRawSimulator } from './testkit';

const s = useRawSimulator();

describe('faults', () => {
	test.each([
		[429, '7'],
		[429, undefined],
		[500, undefined],
		[502, undefined],
		[503, '1'],
		[504, undefined],
	])('status %i (Retry-After %s) for the next request only', async (status, retryAfter) => {
		s.sim.injectFault('GetCatalogs', { kind: 'status', status, retryAfter });
		const first = await api(s.sim, s.bearer, 'GET', CATALOGS);
		expect(first.status).toBe(status);
		expect(first.headers['retry-after']).toBe(retryAfter);
		expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).status).toBe(200);
		expect(s.sim.requests.map((r) => r.fault)).toEqual(['status', undefined]);
	});

	test('faults apply to the next N requests, per route, or always', async () => {
		s.sim.injectFault('GetCatalogs', { kind: 'status', status: 503 }, 2);
		s.sim.injectFault('GetAvailableSkills', { kind: 'status', status: 500 }, Infinity);
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await api(s.sim, s.bearer, 'GET', CATALOGS)).status);
		expect(statuses).toEqual([503, 503, 200]);
		for (let i = 0; i < 4; i++)
			expect((await api(s.sim, s.bearer, 'GET', '/api/publicapi/v1/skills')).status).toBe(500);
		s.sim.clearFaults();
		expect((await api(s.sim, s.bearer, 'GET', '/api/publicapi/v1/skills')).status).toBe(200);
	});

	test('a status fault is answered before the request is handled', async () => {
		s.sim.seedRecords('Vendors', ['a']);
		s.sim.injectFault('DeleteRecords', { kind: 'status', status: 502 });
		expect(
			(await api(s.sim, s.bearer, 'POST', `${CATALOGS}/Vendors/records/delete`, ['a'])).status,
		).toBe(502);
		expect(s.sim.recordIds('Vendors')).toEqual(['a']);
	});

	test('a 401 fault has an empty body like the real service', async () => {
		s.sim.injectFault('GetCatalogs', { kind: 'status', status: 401 });
		const res = await api(s.sim, s.bearer, 'GET', CATALOGS);
		expect(res.status).toBe(401);
		expect(res.text).toBe('');
	});

	test('connection reset before handling: nothing applied', async () => {
		s.sim.seedRecords('Vendors', ['a']);
		s.sim.injectFault('DeleteRecords', { kind: 'reset' });
		await expect(
			api(s.sim, s.bearer, 'POST', `${CATALOGS}/Vendors/records/delete`, ['a']),
		).rejects.toThrow();
		expect(s.sim.recordIds('Vendors')).toEqual(['a']);
		expect(s.sim.requests[0]).toMatchObject({ route: 'DeleteRecords', fault: 'reset', status: 0 });
	});

	test('connection reset after handling: applied, response lost', async () => {
		s.sim.seedRecords('Vendors', ['a']);
		s.sim.injectFault('DeleteRecords', { kind: 'reset', after: true });
		await expect(
			api(s.sim, s.bearer, 'POST', `${CATALOGS}/Vendors/records/delete`, ['a']),
		).rejects.toThrow();
		expect(s.sim.recordIds('Vendors')).toEqual([]);
	});

	test('delay holds the response, then answers normally', async () => {
		s.sim.injectFault('GetCatalogs', { kind: 'delay', ms: 300 });
		const started = Date.now();
		const res = await api(s.sim, s.bearer, 'GET', CATALOGS);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(res.status).toBe(200);
	});

	test('malformed JSON: handled, then a truncated body', async () => {
		s.sim.injectFault('CreateTransactionStepsExportRequest', { kind: 'malformedJson' });
		const res = await api(s.sim, s.bearer, 'POST', EXPORTS, {
			filters: { startDate: '2025-11-03T00:00:00Z' },
		});
		expect(res.status).toBe(200);
		expect(() => JSON.parse(res.text)).toThrow();
		expect(s.sim.exportIds()).toHaveLength(1);
	});

	test('a wildcard fault hits every API route but not the token endpoint', async () => {
		s.sim.injectFault('*', { kind: 'status', status: 503 }, Infinity);
		expect((await requestToken(s.sim)).status).toBe(200);
		expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).status).toBe(503);
	});

	test('global latency slows API routes', async () => {
		s.sim.setLatency(150);
		const started = Date.now();
		await api(s.sim, s.bearer, 'GET', CATALOGS);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});
});

describe('seeded random faults and counters', () => {
	test('the same seed gives the same faults; clearFaults stops them', async () => {
		const pattern = async () => {
			const statuses: number[] = [];
			for (let i = 0; i < 40; i++)
				statuses.push((await api(s.sim, s.bearer, 'GET', CATALOGS)).status);
			return statuses;
		};
		s.sim.injectRandomFaults(
			0.3,
			[
				{ kind: 'status', status: 503 },
				{ kind: 'status', status: 429 },
			],
			42,
		);
		const first = await pattern();
		s.sim.injectRandomFaults(
			0.3,
			[
				{ kind: 'status', status: 503 },
				{ kind: 'status', status: 429 },
			],
			42,
		);
		const second = await pattern();
		expect(second).toEqual(first);
		const faulted = first.filter((s) => s !== 200).length;
		expect(faulted).toBeGreaterThan(4);
		expect(faulted).toBeLessThan(25);
		expect(new Set(first)).toEqual(new Set([200, 503, 429]));
		s.sim.clearFaults();
		expect(await pattern()).toEqual(Array(40).fill(200));
	});

	test('createdCounts and stats count what was processed', async () => {
		await api(s.sim, s.bearer, 'POST', EXPORTS, { filters: { startDate: '2025-11-03T00:00:00Z' } });
		const tx = s.sim.createTransaction(FIXTURE.processSkillId);
		await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, {});
		await api(s.sim, s.bearer, 'POST', `${CATALOGS}/Vendors/reindex`);
		expect(s.sim.createdCounts()).toEqual({
			exports: 1,
			documents: 1,
			reindexes: 1,
			tokens: 1,
			// Transactions created by the simulator itself (createTransaction) are not counted.
			transactions: 0,
			launches: 0,
			filesUploaded: 0,
			uploads: 0,
			recordsAdded: 0,
			invites: 0,
		});
		expect(s.sim.stats()).toEqual({
			'CreateTransactionStepsExportRequest 200': 1,
			'CreateTransactionDocument 201': 1,
			'StartCatalogReindex 200': 1,
		});
	});
});
