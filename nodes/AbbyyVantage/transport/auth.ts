import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { baseUrlProblem, redact, TEST_PATH } from '../../../credentials/AbbyyVantageApi.endpoints';
import { TokenRenewal } from './signIn';
import { newerTokenOrFind, tokensOf, usable, type CredentialTokens } from './tokens';

/**
 * Which credential the node signs in with, and how a refused access token is replaced for each:
 * the ABBYY Vantage API credential (password or client credentials: the credential's own
 * sign-in, ./signIn.ts) or the ABBYY Vantage OAuth2 API credential (authorization code with
 * PKCE: n8n holds the tokens and refreshes them, on our call).
 */
export const VANTAGE_API = 'abbyyVantageApi';
export const VANTAGE_PKCE = 'abbyyVantageOAuth2Api';
export type CredentialType = typeof VANTAGE_API | typeof VANTAGE_PKCE;

type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IWebhookFunctions;

/**
 * The credential type the node's Authentication parameter chose (workflows saved before it
 * existed have none: the ABBYY Vantage API credential). Read the same way in an execution, a
 * poll and a list search.
 */
export function credentialTypeOf(ctx: Context): CredentialType {
	let value: unknown;
	try {
		if (typeof (ctx as Partial<Context>).getNodeParameter === 'function') {
			value =
				'getInputData' in ctx
					? (ctx as IExecuteFunctions).getNodeParameter('authentication', 0, 'vantageApi')
					: (ctx as IPollFunctions).getNodeParameter('authentication', 'vantageApi');
		}
	} catch {
		value = undefined;
	}
	return value === 'oAuth2' ? VANTAGE_PKCE : VANTAGE_API;
}

/** Why the credential cannot be used as it is, before any request; undefined when it can. */
export function credentialProblem(
	type: CredentialType,
	credentials: ICredentialDataDecryptedObject,
): { message: string; description: string } | undefined {
	const problem = baseUrlProblem(credentials);
	if (problem) {
		return {
			message: `Credential: ${problem}`,
			description: 'Open the ABBYY Vantage credential and correct Region or Base URL.',
		};
	}
	if (type === VANTAGE_PKCE && !accessTokenOf(credentials)) {
		return {
			message: 'The ABBYY Vantage OAuth2 credential is not connected',
			description: RECONNECT,
		};
	}
	return undefined;
}

const RECONNECT =
	'Reconnect the ABBYY Vantage OAuth2 credential: open it and click Connect my account.';

/** What the transport needs to replace a token Vantage refused (401). */
export interface Renewal {
	/** The token requests are sent with now, to tell later which token a 401 refused. */
	tokenInUse(): string;
	/** Wait for a replacement in progress, if any. */
	settled(): Promise<void>;
	/**
	 * After Vantage refused `refused`: hold another token. Returns a function to call once the
	 * request sent again has been answered when that request counts as signed in again (a second
	 * 401 then fails it), or undefined when it was only given a newer token. Throws
	 * `RenewalRefused` when no new token can be had.
	 */
	replace(refused: string): Promise<(() => void) | undefined>;
}

/** The token could not be renewed; the message is safe to show and says what to do. */
export class RenewalRefused extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'RenewalRefused';
	}
}

/** How the node replaces a refused token for `type`. */
export function renewalFor(
	ctx: Context,
	type: CredentialType,
	credentials: ICredentialDataDecryptedObject,
	node: INode,
	baseUrl: string,
): Renewal {
	const ref = node.credentials?.[type];
	const readStored = async () => await ctx.getCredentials(type);
	if (type === VANTAGE_PKCE) {
		return new OAuth2Renewal(ctx, credentials, {
			id: ref?.id ?? undefined,
			name: ref?.name ?? '',
			baseUrl,
			readStored,
		});
	}
	return new TokenRenewal(
		credentials,
		ref?.id ?? undefined,
		async () => (await readStored()).accessToken,
	);
}

