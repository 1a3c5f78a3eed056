/**
 * The simulator as Vantage's authorization server for the authorization code flow with PKCE
 * (docs.abbyy.com/vantage/developer/authentication/authorization-code-flow): the authorize
 * endpoint checks ABBYY's fields one by one, the sign-in page signs a user in and redirects with a
 * code and the state, the token endpoint verifies the PKCE verifier, codes are single-use and
 * short-lived, access tokens expire, refresh tokens rotate, and each tenant has its discovery
 * document.
 */
import { api, requestToken } from '../helpers/http';
import {
	authorize,
	authorizeQuery,
	basicAuth,
	connect,
	pkcePair,
	postToken,
	redirectedTo,
	signInRequestId,
	submitSignIn,
	type TokenSet,
} from '../helpers/oauth';
import { FIXTURE, SIGN_IN_PATH, VantageSimulator } from './simulator';
import { CATALOGS, EXPORTS } from './testkit';

let sim: VantageSimulator;
beforeEach(async () => {
	sim = new VantageSimulator();
	await sim.start();
});
afterEach(async () => {
	jest.restoreAllMocks();
	await sim.stop();
});

/** Authorize with ABBYY's fields, sign the fixture user in: the code and the verifier. */
async function codeFor(
	options: { username?: string; scope?: string } = {},
): Promise<{ code: string; verifier: string; back: URL }> {
	const pkce = pkcePair();
	const page = await authorize(
		sim.url,
		authorizeQuery(pkce, options.scope ? { scope: options.scope } : {}),
	);
	const back = redirectedTo(
		await submitSignIn(sim.url, signInRequestId(page), { username: options.username }),
	);
	return { code: back.searchParams.get('code')!, verifier: pkce.verifier, back };
}

async function exchange(
	code: string,
	verifier: string | undefined,
	extra: Record<string, string | undefined> = {},
	headers: Record<string, string> = { authorization: basicAuth() },
) {
	return await postToken(
		sim.url,
		{
			code,
			grant_type: 'authorization_code',
			redirect_uri: FIXTURE.redirectUri,
			code_verifier: verifier,
			...extra,
		},
		headers,
	);
}

async function refresh(refreshToken: string, headers: Record<string, string> = {}) {
	return await postToken(
		sim.url,
		{
			grant_type: 'refresh_token',
			refresh_token: refreshToken,
			client_id: FIXTURE.clientId,
			client_secret: FIXTURE.clientSecret,
		},
		headers,
	);
}

