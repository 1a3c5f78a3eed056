/**
 * The authorization server's memory for the authorization code flow with PKCE
 * (docs.abbyy.com/vantage/developer/authentication/authorization-code-flow): sign-ins waiting on
 * the sign-in page, authorization codes (one minute, one use, bound to the client, the redirect
 * URI and the PKCE challenge) and refresh tokens (rotated: each is good for one refresh). What
 * ABBYY's page does not say is IdentityServer's default or RFC 6749 / RFC 7636 behaviour, marked
 * "inferred" where it is used.
 */
import { createHash, randomBytes } from 'node:crypto';

/** The authorize request's fields, as ABBYY's page lists them, after validation. */
export interface AuthorizeRequest {
	clientId: string;
	redirectUri: string;
	scope: string[];
	state: string | null;
	codeChallenge: string;
	codeChallengeMethod: 'S256';
	productId: string;
	/** The tenant of a tenant-specific authorize endpoint (/auth2/{tenantId}/connect/authorize). */
	tenantId: string | null;
}

interface Grant extends AuthorizeRequest {
	username: string;
	/** The tenant the tokens are for. */
	tenant: string;
}

interface StoredCode extends Grant {
	expiresAt: number;
	used: boolean;
}

interface StoredRefreshToken {
	serial: number;
	clientId: string;
	username: string;
	tenant: string;
	scope: string[];
	expiresAt: number;
	/** Exchanged already (one-time use, rotated): refused from then on. */
	used: boolean;
}

/** ABBYY: "you have one minute to exchange it for the access token". */
export const CODE_LIFETIME_MS = 60_000;

/** IdentityServer's default absolute refresh token lifetime, 30 days (inferred). */
export const REFRESH_TOKEN_LIFETIME_SECONDS = 2_592_000;

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** BASE64URL-ENCODE(SHA256(ASCII(code_verifier))), RFC 7636 §4.2. */
export function s256(verifier: string): string {
	return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export class OAuthGrants {
	private readonly pending = new Map<string, AuthorizeRequest>();
	private readonly codes = new Map<string, StoredCode>();
	private readonly refreshTokens = new Map<string, StoredRefreshToken>();
	private refreshSerial = 0;
	/** How many codes were exchanged and refresh tokens redeemed (successfully). */
	readonly counts = { codesIssued: 0, codesExchanged: 0, refreshes: 0 };

	/** A valid authorize request waiting for its user on the sign-in page; its id. */
	hold(request: AuthorizeRequest): string {
		const id = randomBytes(12).toString('base64url');
		this.pending.set(id, request);
		return id;
	}

	/** The waiting request, still pending (undefined once signed in, denied or unknown). */
	pendingRequest(id: string): AuthorizeRequest | undefined {
		return this.pending.get(id);
	}

	/** The user signed in or declined: the request is no longer pending. */
	release(id: string): void {
		this.pending.delete(id);
	}

	issueCode(grant: Grant): string {
		const code = randomBytes(24).toString('base64url');
		this.codes.set(code, { ...grant, expiresAt: Date.now() + CODE_LIFETIME_MS, used: false });
		this.counts.codesIssued++;
		return code;
	}

	/**
	 * Redeem a code (RFC 6749 §4.1.3, RFC 7636 §4.6): the same client, the same redirect URI, a
	 * verifier whose S256 is the challenge, within a minute, once. The reason it is refused, or the
	 * grant it stood for.
	 */
	redeemCode(
		code: string | null,
		clientId: string,
		redirectUri: string | null,
		verifier: string | null,
	): Grant | { refused: string } {
		const stored = code ? this.codes.get(code) : undefined;
		if (!stored) return { refused: 'invalid_authorization_code' };
		// A code is good for one attempt, whatever its outcome (IdentityServer removes it on read).
		const firstUse = !stored.used;
		stored.used = true;
		if (!firstUse) return { refused: 'invalid_authorization_code: the code was used already' };
		if (stored.expiresAt <= Date.now())
			return { refused: 'invalid_authorization_code: the code expired' };
		if (stored.clientId !== clientId)
			return { refused: 'invalid_authorization_code: the code was issued to another client' };
		if (stored.redirectUri !== redirectUri) return { refused: 'invalid_redirect_uri' };
		if (!verifier) return { refused: 'code_verifier is missing' };
		if (!VERIFIER.test(verifier)) return { refused: 'code_verifier is malformed' };
		if (s256(verifier) !== stored.codeChallenge)
			return { refused: 'Transformed code verifier does not match code challenge' };
		this.counts.codesExchanged++;
		return stored;
	}

	issueRefreshToken(
		grant: Pick<StoredRefreshToken, 'clientId' | 'username' | 'tenant' | 'scope'>,
		lifetimeSeconds: number,
	): string {
		const token = randomBytes(32).toString('base64url');
		this.refreshTokens.set(token, {
			...grant,
			serial: ++this.refreshSerial,
			expiresAt: Date.now() + lifetimeSeconds * 1000,
			used: false,
		});
		return token;
	}

	/**
	 * Redeem a refresh token (RFC 6749 §6): the client it was issued to, not expired, not redeemed
	 * before (one-time use: a used one is refused, inferred from IdentityServer's OneTimeOnly).
	 */
	redeemRefreshToken(
		token: string | null,
		clientId: string,
	): StoredRefreshToken | { refused: string } {
		const stored = token ? this.refreshTokens.get(token) : undefined;
		if (!stored) return { refused: 'invalid_refresh_token' };
		if (stored.clientId !== clientId)
			return { refused: 'invalid_refresh_token: issued to another client' };
		if (stored.used) return { refused: 'invalid_refresh_token: used already' };
		if (stored.expiresAt <= Date.now()) return { refused: 'invalid_refresh_token: expired' };
		stored.used = true;
		this.counts.refreshes++;
		return stored;
	}

	/** Every refresh token issued, for "no secret leaked" assertions. */
	issuedRefreshTokens(): string[] {
		return [...this.refreshTokens.keys()];
	}

	/** Refuse every refresh token from now on, as when the user's grant is revoked. */
	revokeRefreshTokens(): void {
		for (const stored of this.refreshTokens.values()) stored.used = true;
	}
}
