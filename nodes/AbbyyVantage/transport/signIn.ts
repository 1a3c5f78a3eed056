import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * Sign-ins after a 401, per credential, shared by every execution of this n8n process (a queue
 * worker runs many at once): the first client that sees a token refused signs in, the others
 * wait for it and take its token. One sign-in per worker per expiry, not one per execution in
 * flight. Holds only the latest renewal of each credential; the credential n8n stores (in the
 * shared database) stays the source of the token for executions that start later, on any worker.
 */
interface SharedRenewal {
	/** The token Vantage refused. */
	refused: string;
	/** The token the sign-in gave, or undefined if it failed. */
	token: Promise<string | undefined>;
}
const sharedRenewals = new Map<string, SharedRenewal>();

/**
 * One client's side of signing in again after a 401: the requests of one client (one node run)
 * share one sign-in, and clients of the same credential in this process share theirs.
 */
export class TokenRenewal {
	/** The sign-in in progress after a 401; the other requests wait for it. */
	private renewal?: Promise<unknown>;

	/** Completed sign-ins after a 401: a 401 from before the latest one needs no new one. */
	private renewals = 0;

	/**
	 * @param credentials the decrypted credential n8n signs in with (it writes the new token here)
	 * @param credentialId the stored credential's id: the key shared with other executions
	 */
	constructor(
		private readonly credentials: ICredentialDataDecryptedObject,
		private readonly credentialId: string,
	) {}

	/** What a request notes before it is sent, to tell later whether its 401 is still news. */
	snapshot(): { renewalsBefore: number; tokenUsed: string } {
		return {
			renewalsBefore: this.renewals,
			tokenUsed: String(this.credentials.accessToken ?? ''),
		};
	}

	/** Wait for a sign-in in progress, if any. */
	async settled(): Promise<void> {
		if (this.renewal) await this.renewal;
	}

	/**
	 * After a 401: the first request that sees the token refused clears it, so that n8n runs the
	 * credential's sign-in when this request is sent again; the others wait for that (one sign-in
	 * per expiry, not one per request in flight). Returns the function that ends the wait, to be
	 * called once that request has been answered, or undefined when another request is already
	 * signing in or has done so.
	 */
	start({ renewalsBefore, tokenUsed }: ReturnType<TokenRenewal['snapshot']>) {
		if (this.renewals !== renewalsBefore || this.renewal) return undefined;
		const credentials = this.credentials;
		const key = this.credentialId;
		const shared = key && tokenUsed ? sharedRenewals.get(key) : undefined;
		if (shared && shared.refused === tokenUsed) {
			// Another execution of this process is signing in (or has) for the same refused token.
			this.renewal = shared.token.then((token) => {
				// Its sign-in failed: clear the token so that this client's next attempt signs in.
				credentials.accessToken = token ?? '';
				this.renewals++;
				this.renewal = undefined;
			});
			return undefined;
		}
		credentials.accessToken = '';
		let finish!: () => void;
		let signedIn: ((token: string | undefined) => void) | undefined;
		if (key && tokenUsed) {
			sharedRenewals.set(key, {
				refused: tokenUsed,
				token: new Promise<string | undefined>((resolve) => (signedIn = resolve)),
			});
		}
		this.renewal = new Promise<void>((resolve) => {
			finish = () => {
				const token = credentials.accessToken ? String(credentials.accessToken) : undefined;
				signedIn?.(token);
				if (!token && sharedRenewals.get(key)?.refused === tokenUsed) sharedRenewals.delete(key);
				this.renewals++;
				this.renewal = undefined;
				resolve();
			};
		});
		return finish;
	}
}
