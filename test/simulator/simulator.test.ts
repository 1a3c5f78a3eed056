/* eslint-disable @n8n/community-nodes/no-restricted-globals -- timing checks of the simulator's delay fault */
import { api, raw, requestToken, token } from '../helpers/http';
import { FIXTURE, VantageSimulator } from './simulator';

const EXPORTS = '/api/reporting/v2/exports/transaction-steps';
const CATALOGS = '/api/publicapi/v1/catalogs';
const TRANSACTIONS = '/api/publicapi/v1/transactions';

let sim: VantageSimulator;
let bearer: string;

beforeEach(async () => {
	sim = new VantageSimulator();
	await sim.start();
	bearer = await token(sim);
	sim.clearLog();
});

afterEach(async () => {
	await sim.stop();
});

function problemOf(res: { json: unknown }): Record<string, unknown> {
	return res.json as Record<string, unknown>;
}

describe('auth', () => {
	test('password grant on the default endpoint returns a Bearer token with expires_in', async () => {
		const res = await requestToken(sim);
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject({
			token_type: 'Bearer',
			expires_in: 2592000,
			scope: FIXTURE.scope,
		});
		expect(typeof (res.json as { access_token: string }).access_token).toBe('string');
	});

	test('tenant endpoint issues tokens to members of that tenant only', async () => {
		expect((await requestToken(sim, {}, FIXTURE.tenantId)).status).toBe(200);
		const other = await requestToken(sim, {}, FIXTURE.secondTenantId);
		expect(other.status).toBe(400);
		expect(other.json).toMatchObject({ error: 'invalid_grant' });
	});

	test('an e-mail in several tenants needs the tenant endpoint', async () => {
		const shared = { username: FIXTURE.multiTenantUsername };
		const res = await requestToken(sim, shared);
		expect(res.status).toBe(400);
		expect(res.json).toMatchObject({ error: 'invalid_grant' });
		expect((await requestToken(sim, shared, FIXTURE.secondTenantId)).status).toBe(200);
	});

	test.each([
		['wrong password', { password: 'nope' }, 'invalid_grant', 'invalid_username_or_password'],
		[
			'unknown user',
			{ username: 'ghost@example.com' },
			'invalid_grant',
			'invalid_username_or_password',
		],
		['wrong client secret', { client_secret: 'nope' }, 'invalid_client', undefined],
		['unknown client', { client_id: 'other' }, 'invalid_client', undefined],
		['missing client secret', { client_secret: undefined }, 'invalid_client', undefined],
		[
			'unknown scope',
			{ scope: 'openid admin.everything' },
			'invalid_scope',
			'Invalid scope: admin.everything',
		],
		['other grant type', { grant_type: 'client_credentials' }, 'unsupported_grant_type', undefined],
	])('%s → 400 %s', async (_name, overrides, error, description) => {
		const res = await requestToken(sim, overrides);
		expect(res.status).toBe(400);
		expect(problemOf(res).error).toBe(error);
		expect(problemOf(res).error_description).toBe(description);
	});

	test('a token request that is not form-encoded is refused', async () => {
		const res = await raw(sim.url + '/auth2/connect/token', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ grant_type: 'password' }),
		});
		expect(res.status).toBe(400);
		expect(res.json).toMatchObject({ error: 'invalid_request' });
	});

	test('API routes answer 401 with an empty body without a valid token', async () => {
		for (const auth of [null, 'not-a-token']) {
			const res = await api(sim, auth, 'GET', CATALOGS);
			expect(res.status).toBe(401);
			expect(res.text).toBe('');
			expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
		}
		expect((await api(sim, bearer, 'GET', CATALOGS)).status).toBe(200);
	});

	test('revoked tokens get 401 invalid_token', async () => {
		sim.revokeTokens();
		const res = await api(sim, bearer, 'GET', CATALOGS);
		expect(res.status).toBe(401);
		expect(res.text).toBe('');
		expect(res.headers['www-authenticate']).toMatch(/invalid_token/);
		expect((await api(sim, await token(sim), 'GET', CATALOGS)).status).toBe(200);
	});

	test('expires_in is configurable and expired tokens are refused', async () => {
		sim.setTokenLifetime(0);
		const res = await requestToken(sim);
		expect((res.json as { expires_in: number }).expires_in).toBe(0);
		const expired = (res.json as { access_token: string }).access_token;
		expect((await api(sim, expired, 'GET', CATALOGS)).status).toBe(401);
	});

	test('the request log masks secrets and identifies tokens by serial', async () => {
		await requestToken(sim);
		await api(sim, bearer, 'GET', CATALOGS);
		const [tokenReq, apiReq] = sim.requests;
		expect(tokenReq.route).toBe('Token');
		expect(tokenReq.body).toMatchObject({
			password: '***',
			client_secret: '***',
			username: FIXTURE.username,
		});
		expect(JSON.stringify(sim.requests)).not.toContain(FIXTURE.password);
		expect(JSON.stringify(sim.requests)).not.toContain(FIXTURE.clientSecret);
		expect(JSON.stringify(sim.requests)).not.toContain(bearer);
		expect(apiReq.headers.authorization).toBe('Bearer ***');
		expect(apiReq.tokenSerial).toBe(1);
	});
});

