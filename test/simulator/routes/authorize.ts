/**
 * Authorize area: Vantage's authorization server for the authorization code flow with PKCE
 * (https://docs.abbyy.com/vantage/developer/authentication/authorization-code-flow): the
 * authorize endpoint, checked field by field against ABBYY's table (client_id, redirect_uri,
 * response_type=code, scope, state, code_challenge, code_challenge_method=S256, productId), the
 * sign-in page it shows (the tenant's identity provider, SSO users included: a form with a Sign In
 * button) and the tenant's OIDC discovery document
 * (https://docs.abbyy.com/vantage/developer/authentication/authentication). Not in the OpenAPI
 * documents. Errors follow RFC 6749 §4.1.2.1: a bad client or redirect URI is shown on an error
 * page and never redirected; any other error, and the user's Cancel (access_denied), goes back to
 * the redirect URI with `error` and the `state`. Page wording and error descriptions are inferred.
 */
import { FIXTURE, type SimClient, type SimUser } from '../fixture';
import { route, type Reply, type RequestContext, type Route } from '../http';
import type { AuthorizeRequest, OAuthGrants } from '../oauth';
import type { SimulatorCore } from '../server';
import { ALLOWED_SCOPES } from './auth';

/** Where the sign-in page posts its form. */
export const SIGN_IN_PATH = '/auth2/account/login';

/** An authorize error that goes back to the client (RFC 6749 §4.1.2.1). */
interface Redirected {
	error: string;
	description: string;
}

function redirected(error: string, description: string): Redirected {
	return { error, description };
}

export class AuthorizeArea {
	readonly routes: Route[];

	constructor(
		private readonly core: SimulatorCore,
		private readonly grants: OAuthGrants,
	) {
		const authorize = (ctx: RequestContext) => this.authorize(ctx);
		const discovery = (ctx: RequestContext) => this.discovery(ctx);
		this.routes = [
			route('Authorize', 'GET', '/auth2/connect/authorize', authorize, { anonymous: true }),
			route('Authorize', 'GET', '/auth2/:tenantId/connect/authorize', authorize, {
				anonymous: true,
			}),
			route('SignIn', 'POST', SIGN_IN_PATH, (ctx) => this.signIn(ctx), { anonymous: true }),
			route('Discovery', 'GET', '/auth2/:tenantId/.well-known/openid-configuration', discovery, {
				anonymous: true,
			}),
			route(
				'Discovery',
				'GET',
				'/auth2/:tenantId/.well-known/openid-configuration/jwks',
				(ctx) => this.jwks(ctx),
				{ anonymous: true },
			),
		];
	}

	private authorize(ctx: RequestContext): Reply {
		const q = ctx.query;
		const tenantId = ctx.params.tenantId ?? null;
		if (tenantId !== null && !this.tenantExists(tenantId))
			return errorPage(404, 'invalid_request', `Unknown tenant ${tenantId}`);
		// Errors about the client or the redirect URI are shown here: the redirect URI is not trusted.
		const client = this.core.options.clients.find((c) => c.clientId === q.get('client_id'));
		if (!client)
			return errorPage(400, 'unauthorized_client', 'Unknown client or client not enabled');
		if (
			!(client.grants ?? ['password', 'client_credentials', 'authorization_code']).includes(
				'authorization_code',
			)
		)
			return errorPage(
				400,
				'unauthorized_client',
				'The client may not use the authorization code flow',
			);
		const redirectUri = q.get('redirect_uri');
		if (!redirectUri || !redirectUrisOf(client).includes(redirectUri)) {
			return errorPage(
				400,
				'invalid_redirect_uri',
				`Invalid redirect_uri ${redirectUri ?? '(none)'}: it is not among the redirect URLs of client ${client.clientId}. Ask ABBYY support to whitelist it.`,
			);
		}
		const state = q.get('state');
		const request = this.validate(ctx, client, redirectUri, tenantId);
		if ('error' in request) {
			return redirect(redirectUri, {
				error: request.error,
				error_description: request.description,
				...(state !== null ? { state } : {}),
			});
		}
		return signInPage(this.grants.hold(request));
	}

	/** ABBYY's table, field by field; the first field that is wrong is the error. */
	private validate(
		ctx: RequestContext,
		client: SimClient,
		redirectUri: string,
		tenantId: string | null,
	): AuthorizeRequest | Redirected {
		const q = ctx.query;
		if (q.get('response_type') !== 'code')
			return redirected('unsupported_response_type', 'response_type must be code');
		const scope = (q.get('scope') ?? '').split(' ').filter(Boolean);
		const unknown = scope.find((s) => !ALLOWED_SCOPES.has(s));
		if (unknown) return redirected('invalid_scope', `Invalid scope: ${unknown}`);
		if (!scope.includes('openid')) return redirected('invalid_scope', 'openid is required');
		if (scope.includes('offline_access') && client.allowOfflineAccess === false)
			return redirected('invalid_scope', 'The client may not ask for offline_access');
		const codeChallenge = q.get('code_challenge');
		if (!codeChallenge) return redirected('invalid_request', 'code challenge required');
		if (q.get('code_challenge_method') !== 'S256')
			return redirected('invalid_request', 'Transform algorithm not supported: use S256');
		// A base64url SHA-256 digest: 43 characters (RFC 7636 §4.2).
		if (!/^[A-Za-z0-9\-_]{43}$/.test(codeChallenge))
			return redirected('invalid_request', 'Invalid code_challenge');
		const productId = q.get('productId');
		if (productId !== FIXTURE.productId)
			return redirected('invalid_request', `Unknown productId ${productId ?? '(none)'}`);
		return {
			clientId: client.clientId,
			redirectUri,
			scope,
			state: q.get('state'),
			codeChallenge,
			codeChallengeMethod: 'S256',
			productId,
			tenantId,
		};
	}

