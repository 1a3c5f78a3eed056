/** The access tokens the token endpoint issued; the server checks Bearer tokens against them. */
import { randomBytes } from 'node:crypto';

export interface Token {
	/** 1 for the first token issued, 2 for the next …; logged instead of the token itself. */
	serial: number;
	username: string;
	tenantId: string | null;
	expiresAt: number;
	revoked: boolean;
}

export class TokenTable {
	private readonly tokens = new Map<string, Token>();
	private serial = 0;

	/** How many tokens were issued. */
	get count(): number {
		return this.serial;
	}

	issue(username: string, tenantId: string | null, lifetimeSeconds: number): string {
		const accessToken = randomBytes(24).toString('base64url');
		this.tokens.set(accessToken, {
			serial: ++this.serial,
			username,
			tenantId,
			expiresAt: Date.now() + lifetimeSeconds * 1000,
			revoked: false,
		});
		return accessToken;
	}

	find(accessToken: string): Token | undefined {
		return this.tokens.get(accessToken);
	}

	/** Every token issued so far expires now (tokens issued later keep their lifetime). */
	expireAll(): void {
		const now = Date.now();
		for (const token of this.tokens.values()) token.expiresAt = Math.min(token.expiresAt, now);
	}

	revokeAll(): void {
		for (const token of this.tokens.values()) token.revoked = true;
	}

	accessTokens(): string[] {
		return [...this.tokens.keys()];
	}
}
