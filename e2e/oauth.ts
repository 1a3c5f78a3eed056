/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * The ABBYY Vantage OAuth2 API credential (authorization code with PKCE) inside a real n8n, on
 * every release line the suite runs on: Connect my account as n8n does it (n8n started as a
 * server: its authorize URL, an SSO user signing in on the simulator's sign-in page, n8n's own
 * callback exchanging the code, the client sent as each n8n line sends it); then, with
 * `n8n execute`, the three grants side by side in one workflow; a document processed and catalogs
 * listed as the signed-in user; an access token expiring with requests in flight (one refresh,
 * the client in the form, the rotated tokens stored in the credential, the next run using them
 * without a refresh); a refused refresh saying to reconnect.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { raw } from '../test/helpers/http';
import { redirectedTo, signInRequestId, submitSignIn, type TokenSet } from '../test/helpers/oauth';
import {
	FIXTURE,
	fixtureCredentialData,
	fixtureOAuth2CredentialData,
	type LoggedRequest,
} from '../test/simulator/simulator';
import { assert, check, equal } from './lib/checks';
import { hostVersions, LINE, n8n, parseRun, RUN_DIR, runOutput, writeJson } from './lib/n8n';
import { signIn, startServer, stopServer } from './lib/server';
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

/**
 * How each n8n line sends the client on the token endpoint (n8n's source: the OAuth2 callback,
 * packages/cli/src/controllers/oauth/oauth2-credential.controller.ts, and @n8n/client-oauth2):
 * n8n 2.x puts client_id and client_secret in the code exchange's form when the credential's
 * `authentication` is `body` (this one's); n8n 1.x, for a PKCE credential, adds only the
 * code_verifier and sends the client as HTTP Basic. Every line refreshes with the client in the
 * form (`authentication: body`).
 */
const EXCHANGE_IN_FORM = LINE.id === '2';

/** The client fields of a token request: in the form, or as an Authorization header. */
function clientAuth(request: LoggedRequest | undefined) {
	const body = (request?.body ?? {}) as Record<string, string>;
	return {
		client_id: body.client_id,
		client_secret: body.client_secret,
		authorization: request?.headers.authorization,
	};
}

const IN_FORM = { client_id: FIXTURE.clientId, client_secret: '***', authorization: undefined };
const AS_BASIC = { client_id: undefined, client_secret: undefined, authorization: 'Basic ***' };

/**
 * Connect my account, as the editor does it, over HTTP: n8n started as a server, its owner signed
 * in, n8n's authorize URL for the credential (with the cookie n8n 2.x binds the flow to), the SSO
 * user signing in on the simulator's sign-in page, and the browser landing on n8n's callback,
 * which exchanges the code itself and stores the tokens in the credential.
 */
async function connectInN8n(setup: Setup): Promise<{ page: string; exchange?: LoggedRequest }> {
	const { instance, sim } = setup;
	const url = `http://127.0.0.1:${instance.env.N8N_PORT}`;
	sim.allowRedirectUri(`${url}/rest/oauth2-credential/callback`);
	// With n8n 3.0's default for unverified community packages (off): it gates n8n's installers,
	// not a package installed by hand in ~/.n8n/nodes, as this one is (docs/compatibility.md).
	const server = await startServer(instance, {
		N8N_EDITOR_BASE_URL: url,
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
	});
	try {
		const auth = await signIn(server.url);
		const started = await fetch(
			`${server.url}/rest/oauth2-credential/auth?id=${OAUTH2_CREDENTIAL.id}`,
			{ headers: { cookie: `n8n-auth=${auth}` } },
		);
		const text = await started.text();
		assert(started.ok, `GET /rest/oauth2-credential/auth: ${started.status} ${text.slice(0, 300)}`);
		const authorizeUrl = (JSON.parse(text) as { data: string }).data;
		// n8n 2.x binds the flow to the browser with a cookie; 1.x sets none.
		const cookies = [
			`n8n-auth=${auth}`,
			...started.headers.getSetCookie().map((cookie) => cookie.split(';')[0]),
		].join('; ');
		const signInPage = await raw(authorizeUrl);
		const back = redirectedTo(
			await submitSignIn(sim.url, signInRequestId(signInPage), { username: FIXTURE.ssoUsername }),
		);
		sim.clearLog();
		const callback = await fetch(back.toString(), { headers: { cookie: cookies } });
		const page = await callback.text();
		const exchange = sim
			.requestsTo('Token')
			.find((r) => (r.body as Record<string, string>)?.grant_type === 'authorization_code');
		return { page: `HTTP ${callback.status}: ${page.slice(0, 600)}`, exchange };
	} finally {
		await stopServer(server);
	}
}

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

	// The credential as it is saved before Connect my account: no tokens yet.
	const credentialsFile = join(RUN_DIR, 'oauth-credentials.json');
	writeJson(credentialsFile, [
		{
			...OAUTH2_CREDENTIAL,
			type: 'abbyyVantageOAuth2Api',
			data: fixtureOAuth2CredentialData(sim.url),
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

	const issuedBefore = sim.createdCounts().tokens;
	const connecting = Date.now();
	const connection = await connectInN8n(setup);
	console.log(
		`[e2e] Connect my account through n8n started as a server: ${Math.round((Date.now() - connecting) / 1000)} s`,
	);
	const oauthSerial = issuedBefore + 1;
	const connected = await storedTokens(setup);
	await check(
		`Connect my account (n8n started with N8N_UNVERIFIED_PACKAGES_ENABLED=false): n8n's callback exchanges the code with the verifier, the client ${EXCHANGE_IN_FORM ? 'in the form' : 'as HTTP Basic'}, and stores the tokens`,
		() => {
			const { exchange } = connection;
			assert(exchange, `no code exchange reached the token endpoint (${connection.page})`);
			equal(exchange.status, 200, `code exchange status (${connection.page})`);
			const body = exchange.body as Record<string, string>;
			equal(
				[body.code, body.code_verifier, body.redirect_uri],
				['***', '***', `http://127.0.0.1:${instance.env.N8N_PORT}/rest/oauth2-credential/callback`],
				'code, code_verifier and redirect_uri',
			);
			equal(clientAuth(exchange), EXCHANGE_IN_FORM ? IN_FORM : AS_BASIC, 'the client');
			assert(
				typeof connected?.access_token === 'string' && typeof connected.refresh_token === 'string',
				'no tokens stored in the credential',
			);
		},
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
			// Every n8n line refreshes with the client in the form (`authentication: body`).
			equal(clientAuth(refreshesIn(expiry.log)[0]), IN_FORM, 'the client on the refresh');
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
