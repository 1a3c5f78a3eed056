import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { newerTokenOrFind, tokenOrFind, tokensOf, usable, type CredentialTokens } from './tokens';

/**
 * One client's side (one node run) of replacing a refused token: its requests in flight share one
 * replacement, and clients of the same credential in this process share one sign-in, the first
 * one included.
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
	 * Before this client's first request: when the credential holds no token yet, take the one a
	 * sign-in under way in this process finds (runs starting together, such as a burst of pushes or
	 * a queue worker's executions, sign in once, not once each). Otherwise this request signs in (n8n
	 * does, the token being empty): returns the function to call once it has been answered, and the
	 * others take the token as soon as n8n has written it here, before the request itself is sent.
	 * A sign-in that fails leaves them to try their own. No stored token of another run is taken
	 * here: a credential just edited must sign in with what it holds now.
	 */
	async first(): Promise<(() => void) | undefined> {
		if (this.tokenInUse() !== '') return undefined;
		const search = await tokenOrFind(this.state, false);
		if ('token' in search) {
			this.credentials.accessToken = search.token;
			return undefined;
		}
		let settle: ((token: string | undefined) => void) | undefined = search.settle;
		const once = (token: string | undefined) => {
			settle?.(token);
			settle = undefined;
		};
		whenTokenWritten(this.credentials, once);
		return () => once(this.tokenInUse() || undefined);
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

/**
 * Call `written` when n8n writes a token into `credentials` (its sign-in assigns the result to the
 * object it was given, before it sends the request): the property becomes a plain value again at
 * that write. When n8n signs in with a copy instead, nothing is called and the caller settles
 * once the request has been answered.
 */
function whenTokenWritten(
	credentials: ICredentialDataDecryptedObject,
	written: (token: string) => void,
): void {
	let value = credentials.accessToken;
	Object.defineProperty(credentials, 'accessToken', {
		configurable: true,
		enumerable: true,
		get: () => value,
		set: (next: unknown) => {
			value = next as typeof value;
			Object.defineProperty(credentials, 'accessToken', {
				configurable: true,
				enumerable: true,
				writable: true,
				value: next,
			});
			if (typeof next === 'string' && next !== '') written(next);
		},
	});
}
