/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- deliberately wrong made-up secrets for sign-in failure tests */
import { sleep, type ICredentialDataDecryptedObject, type IHttpRequestOptions } from 'n8n-workflow';

import { AbbyyVantageApi } from '../../credentials/AbbyyVantageApi.credentials';
import { REGION_HOSTS } from '../../credentials/AbbyyVantageApi.endpoints';
import {
	n8nHttpHelper,
	resolveCredentialExpression,
	runNode,
	serialize,
	simulatorCredentials,
} from '../harness/n8n';
import { token } from '../helpers/http';
import { nodeParams } from '../helpers/params';
import { FIXTURE, VantageSimulator } from '../simulator/simulator';

const credentialType = new AbbyyVantageApi();

let sim: VantageSimulator;
beforeEach(async () => {
	sim = new VantageSimulator();
	await sim.start();
});
afterEach(async () => await sim.stop());

function credentials(
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return simulatorCredentials(sim, overrides).data;
}

async function preAuthenticate(creds: ICredentialDataDecryptedObject) {
	return await credentialType.preAuthentication!.call(n8nHttpHelper, creds);
}

/** The sign-in error, checked to hold no secret. */
async function signInFailure(creds: ICredentialDataDecryptedObject): Promise<Error> {
	const error = await preAuthenticate(creds).then(
		() => undefined,
		(e: Error) => e,
	);
	expect(error).toBeInstanceOf(Error);
	const text = JSON.stringify({ message: error!.message, stack: error!.stack, error });
	for (const secret of [
		FIXTURE.password,
		FIXTURE.clientSecret,
		creds.password,
		creds.clientSecret,
	]) {
		if (typeof secret === 'string' && secret.length > 2) expect(text).not.toContain(secret);
	}
	return error!;
}

