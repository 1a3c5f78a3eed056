/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reaches into n8n-core's own module to take away a helper older n8n lacks */
/**
 * The node signed in with the ABBYY Vantage OAuth2 API credential (authorization code with PKCE),
 * run through n8n-core's engine as n8n's CLI runs an `oAuth2Api` credential: n8n signs each
 * request with the stored access token and refreshes it with client-oauth2. The transport reads
 * every answer itself, so it asks n8n for the refresh: once per expiry for all requests in flight
 * and every execution of the process, and a refused refresh says to reconnect.
 */
import { createRequire } from 'node:module';
import { sleep, type IDataObject } from 'n8n-workflow';

import {
	listSearch,
	oauth2Credentials,
	resourceMapping,
	runNode,
	serialize,
	type CredentialStore,
} from '../../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../../helpers/binary';
import { maxInFlight } from '../../helpers/fixture';
import { postToken, type TokenSet } from '../../helpers/oauth';
import { nodeParams, processParams, rl } from '../../helpers/params';
import { FIXTURE, VantageSimulator, type LoggedRequest } from '../../simulator/simulator';
import { ActiveTrigger, triggerParams } from '../trigger/poll';

let sim: VantageSimulator;
let store: CredentialStore;
beforeEach(async () => {
	sim = new VantageSimulator();
	await sim.start();
	sim.setDefaultTransactionScript({ processing: { polls: 0 } });
	store = await oauth2Credentials(sim);
	sim.clearLog();
});
afterEach(async () => await sim.stop());

const tokens = () => store.data.oauthTokenData as unknown as TokenSet;
const refreshes = () =>
	sim
		.requestsTo('Token')
		.filter((r) => (r.body as Record<string, string>).grant_type === 'refresh_token');
const trail = (log: LoggedRequest[]) => log.map((r) => `${r.route}:${r.status}`);

/** Catalog → Get for `count` catalogs at once (Concurrency 4), each a request of its own. */
async function catalogsAtOnce(count: number) {
	const names = Array.from({ length: count }, (_, i) => `Catalog ${i}`);
	for (const name of names) sim.addCatalog(name);
	return await runNode({
		credentials: store,
		items: names.map((catalog) => ({ catalog })),
		parameters: nodeParams('catalog', 'get', {
			catalogId: rl('={{ $json.catalog }}'),
			options: { concurrency: 4 },
		}),
	});
}

describe('operations with the OAuth2 credential', () => {
	test('requests carry the stored access token; nothing signs in', async () => {
		const result = await runNode({
			credentials: store,
			parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.id)).toEqual(
			expect.arrayContaining([FIXTURE.catalogId, FIXTURE.productCatalogId]),
		);
		expect(trail(sim.requests)).toEqual(['GetCatalogs:200']);
		// The token the sign-in gave (serial 1): the signed-in user's own.
		expect(sim.requests[0].tokenSerial).toBe(1);
		expect(sim.requests[0].headers.authorization).toBe('Bearer ***');
	});

	test('Process Document uploads and waits as the signed-in user', async () => {
		const result = await runNode({
			credentials: store,
			items: [fileItem(binaryFile('inv-1.pdf', invoiceText({ number: 'INV-1' })))],
			parameters: processParams(),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'Processed', sourceFiles: ['inv-1.pdf'] });
		expect(sim.requests.every((r) => r.tokenSerial === 1)).toBe(true);
	});

	test('the Catalog picker and the column mapper use the OAuth2 credential', async () => {
		const found = (await listSearch(store, 'searchCatalogs')) as {
			results: Array<{ value: string }>;
		};
		expect(found.results.map((r) => r.value)).toContain(FIXTURE.catalogId);
		const mapped = (await resourceMapping(store, 'getCatalogColumns', {
			catalogId: rl(FIXTURE.productCatalogId),
		})) as { fields: Array<{ id: string }> };
		expect(mapped.fields.map((f) => f.id)).toEqual(expect.arrayContaining(['Code', 'Price']));
		expect(sim.requests.map((r) => r.tokenSerial)).toEqual([1, 1]);
	});

	test('the trigger polls with the OAuth2 credential', async () => {
		const trigger = new ActiveTrigger(() => store, triggerParams('exportFinished'));
		await trigger.poll();
		const requestId = sim.createFinishedExport();
		const run = await trigger.poll();
		expect(run.error).toBeUndefined();
		expect(run.executions[0][0].json).toMatchObject({ requestId, status: 'Succeeded' });
		expect(sim.requests.every((r) => r.route === 'ListExportRequests' && r.tokenSerial === 1)).toBe(
			true,
		);
	});

	test('a credential that is not connected says so before any request', async () => {
		const unconnected = await oauth2Credentials(sim, {}, {});
		delete unconnected.data.oauthTokenData;
		sim.clearLog();
		const result = await runNode({
			credentials: unconnected,
			parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
		});
		expect(result.error?.message).toBe('The ABBYY Vantage OAuth2 credential is not connected');
		expect((result.error as { description?: string }).description).toBe(
			'Reconnect the ABBYY Vantage OAuth2 credential: open it and click Connect my account.',
		);
		expect(sim.requests).toHaveLength(0);
	});
});