	/** The sign-in page's form: Sign In, or Cancel (the user declines: access_denied). */
	private signIn(ctx: RequestContext): Reply {
		const type = (ctx.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		if (type !== 'application/x-www-form-urlencoded')
			return errorPage(400, 'invalid_request', 'The sign-in form must be form-encoded');
		const form = new URLSearchParams(ctx.rawBody.toString('utf8'));
		const id = form.get('request') ?? '';
		const request = this.grants.pendingRequest(id);
		if (!request)
			return errorPage(
				400,
				'invalid_request',
				'This sign-in is over (used, cancelled or unknown): start again with Connect my account',
			);
		const back = (fields: Record<string, string>) => {
			this.grants.release(id);
			return redirect(request.redirectUri, {
				...fields,
				...(request.state !== null ? { state: request.state } : {}),
			});
		};
		if (form.get('action') === 'cancel')
			return back({ error: 'access_denied', error_description: 'The user declined the sign-in' });
		const user = this.core.options.users.find((u) => u.username === form.get('username'));
		if (!user || user.password !== form.get('password'))
			return signInPage(id, 'Invalid username or password');
		const tenant = tenantOf(user, request.tenantId);
		if ('problem' in tenant) return signInPage(id, tenant.problem);
		const code = this.grants.issueCode({ ...request, username: user.username, tenant: tenant.id });
		return back({ code, scope: request.scope.join(' ') });
	}

	/** The tenant's OpenID Connect discovery document, its endpoints tenant-specific. */
	private discovery(ctx: RequestContext): Reply {
		const tenantId = ctx.params.tenantId;
		if (!this.tenantExists(tenantId)) return { status: 404, empty: true };
		const issuer = `http://${ctx.req.headers.host ?? `${this.core.options.host}`}/auth2/${encodeURIComponent(tenantId)}`;
		return {
			status: 200,
			json: {
				issuer,
				jwks_uri: `${issuer}/.well-known/openid-configuration/jwks`,
				authorization_endpoint: `${issuer}/connect/authorize`,
				token_endpoint: `${issuer}/connect/token`,
				scopes_supported: [...ALLOWED_SCOPES],
				response_types_supported: ['code'],
				response_modes_supported: ['query'],
				grant_types_supported: [
					'authorization_code',
					'client_credentials',
					'refresh_token',
					'password',
				],
				subject_types_supported: ['public'],
				id_token_signing_alg_values_supported: ['RS256'],
				code_challenge_methods_supported: ['S256'],
				token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
			},
		};
	}

	private jwks(ctx: RequestContext): Reply {
		if (!this.tenantExists(ctx.params.tenantId)) return { status: 404, empty: true };
		return { status: 200, json: { keys: [] } };
	}

	private tenantExists(tenantId: string): boolean {
		return this.core.options.users.some((u) => u.tenants.includes(tenantId));
	}
}

export function redirectUrisOf(client: SimClient): string[] {
	return client.redirectUris ?? [FIXTURE.redirectUri];
}

/** The tenant a sign-in is for: the endpoint's, else the user's only one (inferred). */
function tenantOf(user: SimUser, tenantId: string | null): { id: string } | { problem: string } {
	if (tenantId !== null) {
		return user.tenants.includes(tenantId)
			? { id: tenantId }
			: { problem: `${user.username} is not a member of tenant ${tenantId}` };
	}
	if (user.tenants.length > 1)
		return {
			problem: `${user.username} belongs to several tenants: set Tenant ID in the credential to sign in to one of them`,
		};
	return { id: user.tenants[0] };
}

function redirect(uri: string, fields: Record<string, string>): Reply {
	const url = new URL(uri);
	for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
	return {
		status: 302,
		bytes: Buffer.alloc(0),
		contentType: 'text/html; charset=utf-8',
		headers: { location: url.toString(), 'cache-control': 'no-store' },
	};
}

function escape(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function html(status: number, title: string, body: string): Reply {
	return {
		status,
		bytes: Buffer.from(
			`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`,
			'utf8',
		),
		contentType: 'text/html; charset=utf-8',
		headers: { 'cache-control': 'no-store' },
	};
}

function signInPage(requestId: string, problem?: string): Reply {
	return html(
		200,
		'Sign in to ABBYY Vantage',
		`<h1>Sign in to ABBYY Vantage</h1>${problem ? `<p role="alert" class="error">${escape(problem)}</p>` : ''}<form method="post" action="${SIGN_IN_PATH}"><input type="hidden" name="request" value="${escape(requestId)}"><label>E-mail <input name="username" type="email" autocomplete="username"></label><label>Password <input name="password" type="password" autocomplete="current-password"></label><button type="submit" name="action" value="signin">Sign In</button><button type="submit" name="action" value="cancel">Cancel</button></form>`,
	);
}

function errorPage(status: number, error: string, description: string): Reply {
	return html(
		status,
		'ABBYY Vantage: sign-in error',
		`<h1>Sorry, there was an error: ${escape(error)}</h1><p class="error-description">${escape(description)}</p>`,
	);
}
