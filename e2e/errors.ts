/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * How Vantage's answers read inside a real n8n, on every release line the suite runs on (n8n 2.x
 * and the last 1.x, whose n8n-workflow wraps errors differently): sign-in refusals, 404, 429 with
 * and without Retry-After on a read and on a create, a 401 renewal, a 5xx during a wait, a
 * refused second document and a dropped connection. Every row's expectation is a literal, the
 * same for both lines: the message, httpCode, the attempts the simulator saw and the wait a
 * Retry-After asked for.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import {
	FIXTURE,
	fixtureCredentialData,
	type Fault,
	type LoggedRequest,
	type RouteId,
} from '../test/simulator/simulator';
import { assert, check, equal } from './lib/checks';
import { hostVersions, n8n, parseRun, RUN_DIR, writeJson } from './lib/n8n';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';

type Json = Record<string, unknown>;
type Item = { json: Json; pairedItem?: unknown };

const NODE = 'ABBYY Vantage';

const WRONG_PASSWORD = { id: 'vaCredBadPwd', name: 'Vantage, wrong password' };
const WRONG_SECRET = { id: 'vaCredBadSec', name: 'Vantage, wrong client secret' };

/** A two-node workflow: Manual Trigger → (items) → ABBYY Vantage with Continue On Fail. */
function workflow(
	id: string,
	parameters: Json,
	options: { credential?: typeof CREDENTIAL; items?: Json[] } = {},
): Json {
	const items = options.items ?? [{}];
	return {
		id,
		name: `e2e errors: ${id}`,
		nodes: [
			{
				id: `${id}-1`,
				name: 'Run now',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: `${id}-2`,
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
			},
			{
				id: `${id}-3`,
				name: NODE,
				type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
				typeVersion: 1,
				position: [400, 0],
				parameters,
				credentials: { abbyyVantageApi: options.credential ?? CREDENTIAL },
				onError: 'continueRegularOutput',
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

interface Row {
	id: string;
	name: string;
	parameters: Json;
	credential?: typeof CREDENTIAL;
	items?: Json[];
	/**
	 * Before the workflows are imported (all at once): what the run reads, such as an export or a
	 * transaction. Returns values the parameters refer to as {{key}}.
	 */
	prepare?: (setup: Setup) => Record<string, string>;
	/** Right before the run: faults, revoked tokens. */
	arrange?: (setup: Setup) => void;
	/** After the run: the node's output items and the simulator's log of this run. */
	assert: (items: Item[], log: LoggedRequest[], setup: Setup) => void;
}

const to = (log: LoggedRequest[], route: RouteId) => log.filter((r) => r.route === route);

/** Routes and statuses in the order the simulator saw them. */
const trail = (log: LoggedRequest[]) => log.map((r) => `${r.route}:${r.status || r.fault}`);

/**
 * The API requests alone: the suite's credential signs in at its first use, whichever row that
 * is (rows about signing in read the whole trail).
 */
const apiTrail = (log: LoggedRequest[]) => trail(log.filter((r) => r.route !== 'Token'));

/** Milliseconds between the end of one request and the start of the next. */
/**
 * From the moment the simulator wrote `first`'s status line (the client cannot have the answer
 * earlier; `finishedAt` is noted later, once the handler's promise settles, and on a loaded machine
 * that can be tens of ms after the client got it) to `next`'s arrival.
 */
const gapMs = (first: LoggedRequest, next: LoggedRequest) =>
	next.at - (first.respondedAt ?? first.finishedAt ?? first.at);

const once = (route: RouteId, fault: Fault) => (setup: Setup) =>
	setup.sim.injectFault(route, fault, 1);

const always = (route: RouteId, fault: Fault) => (setup: Setup) =>
	setup.sim.injectFault(route, fault, Infinity);

const TOO_MANY = { kind: 'status', status: 429 } as const;
const TOO_MANY_WAIT_1 = { kind: 'status', status: 429, retryAfter: '1' } as const;

const UNKNOWN_EXPORT = '0b9c6a52-5d4e-4c3a-9a41-000000000404';

const statusOf = (requestId: string) => ({
	resource: 'report',
	operation: 'getExportStatus',
	requestId,
});
const createExport = {
	resource: 'report',
	operation: 'createExport',
	startDate: '2026-11-01T00:00:00Z',
};

/** The item of a request that succeeded after its retries. */
function succeededAfter(items: Item[], key: string): void {
	equal(items.length, 1, 'items');
	assert(!('error' in items[0].json), `error item: ${JSON.stringify(items[0].json)}`);
	assert(typeof items[0].json[key] === 'string', `${key} in ${JSON.stringify(items[0].json)}`);
}

/** An error item: message, httpCode and whatever else it carries. */
function errorOf(item: Item): { error: unknown; httpCode: unknown; description: string } {
	return {
		error: item.json.error,
		httpCode: item.json.httpCode,
		description: String(item.json.errorDescription ?? ''),
	};
}

const ROWS: Row[] = [
	{
		id: 'vaE2eErrPw01',
		name: 'a wrong password: the OAuth error and its advice, no httpCode, one sign-in, no API request',
		parameters: { resource: 'skill', operation: 'getMany', returnAll: true },
		credential: WRONG_PASSWORD,
		assert: (items, log) => {
			equal(
				errorOf(items[0]).error,
				'ABBYY Vantage refused the sign-in (invalid_grant: invalid_username_or_password). Check Username and Password (and Tenant ID if set). Accounts that sign in through an external identity provider (SSO) cannot use this credential [item 0]',
				'message',
			);
			equal(items[0].json.httpCode, undefined, 'httpCode');
			equal(trail(log), ['Token:400'], 'requests');
		},
	},
	{
		id: 'vaE2eErrSc01',
		name: 'a wrong client secret (client credentials): invalid_client, pointing at the client fields',
		parameters: { resource: 'skill', operation: 'getMany', returnAll: true },
		credential: WRONG_SECRET,
		assert: (items, log) => {
			equal(
				errorOf(items[0]).error,
				'ABBYY Vantage refused the sign-in (invalid_client). Check Client ID and Client Secret [item 0]',
				'message',
			);
			equal(items[0].json.httpCode, undefined, 'httpCode');
			equal(trail(log), ['Token:400'], 'requests');
		},
	},
	{
		id: 'vaE2eErr40401',
		name: '404 on an export id: not retried, the service detail, httpCode 404',
		parameters: statusOf(UNKNOWN_EXPORT),
		assert: (items, log) => {
			equal(
				errorOf(items[0]),
				{
					error: 'ABBYY Vantage could not find it: Report request not found [item 0]',
					httpCode: '404',
					description: `While reading the status of export ${UNKNOWN_EXPORT}. Export requests are visible only to the user who created them, and result files are kept for two weeks.`,
				},
				'error item',
			);
			equal(apiTrail(log), ['GetExportStatus:404'], 'requests');
		},
	},
	{
		id: 'vaE2eErrRa01',
		name: '429 with Retry-After: 1 on a read: sent again after at least 1 s, then success',
		parameters: statusOf('{{export}}'),
		prepare: (setup) => ({ export: setup.sim.createFinishedExport() }),
		arrange: once('GetExportStatus', TOO_MANY_WAIT_1),
		assert: (items, log) => {
			succeededAfter(items, 'requestId');
			const reads = to(log, 'GetExportStatus');
			equal(trail(reads), ['GetExportStatus:429', 'GetExportStatus:200'], 'requests');
			const gap = gapMs(reads[0], reads[1]);
			assert(gap >= 1000, `resent after ${gap} ms, before the 1 s Retry-After asked`);
		},
	},
	{
		id: 'vaE2eErrRb01',
		name: '429 without Retry-After on a read: sent again, then success',
		parameters: statusOf('{{export}}'),
		prepare: (setup) => ({ export: setup.sim.createFinishedExport() }),
		arrange: once('GetExportStatus', TOO_MANY),
		assert: (items, log) => {
			succeededAfter(items, 'requestId');
			equal(apiTrail(log), ['GetExportStatus:429', 'GetExportStatus:200'], 'requests');
		},
	},
	{
		id: 'vaE2eErrCa01',
		name: '429 with Retry-After: 1 on a create (not processed): sent again after at least 1 s, one export created',
		parameters: createExport,
		arrange: once('CreateTransactionStepsExportRequest', TOO_MANY_WAIT_1),
		assert: (items, log) => {
			succeededAfter(items, 'requestId');
			const creates = to(log, 'CreateTransactionStepsExportRequest');
			equal(
				trail(creates),
				['CreateTransactionStepsExportRequest:429', 'CreateTransactionStepsExportRequest:200'],
				'requests',
			);
			const gap = gapMs(creates[0], creates[1]);
			assert(gap >= 1000, `resent after ${gap} ms, before the 1 s Retry-After asked`);
		},
	},
	{
		id: 'vaE2eErrCb01',
		name: '429 without Retry-After on a create: sent again, one export created',
		parameters: createExport,
		arrange: once('CreateTransactionStepsExportRequest', TOO_MANY),
		assert: (items, log) => {
			succeededAfter(items, 'requestId');
			equal(
				trail(to(log, 'CreateTransactionStepsExportRequest')),
				['CreateTransactionStepsExportRequest:429', 'CreateTransactionStepsExportRequest:200'],
				'requests',
			);
		},
	},
	{
		id: 'vaE2eErrCc01',
		name: '429 on every attempt of a create: 4 attempts, then the rate-limit error saying it was not processed',
		parameters: { ...createExport, requestOptions: { retryDelay: 0.2 } },
		arrange: always('CreateTransactionStepsExportRequest', TOO_MANY),
		assert: (items, log) => {
			const error = errorOf(items[0]);
			equal(
				[error.error, error.httpCode],
				['ABBYY Vantage is limiting the request rate: Simulated 429 [item 0]', '429'],
				'message and httpCode',
			);
			assert(
				error.description.includes(
					'4 of the 4 attempts were answered 429 (too many requests), which means not processed',
				),
				`description: ${error.description}`,
			);
			assert(!error.description.includes('may have reached'), `description: ${error.description}`);
			equal(to(log, 'CreateTransactionStepsExportRequest').length, 4, 'attempts');
		},
	},
	{
		id: 'vaE2eErrTk01',
		name: 'a revoked token: 401 → one sign-in → the request again → success',
		parameters: statusOf('{{export}}'),
		prepare: (setup) => ({ export: setup.sim.createFinishedExport() }),
		arrange: (setup) => setup.sim.revokeTokens(),
		assert: (items, log) => {
			succeededAfter(items, 'requestId');
			equal(trail(log), ['GetExportStatus:401', 'Token:200', 'GetExportStatus:200'], 'requests');
		},
	},
	{
		id: 'vaE2eErrWt01',
		name: '500 on a status poll of Wait For Export: a read, so sent again inside the poll; the wait succeeds with no failed poll',
		parameters: {
			resource: 'report',
			operation: 'waitForExport',
			requestId: '{{export}}',
			options: { pollInterval: 1 },
		},
		prepare: (setup) => ({ export: setup.sim.createFinishedExport() }),
		arrange: once('GetExportStatus', { kind: 'status', status: 500 }),
		assert: (items, log) => {
			equal(
				[items[0].json.status, items[0].json.failedPolls],
				['Succeeded', 0],
				'status and failed polls',
			);
			equal(apiTrail(log), ['GetExportStatus:500', 'GetExportStatus:200'], 'requests');
		},
	},
	{
		id: 'vaE2eErrDc01',
		name: 'a second document on a Document-skill transaction: refused with the detail and the one-document rule, sent once',
		parameters: {
			resource: 'transactionDocument',
			operation: 'add',
			transactionId: '={{ $json.transactionId }}',
		},
		items: [{ transactionId: '{{transaction}}' }, { transactionId: '{{transaction}}' }],
		prepare: (setup) => ({ transaction: setup.sim.createTransaction(FIXTURE.documentSkillId) }),
		assert: (items, log) => {
			equal(items.length, 2, 'items');
			assert(typeof items[0].json.documentId === 'string', 'the first document was added');
			const error = errorOf(items[1]);
			equal(
				[error.error, error.httpCode],
				[
					'ABBYY Vantage rejected the request: Non-process skills allow only one document [item 1]',
					'400',
				],
				'message and httpCode',
			);
			assert(
				error.description.includes(
					'Only transactions of a Process skill accept more than one document',
				),
				`description: ${error.description}`,
			);
			equal(
				trail(to(log, 'CreateTransactionDocument')),
				['CreateTransactionDocument:201', 'CreateTransactionDocument:400'],
				'requests',
			);
		},
	},
	{
		id: 'vaE2eErrRs01',
		name: 'a dropped connection on a read: retried (4 attempts), naming the socket’s code',
		parameters: { ...statusOf('{{export}}'), requestOptions: { retryDelay: 0.1 } },
		prepare: (setup) => ({ export: setup.sim.createFinishedExport() }),
		arrange: always('GetExportStatus', { kind: 'reset' }),
		assert: (items, log) => {
			equal(to(log, 'GetExportStatus').length, 4, 'attempts');
			droppedConnection(errorOf(items[0]));
		},
	},
	{
		id: 'vaE2eErrRs02',
		name: 'a dropped connection on a create: sent once, and the error says it may have been applied',
		parameters: createExport,
		arrange: always('CreateTransactionStepsExportRequest', { kind: 'reset' }),
		assert: (items, log) => {
			equal(to(log, 'CreateTransactionStepsExportRequest').length, 1, 'attempts');
			const error = errorOf(items[0]);
			droppedConnection(error);
			assert(
				error.description.includes('may have reached ABBYY Vantage and been applied'),
				`description: ${error.description}`,
			);
		},
	},
];

/**
 * A dropped connection names the socket's code (ECONNRESET) on both lines: the node reads it from
 * the error n8n throws, where n8n 1.123 still has it after dropping the wrapped error.
 */
function droppedConnection(error: {
	error: unknown;
	httpCode: unknown;
	description: string;
}): void {
	equal(
		[error.error, error.httpCode],
		['Could not reach ABBYY Vantage: the connection was closed unexpectedly [item 0]', undefined],
		'message and httpCode',
	);
	assert(
		error.description.includes('network code ECONNRESET'),
		`description: ${error.description}`,
	);
}

/** Replace {{key}} placeholders in the workflow with the values its row prepared. */
function fill(value: Json, values: Record<string, string>): Json {
	let text = JSON.stringify(value);
	for (const [key, replacement] of Object.entries(values)) {
		text = text.split(`{{${key}}}`).join(replacement);
	}
	return JSON.parse(text) as Json;
}

function nodeOutput(run: Json | undefined): Item[] {
	const runData = ((run?.data as Json)?.resultData as Json)?.runData as Record<string, Json[]>;
	return ((((runData?.[NODE]?.[0]?.data as Json)?.main as Item[][]) ?? [])[0] ?? []) as Item[];
}

export async function errorSuite(setup: Setup): Promise<void> {
	const { instance, sim } = setup;
	console.log(`\nVantage's answers, as the node reads them on ${hostVersions().label}`);
	const folder = join(RUN_DIR, 'errors');
	const credentialsFile = join(RUN_DIR, 'error-credentials.json');
	writeJson(credentialsFile, [
		{
			...WRONG_PASSWORD,
			type: 'abbyyVantageApi',
			data: { ...fixtureCredentialData(sim.url), password: 'not-the-password-1' },
		},
		{
			...WRONG_SECRET,
			type: 'abbyyVantageApi',
			data: {
				...fixtureCredentialData(sim.url),
				grantType: 'clientCredentials',
				clientSecret: 'not-the-client-secret-1',
			},
		},
	]);
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	const imported = await n8n(instance, ['import:credentials', `--input=${credentialsFile}`]);
	if (imported.code !== 0)
		throw new Error(`import:credentials failed:\n${imported.stdout}${imported.stderr}`);

	// Every row's workflow in one import (each n8n command is a start of n8n: seconds apiece).
	for (const row of ROWS) {
		const values = row.prepare?.(setup) ?? {};
		writeJson(
			join(folder, `${row.id}.json`),
			fill(
				workflow(row.id, row.parameters, { credential: row.credential, items: row.items }),
				values,
			),
		);
	}
	const importedWorkflows = await n8n(instance, [
		'import:workflow',
		'--separate',
		`--input=${folder}`,
	]);
	if (importedWorkflows.code !== 0)
		throw new Error(
			`import:workflow failed:\n${importedWorkflows.stdout}${importedWorkflows.stderr}`,
		);

	for (const row of ROWS) {
		sim.clearFaults();
		sim.clearLog();
		row.arrange?.(setup);
		const result = await n8n(instance, ['execute', `--id=${row.id}`, '--rawOutput']);
		const run = parseRun(result.stdout);
		const log = [...sim.requests];
		sim.clearFaults();
		await check(row.name, () => {
			assert(
				result.code === 0 && run?.status === 'success',
				`exit code ${result.code}${result.signal ? ` (${result.signal})` : ''}, status ${run?.status}\n${result.stdout.slice(-1500)}${result.stderr.slice(-1500)}`,
			);
			row.assert(nodeOutput(run), log, setup);
		});
	}
}

// Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/errors.ts` (E2E_N8N=1 for n8n 1.x).
if (require.main === module) runAlone(errorSuite, { includeE2eWorkflows: false });
