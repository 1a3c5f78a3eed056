import type { INodeProperties } from 'n8n-workflow';

/**
 * Where the ABBYY Vantage API credential points: the regional cloud hosts or a custom base URL
 * (on-premises, simulator), and the OAuth2 token endpoint. One home for these rules, imported by
 * the credential (sign-in, Test button) and by the node's transport (API calls), so both use the
 * same hosts and refuse the same bad URLs before any request.
 * Hosts: the `servers` of ABBYY's OpenAPI documents; token endpoint:
 * https://docs.abbyy.com/vantage/developer/authentication/authentication
 */
export const REGIONS: Readonly<Record<string, { name: string; host: string }>> = {
	au: { name: 'Australia', host: 'https://vantage-au.abbyy.com' },
	eu: { name: 'Europe', host: 'https://vantage-eu.abbyy.com' },
	us: { name: 'United States', host: 'https://vantage-us.abbyy.com' },
};

/** Region and Base URL: where both credentials point (the same fields, read by resolveBaseUrl). */
export const whereProperties: INodeProperties[] = [
	{
		displayName: 'Region',
		name: 'region',
		type: 'options',
		options: [
			...Object.entries(REGIONS).map(([value, { name }]) => ({ name, value })),
			{
				name: 'Custom',
				value: 'custom',
				description: 'On-premises installation or a test server',
			},
		].sort((a, b) => a.name.localeCompare(b.name)),
		default: 'us',
		description: 'The Vantage cloud region your tenant lives in',
	},
	{
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://vantage.example.com',
		description: 'Address of your Vantage installation. Must use https, except for localhost.',
		displayOptions: { show: { region: ['custom'] } },
	},
];

export const REGION_HOSTS: Readonly<Record<string, string>> = Object.fromEntries(
	Object.entries(REGIONS).map(([region, { host }]) => [region, host]),
);

/** The catalog list: a cheap authenticated read for the credential's Test button (GetCatalogs). */
export const TEST_PATH = '/api/publicapi/v1/catalogs';

export const DEFAULT_SCOPE = 'openid permissions global.wildcard';

/**
 * The scope the OAuth2 (authorization code) credential asks for: ABBYY's scope plus
 * `offline_access`, which ABBYY's token request lists and without which no refresh token is
 * issued (docs.abbyy.com/vantage/developer/authentication/authorization-code-flow). n8n sends the
 * scope only with the authorize request, so it goes there.
 */
export const DEFAULT_OAUTH2_SCOPE = `${DEFAULT_SCOPE} offline_access`;

/**
 * The `productId` query parameter of Vantage's authorize request: "the Vantage identifier" (same
 * page). ABBYY says it may change, so the credential keeps it in a field.
 */
export const VANTAGE_PRODUCT_ID = 'a8548c9b-cb90-4c66-8567-d7372bb9b963';

/** `Error.name` of a sign-in failure thrown by the credential. */
export const SIGN_IN_ERROR_NAME = 'VantageSignInError';

/**
 * Why the last sign-in with a credential object failed, by that object: n8n hands the node's
 * decrypted credential to `preAuthentication` and wraps what it throws, and n8n-workflow 1.99 –
 * 1.120 drop the wrapped error. The transport, which gave n8n that object, reads the reason here.
 */
const signInFailures = new WeakMap<object, string>();

/**
 * A sign-in failure whose message is safe to show (built without the request, which holds
 * secrets), recorded for the transport under the credential object that failed to sign in.
 */
export function signInFailed(credentials: object, message: string): Error {
	signInFailures.set(credentials, message);
	const error = new Error(message);
	error.name = SIGN_IN_ERROR_NAME;
	return error;
}

/** The reason the last sign-in with `credentials` failed, once; undefined if none is pending. */
export function takeSignInFailure(credentials: object | undefined): string | undefined {
	if (!credentials) return undefined;
	const message = signInFailures.get(credentials);
	signInFailures.delete(credentials);
	return message;
}

/** Never let a secret through, even if a server, proxy or library echoes it back. */
export function redact(text: string, secrets: unknown[]): string {
	let out = text;
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length >= 3) out = out.split(secret).join('***');
	}
	return out;
}

/**
 * The base URL as the body of an n8n expression over a credential's fields: `$credentials` in a
 * test request, `$self` in a credential's own hidden field. Built from the same region table.
 */
