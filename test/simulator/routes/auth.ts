/**
 * Auth area: the OAuth2 token endpoint (resource owner password and client credentials grants),
 * IdentityServer style, with RFC 6749 §5.2 errors. Not in the OpenAPI documents; see
 * https://docs.abbyy.com/vantage/developer/authentication/resource-owner-password-credentials and
 * https://docs.abbyy.com/vantage/developer/authentication/client-credentials
 */
import { FIXTURE } from '../fixture';
import { HttpProblem, route, type Reply, type RequestContext, type Route } from '../http';
import type { SimulatorCore } from '../server';

const ALLOWED_SCOPES = new Set([
	'openid',
	'permissions',
	'global.wildcard',
	'publicapi.all',
	'offline_access',
]);

export class AuthArea {
	readonly routes: Route[];

	constructor(private readonly core: SimulatorCore) {
		const token = (ctx: RequestContext) => this.token(ctx);
		this.routes = [
			route('Token', 'POST', '/auth2/connect/token', token, { anonymous: true }),
			route('Token', 'POST', '/auth2/:tenantId/connect/token', token, { anonymous: true }),
		];
	}

	private token(ctx: RequestContext): Reply {
		const { options, tokens } = this.core;
		const type = (ctx.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		if (type !== 'application/x-www-form-urlencoded') {
			throw oauthError(
				400,
				'invalid_request',
				'The request body must be application/x-www-form-urlencoded',
			);
		}
		const form = new URLSearchParams(ctx.rawBody.toString('utf8'));
		const client = options.clients.find((c) => c.clientId === form.get('client_id'));
		if (!client || client.clientSecret !== form.get('client_secret'))
			throw oauthError(400, 'invalid_client');
		const grantType = form.get('grant_type');
		if (grantType !== 'password' && grantType !== 'client_credentials')
			throw oauthError(400, 'unsupported_grant_type');
		if (!(client.grants ?? ['password', 'client_credentials']).includes(grantType))
			throw oauthError(400, 'unauthorized_client');
		const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
		const unknownScope = scopes.find((s) => !ALLOWED_SCOPES.has(s));
		if (unknownScope) throw oauthError(400, 'invalid_scope', `Invalid scope: ${unknownScope}`);
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
		const lifetime = options.tokenLifetimeSeconds;
		const accessToken = tokens.issue(user.username, tenantId ?? user.tenants[0], lifetime);
		return {
			status: 200,
			json: {
				access_token: accessToken,
				expires_in: lifetime,
				token_type: 'Bearer',
				scope: scopes.length ? scopes.join(' ') : FIXTURE.scope,
			},
		};
	}
}

function oauthError(status: number, error: string, description?: string): HttpProblem {
	return new HttpProblem(status, {
		error,
		...(description ? { error_description: description } : {}),
	});
}
