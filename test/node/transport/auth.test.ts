/**
 * The OAuth2 renewal on its own, with an n8n whose refresh has no lock of its own (n8n 1.x:
 * `refreshOAuth2Token` refreshes every time it is called). Vantage's refresh tokens are
 * single-use, so two refreshes for one expiry would make the second fail: the transport must ask
 * for exactly one, whatever the number of requests and runs that met the 401. The refresh here is
 * a real one, against the simulator's token endpoint.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { credentialTypeOf, OAuth2Renewal } from '../../../nodes/AbbyyVantage/transport/auth';
import { connect, postToken, type TokenSet } from '../../helpers/oauth';
import { FIXTURE, VantageSimulator } from '../../simulator/simulator';

let sim: VantageSimulator;
beforeEach(async () => {
	sim = new VantageSimulator();
	await sim.start();
});
afterEach(async () => await sim.stop());

let credentialIds = 0;

/** One stored OAuth2 credential and an n8n 1.x-like refresh helper over it. */
async function storedCredential() {
	const stored: { tokens: TokenSet; refreshCalls: number } = {
		tokens: await connect(sim.url),
		refreshCalls: 0,
	};
	const read = async (): Promise<ICredentialDataDecryptedObject> => ({
		oauthTokenData: { ...stored.tokens } as unknown as IDataObject,
	});
	const ctx = {
		helpers: {
			// As n8n 1.123's refreshOAuth2Token: read the credential, refresh, store; no lock.
			refreshOAuth2Token: async () => {
				stored.refreshCalls++;
				const res = await postToken(sim.url, {
					grant_type: 'refresh_token',
					refresh_token: stored.tokens.refresh_token,
					client_id: FIXTURE.clientId,
					client_secret: FIXTURE.clientSecret,
				});
				if (res.status !== 200) throw new Error((res.json as { error: string }).error);
				stored.tokens = { ...stored.tokens, ...(res.json as TokenSet) };
				return stored.tokens;
			},
		},
	} as unknown as IExecuteFunctions;
	const id = `oauth-cred-${++credentialIds}`;
	const renewal = async () =>
		new OAuth2Renewal(ctx, await read(), {
			id,
			name: 'Vantage',
			baseUrl: sim.url,
			readStored: read,
		});
	return { stored, renewal };
}

test('requests of several runs meeting one expiry: one refresh, each holds the new token', async () => {
	const { stored, renewal } = await storedCredential();
	const old = stored.tokens.access_token;
	const runs = await Promise.all([renewal(), renewal(), renewal()]);
	// Every run has four requests refused with the old token at once.
	const results = await Promise.all(
		runs.flatMap((run) => [1, 2, 3, 4].map(async () => await run.replace(old))),
	);
	expect(stored.refreshCalls).toBe(1);
	expect(sim.oauthCounts().refreshes).toBe(1);
	for (const run of runs) expect(run.tokenInUse()).toBe(stored.tokens.access_token);
	expect(stored.tokens.access_token).not.toBe(old);
	// Exactly one request counts as signed in again (a second 401 fails it); the others just resend.
	expect(results.filter((r) => r !== undefined)).toHaveLength(1);
});

test('a later run that still holds the refused token takes the new one without refreshing', async () => {
	const { stored, renewal } = await storedCredential();
	const old = stored.tokens.access_token;
	const first = await renewal();
	const late = await renewal();
	await first.replace(old);
	expect(await late.replace(old)).toBeUndefined();
	expect(late.tokenInUse()).toBe(stored.tokens.access_token);
	expect(stored.refreshCalls).toBe(1);
});

test('the new token refused too: one more refresh, not one per request', async () => {
	const { stored, renewal } = await storedCredential();
	const run = await renewal();
	await run.replace(stored.tokens.access_token);
	const second = stored.tokens.access_token;
	await Promise.all([run.replace(second), run.replace(second)]);
	expect(stored.refreshCalls).toBe(2);
	expect(run.tokenInUse()).toBe(stored.tokens.access_token);
});

test('a refused refresh is met once per run: the run’s other requests get the same refusal', async () => {
	const { stored, renewal } = await storedCredential();
	sim.revokeRefreshTokens();
	const run = await renewal();
	const old = stored.tokens.access_token;
	const outcomes = await Promise.allSettled([run.replace(old), run.replace(old), run.replace(old)]);
	expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
	expect((outcomes[0] as PromiseRejectedResult).reason.message).toBe(
		'ABBYY Vantage did not renew the sign-in of the OAuth2 credential "Vantage" (Vantage refused the refresh token: it expired, was used already or was revoked). Reconnect the ABBYY Vantage OAuth2 credential: open it and click Connect my account.',
	);
	expect(stored.refreshCalls).toBe(1);
});

test('the Authentication parameter chooses the credential; workflows without it use the API credential', () => {
	const ctx = (value: unknown) =>
		({
			getInputData: () => [],
			getNodeParameter: (_name: string, _item: number, fallback: unknown) => value ?? fallback,
		}) as unknown as IExecuteFunctions;
	expect(credentialTypeOf(ctx('oAuth2'))).toBe('abbyyVantageOAuth2Api');
	expect(credentialTypeOf(ctx('vantageApi'))).toBe('abbyyVantageApi');
	expect(credentialTypeOf(ctx(undefined))).toBe('abbyyVantageApi');
});
