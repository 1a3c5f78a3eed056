import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * What this n8n process knows about one credential's tokens, shared by every execution it runs (a
 * queue worker runs many at once, and they may have read different tokens from the database):
 * the tokens Vantage refused, the newest token a sign-in here gave, and the fresh token being
 * found right now. A refused token is replaced by a token known to be newer, or by the one stored
 * in the credential (another worker may have signed in), before anyone signs in: one sign-in per
 * expiry and worker at most, not one per token in use.
 */
interface CredentialTokens {
	/** The latest tokens Vantage refused (a few; older ones cannot come back). */
	refused: string[];
	/** The newest token a sign-in in this process gave. */
	newest?: string;
	/** A fresh token being found (adopted or signed in for): resolves to it, or undefined. */
	pending?: Promise<string | undefined>;
}

const REFUSED_KEPT = 16;
const byCredential = new Map<string, CredentialTokens>();

function tokensOf(credentialId: string): CredentialTokens {
	let state = byCredential.get(credentialId);
	if (!state) {
		state = { refused: [] };
		byCredential.set(credentialId, state);
	}
	return state;
}

function usable(state: CredentialTokens, token: unknown): token is string {
	return typeof token === 'string' && token !== '' && !state.refused.includes(token);
}

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
		this.state = credentialId ? tokensOf(credentialId) : { refused: [] };
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
		if (refused && !state.refused.includes(refused)) {
			state.refused.push(refused);
			if (state.refused.length > REFUSED_KEPT) state.refused.shift();
		}
		// Another execution of this process is finding a fresh token: take it.
		for (let pending = state.pending; pending; pending = state.pending) {
			const token = await pending;
			if (usable(state, token)) return this.adopt(token, done);
		}
		if (usable(state, state.newest)) return this.adopt(state.newest, done);
		let found!: (token: string | undefined) => void;
		const pending = new Promise<string | undefined>((resolve) => (found = resolve));
		state.pending = pending;
		const settle = (token: string | undefined) => {
			if (token && token !== state.newest) state.newest = token;
			if (state.pending === pending) state.pending = undefined;
			found(token);
		};
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