describe('authorize endpoint and sign-in page', () => {
	test('ABBYY’s authorize request shows a sign-in form with a Sign In button', async () => {
		const page = await authorize(sim.url, authorizeQuery(pkcePair()));
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toMatch(/^text\/html/);
		expect(page.text).toContain(`<form method="post" action="${SIGN_IN_PATH}">`);
		expect(page.text).toMatch(/<input name="username"/);
		expect(page.text).toMatch(/<input name="password" type="password"/);
		expect(page.text).toContain('>Sign In</button>');
		expect(sim.requests[0]).toMatchObject({ route: 'Authorize', status: 200 });
	});

	test('signing in redirects to the redirect URI with a code, the state echoed and the scope', async () => {
		const { back } = await codeFor();
		expect(`${back.origin}${back.pathname}`).toBe(FIXTURE.redirectUri);
		expect(back.searchParams.get('state')).toBe('state-1234');
		expect(back.searchParams.get('scope')).toBe(FIXTURE.oauthScope);
		expect(back.searchParams.get('code')).toMatch(/^[\w-]{20,}$/);
		expect(sim.oauthCounts().codesIssued).toBe(1);
	});

	test('a wrong password shows the page again; the same sign-in then succeeds', async () => {
		const id = signInRequestId(await authorize(sim.url, authorizeQuery(pkcePair())));
		const again = await submitSignIn(sim.url, id, { password: 'not-it' });
		expect(again.status).toBe(200);
		expect(again.text).toContain('Invalid username or password');
		expect(signInRequestId(again)).toBe(id);
		expect(redirectedTo(await submitSignIn(sim.url, id)).searchParams.get('code')).toBeTruthy();
		// The sign-in is over: its form cannot be sent again.
		const over = await submitSignIn(sim.url, id);
		expect(over.status).toBe(400);
		expect(over.headers.location).toBeUndefined();
	});

	test('Cancel redirects with access_denied and the state', async () => {
		const id = signInRequestId(await authorize(sim.url, authorizeQuery(pkcePair())));
		const back = redirectedTo(await submitSignIn(sim.url, id, { action: 'cancel' }));
		expect(back.searchParams.get('error')).toBe('access_denied');
		expect(back.searchParams.get('state')).toBe('state-1234');
		expect(back.searchParams.get('code')).toBeNull();
	});

	test('a redirect URI that is not whitelisted: an error page, invalid_redirect_uri, no redirect', async () => {
		const page = await authorize(
			sim.url,
			authorizeQuery(pkcePair(), {
				redirect_uri: 'https://n8n.example.com/rest/oauth2-credential/callback',
			}),
		);
		expect(page.status).toBe(400);
		expect(page.headers.location).toBeUndefined();
		expect(page.text).toContain('invalid_redirect_uri');
		expect(page.text).toContain('https://n8n.example.com/rest/oauth2-credential/callback');
		// Once ABBYY support whitelists it, the same request is accepted.
		sim.allowRedirectUri('https://n8n.example.com/rest/oauth2-credential/callback');
		const ok = await authorize(
			sim.url,
			authorizeQuery(pkcePair(), {
				redirect_uri: 'https://n8n.example.com/rest/oauth2-credential/callback',
			}),
		);
		expect(ok.status).toBe(200);
	});

	test.each([
		['no client_id', { client_id: undefined }, 'unauthorized_client'],
		['an unknown client_id', { client_id: 'someone-else' }, 'unauthorized_client'],
		['no redirect_uri', { redirect_uri: undefined }, 'invalid_redirect_uri'],
	])('%s: an error page, never a redirect', async (_name, overrides, error) => {
		const page = await authorize(sim.url, authorizeQuery(pkcePair(), overrides));
		expect(page.status).toBe(400);
		expect(page.headers.location).toBeUndefined();
		expect(page.text).toContain(error);
	});

	test.each([
		['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
		['no response_type', { response_type: undefined }, 'unsupported_response_type'],
		['an unknown scope', { scope: 'openid admin.everything' }, 'invalid_scope'],
		['a scope without openid', { scope: 'permissions global.wildcard' }, 'invalid_scope'],
		['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
		['code_challenge_method plain', { code_challenge_method: 'plain' }, 'invalid_request'],
		['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
		['a code_challenge that is no S256 digest', { code_challenge: 'short' }, 'invalid_request'],
		['no productId', { productId: undefined }, 'invalid_request'],
		['another productId', { productId: '00000000-0000-0000-0000-000000000000' }, 'invalid_request'],
	])('%s: back to the redirect URI with %s and the state', async (_name, overrides, error) => {
		const back = redirectedTo(await authorize(sim.url, authorizeQuery(pkcePair(), overrides)));
		expect(`${back.origin}${back.pathname}`).toBe(FIXTURE.redirectUri);
		expect(back.searchParams.get('error')).toBe(error);
		expect(back.searchParams.get('state')).toBe('state-1234');
		expect(sim.oauthCounts().codesIssued).toBe(0);
	});

	test('a client not allowed offline access may not ask for offline_access', async () => {
		const other = new VantageSimulator({
			clients: [{ ...sim.options.clients[0], allowOfflineAccess: false }],
		});
		await other.start();
		try {
			const back = redirectedTo(await authorize(other.url, authorizeQuery(pkcePair())));
			expect(back.searchParams.get('error')).toBe('invalid_scope');
			// ABBYY's scope alone is fine, and then no refresh token comes.
			const tokens = await connect(other.url, { scope: FIXTURE.scope });
			expect(tokens.refresh_token).toBeUndefined();
		} finally {
			await other.stop();
		}
	});

	test('an e-mail in several tenants signs in through the tenant’s own authorize endpoint', async () => {
		const id = signInRequestId(await authorize(sim.url, authorizeQuery(pkcePair())));
		const refused = await submitSignIn(sim.url, id, { username: FIXTURE.multiTenantUsername });
		expect(refused.status).toBe(200);
		expect(refused.text).toContain('set Tenant ID');
		const tokens = await connect(sim.url, {
			username: FIXTURE.multiTenantUsername,
			tenantId: FIXTURE.secondTenantId,
		});
		expect((await api(sim, tokens.access_token, 'GET', CATALOGS)).status).toBe(200);
		// Not a member of the tenant: refused on the page.
		const page = await authorize(sim.url, authorizeQuery(pkcePair()), FIXTURE.secondTenantId);
		const other = await submitSignIn(sim.url, signInRequestId(page));
		expect(other.text).toContain(`is not a member of tenant ${FIXTURE.secondTenantId}`);
	});
});

describe('token endpoint: the code and its PKCE verifier', () => {
	test('the code and verifier give an access token, a refresh token and expires_in, as the signed-in user', async () => {
		const { code, verifier } = await codeFor({ username: FIXTURE.operatorUsername });
		const res = await exchange(code, verifier);
		expect(res.status).toBe(200);
		const tokens = res.json as TokenSet;
		expect(tokens).toMatchObject({
			token_type: 'Bearer',
			expires_in: 2592000,
			scope: FIXTURE.oauthScope,
		});
		expect(typeof tokens.access_token).toBe('string');
		expect(typeof tokens.refresh_token).toBe('string');
		expect((await api(sim, tokens.access_token, 'GET', CATALOGS)).status).toBe(200);
		// The token is the operator's, not a service user's: reports need another role.
		expect((await api(sim, tokens.access_token, 'GET', EXPORTS)).status).toBe(403);
	});

	test('client_id and client_secret in the form (as ABBYY lists them) are accepted too', async () => {
		const { code, verifier } = await codeFor();
		const res = await exchange(
			code,
			verifier,
			{ client_id: FIXTURE.clientId, client_secret: FIXTURE.clientSecret },
			{},
		);
		expect(res.status).toBe(200);
	});

	test('a wrong client secret is invalid_client; both ways of sending it at once invalid_request', async () => {
		const { code, verifier } = await codeFor();
		const wrong = await exchange(
			code,
			verifier,
			{},
			{ authorization: basicAuth(FIXTURE.clientId, 'nope') },
		);
		expect(wrong.json).toMatchObject({ error: 'invalid_client' });
		const both = await exchange(code, verifier, { client_secret: FIXTURE.clientSecret });
		expect(both.json).toMatchObject({ error: 'invalid_request' });
	});

	test.each([
		['a wrong verifier', 'w'.repeat(43), 'Transformed code verifier does not match code challenge'],
		['no verifier', undefined, 'code_verifier is missing'],
		['a verifier too short for RFC 7636', 'abc', 'code_verifier is malformed'],
	])('%s: invalid_grant, and the code is spent', async (_name, verifier, description) => {
		const { code, verifier: right } = await codeFor();
		const res = await exchange(code, verifier);
		expect(res.status).toBe(400);
		expect(res.json).toEqual({ error: 'invalid_grant', error_description: description });
		expect((await exchange(code, right)).json).toMatchObject({ error: 'invalid_grant' });
	});

	test('a code used twice is refused the second time', async () => {
		const { code, verifier } = await codeFor();
		expect((await exchange(code, verifier)).status).toBe(200);
		const again = await exchange(code, verifier);
		expect(again.status).toBe(400);
		expect(again.json).toEqual({
			error: 'invalid_grant',
			error_description: 'invalid_authorization_code: the code was used already',
		});
		expect(sim.oauthCounts().codesExchanged).toBe(1);
	});

	test('the redirect URI must be the authorize request’s', async () => {
		const { code, verifier } = await codeFor();
		const res = await exchange(code, verifier, { redirect_uri: 'http://localhost:5678/other' });
		expect(res.json).toMatchObject({ error: 'invalid_grant' });
	});

	test('a code older than one minute is refused', async () => {
		const { code, verifier } = await codeFor();
		const now = Date.now();
		jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
		expect((await exchange(code, verifier)).json).toEqual({
			error: 'invalid_grant',
			error_description: 'invalid_authorization_code: the code expired',
		});
	});

	test('a code is redeemed only by the client it was issued to', async () => {
		const other = new VantageSimulator({
			clients: [
				{ clientId: FIXTURE.clientId, clientSecret: FIXTURE.clientSecret },
				{ clientId: 'other-client', clientSecret: 'other-secret-1' },
			],
		});
		await other.start();
		try {
			const pkce = pkcePair();
			const page = await authorize(other.url, authorizeQuery(pkce));
			const code = redirectedTo(
				await submitSignIn(other.url, signInRequestId(page)),
			).searchParams.get('code')!;
			const res = await postToken(
				other.url,
				{
					code,
					grant_type: 'authorization_code',
					redirect_uri: FIXTURE.redirectUri,
					code_verifier: pkce.verifier,
				},
				{ authorization: basicAuth('other-client', 'other-secret-1') },
			);
			expect(res.json).toMatchObject({ error: 'invalid_grant' });
		} finally {
			await other.stop();
		}
	});

	test('an SSO user: the password grant refuses them, the sign-in page signs them in', async () => {
		const password = await requestToken(sim, { username: FIXTURE.ssoUsername });
		expect(password.json).toMatchObject({ error: 'invalid_grant' });
		const tokens = await connect(sim.url, { username: FIXTURE.ssoUsername });
		expect((await api(sim, tokens.access_token, 'GET', EXPORTS)).status).toBe(200);
	});
});

describe('access tokens expire, refresh tokens rotate', () => {
	test('an expired access token gets 401; the refresh token gives a new pair and is refused after', async () => {
		const first = await connect(sim.url);
		sim.expireTokens();
		expect((await api(sim, first.access_token, 'GET', CATALOGS)).status).toBe(401);

		const res = await refresh(first.refresh_token!);
		expect(res.status).toBe(200);
		const second = res.json as TokenSet;
		expect(second).toMatchObject({ token_type: 'Bearer', scope: FIXTURE.oauthScope });
		expect(second.access_token).not.toBe(first.access_token);
		expect(second.refresh_token).toEqual(expect.any(String));
		expect(second.refresh_token).not.toBe(first.refresh_token);
		expect((await api(sim, second.access_token, 'GET', CATALOGS)).status).toBe(200);

		const reused = await refresh(first.refresh_token!);
		expect(reused.status).toBe(400);
		expect(reused.json).toEqual({
			error: 'invalid_grant',
			error_description: 'invalid_refresh_token: used already',
		});
		// The rotated one works, with HTTP Basic too.
		const third = await postToken(
			sim.url,
			{ grant_type: 'refresh_token', refresh_token: second.refresh_token },
			{ authorization: basicAuth() },
		);
		expect(third.status).toBe(200);
		expect(sim.oauthCounts().refreshes).toBe(2);
	});

	test('expires_in follows the configured lifetime; a token past it is refused', async () => {
		sim.setTokenLifetime(0);
		const tokens = await connect(sim.url);
		expect(tokens.expires_in).toBe(0);
		expect((await api(sim, tokens.access_token, 'GET', CATALOGS)).status).toBe(401);
	});

	test('a refresh token is refused to another client, when unknown, and once revoked', async () => {
		const tokens = await connect(sim.url);
		expect(
			(
				await postToken(sim.url, {
					grant_type: 'refresh_token',
					refresh_token: 'not-a-refresh-token',
					client_id: FIXTURE.clientId,
					client_secret: FIXTURE.clientSecret,
				})
			).json,
		).toMatchObject({ error: 'invalid_grant' });
		sim.revokeRefreshTokens();
		expect((await refresh(tokens.refresh_token!)).json).toMatchObject({ error: 'invalid_grant' });
	});

	test('a refresh may narrow the scope, not widen it', async () => {
		const tokens = await connect(sim.url, { scope: 'openid permissions offline_access' });
		const wider = await postToken(sim.url, {
			grant_type: 'refresh_token',
			refresh_token: tokens.refresh_token,
			scope: 'openid permissions global.wildcard',
			client_id: FIXTURE.clientId,
			client_secret: FIXTURE.clientSecret,
		});
		expect(wider.json).toMatchObject({ error: 'invalid_scope' });
	});

	test('expireTokensAfter: the n-th API request and those in flight with it get 401', async () => {
		const tokens = await connect(sim.url);
		sim.setLatency(150);
		sim.expireTokensAfter(3);
		const first = await api(sim, tokens.access_token, 'GET', CATALOGS);
		const second = await api(sim, tokens.access_token, 'GET', CATALOGS);
		// Two at once: the third request expires every token while the fourth is in flight too.
		const [third, fourth] = await Promise.all([
			api(sim, tokens.access_token, 'GET', CATALOGS),
			api(sim, tokens.access_token, 'GET', CATALOGS),
		]);
		expect([first.status, second.status, third.status, fourth.status]).toEqual([
			200, 200, 401, 401,
		]);
	});
});

describe('the tenant’s OIDC discovery document', () => {
	test('names the tenant’s authorize and token endpoints, which complete the flow', async () => {
		const res = await api(
			sim,
			null,
			'GET',
			`/auth2/${FIXTURE.tenantId}/.well-known/openid-configuration`,
		);
		expect(res.status).toBe(200);
		const doc = res.json as Record<string, unknown>;
		const issuer = `${sim.url}/auth2/${FIXTURE.tenantId}`;
		expect(doc).toMatchObject({
			issuer,
			authorization_endpoint: `${issuer}/connect/authorize`,
			token_endpoint: `${issuer}/connect/token`,
			response_types_supported: ['code'],
			code_challenge_methods_supported: ['S256'],
			grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token']),
			token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
		});
		expect(doc.scopes_supported).toEqual(expect.arrayContaining(FIXTURE.oauthScope.split(' ')));
		const jwks = await api(sim, null, 'GET', new URL(doc.jwks_uri as string).pathname);
		expect(jwks.json).toEqual({ keys: [] });
		const tokens = await connect(sim.url, { tenantId: FIXTURE.tenantId });
		expect(sim.requests.map((r) => `${r.route} ${r.path}`)).toEqual(
			expect.arrayContaining([
				`Authorize /auth2/${FIXTURE.tenantId}/connect/authorize`,
				`Token /auth2/${FIXTURE.tenantId}/connect/token`,
			]),
		);
		expect((await api(sim, tokens.access_token, 'GET', CATALOGS)).status).toBe(200);
	});

	test('an unknown tenant has none', async () => {
		const res = await api(
			sim,
			null,
			'GET',
			'/auth2/no-such-tenant/.well-known/openid-configuration',
		);
		expect(res.status).toBe(404);
	});
});

test('the request log masks codes, verifiers, refresh tokens, passwords and client secrets', async () => {
	const tokens = await connect(sim.url);
	await refresh(tokens.refresh_token!);
	const log = JSON.stringify(sim.requests);
	for (const secret of [
		FIXTURE.password,
		FIXTURE.clientSecret,
		tokens.refresh_token!,
		...sim.issuedRefreshTokens(),
		...sim.issuedTokens(),
	])
		expect(log).not.toContain(secret);
	const exchangeRequest = sim.requests.find(
		(r) =>
			r.route === 'Token' && (r.body as Record<string, string>).grant_type === 'authorization_code',
	)!;
	expect(exchangeRequest.body).toMatchObject({ code: '***', code_verifier: '***' });
	expect(exchangeRequest.headers.authorization).toBe('Basic ***');
	const signIn = sim.requests.find((r) => r.route === 'SignIn')!;
	expect(signIn.body).toMatchObject({ username: FIXTURE.username, password: '***' });
});
