/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * The ABBYY Vantage OAuth2 API credential (authorization code with PKCE) inside a real n8n, on
 * every release line the suite runs on (n8n 2.41 and the last 1.x): the credential as n8n stores
 * it after Connect my account (`oauthTokenData`, from a real sign-in of an SSO user on the
 * simulator's sign-in page) imported with `n8n import:credentials`; the three grants side by side
 * in one workflow; a document processed and catalogs listed as the signed-in user; an access token
 * expiring with requests in flight (one refresh, the rotated tokens stored in the credential,
 * the next run using them without a refresh); a refused refresh saying to reconnect.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { connect, type TokenSet } from '../test/helpers/oauth';
import {
	FIXTURE,
	fixtureCredentialData,
	fixtureOAuth2CredentialData,
	type LoggedRequest,
} from '../test/simulator/simulator';
import { assert, check, equal } from './lib/checks';
import { hostVersions, n8n, parseRun, RUN_DIR, runOutput, writeJson } from './lib/n8n';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';

type Json = Record<string, unknown>;

export const OAUTH2_CREDENTIAL = { id: 'vaOAuth00001', name: 'ABBYY Vantage (signed in as me)' };
const CLIENT_CREDENTIAL = { id: 'vaClient0001', name: 'ABBYY Vantage (API client)' };

const NODE_TYPE = 'n8n-nodes-abbyy-vantage.abbyyVantage';

/** An ABBYY Vantage node signing in with the OAuth2 credential (or `credential` of `type`). */
function vantageNode(
	name: string,
	position: number,
	parameters: Json,
	credential: { type: string; ref: { id: string; name: string } } = {
		type: 'abbyyVantageOAuth2Api',
		ref: OAUTH2_CREDENTIAL,
	},
): Json {
	return {
		id: `${name.replace(/\W/g, '')}-${position}`,
		name,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [position * 220, 0],
		parameters: {
			...(credential.type === 'abbyyVantageOAuth2Api' ? { authentication: 'oAuth2' } : {}),
			...parameters,
		},
		credentials: { [credential.type]: credential.ref },
	};
}

/** Manual Trigger → `nodes`, in a chain. */
function chain(id: string, name: string, nodes: Json[]): Json {
	const all: Json[] = [
		{
			id: `${id}-start`,
			name: 'Run now',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		...nodes,
	];
	const connections: Json = {};
	for (let i = 0; i < all.length - 1; i++) {
		connections[all[i].name as string] = {
			main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { id, name, nodes: all, connections, settings: { executionOrder: 'v1' }, active: false };
}

/** A Code node giving one item per value of `values`, as `{ [key]: value }`. */
function items(name: string, position: number, key: string, values: string[]): Json {
	return {
		id: `${name.replace(/\W/g, '')}-${position}`,
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [position * 220, 0],
		parameters: {
			jsCode: `return ${JSON.stringify(values.map((value) => ({ json: { [key]: value } })))};`,
		},
	};
}

const EXPIRY_CATALOGS = Array.from({ length: 8 }, (_, i) => `OAuth catalog ${i}`);

function workflows(invoicesFolder: string): Json[] {
	return [
		chain('vaE2eOAuth01', 'e2e oauth: three grants side by side', [
			vantageNode(
				'As a Vantage user (password)',
				1,
				{ resource: 'catalog', operation: 'getMany', returnAll: true },
				{ type: 'abbyyVantageApi', ref: CREDENTIAL },
			),
			vantageNode(
				'As the API client (client credentials)',
				2,
				{ resource: 'catalog', operation: 'getMany', returnAll: true },
				{ type: 'abbyyVantageApi', ref: CLIENT_CREDENTIAL },
			),
			vantageNode('As myself (OAuth2)', 3, {
				resource: 'catalog',
				operation: 'getMany',
				returnAll: true,
			}),
		]),
		chain('vaE2eOAuth02', 'e2e oauth: a document and the catalogs, signed in as me', [
			{
				id: 'oauth-read',
				name: 'Read files',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				position: [220, 0],
				parameters: { operation: 'read', fileSelector: `${invoicesFolder}/*.pdf`, options: {} },
			},
			vantageNode('Process as me', 2, {
				resource: 'transaction',
				operation: 'processDocument',
				skillId: { __rl: true, mode: 'id', value: FIXTURE.documentSkillId },
				options: { pollInterval: 1 },
			}),
			vantageNode('List catalogs as me', 3, {
				resource: 'catalog',
				operation: 'getMany',
				returnAll: true,
			}),
		]),
		chain('vaE2eOAuth03', 'e2e oauth: catalogs at once across a token expiry', [
			items('Catalogs', 1, 'catalog', EXPIRY_CATALOGS),
			vantageNode('Get each catalog', 2, {
				resource: 'catalog',
				operation: 'get',
				catalogId: { __rl: true, mode: 'id', value: '={{ $json.catalog }}' },
				options: { concurrency: 4 },
			}),
		]),
		chain('vaE2eOAuth04', 'e2e oauth: a refused refresh', [
			{
				...vantageNode('List catalogs as me', 1, {
					resource: 'catalog',
					operation: 'getMany',
					returnAll: true,
				}),
				onError: 'continueRegularOutput',
			},
		]),
	];
}

const refreshesIn = (log: LoggedRequest[]) =>
	log.filter(
		(r) =>
			r.route === 'Token' && (r.body as Record<string, string>)?.grant_type === 'refresh_token',
	);

/** The OAuth2 credential's stored token set, decrypted, as n8n keeps it in its database. */
async function storedTokens(setup: Setup): Promise<TokenSet> {
	const file = join(RUN_DIR, 'oauth-credential-export.json');
	const exported = await n8n(setup.instance, [
		'export:credentials',
		`--id=${OAUTH2_CREDENTIAL.id}`,
		'--decrypted',
		`--output=${file}`,
	]);
	if (exported.code !== 0)
		throw new Error(`export:credentials failed:\n${exported.stdout}${exported.stderr}`);
	const list = JSON.parse(readFileSync(file, 'utf8')) as Array<{
		data: { oauthTokenData: TokenSet };
	}>;
	rmSync(file);
	return list[0].data.oauthTokenData;
}

async function execute(setup: Setup, id: string) {
	const result = await n8n(setup.instance, ['execute', `--id=${id}`, '--rawOutput']);
	const run = parseRun(result.stdout);
	const log = [...setup.sim.requests];
	return { result, run, log, output: `${result.stdout.slice(-1500)}${result.stderr.slice(-1500)}` };
}

export async function oauthSuite(setup: Setup): Promise<void> {
	const { instance, sim, folders } = setup;
	console.log(`\nThe OAuth2 credential (authorization code with PKCE) on ${hostVersions().label}`);

	// Connect my account, as n8n's callback completes it: the SSO user signs in on the sign-in page,
	// n8n's callback URL (whitelisted for the client) gets the code, the code and verifier give the
	// token set n8n stores as `oauthTokenData`.
	const callback = `http://localhost:${instance.env.N8N_PORT}/rest/oauth2-credential/callback`;
	sim.allowRedirectUri(callback);
	const issuedBefore = sim.createdCounts().tokens;
	const connected = await connect(sim.url, {
		username: FIXTURE.ssoUsername,
		redirectUri: callback,
	});
	const oauthSerial = issuedBefore + 1;
	const credentialsFile = join(RUN_DIR, 'oauth-credentials.json');
	writeJson(credentialsFile, [
		{
			...OAUTH2_CREDENTIAL,
			type: 'abbyyVantageOAuth2Api',
			data: { ...fixtureOAuth2CredentialData(sim.url), oauthTokenData: connected },
		},
		{
			...CLIENT_CREDENTIAL,
			type: 'abbyyVantageApi',
			data: { ...fixtureCredentialData(sim.url), grantType: 'clientCredentials' },
		},
	]);
	const imported = await n8n(instance, ['import:credentials', `--input=${credentialsFile}`]);
	if (imported.code !== 0)
		throw new Error(`import:credentials failed:\n${imported.stdout}${imported.stderr}`);
	for (const name of EXPIRY_CATALOGS) sim.addCatalog(name);
	const workflowFile = join(RUN_DIR, 'oauth-workflows.json');
	writeJson(workflowFile, workflows(folders.invoices.replace(/\/$/, '')));
	const importedWorkflows = await n8n(instance, ['import:workflow', `--input=${workflowFile}`]);
	if (importedWorkflows.code !== 0)
		throw new Error(
			`import:workflow failed:\n${importedWorkflows.stdout}${importedWorkflows.stderr}`,
		);

	sim.clearLog();
	const sideBySide = await execute(setup, 'vaE2eOAuth01');
	await check(
		'the three grants side by side in one workflow: password, client credentials and OAuth2, each its own token',
		() => {
			assert(
				sideBySide.run?.status === 'success',
				`status ${sideBySide.run?.status}\n${sideBySide.output}`,
			);
			for (const node of [
				'As a Vantage user (password)',
				'As the API client (client credentials)',
				'As myself (OAuth2)',
			]) {
				const ids = runOutput(sideBySide.run, node).map((i) => i.json.id);
				assert(ids.includes(FIXTURE.catalogId), `${node}: ${JSON.stringify(ids)}`);
			}
			// Each node pages through the catalog list with its own token; the OAuth2 node's is the
			// SSO user's from the sign-in.
			const lists = sideBySide.log.filter((r) => r.route === 'GetCatalogs');
			assert(lists.length >= 3 && lists.every((r) => r.status === 200), 'catalog list requests');
			const serials = [...new Set(lists.map((r) => r.tokenSerial))];
			equal(serials.length, 3, `distinct tokens (${JSON.stringify(serials)})`);
			assert(serials.includes(oauthSerial), `no request with the OAuth2 token ${oauthSerial}`);
			// The ABBYY Vantage API credentials sign in (the client credentials one for the first time;
			// the password one only if no earlier suite stored its token); OAuth2 does not.
			const grants = sideBySide.log
				.filter((r) => r.route === 'Token')
				.map((r) => (r.body as Record<string, string>).grant_type);
			assert(
				grants.filter((g) => g === 'client_credentials').length === 1 &&
					grants.every((g) => g === 'client_credentials' || g === 'password') &&
					grants.filter((g) => g === 'password').length <= 1,
				`token requests: ${JSON.stringify(grants)}`,
			);
		},
	);

	sim.clearLog();
	const documents = await execute(setup, 'vaE2eOAuth02');
	await check(
		'Process Document and Catalog → Get Many run as the signed-in user with the stored token',
		() => {
			assert(
				documents.run?.status === 'success',
				`status ${documents.run?.status}\n${documents.output}`,
			);
			const processed = runOutput(documents.run, 'Process as me');
			assert(processed.length > 0, 'no processed document');
			for (const item of processed) equal(item.json.status, 'Processed', 'status');
			assert(
				runOutput(documents.run, 'List catalogs as me').some(
					(i) => i.json.id === FIXTURE.catalogId,
				),
				'catalog list',
			);
			const api = documents.log.filter((r) => r.route !== 'Token');
			assert(api.length > 0, 'no API request');
			assert(
				api.every((r) => r.tokenSerial === oauthSerial),
				`token serials ${JSON.stringify([...new Set(api.map((r) => r.tokenSerial))])}`,
			);
			equal(documents.log.filter((r) => r.route === 'Token').length, 0, 'token requests');
		},
	);

	// The access token expires while requests are in flight: the 2nd API request expires every
	// token, and it and those in flight with it (the simulator checks tokens after its latency)
	// get 401.
	sim.clearLog();
	sim.setLatency(200);
	sim.expireTokensAfter(2);
	const expiry = await execute(setup, 'vaE2eOAuth03');
	sim.setLatency(0);
	const stored = await storedTokens(setup);
	await check(
		'an access token expiring with requests in flight: one refresh, every item done, the rotated tokens stored',
		() => {
			assert(expiry.run?.status === 'success', `status ${expiry.run?.status}\n${expiry.output}`);
			const got = runOutput(expiry.run, 'Get each catalog').map((i) => i.json.id);
			equal(got, EXPIRY_CATALOGS, 'catalogs');
			const refused = expiry.log.filter((r) => r.route === 'GetCatalog' && r.status === 401);
			assert(refused.length >= 2, `${refused.length} requests refused with 401`);
			equal(refreshesIn(expiry.log).length, 1, 'refresh requests');
			equal(refreshesIn(expiry.log)[0].status, 200, 'refresh status');
			assert(
				stored.access_token !== connected.access_token,
				'the stored access token is the old one',
			);
			assert(
				typeof stored.refresh_token === 'string' &&
					stored.refresh_token !== connected.refresh_token,
				'the stored refresh token was not rotated',
			);
		},
	);

	sim.clearLog();
	const after = await execute(setup, 'vaE2eOAuth03');
	await check(
		'the next run uses the refreshed token from the credential, without refreshing',
		() => {
			assert(after.run?.status === 'success', `status ${after.run?.status}\n${after.output}`);
			const gets = after.log.filter((r) => r.route === 'GetCatalog');
			equal(gets.length, EXPIRY_CATALOGS.length, 'requests');
			assert(
				gets.every((r) => r.status === 200),
				`statuses ${JSON.stringify(gets.map((r) => r.status))}`,
			);
			equal(after.log.filter((r) => r.route === 'Token').length, 0, 'token requests');
		},
	);

	sim.clearLog();
	sim.revokeRefreshTokens();
	sim.expireTokens();
	const refusedRun = await execute(setup, 'vaE2eOAuth04');
	await check('a refused refresh fails the item saying to reconnect, once', () => {
		assert(
			refusedRun.run?.status === 'success',
			`status ${refusedRun.run?.status}\n${refusedRun.output}`,
		);
		const [item] = runOutput(refusedRun.run, 'List catalogs as me');
		const error = String(item?.json.error ?? '');
		assert(
			error.startsWith(
				`ABBYY Vantage did not renew the sign-in of the OAuth2 credential "${OAUTH2_CREDENTIAL.name}"`,
			) &&
				error.includes(
					'Reconnect the ABBYY Vantage OAuth2 credential: open it and click Connect my account.',
				),
			`error: ${error}`,
		);
		equal(refreshesIn(refusedRun.log).length, 1, 'refresh requests');
		const text =
			JSON.stringify(refusedRun.run) + refusedRun.result.stdout + refusedRun.result.stderr;
		for (const secret of [
			FIXTURE.clientSecret,
			connected.refresh_token!,
			stored.refresh_token!,
			...sim.issuedTokens(),
		])
			assert(!text.includes(secret), `a secret (${secret.slice(0, 3)}…) is in the output`);
	});
}

// Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/oauth.ts` (E2E_N8N=1 for n8n 1.x).
if (require.main === module) runAlone(oauthSuite, { includeE2eWorkflows: false });
