/**
 * Auth area: the OAuth2 token endpoint, IdentityServer style, with RFC 6749 §5.2 errors: the
 * resource owner password and client credentials grants, the authorization code grant with PKCE
 * and the refresh token grant. Not in the OpenAPI documents; see
 * https://docs.abbyy.com/vantage/developer/authentication/resource-owner-password-credentials,
 * https://docs.abbyy.com/vantage/developer/authentication/client-credentials and
 * https://docs.abbyy.com/vantage/developer/authentication/authorization-code-flow
 * The authorize endpoint and its sign-in page are in ./authorize.ts.
 */
import { FIXTURE, type SimClient } from '../fixture';
import { HttpProblem, route, type Reply, type RequestContext, type Route } from '../http';
import { REFRESH_TOKEN_LIFETIME_SECONDS, type OAuthGrants } from '../oauth';
import type { SimulatorCore } from '../server';

export const ALLOWED_SCOPES = new Set([
	'openid',
	'permissions',
	'global.wildcard',
	'publicapi.all',
	'offline_access',
]);

const GRANTS = ['password', 'client_credentials', 'authorization_code', 'refresh_token'] as const;
type GrantType = (typeof GRANTS)[number];

export class AuthArea {
	readonly routes: Route[];

	constructor(
		private readonly core: SimulatorCore,
		private readonly grants: OAuthGrants,
	) {
		const token = (ctx: RequestContext) => this.token(ctx);
		this.routes = [
			route('Token', 'POST', '/auth2/connect/token', token, { anonymous: true }),
			route('Token', 'POST', '/auth2/:tenantId/connect/token', token, { anonymous: true }),
		];
	}

	private token(ctx: RequestContext): Reply {
		const type = (ctx.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		if (type !== 'application/x-www-form-urlencoded') {
			throw oauthError(
				400,
				'invalid_request',
				'The request body must be application/x-www-form-urlencoded',
			);
		}
		const form = new URLSearchParams(ctx.rawBody.toString('utf8'));
		const client = this.authenticateClient(ctx, form);
		const grantType = form.get('grant_type') as GrantType | null;
		if (!grantType || !GRANTS.includes(grantType)) throw oauthError(400, 'unsupported_grant_type');
		// A refresh token comes with an authorization code grant: allowed with it.
		const needs = grantType === 'refresh_token' ? 'authorization_code' : grantType;
		if (
			!(client.grants ?? ['password', 'client_credentials', 'authorization_code']).includes(needs)
		)
			throw oauthError(400, 'unauthorized_client');
		if (grantType === 'authorization_code') return this.codeGrant(ctx, form, client);
		if (grantType === 'refresh_token') return this.refreshGrant(ctx, form, client);
		return this.userGrant(ctx, form, client, grantType);
	}

	/**
	 * The client, authenticated with HTTP Basic (client_secret_basic, which RFC 6749 §2.3.1 says a
	 * server MUST support; n8n 1.x's code exchange uses it, n8n 2.x sends the client in the form) or with client_id and client_secret in the
	 * form (client_secret_post, as ABBYY's pages show); never both (RFC 6749 §2.3).
	 */
	private authenticateClient(ctx: RequestContext, form: URLSearchParams): SimClient {
		const basic = /^Basic\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '')?.[1];
		let clientId = form.get('client_id');
		let clientSecret = form.get('client_secret');
		if (basic) {
			if (clientSecret !== null)
				throw oauthError(400, 'invalid_request', 'More than one client authentication method');
			const decoded = Buffer.from(basic, 'base64').toString('utf8');
			const colon = decoded.indexOf(':');
			if (colon === -1) throw oauthError(401, 'invalid_client');
			const basicId = safeDecode(decoded.slice(0, colon));
			if (clientId !== null && clientId !== basicId) throw oauthError(401, 'invalid_client');
			clientId = basicId;
			clientSecret = safeDecode(decoded.slice(colon + 1));
		}
		const client = this.core.options.clients.find((c) => c.clientId === clientId);
		if (!client || client.clientSecret !== clientSecret) throw oauthError(400, 'invalid_client');
		return client;
	}