describe('an access token that expires with requests in flight', () => {
	test('one refresh for all of them; every item succeeds; the new tokens are stored', async () => {
		const before = tokens();
		sim.setLatency(150);
		// The second request expires every token: it and those in flight with it get 401.
		sim.expireTokensAfter(2);
		const result = await catalogsAtOnce(8);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.id)).toEqual(
			Array.from({ length: 8 }, (_, i) => `Catalog ${i}`),
		);
		const gets = sim.requestsTo('GetCatalog');
		const refused = gets.filter((r) => r.status === 401);
		expect(refused.length).toBeGreaterThanOrEqual(2);
		expect(maxInFlight(refused)).toBeGreaterThanOrEqual(2);
		expect(refreshes()).toHaveLength(1);
		expect(store.tokenUpdates).toBe(1);
		// ABBYY's refresh request: the refresh token, with client_id and client_secret in the form.
		const [refresh] = refreshes();
		expect(refresh.body).toEqual({
			grant_type: 'refresh_token',
			refresh_token: '***',
			client_id: FIXTURE.clientId,
			client_secret: '***',
		});
		expect(refresh.headers.authorization).toBeUndefined();
		// The rotated tokens are the credential's now, and every request after the refresh used them.
		expect(tokens().access_token).not.toBe(before.access_token);
		expect(tokens().refresh_token).not.toBe(before.refresh_token);
		const afterRefresh = gets.filter((r) => r.at >= refresh.finishedAt!);
		expect(afterRefresh.length).toBeGreaterThanOrEqual(refused.length);
		expect(afterRefresh.every((r) => r.status === 200 && r.tokenSerial === 2)).toBe(true);
		// The refresh token used is spent.
		const reused = await postToken(sim.url, {
			grant_type: 'refresh_token',
			refresh_token: before.refresh_token,
			client_id: FIXTURE.clientId,
			client_secret: FIXTURE.clientSecret,
		});
		expect(reused.json).toMatchObject({ error: 'invalid_grant' });
	});

	test('executions at once in one n8n process (a queue worker) share one refresh', async () => {
		sim.expireTokens();
		// A slow refresh: every execution meets its 401 before the first refresh has finished.
		sim.injectFault('Token', { kind: 'delay', ms: 300 }, 1);
		const runs = await Promise.all(
			Array.from(
				{ length: 5 },
				async () =>
					await runNode({
						credentials: store,
						parameters: nodeParams('catalog', 'get', { catalogId: rl(FIXTURE.catalogId) }),
					}),
			),
		);
		expect(runs.map((r) => r.error)).toEqual(Array(5).fill(undefined));
		expect(sim.requestsTo('GetCatalog').filter((r) => r.status === 401)).toHaveLength(5);
		expect(refreshes()).toHaveLength(1);
		expect(store.tokenUpdates).toBe(1);
	});

	test('a token another n8n process stored meanwhile is taken instead of refreshing', async () => {
		sim.setLatency(200);
		sim.expireTokensAfter(1);
		const run = runNode({
			credentials: store,
			parameters: nodeParams('catalog', 'get', { catalogId: rl(FIXTURE.catalogId) }),
		});
		// Queue mode: while this run's request is in flight with the token that just expired,
		// another worker refreshes and stores new tokens in the credential.
		while (sim.inFlight().now === 0) await sleep(5);
		const other = (
			await postToken(sim.url, {
				grant_type: 'refresh_token',
				refresh_token: tokens().refresh_token,
				client_id: FIXTURE.clientId,
				client_secret: FIXTURE.clientSecret,
			})
		).json as TokenSet;
		store.data = { ...store.data, oauthTokenData: other as unknown as IDataObject };
		const result = await run;
		expect(result.error).toBeUndefined();
		expect(refreshes()).toHaveLength(1); // the other worker's
		expect(store.tokenUpdates).toBe(0);
		expect(trail(sim.requestsTo('GetCatalog'))).toEqual(['GetCatalog:401', 'GetCatalog:200']);
		expect(sim.requestsTo('GetCatalog')[1].tokenSerial).toBe(2);
	});
});

