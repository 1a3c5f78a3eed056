import { api, raw, requestToken, token } from '../helpers/http';
import { FIXTURE, VantageSimulator } from './simulator';
import { CATALOGS, EXPORTS, problemOf, useRawSimulator } from './testkit';

const s = useRawSimulator();

describe('auth', () => {
	test('password grant on the default endpoint returns a Bearer token with expires_in', async () => {
		const res = await requestToken(s.sim);
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject({
			token_type: 'Bearer',
			expires_in: 2592000,
			scope: FIXTURE.scope,
		});
		expect(typeof (res.json as { access_token: string }).access_token).toBe('string');
	});

	test('tenant endpoint issues tokens to members of that tenant only', async () => {
		expect((await requestToken(s.sim, {}, FIXTURE.tenantId)).status).toBe(200);
		const other = await requestToken(s.sim, {}, FIXTURE.secondTenantId);
		expect(other.status).toBe(400);
		expect(other.json).toMatchObject({ error: 'invalid_grant' });
	});

	test('an e-mail in several tenants needs the tenant endpoint', async () => {
		const shared = { username: FIXTURE.multiTenantUsername };
		const res = await requestToken(s.sim, shared);
		expect(res.status).toBe(400);
		expect(res.json).toMatchObject({ error: 'invalid_grant' });
		expect((await requestToken(s.sim, shared, FIXTURE.secondTenantId)).status).toBe(200);
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
		[
			'other grant type',
			{ grant_type: 'urn:ietf:params:oauth:grant-type:device_code' },
			'unsupported_grant_type',
			undefined,
		],
	])('%s → 400 %s', async (_name, overrides, error, description) => {
		const res = await requestToken(s.sim, overrides);
		expect(res.status).toBe(400);
		expect(problemOf(res).error).toBe(error);
		expect(problemOf(res).error_description).toBe(description);
	});

	test('client credentials: a token acting as the client’s service user, no user name needed', async () => {
		const res = await requestToken(s.sim, {
			grant_type: 'client_credentials',
			username: undefined,
			password: undefined,
		});
		expect(res.status).toBe(200);
		const bearer = (res.json as { access_token: string }).access_token;
		const exports = await api(s.sim, bearer, 'GET', EXPORTS);
		expect(exports.status).toBe(200);
	});

	test('a client not allowed to use a grant gets unauthorized_client', async () => {
		const sim = new VantageSimulator({
			clients: [{ clientId: 'pw-only', clientSecret: 'pw-only-secret', grants: ['password'] }],
		});
		await sim.start();
		try {
			const res = await requestToken(sim, {
				client_id: 'pw-only',
				client_secret: 'pw-only-secret',
				grant_type: 'client_credentials',
			});
			expect(res.status).toBe(400);
			expect(problemOf(res).error).toBe('unauthorized_client');
		} finally {
			await sim.stop();
		}
	});

	test('a token request that is not form-encoded is refused', async () => {
		const res = await raw(s.sim.url + '/auth2/connect/token', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ grant_type: 'password' }),
		});
		expect(res.status).toBe(400);
		expect(res.json).toMatchObject({ error: 'invalid_request' });
	});

	test('API routes answer 401 with an empty body without a valid token', async () => {
		for (const auth of [null, 'not-a-token']) {
			const res = await api(s.sim, auth, 'GET', CATALOGS);
			expect(res.status).toBe(401);
			expect(res.text).toBe('');
			expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
		}
		expect((await api(s.sim, s.bearer, 'GET', CATALOGS)).status).toBe(200);
	});

	test('revoked tokens get 401 invalid_token', async () => {
		s.sim.revokeTokens();
		const res = await api(s.sim, s.bearer, 'GET', CATALOGS);
		expect(res.status).toBe(401);
		expect(res.text).toBe('');
		expect(res.headers['www-authenticate']).toMatch(/invalid_token/);
		expect((await api(s.sim, await token(s.sim), 'GET', CATALOGS)).status).toBe(200);
	});

	test('expires_in is configurable and expired tokens are refused', async () => {
		s.sim.setTokenLifetime(0);
		const res = await requestToken(s.sim);
		expect((res.json as { expires_in: number }).expires_in).toBe(0);
		const expired = (res.json as { access_token: string }).access_token;
		expect((await api(s.sim, expired, 'GET', CATALOGS)).status).toBe(401);
	});

	test('the request log masks secrets and identifies tokens by serial', async () => {
		await requestToken(s.sim);
		await api(s.sim, s.bearer, 'GET', CATALOGS);
		const [tokenReq, apiReq] = s.sim.requests;
		expect(tokenReq.route).toBe('Token');
		expect(tokenReq.body).toMatchObject({
			password: '***',
			client_secret: '***',
			username: FIXTURE.username,
		});
		expect(JSON.stringify(s.sim.requests)).not.toContain(FIXTURE.password);
		expect(JSON.stringify(s.sim.requests)).not.toContain(FIXTURE.clientSecret);
		expect(JSON.stringify(s.sim.requests)).not.toContain(s.bearer);
		expect(apiReq.headers.authorization).toBe('Bearer ***');
		expect(apiReq.tokenSerial).toBe(1);
	});
});