	private userGrant(
		ctx: RequestContext,
		form: URLSearchParams,
		client: SimClient,
		grantType: 'password' | 'client_credentials',
	): Reply {
		const { options } = this.core;
		const scopes = this.scopes(form.get('scope'));
		// A client_credentials token acts as the client's service user (inferred: tenant and roles
		// come from how the client was registered).
		const username =
			grantType === 'client_credentials'
				? (client.serviceUser ?? FIXTURE.username)
				: form.get('username');
		const user = options.users.find((u) => u.username === username);
		if (!user || (grantType === 'password' && user.password !== form.get('password'))) {
			throw oauthError(400, 'invalid_grant', 'invalid_username_or_password');
		}
		// A user of the tenant's external identity provider has no Vantage password (docs: the
		// password flow fails for tenants on SAML SSO); the error is inferred.
		if (grantType === 'password' && user.sso) {
			throw oauthError(400, 'invalid_grant', 'invalid_username_or_password');
		}
		const tenantId = ctx.params.tenantId ?? null;
		if (tenantId !== null && !user.tenants.includes(tenantId)) {
			throw oauthError(400, 'invalid_grant', 'invalid_username_or_password');
		}
		if (tenantId === null && user.tenants.length > 1 && grantType === 'password') {
			// The vendor says an e-mail in several tenants needs the tenant-specific endpoint.
			// The error here is inferred: not documented by the vendor.
			throw oauthError(
				400,
				'invalid_grant',
				'The user belongs to several tenants; use the tenant-specific token endpoint',
			);
		}
		return this.tokenReply(user.username, tenantId ?? user.tenants[0], scopes);
	}

	/**
	 * ABBYY's token request for the code (authorization code flow page): grant_type
	 * authorization_code, code, redirect_uri, code_verifier and the client; within a minute.
	 * Refused codes and verifiers are `invalid_grant` (RFC 6749 §5.2, RFC 7636 §4.6).
	 */
	private codeGrant(ctx: RequestContext, form: URLSearchParams, client: SimClient): Reply {
		const grant = this.grants.redeemCode(
			form.get('code'),
			client.clientId,
			form.get('redirect_uri'),
			form.get('code_verifier'),
		);
		if ('refused' in grant) throw oauthError(400, 'invalid_grant', grant.refused);
		// The token endpoint of another tenant does not redeem this tenant's codes (inferred).
		const tenantId = ctx.params.tenantId ?? null;
		if (tenantId !== null && tenantId !== grant.tenant)
			throw oauthError(400, 'invalid_grant', 'invalid_authorization_code');
		return this.tokenReply(grant.username, grant.tenant, grant.scope, client);
	}

	/**
	 * A refresh (RFC 6749 §6): a new access token and a new refresh token; the one redeemed is
	 * refused from then on (rotation). A narrower `scope` may be asked for, not a wider one.
	 */
	private refreshGrant(ctx: RequestContext, form: URLSearchParams, client: SimClient): Reply {
		const stored = this.grants.redeemRefreshToken(form.get('refresh_token'), client.clientId);
		if ('refused' in stored) throw oauthError(400, 'invalid_grant', stored.refused);
		const tenantId = ctx.params.tenantId ?? null;
		if (tenantId !== null && tenantId !== stored.tenant)
			throw oauthError(400, 'invalid_grant', 'invalid_refresh_token');
		const asked = form.get('scope');
		const scopes = asked ? this.scopes(asked) : stored.scope;
		if (scopes.some((s) => !stored.scope.includes(s)))
			throw oauthError(400, 'invalid_scope', 'The scope is wider than the one granted');
		return this.tokenReply(stored.username, stored.tenant, scopes, client);
	}

	private scopes(text: string | null): string[] {
		const scopes = (text ?? '').split(' ').filter(Boolean);
		const unknownScope = scopes.find((s) => !ALLOWED_SCOPES.has(s));
		if (unknownScope) throw oauthError(400, 'invalid_scope', `Invalid scope: ${unknownScope}`);
		return scopes;
	}

	/**
	 * The token response: ABBYY's fields (access_token, expires_in, token_type, scope), and for the
	 * code and refresh grants a refresh_token when offline_access was granted to a client allowed
	 * offline access (docs: create-client-using-api, allowOfflineAccess).
	 */
	private tokenReply(
		username: string,
		tenant: string,
		scopes: string[],
		refreshFor?: SimClient,
	): Reply {
		const lifetime = this.core.options.tokenLifetimeSeconds;
		const accessToken = this.core.tokens.issue(username, tenant, lifetime);
		const offline =
			refreshFor !== undefined &&
			refreshFor.allowOfflineAccess !== false &&
			scopes.includes('offline_access');
		return {
			status: 200,
			json: {
				access_token: accessToken,
				expires_in: lifetime,
				token_type: 'Bearer',
				...(offline
					? {
							refresh_token: this.grants.issueRefreshToken(
								{ clientId: refreshFor.clientId, username, tenant, scope: scopes },
								REFRESH_TOKEN_LIFETIME_SECONDS,
							),
						}
					: {}),
				scope: scopes.length ? scopes.join(' ') : FIXTURE.scope,
			},
		};
	}
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return text;
	}
}

export function oauthError(status: number, error: string, description?: string): HttpProblem {
	return new HttpProblem(status, {
		error,
		...(description ? { error_description: description } : {}),
	});
}
