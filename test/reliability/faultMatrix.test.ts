/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the vendor's OpenAPI fixtures */
/**
 * Every operation × every fault the simulator can inject. Each cell asserts: record IDs lost = 0,
 * duplicate creations = 0, secrets in outputs or errors = 0, and the attempt count matches the
 * transport's rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { runNode } from '../harness/n8n';
import { useSimulator } from '../helpers/fixture';
import type { Fault } from '../simulator/simulator';
import { matrixOperations, type Operation } from './operations';
import { CATALOG, cell, FAST, MAX_ATTEMPTS, problem, record, secretsIn } from './shared';

const env = useSimulator((sim) => sim.addCatalog(CATALOG));

/** The HTTP method of each vendor operation (operationId), from ABBYY's OpenAPI documents. */
const METHODS = new Map<string, string>(
	['vantage-processing-v1.json', 'vantage-reporting-v2.json'].flatMap((name) => {
		const doc = JSON.parse(
			readFileSync(join(__dirname, '..', 'fixtures', 'openapi', name), 'utf8'),
		) as { paths: Record<string, Record<string, { operationId?: string }>> };
		return Object.values(doc.paths).flatMap((path) =>
			Object.entries(path).map(([method, op]) => [op.operationId ?? '', method.toUpperCase()]),
		);
	}),
);

const isRead = (op: Operation) => METHODS.get(op.route) === 'GET';

interface FaultCase {
	name: string;
	fault: Fault;
	times: number;
	/** Retried when the request is safe to repeat; `reads`: only when it is a GET. */
	transient: boolean | 'reads';
	/** n8n signs in again and resends once. */
	auth?: 'once' | 'always';
	/** Applies to operations whose answer is streamed only (Operation.streams). */
	streamsOnly?: boolean;
	fatal?: boolean;
}

const faults: FaultCase[] = [
	{ name: '429', fault: { kind: 'status', status: 429 }, times: Infinity, transient: true },
	{
		name: '429 + Retry-After',
		fault: { kind: 'status', status: 429, retryAfter: '0' },
		times: Infinity,
		transient: true,
	},
	{
		// Vantage's own failure: a read is sent again, anything that writes is not.
		name: '500',
		fault: { kind: 'status', status: 500, body: problem(500, 'Internal failure') },
		times: Infinity,
		transient: 'reads',
	},
	{ name: '502', fault: { kind: 'status', status: 502 }, times: Infinity, transient: true },
	{ name: '503', fault: { kind: 'status', status: 503 }, times: Infinity, transient: true },
	{ name: '504', fault: { kind: 'status', status: 504 }, times: Infinity, transient: true },
	{ name: 'reset', fault: { kind: 'reset' }, times: Infinity, transient: true },
	{
		// Only for streamed answers (the QA reports): the body breaks off after 200 bytes.
		name: 'reset mid-body',
		fault: { kind: 'reset', afterBytes: 200 },
		times: Infinity,
		transient: true,
		streamsOnly: true,
	},
	{ name: 'timeout', fault: { kind: 'delay', ms: 1300 }, times: Infinity, transient: true },
	{ name: 'malformed JSON', fault: { kind: 'malformedJson' }, times: Infinity, transient: true },
	{
		name: '401 once',
		fault: { kind: 'status', status: 401 },
		times: 1,
		transient: false,
		auth: 'once',
	},
	{
		name: '401 always',
		fault: { kind: 'status', status: 401 },
		times: Infinity,
		transient: false,
		auth: 'always',
		fatal: true,
	},
	{
		name: '403',
		fault: { kind: 'status', status: 403, body: problem(403, 'Forbidden') },
		times: Infinity,
		transient: false,
		fatal: true,
	},
	{
		name: '404',
		fault: { kind: 'status', status: 404, body: problem(404, 'Not found') },
		times: Infinity,
		transient: false,
		fatal: true,
	},
	{
		name: '400 ProblemDetails',
		fault: { kind: 'status', status: 400, body: problem(400, 'Some parameters are invalid') },
		times: Infinity,
		transient: false,
	},
];

function parsesBody(op: Operation): boolean {
	return op.ignoresBody !== true;
}

/** A truncated body the transport does not read, and the node does not parse either. */
function harmlessBody(op: Operation, f: FaultCase): boolean {
	return f.fault.kind === 'malformedJson' && !parsesBody(op) && op.parsesFile !== true;
}