export function baseUrlExpression(fields: '$credentials' | '$self'): string {
	return `(${fields}.region === "custom" ? String(${fields}.baseUrl).trim().replace(/\\/+$/, "") : (${JSON.stringify(REGION_HOSTS)})[${fields}.region])`;
}

/**
 * The credential Test button's base URL as an n8n expression (a declarative test request cannot
 * call code).
 */
export const TEST_BASE_URL_EXPRESSION = `={{ ${baseUrlExpression('$credentials')} }}`;

/** Thrown for a base URL that must not be used; the caller turns it into an n8n error. */
export class BaseUrlError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'BaseUrlError';
	}
}

/** `text` as a URL, or undefined when it is none. */
export function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

function isLoopback(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The API base URL without a trailing slash. Custom URLs must be https (plain http only on a
 * loopback host), and may not carry credentials, a query or a fragment: those would leak into
 * logs or change every request.
 */
export function resolveBaseUrl(credentials: { region?: unknown; baseUrl?: unknown }): string {
	const region = typeof credentials.region === 'string' ? credentials.region : 'us';
	if (region !== 'custom') {
		const host = REGION_HOSTS[region];
		if (!host) throw new BaseUrlError(`Unknown region "${region}"`);
		return host;
	}
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	if (!raw)
		throw new BaseUrlError('Base URL is empty: enter the address of your Vantage installation');
	const url = parseUrl(raw);
	if (!url) throw new BaseUrlError('Base URL is not a valid URL, e.g. https://vantage.example.com');
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
		throw new BaseUrlError(
			'Base URL must use https:// (plain http:// is allowed only for localhost)',
		);
	}
	if (url.username || url.password) {
		throw new BaseUrlError('Base URL must not contain a user name or password');
	}
	if (url.search || raw.includes('?'))
		throw new BaseUrlError('Base URL must not contain a query (?…)');
	if (url.hash || raw.includes('#'))
		throw new BaseUrlError('Base URL must not contain a fragment (#…)');
	return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Why the credential's base URL cannot be used, or undefined when it can. */
export function baseUrlProblem(credentials: {
	region?: unknown;
	baseUrl?: unknown;
}): string | undefined {
	try {
		resolveBaseUrl(credentials);
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

/**
 * Where an OAuth2 endpoint of Vantage's authorization server lives, as an n8n expression over the
 * credential's own fields (`$self`): `/auth2/connect/<endpoint>`, or the tenant's
 * `/auth2/{tenantId}/connect/<endpoint>` when Tenant ID is set, as the tenant's discovery document
 * (`/auth2/{tenantId}/.well-known/openid-configuration`) names them. Same rules as `tokenUrl`.
 */
export function oauthEndpointExpression(endpoint: 'authorize' | 'token'): string {
	const tenant = 'String($self.tenantId ?? "").trim()';
	return `={{ ${baseUrlExpression('$self')} + (${tenant} ? "/auth2/" + encodeURIComponent(${tenant}) : "/auth2") + "/connect/${endpoint}" }}`;
}

/** The OAuth2 token endpoint; tenant-specific when a tenant id is set. */
export function tokenUrl(baseUrl: string, tenantId: unknown): string {
	const tenant = typeof tenantId === 'string' ? tenantId.trim() : '';
	if (tenant === '.' || tenant === '..')
		throw new BaseUrlError('Tenant ID must not be "." or ".."');
	return tenant
		? `${baseUrl}/auth2/${encodeURIComponent(tenant)}/connect/token`
		: `${baseUrl}/auth2/connect/token`;
}

/** A response body as text, whatever form the HTTP helper gave it in; '' when it is not text. */
export function bodyText(data: unknown): string {
	if (Buffer.isBuffer(data)) return data.toString('utf8');
	if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
	return typeof data === 'string' ? data : '';
}

/** A response body as a JSON object: already parsed, or JSON text; undefined otherwise. */
export function jsonObjectOf(data: unknown): Record<string, unknown> | undefined {
	if (
		data &&
		typeof data === 'object' &&
		!Buffer.isBuffer(data) &&
		!(data instanceof ArrayBuffer)
	) {
		return data as Record<string, unknown>;
	}
	try {
		const parsed: unknown = JSON.parse(bodyText(data));
		return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}
