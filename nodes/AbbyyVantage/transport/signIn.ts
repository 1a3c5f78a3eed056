import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { newerTokenOrFind, tokensOf, usable, type CredentialTokens } from './tokens';

/**
 * One client's side (one node run) of replacing a refused token: its requests in flight share one
 * replacement, and clients of the same credential in this process share one sign-in.
 */
export class TokenRenewal {
	/** The replacement in progress; this client's other requests wait for it. */
	private renewal?: Promise<void>;

	/** What this process knows about the credential's tokens: shared by its id, else this run's own. */
	private readonly state: CredentialTokens;

	/**
	 * @param credentials the decrypted credential n8n signs in with (it writes the new token here)
	 * @param credentialId the stored credential's id: the key shared with other executions
	 * @param readStored the token stored in the credential now (read again from n8n)
	 */
	constructor(
		private readonly credentials: ICredentialDataDecryptedObject,
		credentialId: string | undefined,
		private readonly readStored: () => Promise<unknown>,
	) {
		this.state = tokensOf(credentialId);
	}

	/** The token a request is sent with, to tell later which token a 401 refused. */
	tokenInUse(): string {
		return String(this.credentials.accessToken ?? '');
	}

	/** Wait for a replacement in progress, if any. */
	async settled(): Promise<void> {
		if (this.renewal) await this.renewal;
	}

	/**
	 * After Vantage refused `refused` (401): make this client hold another token. Takes the newest
	 * token of this process or the one stored in the credential when Vantage has not refused it;
	 * otherwise clears the token, so that n8n runs the credential's sign-in when this request is
	 * sent again, and returns the function to call once that request has been answered. Returns
	 * undefined when no sign-in is left to this request (just send it again).
	 */
	async replace(refused: string): Promise<(() => void) | undefined> {
		if (this.renewal) {
			await this.renewal;
			return undefined;
		}
		if (this.tokenInUse() !== refused) return undefined;
		let done!: () => void;
		this.renewal = new Promise<void>((resolve) => {
			done = () => {
				this.renewal = undefined;
				resolve();
			};
		});
		const state = this.state;
		// Another execution of this process found a fresh token: take it.
		const search = await newerTokenOrFind(state, refused);
		if ('token' in search) return this.adopt(search.token, done);
		const settle = search.settle;
		// Another worker may have signed in already and stored its token in the credential.
		const stored = await this.readStored().catch(() => undefined);
		if (usable(state, stored)) {
			settle(stored);
			return this.adopt(stored, done);
		}
		this.credentials.accessToken = '';
		return () => {
			const token = this.credentials.accessToken ? String(this.credentials.accessToken) : undefined;
			// A failed sign-in leaves no token: the others then try their own.
			settle(token);
			done();
		};
	}

	private adopt(token: string, done: () => void): undefined {
		this.credentials.accessToken = token;
		done();
		return undefined;
	}
}
