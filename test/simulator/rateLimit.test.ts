/* eslint-disable @n8n/community-nodes/no-restricted-globals -- waits while a slow request is in flight */
/**
 * The rate limit on requests in flight (SimulatorOptions.rateLimit): an API request arriving while
 * `maxInFlight` others are being handled gets 429, the token endpoint never does, and refusals do
 * not count as in flight. Used by the benchmark to show how a client converges under a limit.
 */
import { api, raw, requestToken } from '../helpers/http';
import { FIXTURE, VantageSimulator } from './simulator';
import { CATALOGS, problemOf, useRawSimulator } from './testkit';
import { launch } from './uploadkit';

const s = useRawSimulator();

const catalogs = async () => await api(s.sim, s.bearer, 'GET', CATALOGS);

describe('rate limit on requests in flight', () => {
	test('requests above the limit get 429 with Retry-After and a problem body; the rest are handled', async () => {
		// Long enough that all five overlap even on a loaded machine.
		s.sim.setLatency(600);
		s.sim.setRateLimit({ maxInFlight: 2, retryAfter: '1' });
		const answers = await Promise.all(Array.from({ length: 5 }, catalogs));
		const statuses = answers.map((r) => r.status).sort();
		expect(statuses).toEqual([200, 200, 429, 429, 429]);
		const refused = answers.find((r) => r.status === 429)!;
		expect(refused.headers['retry-after']).toBe('1');
		expect(problemOf(refused)).toMatchObject({ title: 'Too Many Requests', status: 429 });
		// The log marks the refusals; the peak counts only handled requests.
		const log = s.sim.requestsTo('GetCatalogs');
		expect(log.filter((r) => r.rateLimited).map((r) => r.status)).toEqual([429, 429, 429]);
		expect(log.filter((r) => !r.rateLimited).map((r) => r.status)).toEqual([200, 200]);
		expect(s.sim.inFlight()).toEqual({ now: 0, peak: 2 });
		expect(s.sim.stats()).toEqual({ 'GetCatalogs 200': 2, 'GetCatalogs 429': 3 });
	});

	test('without retryAfter the 429 has no Retry-After; once requests finish, new ones are admitted', async () => {
		s.sim.setLatency(400);
		s.sim.setRateLimit({ maxInFlight: 1 });
		const [first, second] = await Promise.all([catalogs(), catalogs()]);
		expect([first.status, second.status].sort()).toEqual([200, 429]);
		const refused = first.status === 429 ? first : second;
		expect(refused.headers['retry-after']).toBeUndefined();
		// Sequential requests never exceed one in flight.
		for (let i = 0; i < 3; i++) expect((await catalogs()).status).toBe(200);
	});

	test('refusals are not counted as in flight, and the token endpoint is never refused', async () => {
		s.sim.setLatency(200);
		s.sim.setRateLimit({ maxInFlight: 1 });
		const slow = catalogs();
		await new Promise((resolve) => setTimeout(resolve, 50));
		// While the slow one is handled: refusals, and sign-ins that still work.
		const refused = await Promise.all([catalogs(), catalogs()]);
		expect(refused.map((r) => r.status)).toEqual([429, 429]);
		expect((await requestToken(s.sim)).status).toBe(200);
		expect((await slow).status).toBe(200);
		expect((await catalogs()).status).toBe(200);
		expect(s.sim.inFlight().peak).toBe(1);
	});

	test('a refused upload is discarded unread: nothing is created and the next upload goes through', async () => {
		s.sim.setLatency(150);
		s.sim.setRateLimit({ maxInFlight: 1 });
		const files = [{ name: 'a.pdf', data: Buffer.alloc(256 * 1024, 1) }];
		const answers = await Promise.all([
			launch(s.sim, s.bearer, FIXTURE.documentSkillId, files),
			launch(s.sim, s.bearer, FIXTURE.documentSkillId, files),
		]);
		expect(answers.map((r) => r.status).sort()).toEqual([201, 429]);
		expect(s.sim.createdCounts()).toMatchObject({ transactions: 1, uploads: 1 });
		expect((await launch(s.sim, s.bearer, FIXTURE.documentSkillId, files)).status).toBe(201);
		expect(s.sim.createdCounts()).toMatchObject({ transactions: 2, uploads: 2 });
	});

	test('lifting the limit admits everything again; a bad limit is refused', async () => {
		// Long enough that all four overlap even on a loaded machine (CI once saw a peak of 3 at 100 ms).
		s.sim.setLatency(800);
		s.sim.setRateLimit({ maxInFlight: 1 });
		s.sim.setRateLimit(null);
		const answers = await Promise.all(Array.from({ length: 4 }, catalogs));
		expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
		expect(s.sim.inFlight().peak).toBe(4);
		expect(() => s.sim.setRateLimit({ maxInFlight: 0 })).toThrow(/maxInFlight/);
		expect(() => s.sim.setRateLimit({ maxInFlight: 1.5 })).toThrow(/maxInFlight/);
	});

	test('the option works from the constructor as well', async () => {
		const sim = new VantageSimulator({ latencyMs: 100, rateLimit: { maxInFlight: 1 } });
		await sim.start();
		try {
			const { access_token: bearer } = (await requestToken(sim)).json as { access_token: string };
			const answers = await Promise.all([
				api(sim, bearer, 'GET', CATALOGS),
				api(sim, bearer, 'GET', CATALOGS),
			]);
			expect(answers.map((r) => r.status).sort()).toEqual([200, 429]);
		} finally {
			await sim.stop();
		}
	});
});

describe('rate limit over the HTTP control API', () => {
	const control = async (method: string, path: string, body?: unknown) =>
		await raw(`${s.sim.url}/__simulator/${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});

	test('POST sets it, stats report requests in flight, DELETE lifts it', async () => {
		await control('POST', 'latency', { ms: 150 });
		expect((await control('POST', 'rate-limit', { maxInFlight: 1, retryAfter: 2 })).status).toBe(
			200,
		);
		const answers = await Promise.all([catalogs(), catalogs()]);
		expect(answers.map((r) => r.status).sort()).toEqual([200, 429]);
		expect(answers.find((r) => r.status === 429)!.headers['retry-after']).toBe('2');
		const stats = (await control('GET', 'stats')).json as {
			inFlight: { now: number; peak: number };
		};
		expect(stats.inFlight).toEqual({ now: 0, peak: 1 });
		expect((await control('DELETE', 'rate-limit')).status).toBe(200);
		const after = await Promise.all([catalogs(), catalogs()]);
		expect(after.map((r) => r.status)).toEqual([200, 200]);
		// Clearing the log starts the peak anew.
		await control('DELETE', 'requests');
		expect(((await control('GET', 'stats')).json as { inFlight: unknown }).inFlight).toEqual({
			now: 0,
			peak: 0,
		});
	});

	test('a limit below 1 is a bad request', async () => {
		const res = await control('POST', 'rate-limit', { maxInFlight: 0 });
		expect(res.status).toBe(400);
		expect(res.text).toMatch(/maxInFlight/);
	});
});
