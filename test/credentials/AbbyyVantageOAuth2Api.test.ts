/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- n8n's own OAuth2 client, as n8n's CLI uses it; ABBYY's public productId */
/**
 * The ABBYY Vantage OAuth2 API credential against ABBYY's authorization code flow page
 * (docs.abbyy.com/vantage/developer/authentication/authorization-code-flow), field by field: the
 * authorize request and the token requests are built here exactly as n8n builds them (n8n's CLI:
 * OauthService.generateAOauth2AuthUri and OAuth2CredentialController.handleCallback, with
 * n8n's own client-oauth2), sent to the simulator, which checks them as Vantage would.
 */
import { createRequire } from 'node:module';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import {
	REGION_HOSTS,
	TEST_BASE_URL_EXPRESSION,
	TEST_PATH,
} from '../../credentials/AbbyyVantageApi.endpoints';
import { AbbyyVantageOAuth2Api } from '../../credentials/AbbyyVantageOAuth2Api.credentials';
import packageJson from '../../package.json';
import { resolveOAuth2Credential } from '../harness/n8n';
import { pkcePair, redirectedTo, signInRequestId, submitSignIn } from '../helpers/oauth';
import { raw } from '../helpers/http';
import {
	FIXTURE,
	fixtureOAuth2CredentialData,
	s256,
	VantageSimulator,
} from '../simulator/simulator';

// n8n's OAuth2 client and query parser, from n8n-core's dependency tree as n8n's CLI loads them.
const requireFromCore = createRequire(require.resolve('n8n-core'));
const { ClientOAuth2 } = requireFromCore('@n8n/client-oauth2') as {
	ClientOAuth2: new (options: Record<string, unknown>) => {
		code: {
			getUri(): string;
			getToken(
				uri: string,
				options?: Record<string, unknown>,
			): Promise<{ data: Record<string, unknown> }>;
		};
		createToken(data: Record<string, unknown>): {
			refresh(options?: Record<string, unknown>): Promise<{ data: Record<string, unknown> }>;
		};
	};
};
const qs = requireFromCore('qs') as { parse(text: string): Record<string, unknown> };

const credentialType = new AbbyyVantageOAuth2Api();
/** Where n8n's OAuth2 callback is on an instance at its default address. */
const CALLBACK = FIXTURE.redirectUri;

let sim: VantageSimulator;
beforeEach(async () => {
	sim = new VantageSimulator();
	await sim.start();
});
afterEach(async () => await sim.stop());

function resolved(overrides: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	return resolveOAuth2Credential({ ...fixtureOAuth2CredentialData(sim.url), ...overrides });
}

/** n8n's OauthService.convertCredentialToOptions (n8n 2.41; 1.123 builds the same). */
function clientOptions(credential: ICredentialDataDecryptedObject): Record<string, unknown> {
	const scope = String(credential.scope ?? 'openid');
	return {
		clientId: credential.clientId,
		clientSecret: credential.clientSecret ?? '',
		accessTokenUri: credential.accessTokenUrl ?? '',
		authorizationUri: credential.authUrl ?? '',
		authentication: credential.authentication ?? 'header',
		redirectUri: CALLBACK,
		scopes: scope.split(','),
		scopesSeparator: scope.includes(',') ? ',' : ' ',
	};
}

/**
 * The options n8n's OAuth2 callback (OAuth2CredentialController.handleCallback, n8n's
 * packages/cli/src/controllers/oauth/oauth2-credential.controller.ts) gives the code exchange of a
 * `pkce` credential. n8n 2.41: the verifier, and with `authentication: body` client_id and
 * client_secret in the form, the secret taken out of the client so that it sends no HTTP Basic.
 * n8n 1.123 and 1.85: the verifier only (their `body` branch is an `else` of the PKCE one), so the
 * client goes as HTTP Basic whatever `authentication` says.
 */
function codeExchange(
	line: '2.41' | '1.x',
	credential: ICredentialDataDecryptedObject,
	verifier: string,
): { client: Record<string, unknown>; options: Record<string, unknown> } {
	const client = clientOptions(credential);
	const body: Record<string, unknown> = { code_verifier: verifier };
	if (line === '2.41' && credential.authentication === 'body') {
		body.client_id = client.clientId;
		if (client.clientSecret) body.client_secret = client.clientSecret;
		delete client.clientSecret;
	}
	return { client, options: { body } };
}

