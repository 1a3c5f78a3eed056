/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * The package inside a real n8n: `npm pack` → n8n's community-nodes folder → import the credential
 * and the example workflows → `n8n execute` each → assert on n8n's output, the files written and
 * the simulator's request log. Ends with `N passed, M failed`; exit code 1 if anything failed.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { FIXTURE } from '../test/simulator/simulator';
import { check, finish } from './lib/checks';
import { n8n, parseRun, type N8nInstance } from './lib/n8n';
import { CLEANUP_CATALOG, REPORT_FILES, setUp } from './lib/setup';

type Json = Record<string, unknown>;
type Item = { json: Json; binary?: Json; pairedItem?: unknown };

function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

function equal(actual: unknown, expected: unknown, what: string): void {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	assert(a === e, `${what}: expected ${e}, got ${a}`);
}

function output(run: Json | undefined, node: string): Item[] {
	const runData = ((run?.data as Json)?.resultData as Json)?.runData as Record<string, Json[]>;
	const task = runData?.[node]?.[0];
	return (((task?.data as Json)?.main as Item[][]) ?? [])[0] ?? [];
}

function runError(run: Json | undefined): Json | undefined {
	return ((run?.data as Json)?.resultData as Json)?.error as Json | undefined;
}

async function execute(instance: N8nInstance, workflowId: string) {
	const result = await n8n(instance, ['execute', `--id=${workflowId}`, '--rawOutput']);
	return { ...result, run: parseRun(result.stdout) };
}