describe('preAuthentication (password grant)', () => {
	test('posts the form-encoded grant and returns the access token', async () => {
		const output = await preAuthenticate(credentials());
		expect(typeof output.accessToken).toBe('string');
		const [request] = sim.requests;
		expect(request).toMatchObject({
			method: 'POST',
			path: '/auth2/connect/token',
			body: {
				grant_type: 'password',
				scope: 'openid permissions global.wildcard',
				username: FIXTURE.username,
				password: '***',
				client_id: FIXTURE.clientId,
				client_secret: '***',
			},
		});
		expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(request.status).toBe(200);
	});

	test('uses the tenant endpoint when Tenant ID is set', async () => {
		await preAuthenticate(credentials({ tenantId: FIXTURE.tenantId }));
		expect(sim.requests[0].path).toBe(`/auth2/${FIXTURE.tenantId}/connect/token`);
		expect(sim.requests[0].status).toBe(200);
	});

	test('a tenant id is one encoded path segment; "." and ".." are refused before any request', async () => {
		await signInFailure(credentials({ tenantId: 'a/b c' }));
		expect(sim.requests[0].path).toBe('/auth2/a%2Fb%20c/connect/token');
		sim.clearLog();
		for (const tenantId of ['.', '..']) {
			expect((await signInFailure(credentials({ tenantId }))).message).toMatch(/Tenant ID/);
		}
		expect(sim.requests).toHaveLength(0);
	});

	test('a user in several tenants is told to set Tenant ID', async () => {
		const error = await signInFailure(credentials({ username: FIXTURE.multiTenantUsername }));
		expect(error.message).toMatch(/invalid_grant.*several tenants/);
	});

	test('wrong password → invalid_grant with an actionable message', async () => {
		const error = await signInFailure(credentials({ password: 'wrong-password-123' }));
		expect(error.message).toBe(
			'ABBYY Vantage refused the sign-in (invalid_grant: invalid_username_or_password). Check Username and Password (and Tenant ID if set). Accounts that sign in through an external identity provider (SSO) cannot use this credential',
		);
	});

	test('wrong user → invalid_grant', async () => {
		const error = await signInFailure(credentials({ username: 'nobody@example.com' }));
		expect(error.message).toMatch(/^ABBYY Vantage refused the sign-in \(invalid_grant/);
	});

	test('wrong client secret and unknown client → invalid_client, pointing at the client fields', async () => {
		for (const overrides of [
			{ clientSecret: 'wrong-secret-456' },
			{ clientId: 'other-client' },
		] as ICredentialDataDecryptedObject[]) {
			const error = await signInFailure(credentials(overrides));
			expect(error.message).toBe(
				'ABBYY Vantage refused the sign-in (invalid_client). Check Client ID and Client Secret',
			);
		}
	});

	test('wrong scope → invalid_scope', async () => {
		const error = await signInFailure(credentials({ scope: 'openid admin.all' }));
		expect(error.message).toBe(
			'ABBYY Vantage refused the sign-in (invalid_scope: Invalid scope: admin.all). The API client may not ask for this Scope: keep the default (openid permissions global.wildcard) unless your Vantage administrator gave the client other scopes',
		);
	});

	test('an unreachable host says so, naming the endpoint', async () => {
		const error = await signInFailure(credentials({ baseUrl: 'http://127.0.0.1:9' }));
		expect(error.message).toMatch(
			/^Could not reach the ABBYY Vantage token endpoint http:\/\/127\.0\.0\.1:9\/auth2\/connect\/token \(ECONNREFUSED\)/,
		);
	});

	test('a server echoing the password is redacted', async () => {
		sim.injectFault('Token', {
			kind: 'status',
			status: 400,
			body: { error: 'invalid_grant', error_description: `bad password ${FIXTURE.password}` },
		});
		const error = await signInFailure(credentials());
		expect(error.message).toContain('bad password ***');
	});

	test.each([
		['plain http to a non-loopback host', 'http://vantage.example.com', /must use https/],
		['a query', 'https://vantage.example.com/?tenant=1', /must not contain a query/],
		[
			'credentials',
			'https://user:pw@vantage.example.com',
			/must not contain a user name or password/,
		],
		['a fragment', 'https://vantage.example.com/#x', /must not contain a fragment/],
		['no URL at all', 'not a url', /not a valid URL/],
		['nothing', '  ', /Base URL is empty/],
		['another scheme', 'ftp://vantage.example.com', /must use https/],
	])('a Custom base URL with %s is refused before any request', async (_name, baseUrl, message) => {
		const error = await signInFailure(credentials({ baseUrl }));
		expect(error.message).toMatch(message);
		expect(sim.requests).toHaveLength(0);
	});

	test('regions map to the vendor hosts; http is fine on loopback', async () => {
		const { resolveBaseUrl } = await import('../../credentials/AbbyyVantageApi.endpoints');
		expect(resolveBaseUrl({ region: 'us' })).toBe('https://vantage-us.abbyy.com');
		expect(resolveBaseUrl({ region: 'eu' })).toBe('https://vantage-eu.abbyy.com');
		expect(resolveBaseUrl({ region: 'au' })).toBe('https://vantage-au.abbyy.com');
		expect(resolveBaseUrl({ region: 'custom', baseUrl: 'http://localhost:8080/vantage/' })).toBe(
			'http://localhost:8080/vantage',
		);
		expect(resolveBaseUrl({ region: 'custom', baseUrl: 'http://[::1]:1' })).toBe('http://[::1]:1');
		expect(resolveBaseUrl({ region: 'custom', baseUrl: 'https://v.example.com' })).toBe(
			'https://v.example.com',
		);
	});
});

describe('client credentials grant', () => {
	test('signs in with the API client alone: no user name or password is sent', async () => {
		const creds = credentials({ grantType: 'clientCredentials', username: '', password: '' });
		const output = await preAuthenticate(creds);
		expect(typeof output.accessToken).toBe('string');
		const [request] = sim.requestsTo('Token');
		expect(request.body).toEqual({
			grant_type: 'client_credentials',
			scope: FIXTURE.scope,
			client_id: FIXTURE.clientId,
			client_secret: '***',
		});
	});

	test('a client that may not use it gets advice to ask the administrator or switch the grant', async () => {
		await sim.stop();
		sim = new VantageSimulator({
			clients: [
				{ clientId: FIXTURE.clientId, clientSecret: FIXTURE.clientSecret, grants: ['password'] },
			],
		});
		await sim.start();
		const error = await signInFailure(credentials({ grantType: 'clientCredentials' }));
		expect(error.message).toMatch(
			/refused the sign-in \(unauthorized_client\)\. This API client may not use this grant type/,
		);
	});

	test('works inside n8n: a node run signs in with client credentials and reads data', async () => {
		const store = simulatorCredentials(sim, {
			grantType: 'clientCredentials',
			username: '',
			password: '',
		});
		const result = await runNode({
			credentials: store,
			parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThan(0);
		expect(sim.requestsTo('Token')[0].body).toMatchObject({ grant_type: 'client_credentials' });
	});

	test('the user fields are shown only for the password grant', () => {
		const byName = Object.fromEntries(credentialType.properties.map((p) => [p.name, p]));
		expect(byName.grantType).toMatchObject({ default: 'password' });
		expect(byName.username.displayOptions).toEqual({ show: { grantType: ['password'] } });
		expect(byName.password.displayOptions).toEqual({ show: { grantType: ['password'] } });
	});
});

describe('authenticate and test request', () => {
	test('authenticate sends the token as a Bearer header and keeps other headers', async () => {
		const authenticate = credentialType.authenticate as (
			c: ICredentialDataDecryptedObject,
			o: IHttpRequestOptions,
		) => Promise<IHttpRequestOptions>;
		const options = await authenticate(
			{ accessToken: 'tok-123' },
			{ url: 'https://x', headers: { Accept: 'application/json' } },
		);
		expect(options).toEqual({
			url: 'https://x',
			headers: { Accept: 'application/json', Authorization: 'Bearer tok-123' },
		});
	});

	test('the token field is hidden, expirable and masked; secrets are password fields', () => {
		const byName = Object.fromEntries(credentialType.properties.map((p) => [p.name, p]));
		expect(byName.accessToken).toMatchObject({
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
		});
		expect(byName.clientSecret.typeOptions).toEqual({ password: true });
		expect(byName.password.typeOptions).toEqual({ password: true });
	});

	test('the Test button resolves the same region hosts as the node, and a custom Base URL', () => {
		const baseURL = credentialType.test.request.baseURL as string;
		for (const [region, host] of Object.entries(REGION_HOSTS)) {
			expect(resolveCredentialExpression(baseURL, { region })).toBe(host);
		}
		expect(
			resolveCredentialExpression(baseURL, {
				region: 'custom',
				baseUrl: ' http://127.0.0.1:8080/vantage/ ',
			}),
		).toBe('http://127.0.0.1:8080/vantage');
	});

	test('the Test button makes a cheap authenticated GET', () => {
		expect(credentialType.test.request).toMatchObject({
			method: 'GET',
			url: '/api/publicapi/v1/catalogs',
		});
	});
});

describe('inside n8n (WorkflowExecute + httpRequestWithAuthentication)', () => {
	const statusOf = (concurrency = 1) =>
		nodeParams('report', 'getExportStatus', {
			requestId: '={{ $json.requestId }}',
			options: { concurrency },
		});

	async function exports(count: number): Promise<Array<{ requestId: string }>> {
		const token = (await preAuthenticate(credentials())).accessToken as string;
		const ids: Array<{ requestId: string }> = [];
		for (let i = 0; i < count; i++) {
			const res = await n8nHttpHelper.helpers.httpRequest({
				method: 'POST',
				url: `${sim.url}/api/reporting/v2/exports/transaction-steps`,
				headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ filters: { startDate: '2025-01-01T00:00:00Z' } }),
			} as IHttpRequestOptions);
			ids.push(res as { requestId: string });
		}
		sim.clearLog();
		return ids;
	}

	test('one token request serves a run over many items, even with concurrency', async () => {
		const items = await exports(12);
		const store = simulatorCredentials(sim);
		const result = await runNode({ credentials: store, items, parameters: statusOf(4) });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(12);
		expect(sim.requestsTo('Token')).toHaveLength(1);
		expect(sim.requestsTo('GetExportStatus').every((r) => r.tokenSerial === 2)).toBe(true);
		expect(store.preAuthenticationCalls).toBe(1);
	});

	test('the stored token is reused by the next execution', async () => {
		const items = await exports(2);
		const store = simulatorCredentials(sim);
		await runNode({ credentials: store, items, parameters: statusOf() });
		await runNode({ credentials: store, items, parameters: statusOf() });
		expect(sim.requestsTo('Token')).toHaveLength(1);
		expect(new Set(sim.requestsTo('GetExportStatus').map((r) => r.tokenSerial)).size).toBe(1);
	});

	test('a revoked token → 401 → one sign-in → the request is sent again and succeeds', async () => {
		const items = await exports(1);
		const store = simulatorCredentials(sim);
		await runNode({ credentials: store, items, parameters: statusOf() });
		sim.revokeTokens();
		sim.clearLog();
		const result = await runNode({ credentials: store, items, parameters: statusOf() });
		expect(result.error).toBeUndefined();
		expect(sim.requests.map((r) => `${r.route}:${r.status}`)).toEqual([
			'GetExportStatus:401',
			'Token:200',
			'GetExportStatus:200',
		]);
		expect(store.preAuthenticationCalls).toBe(2);
	});

	test('executions in flight at once in one n8n process (a queue worker) share one sign-in after a revoke', async () => {
		const items = await exports(1);
		const store = simulatorCredentials(sim);
		await runNode({ credentials: store, items, parameters: statusOf() });
		sim.revokeTokens();
		sim.clearLog();
		// A slow sign-in: every execution meets the 401 before the first sign-in has finished.
		sim.injectFault('Token', { kind: 'delay', ms: 300 }, 1);
		const runs = await Promise.all(
			Array.from(
				{ length: 5 },
				async () => await runNode({ credentials: store, items, parameters: statusOf() }),
			),
		);
		expect(runs.map((r) => r.error)).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
		]);
		expect(sim.requestsTo('GetExportStatus').filter((r) => r.status === 401)).toHaveLength(5);
		expect(sim.requestsTo('Token')).toHaveLength(1);
	});

	test('a token another n8n process stored meanwhile is taken instead of signing in again', async () => {
		// Queue mode: this worker's execution started with token A; the other worker signed in and
		// stored token B in the credential. When A expires, the execution takes B from the credential.
		const [item] = await exports(1);
		const store = simulatorCredentials(sim);
		sim.setTokenLifetime(1);
		await runNode({ credentials: store, items: [item], parameters: statusOf() });
		const tokenA = store.data.accessToken;
		sim.setTokenLifetime(3600);
		sim.scriptNextExport({ path: ['Processing', 'Succeeded'], advanceEvery: { ms: 2500 } });
		const [waited] = await exports(1);
		const run = runNode({
			credentials: store,
			items: [waited],
			parameters: nodeParams('report', 'waitForExport', {
				requestId: '={{ $json.requestId }}',
				options: { pollInterval: 1, maxPollInterval: 1 },
			}),
		});
		await sleep(300);
		const tokenB = await token(sim);
		store.data = { ...store.data, accessToken: tokenB };
		sim.clearLog();
		const result = await run;
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.status).toBe('Succeeded');
		expect(tokenA).not.toBe(tokenB);
		const polls = sim.requestsTo('GetExportStatus');
		expect(polls.some((r) => r.status === 401)).toBe(true);
		expect(polls.at(-1)?.status).toBe(200);
		// No sign-in: the refused token was replaced by the stored one.
		expect(sim.requestsTo('Token')).toHaveLength(0);
	});

	test('401 even after signing in again fails once, clearly, without a loop', async () => {
		const items = await exports(1);
		sim.injectFault('GetExportStatus', { kind: 'status', status: 401 }, Infinity);
		const store = simulatorCredentials(sim);
		const result = await runNode({ credentials: store, items, parameters: statusOf() });
		expect(result.error?.message).toBe(
			'ABBYY Vantage did not accept the access token, even after signing in again [item 0]',
		);
		expect(sim.requestsTo('GetExportStatus')).toHaveLength(2);
		expect(sim.requestsTo('Token')).toHaveLength(2);
	});

	test('a wrong password fails the node with the sign-in message and sends no API request', async () => {
		const store = simulatorCredentials(sim, { password: 'not-the-password' });
		const result = await runNode({
			credentials: store,
			parameters: { ...statusOf(), requestId: 'x' },
		});
		expect(result.error?.message).toMatch(/refused the sign-in \(invalid_grant/);
		expect(sim.requestsTo('GetExportStatus')).toHaveLength(0);
		expect(serialize(result)).not.toContain('not-the-password');
		expect(serialize(result)).not.toContain(FIXTURE.clientSecret);
	});

	test('a bad base URL fails before any request, naming the credential field', async () => {
		const store = simulatorCredentials(sim, { baseUrl: 'http://vantage.example.com' });
		const result = await runNode({
			credentials: store,
			parameters: { ...statusOf(), requestId: 'x' },
		});
		expect(result.error?.message).toBe(
			'Credential: Base URL must use https:// (plain http:// is allowed only for localhost)',
		);
		expect(sim.requests).toHaveLength(0);
	});
});