/** Attempts the transport should make for one logical request under a fault. */
function attemptsPerRequest(op: Operation, f: FaultCase): number {
	if (f.auth) return 2;
	// A 429 was not processed: every request, creating ones too, is sent again.
	if (f.fault.kind === 'status' && f.fault.status === 429) return MAX_ATTEMPTS;
	const transient = f.transient === 'reads' ? isRead(op) : f.transient;
	if (transient && !op.creates) {
		// Export files are bytes and delete answers are ignored: a "malformed JSON" body is harmless.
		if (f.fault.kind === 'malformedJson' && !parsesBody(op)) return 1;
		return MAX_ATTEMPTS;
	}
	return 1;
}

describe('fault matrix: every operation × every fault', () => {
	for (const op of matrixOperations(env)) {
		for (const f of faults.filter((fault) => !fault.streamsOnly || op.streams)) {
			test(`${op.name} × ${f.name}`, async () => {
				const { parameters, items } = await op.prepare();
				const before = env.sim.createdCounts();
				env.sim.clearLog();
				env.sim.injectFault(op.route, f.fault, f.times);
				const result = await runNode({
					credentials: env.store,
					items,
					continueOnFail: true,
					parameters: { ...parameters, requestOptions: FAST },
				});
				const attempts = env.sim.requestsTo(op.route).length;
				const after = env.sim.createdCounts();
				const created = op.created ? op.created(after) - op.created(before) : 0;
				const duplicateCreates = Math.max(0, created - 1);
				const json = result.items[0]?.json ?? {};
				const error = typeof json.error === 'string' ? json.error : '';
				let idsLost = 0;
				if (op.route === 'DeleteRecords') {
					idsLost =
						(json.uniqueIdsSent as number) -
						(json.idsDeleted as number) -
						(json.idsFailed as number);
					// Whatever was reported deleted is gone; whatever is still there was reported failed.
					const failedIds = new Set(
						((json.failedBatches as Array<{ ids: string[] }>) ?? []).flatMap((b) => b.ids),
					);
					for (const id of env.sim.recordIds(CATALOG)) if (!failedIds.has(id)) idsLost++;
				}
				const secrets = secretsIn(env, result);

				// Which requests a 500 is worth another try for is read from the OpenAPI method.
				if (f.transient === 'reads') expect(METHODS.has(op.route)).toBe(true);
				const perRequest = attemptsPerRequest(op, f);
				const expectedAttempts =
					op.requests === 1
						? perRequest
						: f.auth === 'once'
							? perRequest + (op.requests - 1)
							: f.fatal && op.stopsOnFatal
								? perRequest
								: perRequest * op.requests;
				// Failed batches get the run's retry budget (Max Retries rounds) again at the end.
				const endRounds =
					op.retriesAtEnd && f.transient === true && perRequest > 1 ? FAST.maxRetries : 0;
				const expectedTotal = expectedAttempts * (1 + endRounds);
				// A summary that reports failed records (with Continue On Fail) instead of an error.
				const reported = op.failuresIn?.(json) ?? '';
				const outcome = error ? `error: ${error}` : reported ? `reported: ${reported}` : 'success';
				record(
					'matrix',
					`| ${op.name} | ${f.name} | ${attempts} | ${cell(outcome)} | ${idsLost} | ${duplicateCreates} | ${secrets} |`,
				);

				expect({ idsLost, duplicateCreates, secrets }).toEqual({
					idsLost: 0,
					duplicateCreates: 0,
					secrets: 0,
				});
				// A wait keeps polling through passing problems and any 5xx until its Timeout (each
				// failed poll used all its attempts), and the error says the state stayed unknown.
				const waitedThrough =
					op.waits === true && ((f.transient && attemptsPerRequest(op, f) > 1) || f.name === '500');
				if (waitedThrough) {
					expect(attempts).toBeGreaterThanOrEqual(expectedAttempts);
					expect(error).toMatch(/did not finish within 2 seconds; last status: unknown/);
				} else {
					expect(attempts).toBe(expectedTotal);
				}
				if (f.auth === 'once' || harmlessBody(op, f)) {
					expect(error || reported).toBe('');
				} else if (op.failuresIn) {
					expect(reported).not.toBe('');
				} else {
					expect(error).toMatch(/\[item 0\]$/);
				}
				if (
					op.creates &&
					!harmlessBody(op, f) &&
					[
						'reset',
						'reset mid-body',
						'timeout',
						'malformed JSON',
						'500',
						'502',
						'503',
						'504',
					].includes(f.name)
				) {
					expect(json.errorDescription).toMatch(/may have reached ABBYY Vantage and been applied/);
				}
			});
		}
	}
});
