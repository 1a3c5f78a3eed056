/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reaches into n8n-core's own module to wrap its request helper */
/**
 * Vantage's answers read the same whatever n8n wraps them in. n8n 1.123 (n8n-workflow 1.120)
 * throws NodeApiErrors that have lost the error they wrap (`cause`, a class field reset after
 * super()): the axios error with status, body and headers, and the credential's sign-in error.
 * Here n8n-core's real `httpRequestWithAuthentication` is wrapped so that whatever it throws is
 * thrown again as n8n 1.123 would throw it, and every row must read exactly as on n8n 2.41.
 */
import { createRequire } from 'node:module';
import { NodeApiError as NodeApiError1x } from 'n8n-workflow-1.120.31';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, simulatorCredentials, type RunResult } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { FAST_RETRIES, nodeParams } from '../../helpers/params';
import { FIXTURE, type Fault, type RouteId } from '../../simulator/simulator';

const f = useSimulator();

type HelperModule = { httpRequestWithAuthentication: (...args: unknown[]) => Promise<unknown> };
const helpers = createRequire(require.resolve('n8n-core'))(
	'./execution-engine/node-execution-context/utils/request-helpers/authentication',
) as HelperModule;
const original = helpers.httpRequestWithAuthentication;

/** What n8n threw during the last run as n8n 1.123, to prove the cause really was gone. */
let thrownAs1x: NodeApiError1x[] = [];

/** Run the node with n8n-core's helper throwing as n8n 1.123 does: the wrapped error dropped. */
async function asN8n1x(run: () => Promise<RunResult>): Promise<RunResult> {
	thrownAs1x = [];
	helpers.httpRequestWithAuthentication = async function (this: unknown, ...args: unknown[]) {
		try {
			return await original.apply(this, args);
		} catch (error) {
			const wrapped = (error as { cause?: unknown }).cause ?? error;
			const node = (error as { node?: unknown }).node;
			const as1x = new NodeApiError1x(node as never, wrapped as never);
			thrownAs1x.push(as1x);
			throw as1x;
		}
	};
	try {
		return await run();
	} finally {
		helpers.httpRequestWithAuthentication = original;
	}
}

const fast = { ...FAST_RETRIES, timeout: 5 };

interface Row {
	name: string;
	parameters: () => INodeParameters;
	credentials?: IDataObject;
	arrange?: () => void;
}

const TOO_MANY_WAIT: Fault = { kind: 'status', status: 429, retryAfter: '1' };

const rows: Row[] = [
	{
		name: 'a wrong password',
		parameters: () => nodeParams('skill', 'getMany', { returnAll: true }),
		credentials: { password: 'not-the-password' },
	},
	{
		name: 'a wrong client secret (client credentials)',
		parameters: () => nodeParams('skill', 'getMany', { returnAll: true }),
		credentials: { grantType: 'clientCredentials', clientSecret: 'not-the-secret' },
	},
	{
		name: '404 on an export id',
		parameters: () =>
			nodeParams('report', 'getExportStatus', {
				requestId: '0b9c6a52-5d4e-4c3a-9a41-000000000404',
				requestOptions: fast,
			}),
	},
	{
		name: '429 with Retry-After on a read, once',
		parameters: () =>
			nodeParams('report', 'getExportStatus', {
				requestId: f.sim.createFinishedExport(),
				requestOptions: fast,
			}),
		arrange: () => f.sim.injectFault('GetExportStatus', TOO_MANY_WAIT, 1),
	},
	{
		name: '429 with Retry-After on a create, always',
		parameters: () =>
			nodeParams('report', 'createExport', {
				startDate: '2026-11-01T00:00:00Z',
				requestOptions: { ...fast, maxRetries: 1 },
			}),
		arrange: () =>
			f.sim.injectFault('CreateTransactionStepsExportRequest', TOO_MANY_WAIT, Infinity),
	},
	{
		name: '429 without Retry-After on a create, once',
		parameters: () =>
			nodeParams('report', 'createExport', {
				startDate: '2026-11-01T00:00:00Z',
				requestOptions: fast,
			}),
		arrange: () =>
			f.sim.injectFault('CreateTransactionStepsExportRequest', { kind: 'status', status: 429 }, 1),
	},
	{
		name: 'a revoked token (401 renewal)',
		parameters: () =>
			nodeParams('report', 'getExportStatus', {
				requestId: f.sim.createFinishedExport(),
				requestOptions: fast,
			}),
		arrange: () => f.sim.revokeTokens(),
	},
	{
		name: 'a refused second document',
		parameters: () =>
			nodeParams('transactionDocument', 'add', {
				transactionId: f.sim.createTransaction(FIXTURE.documentSkillId),
				requestOptions: fast,
			}),
		arrange: () => {},
	},
	{
		name: 'a dropped connection on a read',
		parameters: () =>
			nodeParams('report', 'getExportStatus', {
				requestId: f.sim.createFinishedExport(),
				requestOptions: fast,
			}),
		arrange: () => f.sim.injectFault('GetExportStatus', { kind: 'reset' }, Infinity),
	},
];