describe('reporting v2', () => {
	const create = async (body: unknown = { filters: { startDate: '2025-11-03T17:19:54.386Z' } }) =>
		await api(sim, bearer, 'POST', EXPORTS, body);

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
			const status = await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/status`);
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
		const file = await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/result/0`);
		expect(file.status).toBe(200);
		expect(file.text.split('\r\n')[0]).toMatch(/^SkillId,SkillVersion,SkillName,TransactionId/);
		expect((await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/result/1`)).status).toBe(404);
		expect((await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/result/x`)).status).toBe(400);
	});

	test('totalFileCount is a string, null until Succeeded', async () => {
		sim.scriptNextExport({ path: ['Processing', 'Succeeded'], files: ['a\r\n', 'b\r\n', 'c\r\n'] });
		const { requestId } = (await create()).json as { requestId: string };
		const first = (await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json;
		expect(first).toMatchObject({ status: 'Processing', totalFileCount: null });
		const second = (await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json;
		expect(second).toMatchObject({ status: 'Succeeded', totalFileCount: '3' });
		expect((await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/result/2`)).text).toBe('c\r\n');
	});

	test.each(['Failed', 'Cancelled'] as const)('scripted %s lifecycle', async (outcome) => {
		sim.scriptNextExport({ path: ['Queued', outcome] });
		const { requestId } = (await create()).json as { requestId: string };
		await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/status`);
		const status = (await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json;
		expect(status).toMatchObject({
			status: outcome,
			totalFileCount: null,
			correlationId: expect.any(String),
		});
		const result = await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/result/0`);
		expect(result.status).toBe(400);
		expect(problemOf(result).detail).toContain(outcome);
		expect(problemOf(result).status).toBe('400');
	});

	test('time-driven lifecycle advances with the clock, not with polls', async () => {
		sim.scriptNextExport({ path: ['Processing', 'Succeeded'], advanceEvery: { ms: 150 } });
		const { requestId } = (await create()).json as { requestId: string };
		expect((await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json).toMatchObject({
			status: 'Processing',
		});
		expect((await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json).toMatchObject({
			status: 'Processing',
		});
		await new Promise((r) => setTimeout(r, 200));
		expect((await api(sim, bearer, 'GET', `${EXPORTS}/${requestId}/status`)).json).toMatchObject({
			status: 'Succeeded',
		});
	});

	test('list returns only the caller’s requests and honours statusFilter', async () => {
		sim.scriptNextExport({ path: ['Succeeded'] });
		const { requestId } = (await create()).json as { requestId: string };
		const mine = (await api(sim, bearer, 'GET', EXPORTS)).json as {
			requests: Array<{ requestId: string }>;
		};
		expect(mine.requests.map((r) => r.requestId)).toEqual([requestId]);
		const queued = (await api(sim, bearer, 'GET', `${EXPORTS}?statusFilter=Queued`)).json as {
			requests: unknown[];
		};
		expect(queued.requests).toEqual([]);
		const other = await token(sim, FIXTURE.operatorUsername);
		expect((await api(sim, other, 'GET', EXPORTS)).status).toBe(403);
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
		expect(sim.exportIds()).toHaveLength(0);
	});

	test('filters may be null and sendEmailNotification omitted', async () => {
		expect((await create({ filters: null })).status).toBe(200);
		expect((await create({})).status).toBe(200);
	});

	test('reports need the Tenant Administrator or Processing Supervisor role', async () => {
		const operator = await token(sim, FIXTURE.operatorUsername);
		const res = await api(sim, operator, 'POST', EXPORTS, {
			filters: { startDate: '2025-11-03T00:00:00Z' },
		});
		expect(res.status).toBe(403);
		expect(problemOf(res).detail).toMatch(/Tenant Administrators/);
	});

	test('unknown request id → 404', async () => {
		const res = await api(
			sim,
			bearer,
			'GET',
			`${EXPORTS}/00000000-0000-4000-8000-000000000000/status`,
		);
		expect(res.status).toBe(404);
	});
});

describe('transactions', () => {
	test('create a transaction with a known skill (201) and refuse an unknown skill (404)', async () => {
		const res = await api(sim, bearer, 'POST', TRANSACTIONS, { skillId: FIXTURE.processSkillId });
		expect(res.status).toBe(201);
		expect(res.json).toEqual({ transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
		const unknown = await api(sim, bearer, 'POST', TRANSACTIONS, { skillId: 'nope' });
		expect(unknown.status).toBe(404);
		expect(problemOf(unknown).detail).toMatch(/not found or not published/);
	});

	test('create transaction enforces the request contract', async () => {
		const eleven = Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
		for (const body of [
			{},
			{ skillId: '' },
			{ skillId: 'x', extra: true },
			{ skillId: 'x', registrationParameters: eleven },
		]) {
			expect((await api(sim, bearer, 'POST', TRANSACTIONS, body)).status).toBe(400);
		}
	});

	test('add document: 201 with documentId; exact body stored', async () => {
		const tx = sim.createTransaction(FIXTURE.documentSkillId);
		const body = {
			index: 2,
			imageProcessingOptions: { autoCrop: 'Yes', autoOrientation: 'Default' },
		};
		const res = await api(sim, bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, body);
		expect(res.status).toBe(201);
		const { documentId } = res.json as { documentId: string };
		expect(sim.transaction(tx)?.documents).toEqual([{ id: documentId, ...body }]);
		const info = await api(sim, bearer, 'GET', `${TRANSACTIONS}/${tx}`);
		expect(info.json).toMatchObject({ id: tx, status: 'New', documents: [{ id: documentId }] });
	});

	test('an empty body is a valid add-document request', async () => {
		const tx = sim.createTransaction(FIXTURE.processSkillId);
		expect((await api(sim, bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, {})).status).toBe(
			201,
		);
	});

	test('a second document is refused unless the skill is a Process skill', async () => {
		const single = sim.createTransaction(FIXTURE.documentSkillId);
		expect((await api(sim, bearer, 'POST', `${TRANSACTIONS}/${single}/documents`, {})).status).toBe(
			201,
		);
		const second = await api(sim, bearer, 'POST', `${TRANSACTIONS}/${single}/documents`, {});
		expect(second.status).toBe(400);
		expect(problemOf(second)).toMatchObject({
			status: 400,
			detail: 'Non-process skills allow only one document',
		});

		const multi = sim.createTransaction(FIXTURE.processSkillId);
		for (let i = 0; i < 3; i++) {
			expect(
				(await api(sim, bearer, 'POST', `${TRANSACTIONS}/${multi}/documents`, { index: i })).status,
			).toBe(201);
		}
	});

	test.each([
		['unknown enum value', { imageProcessingOptions: { autoCrop: 'Maybe' } }],
		['fractional index', { index: 1.5 }],
		['index beyond int32', { index: 2 ** 31 }],
		['unknown property', { index: 1, name: 'x' }],
		['unknown option', { imageProcessingOptions: { deskew: 'Yes' } }],
	])('add document rejects %s with 400', async (_name, body) => {
		const tx = sim.createTransaction(FIXTURE.processSkillId);
		expect((await api(sim, bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, body)).status).toBe(
			400,
		);
		expect(sim.transaction(tx)?.documents).toEqual([]);
	});

	test('unknown transaction → 404', async () => {
		const res = await api(
			sim,
			bearer,
			'POST',
			`${TRANSACTIONS}/00000000-0000-4000-8000-000000000000/documents`,
			{},
		);
		expect(res.status).toBe(404);
		expect(problemOf(res).detail).toBe('Transaction not found');
	});
});

describe('catalogs', () => {
	const weird = 'Vendors / EU 2026';
	const enc = (id: string) => `${CATALOGS}/${encodeURIComponent(id)}`;

	beforeEach(() => {
		sim.addCatalog(weird);
		sim.seedRecords(weird, ['r1', 'r2', 'r3', 'r/4?#%"é']);
	});

	test('list and get; catalog ids are names with spaces and slashes, sent as one encoded segment', async () => {
		const list = await api(sim, bearer, 'GET', CATALOGS);
		expect(list.json).toEqual(expect.arrayContaining([{ id: weird, name: weird }]));
		const one = await api(sim, bearer, 'GET', enc(weird));
		expect(one.json).toMatchObject({ id: weird, rowCount: 4 });
		// The same name with its `/` left raw is another path: not found.
		expect((await api(sim, bearer, 'GET', `${CATALOGS}/Vendors%20/%20EU%202026`)).status).toBe(404);
		expect((await api(sim, bearer, 'GET', enc('nope'))).status).toBe(404);
		expect(sim.requests.at(-1)?.params).toEqual({ catalogId: 'nope' });
	});

	test('delete records: 200 with an empty body, unknown ids ignored', async () => {
		const res = await api(sim, bearer, 'POST', `${enc(weird)}/records/delete`, [
			'r1',
			'missing',
			'r/4?#%"é',
		]);
		expect(res.status).toBe(200);
		expect(res.text).toBe('');
		expect(sim.recordIds(weird)).toEqual(['r2', 'r3']);
		expect(sim.requests.at(-1)).toMatchObject({
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
		const res = await api(sim, bearer, 'POST', `${enc(weird)}/records/delete`, body);
		expect(res.status).toBe(400);
		expect(problemOf(res)).toMatchObject({
			title: 'One or more validation errors occurred.',
			status: 400,
		});
		expect(sim.recordIds(weird)).toHaveLength(4);
	});

	test('delete records accepts exactly 5000 ids', async () => {
		const ids = Array.from({ length: 5000 }, (_, i) => `id${i}`);
		expect((await api(sim, bearer, 'POST', `${enc(weird)}/records/delete`, ids)).status).toBe(200);
	});

	test('delete records: unknown catalog 404, wrong media type 415, empty body 400, bad JSON 400', async () => {
		expect((await api(sim, bearer, 'POST', `${enc('nope')}/records/delete`, ['r1'])).status).toBe(
			404,
		);
		const url = `${enc(weird)}/records/delete`;
		expect(
			(await api(sim, bearer, 'POST', url, '["r1"]', { 'content-type': 'text/plain' })).status,
		).toBe(415);
		expect(
			(
				await api(sim, bearer, 'POST', url, '["r1"]', {
					'content-type': 'application/json-patch+json',
				})
			).status,
		).toBe(200);
		expect(
			(await api(sim, bearer, 'POST', url, '', { 'content-type': 'application/json' })).status,
		).toBe(400);
		expect((await api(sim, bearer, 'POST', url, '["r2"', {})).status).toBe(400);
	});

	test('add records reports rejected rows with 200; get records pages', async () => {
		const res = await api(sim, bearer, 'POST', `${enc(weird)}/records`, [
			{ id: 'n1', fields: { Name: ['ACME'] } },
			{ id: 'n2', fields: { Name: [''] } },
			{ id: 'n3', fields: { Name: ['X'], Colour: ['red'] } },
		]);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			insertedRowCount: 1,
			errorRows: { n2: ['CannotBeEmpty Column: Name'], n3: ['UnknownColumn Column: Colour'] },
		});
		const page = await api(sim, bearer, 'GET', `${enc(weird)}/records?offset=4&limit=10`);
		expect(page.json).toEqual([{ id: 'n1', fields: { Name: ['ACME'] } }]);
		expect((await api(sim, bearer, 'GET', `${enc(weird)}/records?limit=1001`)).status).toBe(400);
		expect(
			(await api(sim, bearer, 'POST', `${enc(weird)}/records`, [{ id: '', fields: {} }])).status,
		).toBe(400);
	});

	test('reindex: InProgress → Completed, scripted Failed, unknown operation 404', async () => {
		const started = await api(sim, bearer, 'POST', `${enc(weird)}/reindex`);
		expect(started.status).toBe(200);
		const op = started.json as { id: string; currentState: string };
		expect(op.currentState).toBe('InProgress');
		const first = await api(sim, bearer, 'GET', `${enc(weird)}/reindex/${op.id}`);
		expect(first.json).toMatchObject({ currentState: 'InProgress', completed: null });
		const second = await api(sim, bearer, 'GET', `${enc(weird)}/reindex/${op.id}`);
		expect(second.json).toMatchObject({ currentState: 'Completed', completed: expect.any(String) });

		sim.scriptNextReindex({ outcome: 'Failed', after: { polls: 0 } });
		const failing = (await api(sim, bearer, 'POST', `${enc(weird)}/reindex`)).json as {
			id: string;
		};
		expect(
			(await api(sim, bearer, 'GET', `${enc(weird)}/reindex/${failing.id}`)).json,
		).toMatchObject({ currentState: 'Failed' });

		expect((await api(sim, bearer, 'GET', `${enc(weird)}/reindex/${randomId()}`)).status).toBe(404);
		expect((await api(sim, bearer, 'GET', `${enc('Vendors')}/reindex/${op.id}`)).status).toBe(404);
	});
});

describe('faults', () => {
	test.each([
		[429, '7'],
		[429, undefined],
		[500, undefined],
		[502, undefined],
		[503, '1'],
		[504, undefined],
	])('status %i (Retry-After %s) for the next request only', async (status, retryAfter) => {
		sim.injectFault('GetCatalogs', { kind: 'status', status, retryAfter });
		const first = await api(sim, bearer, 'GET', CATALOGS);
		expect(first.status).toBe(status);
		expect(first.headers['retry-after']).toBe(retryAfter);
		expect((await api(sim, bearer, 'GET', CATALOGS)).status).toBe(200);
		expect(sim.requests.map((r) => r.fault)).toEqual(['status', undefined]);
	});

	test('faults apply to the next N requests, per route, or always', async () => {
		sim.injectFault('GetCatalogs', { kind: 'status', status: 503 }, 2);
		sim.injectFault('GetAvailableSkills', { kind: 'status', status: 500 }, Infinity);
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await api(sim, bearer, 'GET', CATALOGS)).status);
		expect(statuses).toEqual([503, 503, 200]);
		for (let i = 0; i < 4; i++)
			expect((await api(sim, bearer, 'GET', '/api/publicapi/v1/skills')).status).toBe(500);
		sim.clearFaults();
		expect((await api(sim, bearer, 'GET', '/api/publicapi/v1/skills')).status).toBe(200);
	});

	test('a status fault is answered before the request is handled', async () => {
		sim.seedRecords('Vendors', ['a']);
		sim.injectFault('DeleteRecords', { kind: 'status', status: 502 });
		expect(
			(await api(sim, bearer, 'POST', `${CATALOGS}/Vendors/records/delete`, ['a'])).status,
		).toBe(502);
		expect(sim.recordIds('Vendors')).toEqual(['a']);
	});

	test('a 401 fault has an empty body like the real service', async () => {
		sim.injectFault('GetCatalogs', { kind: 'status', status: 401 });
		const res = await api(sim, bearer, 'GET', CATALOGS);
		expect(res.status).toBe(401);
		expect(res.text).toBe('');
	});

	test('connection reset before handling: nothing applied', async () => {
		sim.seedRecords('Vendors', ['a']);
		sim.injectFault('DeleteRecords', { kind: 'reset' });
		await expect(
			api(sim, bearer, 'POST', `${CATALOGS}/Vendors/records/delete`, ['a']),
		).rejects.toThrow();
		expect(sim.recordIds('Vendors')).toEqual(['a']);
		expect(sim.requests[0]).toMatchObject({ route: 'DeleteRecords', fault: 'reset', status: 0 });
	});

	test('connection reset after handling: applied, response lost', async () => {
		sim.seedRecords('Vendors', ['a']);
		sim.injectFault('DeleteRecords', { kind: 'reset', after: true });
		await expect(
			api(sim, bearer, 'POST', `${CATALOGS}/Vendors/records/delete`, ['a']),
		).rejects.toThrow();
		expect(sim.recordIds('Vendors')).toEqual([]);
	});

	test('delay holds the response, then answers normally', async () => {
		sim.injectFault('GetCatalogs', { kind: 'delay', ms: 300 });
		const started = Date.now();
		const res = await api(sim, bearer, 'GET', CATALOGS);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(res.status).toBe(200);
	});

	test('malformed JSON: handled, then a truncated body', async () => {
		sim.injectFault('CreateTransactionStepsExportRequest', { kind: 'malformedJson' });
		const res = await api(sim, bearer, 'POST', EXPORTS, {
			filters: { startDate: '2025-11-03T00:00:00Z' },
		});
		expect(res.status).toBe(200);
		expect(() => JSON.parse(res.text)).toThrow();
		expect(sim.exportIds()).toHaveLength(1);
	});

	test('a wildcard fault hits every API route but not the token endpoint', async () => {
		sim.injectFault('*', { kind: 'status', status: 503 }, Infinity);
		expect((await requestToken(sim)).status).toBe(200);
		expect((await api(sim, bearer, 'GET', CATALOGS)).status).toBe(503);
	});

	test('global latency slows API routes', async () => {
		sim.setLatency(150);
		const started = Date.now();
		await api(sim, bearer, 'GET', CATALOGS);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});
});

describe('HTTP control API (for other processes)', () => {
	test('inject a fault, read the log, revoke tokens, script an export', async () => {
		await raw(`${sim.url}/__simulator/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				route: 'GetCatalogs',
				fault: { kind: 'status', status: 429, retryAfter: '2' },
				times: 'always',
			}),
		});
		expect((await api(sim, bearer, 'GET', CATALOGS)).status).toBe(429);
		expect((await api(sim, bearer, 'GET', CATALOGS)).status).toBe(429);
		await raw(`${sim.url}/__simulator/faults`, { method: 'DELETE' });
		expect((await api(sim, bearer, 'GET', CATALOGS)).status).toBe(200);

		const log = (await raw(`${sim.url}/__simulator/requests`)).json as Array<{ route: string }>;
		expect(log.map((r) => r.route)).toEqual(['GetCatalogs', 'GetCatalogs', 'GetCatalogs']);

		await raw(`${sim.url}/__simulator/revoke-tokens`, { method: 'POST' });
		expect((await api(sim, bearer, 'GET', CATALOGS)).status).toBe(401);
	});
});

