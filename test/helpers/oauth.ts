/**
 * The authorization code flow with PKCE against the simulator, by hand (raw HTTP, no redirect
 * followed): what a browser and n8n's OAuth callback do after Connect my account. For the
 * simulator's own tests, and for credentials that start connected (as n8n stores them).
 */
import { randomBytes } from 'node:crypto';

import { FIXTURE, s256, SIGN_IN_PATH } from '../simulator/simulator';
import { raw, type RawResponse } from './http';

export interface Pkce {
	verifier: string;
	challenge: string;
}

/** A fresh code_verifier (RFC 7636 §4.1: 43–128 unreserved characters) and its S256 challenge. */
export function pkcePair(): Pkce {
	const verifier = randomBytes(48).toString('base64url');
	return { verifier, challenge: s256(verifier) };
}

/**
 * ABBYY's authorize request, field by field (authorization code flow page), for the fixture
 * client; `overrides` replaces a field, `undefined` leaves it out.
 */
export function authorizeQuery(
	pkce: Pkce,
	overrides: Record<string, string | undefined> = {},
): URLSearchParams {
	const fields: Record<string, string | undefined> = {
		client_id: FIXTURE.clientId,
		redirect_uri: FIXTURE.redirectUri,
		response_type: 'code',
		scope: FIXTURE.oauthScope,
		state: 'state-1234',
		code_challenge: pkce.challenge,
		code_challenge_method: 'S256',
		productId: FIXTURE.productId,
		...overrides,
	};
	const query = new URLSearchParams();
	for (const [key, value] of Object.entries(fields)) if (value !== undefined) query.set(key, value);
	return query;
}

/** GET the authorize endpoint (tenant-specific when `tenantId` is given). */
export async function authorize(
	baseUrl: string,
	query: URLSearchParams,
	tenantId?: string,
): Promise<RawResponse> {
	const path = tenantId
		? `/auth2/${encodeURIComponent(tenantId)}/connect/authorize`
		: '/auth2/connect/authorize';
	return await raw(`${baseUrl}${path}?${query.toString()}`);
}

/** The pending sign-in's id from the sign-in page's form. */
export function signInRequestId(page: RawResponse): string {
	const id = /name="request" value="([^"]+)"/.exec(page.text)?.[1];
	if (!id) throw new Error(`not a sign-in page (HTTP ${page.status}): ${page.text.slice(0, 300)}`);
	return id;
}

/** Submit the sign-in page's form: Sign In (default) or Cancel. */
export async function submitSignIn(
	baseUrl: string,
	requestId: string,
	fields: { username?: string; password?: string; action?: 'signin' | 'cancel' } = {},
): Promise<RawResponse> {
	const form = new URLSearchParams({
		request: requestId,
		username: fields.username ?? FIXTURE.username,
		password: fields.password ?? FIXTURE.password,
		action: fields.action ?? 'signin',
	});
	return await raw(baseUrl + SIGN_IN_PATH, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: form.toString(),
	});
}

/** The query of a redirect's Location. */
export function redirectedTo(res: RawResponse): URL {
	const location = res.headers.location;
	if (res.status !== 302 || typeof location !== 'string')
		throw new Error(`not a redirect (HTTP ${res.status}): ${res.text.slice(0, 300)}`);
	return new URL(location);
}

/** HTTP Basic client authentication (RFC 6749 §2.3.1), as n8n 1.x's code exchange sends it (n8n 2.x sends the client in the form). */
export function basicAuth(
	clientId: string = FIXTURE.clientId,
	secret: string = FIXTURE.clientSecret,
): string {
	return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

/** POST a form to the token endpoint (tenant-specific when `tenantId` is given). */
export async function postToken(
	baseUrl: string,
	form: Record<string, string | undefined>,
	headers: Record<string, string> = {},
	tenantId?: string,
): Promise<RawResponse> {
	const body = new URLSearchParams();
	for (const [key, value] of Object.entries(form)) if (value !== undefined) body.set(key, value);
	const path = tenantId
		? `/auth2/${encodeURIComponent(tenantId)}/connect/token`
		: '/auth2/connect/token';
	return await raw(baseUrl + path, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
		body: body.toString(),
	});
}

export interface TokenSet {
	access_token: string;
	refresh_token?: string;
	expires_in: number;
	token_type: string;
	scope: string;
}

/**
 * Sign `username` in through the whole flow (authorize, sign-in page, code exchange with the
 * verifier, client authenticated with HTTP Basic as n8n 1.x does; n8n 2.x sends it in the form) and return the token response, as
 * n8n stores it in the credential's `oauthTokenData` after Connect my account.
 */
export async function connect(
	baseUrl: string,
	options: {
		username?: string;
		redirectUri?: string;
		scope?: string;
		tenantId?: string;
	} = {},
): Promise<TokenSet> {
	const pkce = pkcePair();
	const redirectUri = options.redirectUri ?? FIXTURE.redirectUri;
	const page = await authorize(
		baseUrl,
		authorizeQuery(pkce, {
			redirect_uri: redirectUri,
			...(options.scope ? { scope: options.scope } : {}),
		}),
		options.tenantId,
	);
	const back = redirectedTo(
		await submitSignIn(baseUrl, signInRequestId(page), { username: options.username }),
	);
	const code = back.searchParams.get('code');
	if (!code) throw new Error(`no code: ${back.toString()}`);
	const res = await postToken(
		baseUrl,
		{
			code,
			grant_type: 'authorization_code',
			redirect_uri: redirectUri,
			code_verifier: pkce.verifier,
		},
		{ authorization: basicAuth() },
		options.tenantId,
	);
	if (res.status !== 200) throw new Error(`code exchange failed: ${res.text}`);
	return res.json as TokenSet;
}
