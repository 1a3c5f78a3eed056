import { api, raw } from '../helpers/http';
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
});