/** n8n's generateAOauth2AuthUri for a `pkce` credential: the authorize URL and the verifier. */
function authorizeUrl(credential: ICredentialDataDecryptedObject, state: string) {
	const pkce = pkcePair();
	const options: Record<string, unknown> = { ...clientOptions(credential), state };
	if (credential.authQueryParameters)
		options.query = qs.parse(String(credential.authQueryParameters));
	options.query = {
		...(options.query as object),
		code_challenge: pkce.challenge,
		code_challenge_method: 'S256',
	};
	return { url: new URL(new ClientOAuth2(options).code.getUri()), pkce };
}

describe('the credential', () => {
	test('extends n8n’s oAuth2Api with the PKCE grant; its test request lists catalogs', () => {
		expect(credentialType.name).toBe('abbyyVantageOAuth2Api');
		expect(credentialType.extends).toEqual(['oAuth2Api']);
		expect(credentialType.properties.find((p) => p.name === 'grantType')).toMatchObject({
			type: 'hidden',
			default: 'pkce',
		});
		expect(credentialType.test.request).toEqual({
			baseURL: TEST_BASE_URL_EXPRESSION,
			url: TEST_PATH,
			method: 'GET',
		});
		// Registered for n8n to load.
		expect(packageJson.n8n.credentials).toContain(
			'dist/credentials/AbbyyVantageOAuth2Api.credentials.js',
		);
	});

	test('n8n resolves the hidden OAuth2 fields from the visible ones', () => {
		expect(resolved()).toMatchObject({
			grantType: 'pkce',
			authUrl: `${sim.url}/auth2/connect/authorize`,
			accessTokenUrl: `${sim.url}/auth2/connect/token`,
			scope: 'openid permissions global.wildcard offline_access',
			authQueryParameters: 'productId=a8548c9b-cb90-4c66-8567-d7372bb9b963',
			authentication: 'body',
		});
		expect(resolved({ region: 'eu' })).toMatchObject({
			authUrl: `${REGION_HOSTS.eu}/auth2/connect/authorize`,
			accessTokenUrl: `${REGION_HOSTS.eu}/auth2/connect/token`,
		});
		// A trailing slash on a custom URL; the tenant's own endpoints, its id encoded.
		expect(resolved({ baseUrl: `${sim.url}/`, tenantId: ' Tenant A/1 ' })).toMatchObject({
			authUrl: `${sim.url}/auth2/Tenant%20A%2F1/connect/authorize`,
			accessTokenUrl: `${sim.url}/auth2/Tenant%20A%2F1/connect/token`,
		});
		// ABBYY says scope and productId may change: an administrator's values go through.
		expect(resolved({ vantageScope: 'openid publicapi.all', productId: 'new&id' })).toMatchObject({
			scope: 'openid publicapi.all',
			authQueryParameters: 'productId=new%26id',
		});
		// Emptied fields fall back to ABBYY's values.
		expect(resolved({ vantageScope: ' ', productId: '' })).toMatchObject({
			scope: FIXTURE.oauthScope,
			authQueryParameters: `productId=${FIXTURE.productId}`,
		});
	});

	test('the stored hidden fields cannot override them (n8n pins hidden OAuth URLs)', () => {
		expect(
			resolved({
				authUrl: 'https://elsewhere.example.com/authorize',
				grantType: 'authorizationCode',
			}),
		).toMatchObject({ authUrl: `${sim.url}/auth2/connect/authorize`, grantType: 'pkce' });
	});
});