/** The secrets of a credential of either type, for redaction. */
export function secretsOf(credentials: ICredentialDataDecryptedObject | undefined): unknown[] {
	const c = credentials ?? {};
	const tokens = (c.oauthTokenData ?? {}) as IDataObject;
	return [c.accessToken, c.password, c.clientSecret, tokens.access_token, tokens.refresh_token];
}

function accessTokenOf(
	credentials: ICredentialDataDecryptedObject | undefined,
): string | undefined {
	const token = (credentials?.oauthTokenData as IDataObject | undefined)?.access_token;
	return typeof token === 'string' && token !== '' ? token : undefined;
}

// ------------------------------------------------------------------ OAuth2

/** Marks a request sent again after a refresh as signed in again: a second 401 fails it. */
const SIGNED_IN_AGAIN = () => {};

/** n8n's `refreshOAuth2Token` helper (n8n 1.9x and later); n8n 1.85 has none. */
type RefreshHelper = (this: Context, type: string) => Promise<unknown>;

/**
 * One node run's side of replacing a refused OAuth2 access token. n8n signs each request with the
 * token stored in the credential at that moment and refreshes only when it sees a 401 thrown;
 * the transport reads every answer itself (a 401 is returned, not thrown), so the refresh is
 * asked for here, once for all requests in flight and for every execution of this process with
 * the same credential: n8n 1.x refreshes each 401 on its own, and Vantage's refresh tokens are
 * single-use, so a second refresh with the same refresh token would be refused (invalid_grant).
 * A token another process stored meanwhile is taken instead of refreshing again.
 */
export class OAuth2Renewal implements Renewal {
	private renewal?: Promise<void>;
	/** The token n8n sends now, as far as this run knows (n8n reads it from the credential). */
	private known: string;
	private readonly state: CredentialTokens;
	/** A refusal this run met already, for the token it could not replace. */
	private refusal?: { token: string; error: RenewalRefused };
	/** Never in a message: the client secret and the tokens. */
	private readonly secrets: unknown[];
	/** Without a refresh token (no offline_access granted) n8n cannot refresh. */
	private readonly hasRefreshToken: boolean;

	constructor(
		private readonly ctx: Context,
		credentials: ICredentialDataDecryptedObject,
		private readonly credential: {
			id: string | undefined;
			name: string;
			baseUrl: string;
			/** The credential as stored now (read again from n8n). */
			readStored: () => Promise<ICredentialDataDecryptedObject>;
		},
	) {
		this.known = accessTokenOf(credentials) ?? '';
		const refreshToken = (credentials.oauthTokenData as IDataObject | undefined)?.refresh_token;
		this.hasRefreshToken = typeof refreshToken === 'string' && refreshToken !== '';
		this.state = tokensOf(credential.id);
		this.secrets = secretsOf(credentials);
	}

	tokenInUse(): string {
		return this.known;
	}

	async settled(): Promise<void> {
		if (this.renewal) await this.renewal;
	}

	async replace(refused: string): Promise<(() => void) | undefined> {
		if (this.renewal) await this.renewal;
		// The refresh for this token was refused already: no request is sent again for nothing.
		if (this.refusal?.token === refused) throw this.refusal.error;
		if (this.known !== refused) return undefined;
		let done!: () => void;
		this.renewal = new Promise<void>((resolve) => {
			done = () => {
				this.renewal = undefined;
				resolve();
			};
		});
		try {
			return await this.renew(refused);
		} finally {
			done();
		}
	}

	private async renew(refused: string): Promise<(() => void) | undefined> {
		const state = this.state;
		// Another execution of this process refreshed: take its token.
		const search = await newerTokenOrFind(state, refused);
		if ('token' in search) return this.adopt(search.token);
		const settle = search.settle;
		let token: string | undefined;
		try {
			// Another process may have refreshed already and stored its token.
			const stored = accessTokenOf(await this.credential.readStored().catch(() => undefined));
			if (usable(state, stored)) {
				token = stored;
				return this.adopt(stored);
			}
			token = await this.refresh(refused);
			this.known = token;
			return SIGNED_IN_AGAIN;
		} finally {
			// A failed refresh finds nothing: the others then meet the same refusal.
			settle(token);
		}
	}