describe('a refresh Vantage refuses', () => {
	test('says to reconnect, names the credential, fails each item once, holds no secret', async () => {
		sim.revokeRefreshTokens();
		sim.expireTokens();
		const names = ['A', 'B', 'C'];
		for (const name of names) sim.addCatalog(name);
		const result = await runNode({
			credentials: store,
			continueOnFail: true,
			items: names.map((catalog) => ({ catalog })),
			parameters: nodeParams('catalog', 'get', {
				catalogId: rl('={{ $json.catalog }}'),
				options: { concurrency: 1 },
			}),
		});
		expect(result.items).toHaveLength(3);
		for (const [index, item] of result.items.entries()) {
			expect(item.json.error).toBe(
				`ABBYY Vantage did not renew the sign-in of the OAuth2 credential "ABBYY Vantage account" (Vantage refused the refresh token: it expired, was used already or was revoked). Reconnect the ABBYY Vantage OAuth2 credential: open it and click Connect my account. [item ${index}]`,
			);
		}
		// One refresh tried for the run, not one per item.
		expect(refreshes()).toHaveLength(1);
		expect(refreshes()[0].status).toBe(400);
		const text = serialize(result);
		for (const secret of [
			FIXTURE.clientSecret,
			tokens().access_token,
			tokens().refresh_token!,
			...sim.issuedRefreshTokens(),
		])
			expect(text).not.toContain(secret);
	});

	test('without a refresh token (no offline_access) it says to reconnect too', async () => {
		const noRefresh = await oauth2Credentials(sim, { vantageScope: FIXTURE.scope });
		const withoutRefresh = { ...(noRefresh.data.oauthTokenData as IDataObject) };
		delete withoutRefresh.refresh_token;
		noRefresh.data.oauthTokenData = withoutRefresh;
		sim.expireTokens();
		sim.clearLog();
		const result = await runNode({
			credentials: noRefresh,
			parameters: nodeParams('catalog', 'get', { catalogId: rl(FIXTURE.catalogId) }),
		});
		expect(result.error?.message).toBe(
			'ABBYY Vantage did not renew the sign-in of the OAuth2 credential "ABBYY Vantage account" (Vantage issued no refresh token: keep offline_access in the credential’s Scope). Reconnect the ABBYY Vantage OAuth2 credential: open it and click Connect my account. [item 0]',
		);
		expect(refreshes()).toHaveLength(0);
	});
});

describe('on an n8n without the refreshOAuth2Token helper (n8n 1.85)', () => {
	type Factory = { getRequestHelperFunctions: (...args: unknown[]) => Record<string, unknown> };
	const factory = createRequire(require.resolve('n8n-core'))(
		'./execution-engine/node-execution-context/utils/request-helpers/factory',
	) as Factory;
	const original = factory.getRequestHelperFunctions;
	beforeEach(() => {
		factory.getRequestHelperFunctions = (...args: unknown[]) => {
			const helpers = original(...args);
			delete helpers.refreshOAuth2Token;
			return helpers;
		};
	});
	afterEach(() => {
		factory.getRequestHelperFunctions = original;
	});

	test('n8n refreshes on a 401 it sees thrown: one refresh for the requests in flight', async () => {
		sim.setLatency(150);
		sim.expireTokensAfter(2);
		const result = await catalogsAtOnce(6);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(6);
		expect(refreshes()).toHaveLength(1);
		expect(store.tokenUpdates).toBe(1);
		// The refresh rode on a read of the catalog list, which n8n sent again with the new token.
		expect(trail(sim.requestsTo('GetCatalogs'))).toEqual(['GetCatalogs:401', 'GetCatalogs:200']);
	});

	test('a refused refresh says to reconnect', async () => {
		sim.revokeRefreshTokens();
		sim.expireTokens();
		const result = await runNode({
			credentials: store,
			parameters: nodeParams('catalog', 'get', { catalogId: rl(FIXTURE.catalogId) }),
		});
		expect(result.error?.message).toBe(
			'ABBYY Vantage did not renew the sign-in of the OAuth2 credential "ABBYY Vantage account" (Vantage refused the refresh token: it expired, was used already or was revoked). Reconnect the ABBYY Vantage OAuth2 credential: open it and click Connect my account. [item 0]',
		);
		expect(refreshes()).toHaveLength(1);
	});
});
