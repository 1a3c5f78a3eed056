/* eslint-disable @n8n/community-nodes/no-restricted-globals -- timing checks of the simulator's delay fault */
import { api, token } from '../helpers/http';
import { FIXTURE } from './simulator';
import { EXPORTS, problemOf, useRawSimulator } from './testkit';

const s = useRawSimulator();

describe('reporting v2', () => {
	const create = async (body: unknown = { filters: { startDate: '2025-11-03T17:19:54.386Z' } }) =>
		await api(s.sim, s.bearer, 'POST', EXPORTS, body);

	test('create → status lifecycle → CSV result', async () => {
		const created = await create({
			filters: {
				skillId: 'skill-1',
				startDate: '2025-11-03T17:19:54.386Z',
				endDate: '2025-11-17T20:05:26.097Z',
			},
			sendEmailNotification: true,
		});
		expect(created.status).toBe(200);
		const { requestId } = created.json as { requestId: string };
		const seen: unknown[] = [];
		for (let i = 0; i < 5; i++) {
			const status = await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/status`);
			seen.push((status.json as { status: string }).status);
			if (i === 4) {
				expect(status.json).toEqual({
					status: 'Succeeded',
					totalFileCount: '1',
					correlationId: expect.any(String),
					filters: {
						skillId: 'skill-1',
						startDate: '2025-11-03T17:19:54.386Z',
						endDate: '2025-11-17T20:05:26.097Z',
					},
				});
			}
		}
		expect(seen).toEqual(['New', 'Queued', 'Processing', 'Succeeded', 'Succeeded']);
		const file = await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/result/0`);
		expect(file.status).toBe(200);
		expect(file.text.split('\r\n')[0]).toMatch(/^SkillId,SkillVersion,SkillName,TransactionId/);
		expect((await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/result/1`)).status).toBe(
			404,
		);
		expect((await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/result/x`)).status).toBe(
			400,
		);
	});

	test('totalFileCount is a string, null until Succeeded', async () => {
		s.sim.scriptNextExport({
			path: ['Processing', 'Succeeded'],
			files: ['a\r\n', 'b\r\n', 'c\r\n'],
		});
		const { requestId } = (await create()).json as { requestId: string };
		const first = (await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json;
		expect(first).toMatchObject({ status: 'Processing', totalFileCount: null });
		const second = (await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json;
		expect(second).toMatchObject({ status: 'Succeeded', totalFileCount: '3' });
		expect((await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/result/2`)).text).toBe(
			'c\r\n',
		);
	});

	test.each(['Failed', 'Cancelled'] as const)('scripted %s lifecycle', async (outcome) => {
		s.sim.scriptNextExport({ path: ['Queued', outcome] });
		const { requestId } = (await create()).json as { requestId: string };
		await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/status`);
		const status = (await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json;
		expect(status).toMatchObject({
			status: outcome,
			totalFileCount: null,
			correlationId: expect.any(String),
		});
		const result = await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/result/0`);
		expect(result.status).toBe(400);
		expect(problemOf(result).detail).toContain(outcome);
		expect(problemOf(result).status).toBe('400');
	});

	test('time-driven lifecycle advances with the clock, not with polls', async () => {
		s.sim.scriptNextExport({ path: ['Processing', 'Succeeded'], advanceEvery: { ms: 150 } });
		const { requestId } = (await create()).json as { requestId: string };
		expect(
			(await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json,
		).toMatchObject({
			status: 'Processing',
		});
		expect(
			(await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json,
		).toMatchObject({
			status: 'Processing',
		});
		await new Promise((r) => setTimeout(r, 200));
		expect(
			(await api(s.sim, s.bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json,
		).toMatchObject({
			status: 'Succeeded',
		});
	});

	test('list returns only the caller’s requests and honours statusFilter', async () => {
		s.sim.scriptNextExport({ path: ['Succeeded'] });
		const { requestId } = (await create()).json as { requestId: string };
		const mine = (await api(s.sim, s.bearer, 'GET', EXPORTS)).json as {
			requests: Array<{ requestId: string }>;
		};
		expect(mine.requests.map((r) => r.requestId)).toEqual([requestId]);
		const queued = (await api(s.sim, s.bearer, 'GET', `${EXPORTS}?statusFilter=Queued`)).json as {
			requests: unknown[];
		};
		expect(queued.requests).toEqual([]);
		const other = await token(s.sim, FIXTURE.operatorUsername);
		expect((await api(s.sim, other, 'GET', EXPORTS)).status).toBe(403);
	});

	test('list filters by day of creation (UTC, both days included) and by several statuses', async () => {
		s.sim.scriptNextExport({ path: ['Succeeded'] });
		const { requestId } = (await create()).json as { requestId: string };
		const day = (offset: number) =>
			new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
		const listed = async (query: string) =>
			(
				(await api(s.sim, s.bearer, 'GET', `${EXPORTS}?${query}`)).json as {
					requests: Array<{ requestId: string }>;
				}
			).requests.map((r) => r.requestId);
		expect(await listed(`createdFrom=${day(0)}&createdTo=${day(0)}`)).toEqual([requestId]);
		expect(await listed(`createdFrom=${day(1)}`)).toEqual([]);
		expect(await listed(`createdTo=${day(-1)}`)).toEqual([]);
		expect(await listed('statusFilter=Failed&statusFilter=Succeeded')).toEqual([requestId]);
		expect(await listed('statusFilter=Failed&statusFilter=Cancelled')).toEqual([]);
	});

	test.each([
		['statusFilter=Done', 'statusFilter'],
		['createdFrom=yesterday', 'createdFrom'],
		['createdTo=2025-13-45', 'createdTo'],
	])('list refuses %s with a 400 naming %s', async (query, key) => {
		const res = await api(s.sim, s.bearer, 'GET', `${EXPORTS}?${query}`);
		expect(res.status).toBe(400);
		expect(Object.keys(problemOf(res).errors as object)).toEqual([key]);
	});

	test.each([
		['missing startDate', { filters: { skillId: 'x' } }, '$.filters.startDate'],
		['unknown property', { filters: { startDate: '2025-11-03T00:00:00Z' }, extra: 1 }, '$'],
		[
			'unknown filter',
			{ filters: { startDate: '2025-11-03T00:00:00Z', status: 'x' } },
			'$.filters',
		],
		['invalid date', { filters: { startDate: 'yesterday' } }, '$.filters.startDate'],
		['non-boolean notification', { sendEmailNotification: 'yes' }, '$.sendEmailNotification'],
		[
			'non-string skill',
			{ filters: { startDate: '2025-11-03T00:00:00Z', skillId: 5 } },
			'$.filters.skillId',
		],
	])('create export rejects %s with 400 validation problem', async (_name, body, key) => {
		const res = await create(body);
		expect(res.status).toBe(400);
		expect(Object.keys(problemOf(res).errors as object)).toContain(key);
		expect(s.sim.exportIds()).toHaveLength(0);
	});

	test('filters may be null and sendEmailNotification omitted', async () => {
		expect((await create({ filters: null })).status).toBe(200);
		expect((await create({})).status).toBe(200);
	});

	test('reports need the Tenant Administrator or Processing Supervisor role', async () => {
		const operator = await token(s.sim, FIXTURE.operatorUsername);
		const res = await api(s.sim, operator, 'POST', EXPORTS, {
			filters: { startDate: '2025-11-03T00:00:00Z' },
		});
		expect(res.status).toBe(403);
		expect(problemOf(res).detail).toMatch(/Tenant Administrators/);
	});

	test('unknown request id → 404', async () => {
		const res = await api(
			s.sim,
			s.bearer,
			'GET',
			`${EXPORTS}/00000000-0000-4000-8000-000000000000/status`,
		);
		expect(res.status).toBe(404);
	});
});