async function main(): Promise<void> {
	const started = Date.now();
	const { instance, sim, transactionId } = await setUp({ includeE2eWorkflows: true });

	console.log('\nexamples/catalog-cleanup.json');
	const cleanup = await execute(instance, 'vantageExCleanup01');
	await check('runs to success inside n8n', () => {
		equal(cleanup.code, 0, 'exit code');
		equal(cleanup.run?.status, 'success', 'status');
	});
	await check(
		'one summary item: 12 600 IDs requested, 12 200 unique, 400 duplicates, all deleted',
		() => {
			const items = output(cleanup.run, 'Delete stale vendors');
			equal(items.length, 1, 'items');
			const json = items[0].json;
			equal(
				[
					json.idsRequested,
					json.uniqueIdsSent,
					json.duplicatesRemoved,
					json.batchesSent,
					json.idsDeleted,
					json.idsFailed,
				],
				[12600, 12200, 400, 3, 12200, 0],
				'summary',
			);
			equal(items[0].pairedItem, [{ item: 0 }, { item: 1 }, { item: 2 }], 'pairedItem');
		},
	);
	await check(
		'the simulator got ceil(12 200 / 5000) = 3 delete requests holding every ID once',
		() => {
			const bodies = sim.requestsTo('DeleteRecords').map((r) => r.body as string[]);
			equal(
				bodies.map((b) => b.length),
				[5000, 5000, 2200],
				'batch sizes',
			);
			equal(new Set(bodies.flat()).size, 12200, 'unique IDs sent');
			equal(
				sim.requestsTo('DeleteRecords')[0].params.catalogId,
				CLEANUP_CATALOG,
				'catalog as one segment',
			);
			equal(
				sim.recordIds(CLEANUP_CATALOG),
				['vendor-12200', ...Array.from({ length: 199 }, (_, i) => `vendor-${12201 + i}`)],
				'records left',
			);
		},
	);
	await check('reindex after delete was started and waited for', () => {
		const reindex = output(cleanup.run, 'Delete stale vendors')[0].json.reindex as Json;
		equal(reindex.currentState, 'Completed', 'reindex state');
		assert(sim.requestsTo('GetReindexOperation').length >= 1, 'reindex polled');
	});
	await check(
		'the token came from the credential’s preAuthentication (form-encoded password grant)',
		() => {
			const tokens = sim.requestsTo('Token');
			equal(tokens.length, 1, 'token requests');
			equal(tokens[0].headers['content-type'], 'application/x-www-form-urlencoded', 'content type');
			equal((tokens[0].body as Json).grant_type, 'password', 'grant type');
		},
	);

	console.log('\nexamples/report-to-files.json');
	const report = await execute(instance, 'vantageExReport001');
	await check('create → wait → download runs to success', () => {
		equal(report.code, 0, 'exit code');
		equal(report.run?.status, 'success', 'status');
		const waited = output(report.run, 'Wait for export')[0].json;
		equal(
			[waited.status, waited.totalFileCount, waited.fileIndexes],
			['Succeeded', 2, [0, 1]],
			'wait output',
		);
	});
	await check('the export was created with UTC date-times for the last seven days', () => {
		const body = sim.requestsTo('CreateTransactionStepsExportRequest')[0].body as Json;
		const filters = body.filters as Json;
		assert(
			/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(String(filters.startDate)),
			`startDate ${filters.startDate}`,
		);
		const days =
			(Date.parse(String(filters.endDate)) - Date.parse(String(filters.startDate))) / 86400000;
		assert(days > 6.9 && days < 7.1, `range ${days} days`);
	});
	await check('two binary CSV items, written to disk with exactly the bytes served', () => {
		const items = output(report.run, 'Download CSV files');
		equal(items.length, 2, 'items');
		const requestId = sim.exportIds()[0];
		const expected = REPORT_FILES;
		items.forEach((item, index) => {
			const binary = (item.binary as Record<string, Json>).data;
			equal(
				[binary.fileName, binary.mimeType],
				[`export-${requestId}-${index}.csv`, 'text/csv'],
				'binary metadata',
			);
			const file = join(instance.filesDir, `export-${requestId}-${index}.csv`);
			assert(existsSync(file), `${file} written`);
			equal(readFileSync(file, 'utf8'), expected[index], `bytes of file ${index}`);
		});
	});
	await check('the second execution reused the stored token', () => {
		equal(sim.requestsTo('Token').length, 1, 'token requests over two executions');
	});

	console.log('\nexamples/add-document.json');
	const added = await execute(instance, 'vantageExDocument1');
	await check('the document was added with exactly the configured fields', () => {
		equal(added.run?.status, 'success', 'status');
		const json = output(added.run, 'Add document')[0].json;
		equal(json.transactionId, transactionId, 'transaction id');
		equal(
			sim.requestsTo('CreateTransactionDocument')[0].body,
			{
				index: 0,
				imageProcessingOptions: { autoCrop: 'Yes', autoOrientation: 'Default' },
			},
			'request body',
		);
		equal(
			sim.transaction(transactionId)?.documents.map((d) => d.id),
			[json.documentId],
			'stored document',
		);
	});

	console.log('\ntoken expiry');
	sim.revokeTokens();
	sim.clearLog();
	const refreshed = await execute(instance, 'vantageExDocument1');
	await check('a revoked token → 401 → one refresh through preAuthentication → success', () => {
		equal(refreshed.run?.status, 'success', 'status');
		equal(
			sim.requests.map((r) => `${r.route}:${r.status}`),
			['CreateTransactionDocument:401', 'Token:200', 'CreateTransactionDocument:201'],
			'requests',
		);
	});

	console.log('\nfailures');
	sim.scriptNextExport({ path: ['Processing', 'Failed'] });
	const failing = await execute(instance, 'vantageE2eFail001');
	await check('a failing export stops the workflow with a readable error', () => {
		assert(failing.code !== 0, 'exit code');
		assert(runError(failing.run), 'an error is recorded');
		const error = runError(failing.run);
		assert(
			/^Export [0-9a-f-]{36} ended with status Failed \(correlation ID [0-9a-f-]{36}\) \[item 0\]$/.test(
				String(error?.message),
			),
			`message: ${error?.message}`,
		);
	});
	sim.scriptNextExport({ path: ['Processing', 'Failed'] });
	const failingContinue = await execute(instance, 'vantageE2eFail002');
	await check(
		'with Continue On Fail the error item carries status, correlation ID and pairedItem',
		() => {
			equal(failingContinue.run?.status, 'success', 'status');
			const [item] = output(failingContinue.run, 'Wait for export');
			equal(
				[item.json.status, typeof item.json.correlationId, item.pairedItem],
				['Failed', 'string', { item: 0 }],
				'error item',
			);
			assert(
				String(item.json.error).includes('ended with status Failed'),
				`error ${item.json.error}`,
			);
		},
	);
	sim.clearLog();
	const bad = await execute(instance, 'vantageE2eBad0001');
	await check(
		'bad record IDs give a readable error naming the field, the position and the item, and send nothing',
		() => {
			assert(bad.code !== 0, 'exit code');
			equal(
				runError(bad.run)?.message,
				'Input Field "recordIds": the ID at position 1 is only whitespace ("   ") [item 1]',
				'message',
			);
			equal(sim.requestsTo('DeleteRecords').length, 0, 'delete requests');
		},
	);
	const badContinue = await execute(instance, 'vantageE2eBad0002');
	await check(
		'with Continue On Fail, the bad item is an error item paired with its input; the good one is deleted',
		() => {
			equal(badContinue.run?.status, 'success', 'status');
			const items = output(badContinue.run, 'Delete records');
			equal(
				items.map((i) => i.pairedItem),
				[{ item: 0 }, { item: 1 }],
				'pairing',
			);
			equal(items[0].json.idsDeleted, 2, 'first item deleted');
			assert(
				String(items[1].json.error).includes('position 1 is only whitespace'),
				`error ${items[1].json.error}`,
			);
		},
	);

	console.log('\nsecrets');
	await check(
		'no password, client secret or token in the stored executions or the CLI output',
		() => {
			const secrets = [FIXTURE.password, FIXTURE.clientSecret, ...sim.issuedTokens()];
			const dbDir = join(instance.userFolder, '.n8n');
			const stored = readdirSync(dbDir)
				.filter((f) => f.startsWith('database.sqlite'))
				.map((f) => readFileSync(join(dbDir, f)).toString('latin1'))
				.join('\n');
			assert(stored.includes('vantageE2eBad0002'), 'executions were stored');
			const outputs = [
				cleanup,
				report,
				added,
				refreshed,
				failing,
				failingContinue,
				bad,
				badContinue,
			]
				.map((r) => r.stdout + r.stderr)
				.join('\n');
			for (const secret of secrets) {
				assert(!stored.includes(secret), `a secret (${secret.slice(0, 3)}…) is in the database`);
				assert(!outputs.includes(secret), `a secret (${secret.slice(0, 3)}…) is in the CLI output`);
			}
		},
	);

	await sim.stop();
	console.log(`\n[e2e] finished in ${Math.round((Date.now() - started) / 1000)} s`);
	finish();
}

main().catch((error) => {
	console.error(error);
	finish(1);
});