/** What a user sees of a run (items or the error) and what Vantage received, for comparison. */
async function observe(row: Row, as1x: boolean) {
	const store = simulatorCredentials(f.sim, row.credentials);
	const parameters = row.parameters();
	// The refused second document: the first run adds a document, so each line needs its own.
	const items = row.name === 'a refused second document' ? [{}, {}] : [{}];
	f.sim.clearLog();
	f.sim.clearFaults();
	row.arrange?.();
	const run = () => runNode({ credentials: store, parameters, items, continueOnFail: true });
	const result = as1x ? await asN8n1x(run) : await run();
	f.sim.clearFaults();
	const requests = f.sim.requests.map((r) => `${r.route as RouteId}:${r.status || r.fault}`);
	const retryAfterGap = (() => {
		const limited = f.sim.requests.findIndex((r) => r.status === 429);
		const next = f.sim.requests[limited + 1];
		if (limited < 0 || !next) return undefined;
		const first = f.sim.requests[limited];
		return next.at - (first.finishedAt ?? first.at) >= 1000;
	})();
	return {
		items: result.items.map((i) => ({ json: i.json, pairedItem: i.pairedItem })),
		error: result.error?.message,
		requests,
		retryAfterHonoured: retryAfterGap,
	};
}

/** Values that differ between any two runs (fresh ids and times), so rows compare on the rest. */
function stable(value: unknown): unknown {
	return JSON.parse(
		JSON.stringify(value)
			.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
			.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>'),
	) as unknown;
}

describe('answers read the same when n8n drops what its NodeApiError wraps (n8n 1.123)', () => {
	test.each(rows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
		const on2x = await observe(row, false);
		const on1x = await observe(row, true);
		expect(stable(on1x)).toEqual(stable(on2x));
		// The emulation really is n8n 1.123's: each error n8n threw had lost what it wrapped.
		for (const thrown of thrownAs1x) expect(thrown.cause).toBeUndefined();
	});

	test('the rows say what they should on both lines', async () => {
		const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
		const wrongPassword = await observe(byName['a wrong password'], true);
		expect(wrongPassword.items[0].json.error).toBe(
			'ABBYY Vantage refused the sign-in (invalid_grant: invalid_username_or_password). Check Username and Password (and Tenant ID if set). Accounts that sign in through an external identity provider (SSO) cannot use this credential [item 0]',
		);
		expect(wrongPassword.requests).toEqual(['Token:400']);
		expect(thrownAs1x).toHaveLength(1);

		const missing = await observe(byName['404 on an export id'], true);
		expect(missing.items[0].json).toMatchObject({
			error: 'ABBYY Vantage could not find it: Report request not found [item 0]',
			httpCode: '404',
		});
		expect(missing.requests).toEqual(['Token:200', 'GetExportStatus:404']);
		// Answers are returned, not thrown: n8n threw nothing the node had to read.
		expect(thrownAs1x).toHaveLength(0);

		const limitedRead = await observe(byName['429 with Retry-After on a read, once'], true);
		expect(limitedRead.requests).toEqual([
			'Token:200',
			'GetExportStatus:429',
			'GetExportStatus:200',
		]);
		expect(limitedRead.retryAfterHonoured).toBe(true);

		const limitedCreate = await observe(byName['429 with Retry-After on a create, always'], true);
		expect(limitedCreate.items[0].json).toMatchObject({
			error: 'ABBYY Vantage is limiting the request rate: Simulated 429 [item 0]',
			httpCode: '429',
		});
		expect(limitedCreate.requests).toEqual([
			'Token:200',
			'CreateTransactionStepsExportRequest:429',
			'CreateTransactionStepsExportRequest:429',
		]);

		const dropped = await observe(byName['a dropped connection on a read'], true);
		expect(dropped.items[0].json.error).toBe(
			'Could not reach ABBYY Vantage: the connection was closed unexpectedly [item 0]',
		);
		expect(dropped.items[0].json.errorDescription).toMatch(/network code ECONNRESET/);
		expect(dropped.requests).toEqual([
			'Token:200',
			...Array.from({ length: 4 }, () => 'GetExportStatus:reset'),
		]);
	});
});