function randomId(): string {
	return '11111111-2222-4333-8444-555555555555';
}

describe('seeded random faults and counters', () => {
	test('the same seed gives the same faults; clearFaults stops them', async () => {
		const pattern = async () => {
			const statuses: number[] = [];
			for (let i = 0; i < 40; i++) statuses.push((await api(sim, bearer, 'GET', CATALOGS)).status);
			return statuses;
		};
		sim.injectRandomFaults(
			0.3,
			[
				{ kind: 'status', status: 503 },
				{ kind: 'status', status: 429 },
			],
			42,
		);
		const first = await pattern();
		sim.injectRandomFaults(
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
		sim.clearFaults();
		expect(await pattern()).toEqual(Array(40).fill(200));
	});

	test('createdCounts and stats count what was processed', async () => {
		await api(sim, bearer, 'POST', EXPORTS, { filters: { startDate: '2025-11-03T00:00:00Z' } });
		const tx = sim.createTransaction(FIXTURE.processSkillId);
		await api(sim, bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, {});
		await api(sim, bearer, 'POST', `${CATALOGS}/Vendors/reindex`);
		expect(sim.createdCounts()).toEqual({ exports: 1, documents: 1, reindexes: 1, tokens: 1 });
		expect(sim.stats()).toEqual({
			'CreateTransactionStepsExportRequest 200': 1,
			'CreateTransactionDocument 201': 1,
			'StartCatalogReindex 200': 1,
		});
	});
});