describe('ABBYY’s requests, field by field, as n8n sends them', () => {
	test('the authorize request carries exactly ABBYY’s eight fields, and Vantage shows its sign-in page', async () => {
		const credential = resolved();
		const { url, pkce } = authorizeUrl(credential, 'n8n-state-token');
		expect(`${url.origin}${url.pathname}`).toBe(`${sim.url}/auth2/connect/authorize`);
		const fields = Object.fromEntries(url.searchParams);
		// ABBYY's table: client_id, redirect_uri, response_type=code, scope, state, code_challenge,
		// code_challenge_method=S256, productId; nothing else.
		expect(Object.keys(fields).sort()).toEqual(
			[
				'client_id',
				'redirect_uri',
				'response_type',
				'scope',
				'state',
				'code_challenge',
				'code_challenge_method',
				'productId',
			].sort(),
		);
		expect(fields.client_id).toBe(FIXTURE.clientId);
		expect(fields.redirect_uri).toBe(CALLBACK);
		expect(fields.response_type).toBe('code');
		// ABBYY's scope, in its order, plus offline_access for the refresh token.
		expect(fields.scope).toBe('openid permissions global.wildcard offline_access');
		expect(fields.state).toBe('n8n-state-token');
		expect(fields.code_challenge).toBe(s256(pkce.verifier));
		expect(fields.code_challenge_method).toBe('S256');
		expect(fields.productId).toBe('a8548c9b-cb90-4c66-8567-d7372bb9b963');

		const page = await raw(url.toString());
		expect(page.status).toBe(200);
		const back = redirectedTo(await submitSignIn(sim.url, signInRequestId(page)));
		expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
		expect(back.searchParams.get('state')).toBe('n8n-state-token');
		expect(back.searchParams.get('code')).toBeTruthy();
	});

	test.each([
		[
			'2.41',
			'in the form',
			{ client_id: FIXTURE.clientId, client_secret: '***' },
			undefined,
		] as const,
		['1.x', 'as HTTP Basic', {}, 'Basic ***'] as const,
	])(
		'the token request for the code on n8n %s: ABBYY’s fields, the client %s',
		async (line, _how, client, authorization) => {
			const credential = resolved();
			const { url, pkce } = authorizeUrl(credential, 'n8n-state-token');
			const page = await raw(url.toString());
			const back = redirectedTo(await submitSignIn(sim.url, signInRequestId(page)));
			sim.clearLog();
			const exchange = codeExchange(line, credential, pkce.verifier);
			const token = await new ClientOAuth2(exchange.client).code.getToken(
				`${CALLBACK}?${back.searchParams.toString()}`,
				exchange.options,
			);
			expect(token.data).toMatchObject({
				token_type: 'Bearer',
				scope: FIXTURE.oauthScope,
				access_token: expect.any(String),
				refresh_token: expect.any(String),
				expires_in: 2592000,
			});
			const [request] = sim.requests;
			expect(request).toMatchObject({ route: 'Token', path: '/auth2/connect/token', status: 200 });
			expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
			// ABBYY's table: code_verifier, client_id, client_secret, code, redirect_uri, grant_type and
			// scope. n8n 2.41 sends the client in the form (the credential's `authentication: body`),
			// n8n 1.x as HTTP Basic (RFC 6749 §2.3.1, which servers must accept); neither sends the
			// scope (the granted scope comes from the authorize request, RFC 6749 §4.1.3: so
			// offline_access is in the credential's Scope). e2e/oauth.ts checks the same in each n8n.
			expect(request.body).toEqual({
				code: '***',
				grant_type: 'authorization_code',
				redirect_uri: CALLBACK,
				code_verifier: '***',
				...client,
			});
			expect(request.headers.authorization).toBe(authorization);
		},
	);

	test('the refresh request: the refresh token with client_id and client_secret in the form', async () => {
		const credential = resolved();
		const { url, pkce } = authorizeUrl(credential, 'state');
		const back = redirectedTo(
			await submitSignIn(sim.url, signInRequestId(await raw(url.toString()))),
		);
		const client = new ClientOAuth2({
			...clientOptions(credential),
			// n8n-core's createOAuth2Client: the credential's `authentication` (body).
			authentication: credential.authentication,
		});
		const first = await client.code.getToken(`${CALLBACK}?${back.searchParams.toString()}`, {
			body: { code_verifier: pkce.verifier },
		});
		sim.clearLog();
		const second = await client.createToken(first.data).refresh();
		expect(second.data.access_token).not.toBe(first.data.access_token);
		expect(second.data.refresh_token).not.toBe(first.data.refresh_token);
		const [request] = sim.requests;
		expect(request.status).toBe(200);
		expect(request.body).toEqual({
			grant_type: 'refresh_token',
			refresh_token: '***',
			client_id: FIXTURE.clientId,
			client_secret: '***',
		});
		expect(request.headers.authorization).toBeUndefined();
	});

	test('the tenant’s endpoints, as its discovery document names them', async () => {
		const credential = resolved({ tenantId: FIXTURE.tenantId });
		const discovery = await raw(
			`${sim.url}/auth2/${FIXTURE.tenantId}/.well-known/openid-configuration`,
		);
		const doc = discovery.json as { authorization_endpoint: string; token_endpoint: string };
		expect(credential.authUrl).toBe(doc.authorization_endpoint);
		expect(credential.accessTokenUrl).toBe(doc.token_endpoint);
	});
});
