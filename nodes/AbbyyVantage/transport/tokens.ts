/**
 * What this n8n process knows about one credential's access tokens, shared by every execution it
 * runs (a queue worker runs many at once, and they may have read different tokens from the
 * database): the tokens Vantage refused, the newest token found here, and the fresh token being
 * found right now. Both renewals use it (./signIn.ts for the ABBYY Vantage API credential,
 * ./auth.ts for OAuth2): a refused token is replaced by one known to be newer before anyone signs
 * in or refreshes, so that a process signs in once per expiry, not once per token in use.
 */
export interface CredentialTokens {
	/** The latest tokens Vantage refused (a few; older ones cannot come back). */
	refused: string[];
	/** The newest token a sign-in or refresh in this process gave. */
	newest?: string;
	/** A fresh token being found (adopted, signed in for or refreshed): resolves to it, or undefined. */
	pending?: Promise<string | undefined>;
}

const REFUSED_KEPT = 16;
/** Keyed by the stored credential's id (unique across credential types). */
const byCredential = new Map<string, CredentialTokens>();

/** The state shared by the credential's id; a run of an unsaved credential keeps its own. */
export function tokensOf(credentialId: string | undefined): CredentialTokens {
	if (!credentialId) return { refused: [] };
	let state = byCredential.get(credentialId);
	if (!state) {
		state = { refused: [] };
		byCredential.set(credentialId, state);
	}
	return state;
}

/** Whether `token` is a token Vantage has not refused. */
export function usable(state: CredentialTokens, token: unknown): token is string {
	return typeof token === 'string' && token !== '' && !state.refused.includes(token);
}

/**
 * Notes that Vantage refused `refused`, then gives the token another execution of this process
 * found meanwhile (waiting for one being found), or else makes this run the one that finds it:
 * the others of the process wait for it until `settle` is called once, with the token found or
 * undefined when none was (the others then try their own). The check and the start happen in one
 * step, so that runs meeting one expiry together start one search, not one each.
 */
export async function newerTokenOrFind(
	state: CredentialTokens,
	refused: string,
): Promise<{ token: string } | { settle: (token: string | undefined) => void }> {
	if (refused && !state.refused.includes(refused)) {
		state.refused.push(refused);
		if (state.refused.length > REFUSED_KEPT) state.refused.shift();
	}
	for (let pending = state.pending; pending; pending = state.pending) {
		const token = await pending;
		if (usable(state, token)) return { token };
	}
	if (usable(state, state.newest)) return { token: state.newest };
	let found!: (token: string | undefined) => void;
	const pending = new Promise<string | undefined>((resolve) => (found = resolve));
	state.pending = pending;
	return {
		settle: (token) => {
			if (token) state.newest = token;
			if (state.pending === pending) state.pending = undefined;
			found(token);
		},
	};
}