	private adopt(token: string): undefined {
		this.known = token;
		return undefined;
	}

	/** Refresh through n8n, which stores the new tokens in the credential; the new access token. */
	private async refresh(refused: string): Promise<string> {
		let reason: unknown;
		let given: unknown;
		if (!this.hasRefreshToken) {
			const error = new RenewalRefused(
				`${this.refusalStart()} (Vantage issued no refresh token: keep offline_access in the credential’s Scope). ${RECONNECT}`,
			);
			this.refusal = { token: refused, error };
			throw error;
		}
		try {
			const helper = (this.ctx.helpers as { refreshOAuth2Token?: RefreshHelper })
				.refreshOAuth2Token;
			if (typeof helper === 'function') {
				given = ((await helper.call(this.ctx, VANTAGE_PKCE)) as IDataObject | undefined)
					?.access_token;
			} else {
				reason = await this.refreshThroughN8n();
			}
		} catch (error) {
			reason = error;
		}
		if (reason === undefined && usable(this.state, given)) return given;
		// What n8n stored is the truth: its refresh, or another process's (n8n 1.x refreshes
		// without a lock across processes, and a second refresh with a used token is refused).
		const stored = accessTokenOf(await this.credential.readStored().catch(() => undefined));
		if (usable(this.state, stored)) return stored;
		const error = this.refusedError(reason);
		if (!unreachable(reason)) this.refusal = { token: refused, error };
		throw error;
	}

	/**
	 * n8n 1.85 has no refresh helper: a cheap read (the catalog list, as the credential's Test)
	 * sent the way n8n refreshes, its 401 thrown, so that n8n refreshes and stores the tokens. Its
	 * answer does not matter; the stored token tells whether the refresh worked.
	 */
	private async refreshThroughN8n(): Promise<unknown> {
		const options: IHttpRequestOptions = {
			method: 'GET',
			url: this.credential.baseUrl + TEST_PATH,
			headers: { Accept: 'application/json' },
		};
		try {
			await this.ctx.helpers.httpRequestWithAuthentication.call(this.ctx, VANTAGE_PKCE, options);
			return undefined;
		} catch (error) {
			return error;
		}
	}

	private refusalStart(): string {
		const name = this.credential.name ? ` "${this.credential.name}"` : '';
		return `ABBYY Vantage did not renew the sign-in of the OAuth2 credential${name}`;
	}

	private refusedError(reason: unknown): RenewalRefused {
		const code = networkCode(reason);
		if (code) {
			const name = this.credential.name ? ` "${this.credential.name}"` : '';
			return new RenewalRefused(
				`Could not reach the ABBYY Vantage token endpoint to renew the sign-in of the OAuth2 credential${name} (${code}). Check Region or Base URL, and that n8n can reach it`,
			);
		}
		// n8n's own words when they add something (not its "reconnect", said below anyway).
		const said = messageOf(reason)?.replace(/[.\s]+$/, '');
		const why =
			said && !/reconnect|invalid_grant|grant .*invalid|is invalid, expired, revoked/i.test(said)
				? redact(said, this.secrets).slice(0, 300)
				: 'Vantage refused the refresh token: it expired, was used already or was revoked';
		return new RenewalRefused(`${this.refusalStart()} (${why}). ${RECONNECT}`);
	}
}

function messageOf(error: unknown): string | undefined {
	const message = (error as { message?: unknown } | undefined)?.message;
	return typeof message === 'string' && message ? message : undefined;
}

/** A socket error code anywhere the error carries one (ECONNREFUSED…): the server was not reached. */
function networkCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
		const code = (current as { code?: unknown }).code;
		if (
			typeof code === 'string' &&
			/^E(CONN|NOTFOUND|AI_AGAIN|HOSTUNREACH|NETUNREACH|TIMEDOUT|PIPE)/.test(code)
		)
			return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

function unreachable(error: unknown): boolean {
	return networkCode(error) !== undefined;
}
