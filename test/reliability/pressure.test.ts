/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test timing: a restart after a delay, a revocation mid-wait */
/**
 * Under pressure: rate limits, refused connections, expired tokens in flight, flaky status
 * checks, inputs users actually type. Each test is one row of RELIABILITY.md's "Under pressure".
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode, simulatorCredentials } from '../harness/n8n';
import { useSimulator } from '../helpers/fixture';
import { api, token } from '../helpers/http';
import { binaryFile, fileItem, invoiceText } from '../helpers/binary';
import {
	addFilesParams,
	ids,
	nodeParams,
	processParams,
	recordDeleteParams,
	qaParams,
	recordParams,
	rl,
} from '../helpers/params';
import { seedQualityScenario } from '../simulator/qualitykit';
import { FIXTURE, splittingSkill, VantageSimulator } from '../simulator/simulator';
import { ActiveTrigger, idsOf, triggerParams } from '../node/trigger/poll';
import { startedTransaction } from '../node/transaction/flow';
import { freePort } from './ports';
import { CATALOG, FAST, cell, record, secretsIn } from './shared';

const f = useSimulator((sim) => sim.addCatalog(CATALOG));

const row = (scenario: string, outcome: string) =>
	record('pressure', `| ${cell(scenario)} | ${cell(outcome)} |`);

describe('under pressure', () => {
	test('429 on a creating request: not processed, so sent again; created exactly once', async () => {
		f.sim.injectFault(
			'CreateTransactionStepsExportRequest',
			{ kind: 'status', status: 429, retryAfter: '0' },
			2,
		);
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...nodeParams('report', 'createExport', { startDate: '2026-11-01' }),
				requestOptions: FAST,
			},
		});
		expect(result.error).toBeUndefined();
		const attempts = f.sim.requestsTo('CreateTransactionStepsExportRequest').map((r) => r.status);
		expect(attempts).toEqual([429, 429, 200]);
		expect(f.sim.createdCounts().exports).toBe(1);
		row(
			'Create Export refused twice with 429',
			`sent 3 times (${attempts.join(', ')}), 1 export created, success`,
		);
	});

	test('a refused connection: the request never left, so even a creating request is sent again', async () => {
		const port = await freePort();
		let sim = new VantageSimulator({ port });
		await sim.start();
		const store = simulatorCredentials(sim);
		try {
			// Sign in first, then take the service away for a moment.
			await runNode({
				credentials: store,
				parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
			});
			await sim.stop();
			const restart = (async () => {
				await new Promise((resolve) => setTimeout(resolve, 300));
				sim = new VantageSimulator({ port });
				await sim.start();
			})();
			const result = await runNode({
				credentials: store,
				parameters: {
					...nodeParams('report', 'createExport', { startDate: '2026-11-01' }),
					requestOptions: { ...FAST, maxRetries: 3, retryDelay: 0.5 },
				},
			});
			await restart;
			expect(result.error).toBeUndefined();
			expect(sim.createdCounts().exports).toBe(1);
			row(
				'Create Export while the service refuses connections for 0.3 s',
				'sent again after the refusal, 1 export created, success',
			);
		} finally {
			await sim.stop();
		}
	});

	test('a rate-limit storm during a clean-up: refused batches are sent again at the end; nothing fails', async () => {
		const all = ids('storm-', 0, 30000);
		f.sim.seedRecords(CATALOG, all);
		f.sim.injectFault('DeleteRecords', { kind: 'status', status: 429, retryAfter: '0' }, 8);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: all }],
			parameters: {
				...recordDeleteParams(CATALOG, { mode: 'aggregate' }),
				requestOptions: { ...FAST, maxRetries: 1 },
			},
		});
		const json = result.items[0].json;
		expect(result.error).toBeUndefined();
		expect(json).toMatchObject({ idsDeleted: 30000, idsFailed: 0 });
		expect(f.sim.recordIds(CATALOG)).toEqual([]);
		row(
			'Delete 30 000 IDs, the first 8 requests refused with 429 (1 retry per request)',
			`${json.batchesRetriedAtEnd} batches sent again at the end of the run, 30 000 deleted, 0 failed`,
		);
	});

	test.each([
		['Wait For Export', 'GetExportStatus'],
		['Reindex (wait)', 'GetReindexOperation'],
		['Wait For Transaction', 'GetTransactionInfo'],
	] as const)(
		'%s keeps polling through 503, 429 and resets until it finishes',
		async (name, route) => {
			let parameters: IDataObject;
			if (route === 'GetExportStatus') {
				f.sim.scriptNextExport({ path: ['Processing', 'Processing', 'Processing', 'Succeeded'] });
				const created = await runNode({
					credentials: f.store,
					parameters: nodeParams('report', 'createExport', { startDate: '2026-11-01' }),
				});
				parameters = nodeParams('report', 'waitForExport', {
					requestId: created.items[0].json.requestId,
					options: { pollInterval: 1, maxPollInterval: 1 },
				});
			} else if (route === 'GetReindexOperation') {
				f.sim.scriptNextReindex({ outcome: 'Completed', after: { polls: 4 } });
				parameters = nodeParams('catalog', 'reindex', {
					catalogId: rl(CATALOG),
					options: { pollInterval: 1, maxPollInterval: 1 },
				});
			} else {
				const transactionId = f.sim.createTransaction(FIXTURE.documentSkillId);
				await startedTransaction(f, transactionId, 3, 'P');
				parameters = nodeParams('transaction', 'waitForTransaction', {
					transactionId,
					options: { pollInterval: 1, maxPollInterval: 1 },
				});
			}
			f.sim.injectFault(route, { kind: 'status', status: 503 }, 1);
			f.sim.injectFault(route, { kind: 'status', status: 429 }, 1);
			f.sim.injectFault(route, { kind: 'reset' }, 1);
			const result = await runNode({
				credentials: f.store,
				parameters: { ...parameters, requestOptions: { ...FAST, maxRetries: 0 } },
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.failedPolls).toBe(3);
			row(
				`${name}: one status check each refused with 503, 429, reset (no retries inside a check)`,
				'kept polling; finished; output says failedPolls: 3',
			);
		},
	);

	test('one sign-in per token expiry: 5 waits in flight meet a revoked token and share one sign-in', async () => {
		const requestIds: string[] = [];
		for (let i = 0; i < 5; i++) {
			f.sim.scriptNextExport({
				path: ['Processing', 'Processing', 'Processing', 'Succeeded'],
				advanceEvery: { ms: 1200 },
			});
			const created = await runNode({
				credentials: f.store,
				parameters: nodeParams('report', 'createExport', { startDate: '2026-11-01' }),
			});
			requestIds.push(created.items[0].json.requestId as string);
		}
		f.sim.clearLog();
		const waiting = runNode({
			credentials: f.store,
			items: requestIds.map((id) => ({ id })),
			parameters: nodeParams('report', 'waitForExport', {
				requestId: '={{ $json.id }}',
				options: { pollInterval: 1, maxPollInterval: 1 },
			}),
		});
		await new Promise((resolve) => setTimeout(resolve, 1500));
		f.sim.revokeTokens();
		const result = await waiting;
		expect(result.error).toBeUndefined();
		expect(result.items.every((i) => i.json.status === 'Succeeded')).toBe(true);
		const signIns = f.sim.requestsTo('Token').length;
		expect(signIns).toBe(1);
		expect(secretsIn(f, result)).toBe(0);
		row(
			'5 concurrent Wait For Export, all tokens revoked mid-wait',
			`${signIns} sign-in for all of them, all 5 Succeeded`,
		);
	});

	test('a date-only Start Date (typed or from toISODate()) is midnight in the workflow’s time zone', async () => {
		const result = await runNode({
			credentials: f.store,
			timezone: 'America/New_York',
			parameters: nodeParams('report', 'createExport', { startDate: '={{ "2026-11-01" }}' }),
		});
		expect(result.error).toBeUndefined();
		const sent = (
			f.sim.requestsTo('CreateTransactionStepsExportRequest')[0].body as {
				filters: { startDate: string };
			}
		).filters.startDate;
		expect(sent).toBe('2026-11-01T04:00:00.000Z');
		row('Start Date "2026-11-01" in America/New_York', `sent as ${sent}`);
	});

	test('bad input in item 5 stops the run before items 0–4 create anything', async () => {
		const items = Array.from({ length: 6 }, (_, i) => ({
			start: i === 5 ? 'next week' : '2026-11-01',
		}));
		const result = await runNode({
			credentials: f.store,
			items,
			parameters: nodeParams('report', 'createExport', { startDate: '={{ $json.start }}' }),
		});
		expect(result.error?.message).toMatch(/\[item 5\]$/);
		expect(f.sim.createdCounts().exports).toBe(0);
		row(
			'Create Export for 6 items, item 5 has "next week" as Start Date',
			'0 exports created; error names item 5',
		);
	});

	test('a request ID that would make an unsafe file name is made safe', async () => {
		const requestId = f.sim.createFinishedExport();
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('report', 'downloadExportFiles', { requestId }),
		});
		const fileName = result.items[0].json.fileName as string;
		expect(fileName).toMatch(/^export-[0-9a-f-]+-0\.csv$/);
		row(
			'Download Export Files: the request ID becomes part of the file name',
			`${fileName}; / \\ : * ? " < > | and control characters would become _ (test/node/helpers/fileNames.test.ts)`,
		);
	});

	test('a failure of 12 000 IDs keeps the error small; the IDs are in the error item', async () => {
		const all = ids('e-', 0, 12000);
		f.sim.injectFault(
			'DeleteRecords',
			{ kind: 'status', status: 400, body: { title: 'Bad', status: 400, detail: 'Refused' } },
			Infinity,
		);
		const result = await runNode({
			credentials: f.store,
			items: [{ ids: all }],
			parameters: { ...recordDeleteParams(CATALOG, { mode: 'aggregate' }), requestOptions: FAST },
			continueOnFail: true,
		});
		const json = result.items[0].json;
		const size = (json.error as string).length + ((json.errorDescription as string) ?? '').length;
		expect(size).toBeLessThan(1300);
		expect((json.failedBatches as Array<{ ids: string[] }>).flatMap((b) => b.ids)).toEqual(all);
		row(
			'Delete of 12 000 IDs refused with 400',
			`message + description ${size} characters; all 12 000 IDs in failedBatches`,
		);
	});

	test('client credentials: a node run signs in without a user', async () => {
		const store = simulatorCredentials(f.sim, {
			grantType: 'clientCredentials',
			username: '',
			password: '',
		});
		const result = await runNode({
			credentials: store,
			parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
		});
		expect(result.error).toBeUndefined();
		expect(secretsIn(f, result)).toBe(0);
		row(
			'Credential with Grant Type = Client Credentials',
			'signed in with client_credentials; catalogs listed; no secret in the run',
		);
	});

	test('a date-only End Date is midnight in the workflow’s time zone too', async () => {
		const result = await runNode({
			credentials: f.store,
			timezone: 'Europe/Berlin',
			parameters: nodeParams('report', 'createExport', {
				startDate: '2026-11-01',
				additionalFields: { endDate: '={{ "2026-11-30" }}' },
			}),
		});
		expect(result.error).toBeUndefined();
		const { filters } = f.sim.requestsTo('CreateTransactionStepsExportRequest')[0].body as {
			filters: { endDate: string };
		};
		expect(filters.endDate).toBe('2026-11-29T23:00:00.000Z');
		row('End Date "2026-11-30" in Europe/Berlin', `sent as ${filters.endDate}`);
	});

	test.each([
		[
			'Transaction Create: item 2 has an empty registration parameter key',
			(i: number) => ({ key: i === 2 ? '' : 'Source' }),
			nodeParams('transaction', 'create', {
				skillId: rl(FIXTURE.documentSkillId),
				options: {
					registrationParameters: { parameter: [{ key: '={{ $json.key }}', value: 'x' }] },
				},
			}),
			'CreateTransaction' as const,
		],
		[
			'Transaction Document Add: item 2 names an empty transaction ID',
			(i: number) => ({ tx: i === 2 ? '' : 'tx-known' }),
			nodeParams('transactionDocument', 'add', { transactionId: '={{ $json.tx }}' }),
			'CreateTransactionDocument' as const,
		],
		[
			'Reindex: item 2 names an empty catalog',
			(i: number) => ({ catalog: i === 2 ? '' : CATALOG }),
			nodeParams('catalog', 'reindex', {
				catalogId: rl('={{ $json.catalog }}'),
				waitForCompletion: false,
			}),
			'StartCatalogReindex' as const,
		],
		[
			'Catalog Record Add: item 2 has a value of 300 characters',
			(i: number) => ({ recordId: `r${i}`, Name: i === 2 ? 'x'.repeat(300) : `N${i}` }),
			recordParams('add', CATALOG),
			'AddRecords' as const,
		],
		[
			'Catalog Record Sync: item 2 has a value of 300 characters',
			(i: number) => ({ recordId: `r${i}`, Name: i === 2 ? 'x'.repeat(300) : `N${i}` }),
			recordParams('sync', CATALOG, { options: { reindex: false } }),
			'AddRecords' as const,
		],
		[
			'Catalog Record Add (Map Automatically): item 2 has a field "Region" the catalog has no column for',
			(i: number) => ({ recordId: `r${i}`, Name: `N${i}`, ...(i === 2 ? { Region: 'EU' } : {}) }),
			recordParams('add', CATALOG),
			'AddRecords' as const,
		],
		[
			'Catalog Record Sync (Map Automatically): item 2 has a field "Region" the catalog has no column for',
			(i: number) => ({ recordId: `r${i}`, Name: `N${i}`, ...(i === 2 ? { Region: 'EU' } : {}) }),
			recordParams('sync', CATALOG, { options: { reindex: false } }),
			'AddRecords' as const,
		],
	])('%s: nothing is sent for items 0–1 either', async (scenario, item, parameters, route) => {
		const result = await runNode({
			credentials: f.store,
			items: [0, 1, 2].map((i) => item(i) as IDataObject),
			parameters,
		});
		expect(result.error?.message).toMatch(/\[item 2\]$/);
		expect(f.sim.requestsTo(route)).toHaveLength(0);
		row(scenario, `refused before any ${route} request; error names item 2`);
	});

	test('Vantage refuses item 2 of 3: the error names what items 0 and 1 created', async () => {
		f.sim.injectFault(
			'CreateTransaction',
			{ kind: 'status', status: 400, body: { title: 'Bad', status: 400, detail: 'Refused' } },
			1,
			2,
		);
		const result = await runNode({
			credentials: f.store,
			items: [{}, {}, {}],
			parameters: nodeParams('transaction', 'create', {
				skillId: rl(FIXTURE.documentSkillId),
				options: { concurrency: 1 },
			}),
		});
		expect(result.error?.message).toMatch(/Refused \[item 2\]$/);
		const created = f.sim
			.requestsTo('CreateTransaction')
			.filter((r) => r.status === 201 || r.status === 200);
		expect(created).toHaveLength(2);
		expect(result.error?.description).toMatch(
			/other items had created: transaction \S+ \(item 0\), transaction \S+ \(item 1\)/,
		);
		row(
			'Transaction Create for 3 items, Vantage refuses item 2 (400)',
			'the error names the 2 transactions items 0 and 1 created',
		);
	});

	test('Process Document keeps polling through a 429, a 503 and a dropped connection', async () => {
		f.sim.injectFault('GetTransactionInfo', { kind: 'status', status: 429 });
		f.sim.injectFault('GetTransactionInfo', { kind: 'status', status: 503 });
		f.sim.injectFault('GetTransactionInfo', { kind: 'reset' });
		const result = await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('P-1.pdf', invoiceText({ number: 'P-1' })))],
			// No retries inside one poll: each fault fails a whole poll.
			parameters: {
				...processParams({}, { maxPollInterval: 1 }),
				requestOptions: { maxRetries: 0 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'Processed', failedPolls: 3 });
		row(
			'Process Document: three status checks fail (429, 503, reset)',
			'Processed; failedPolls: 3',
		);
	});

	test('Per Item Delete with Reindex After Delete: each catalog reindexed once, after all items', async () => {
		f.sim.addCatalog('Other');
		f.sim.seedRecords(CATALOG, ['a', 'b']);
		f.sim.seedRecords('Other', ['x']);
		const result = await runNode({
			credentials: f.store,
			items: [
				{ catalog: CATALOG, ids: ['a'] },
				{ catalog: 'Other', ids: ['x'] },
				{ catalog: CATALOG, ids: ['b'] },
			],
			parameters: recordDeleteParams(CATALOG, {
				mode: 'perItem',
				catalogId: rl('={{ $json.catalog }}'),
				options: { reindexAfterDelete: true },
			}),
		});
		expect(result.error).toBeUndefined();
		const reindexes = f.sim.requestsTo('StartCatalogReindex').map((r) => r.params.catalogId);
		expect(reindexes.sort()).toEqual([CATALOG, 'Other'].sort());
		const order = f.sim.requests
			.filter((r) => r.route === 'DeleteRecords' || r.route === 'StartCatalogReindex')
			.map((r) => r.route);
		expect(order.lastIndexOf('DeleteRecords')).toBeLessThan(order.indexOf('StartCatalogReindex'));
		row(
			'Per Item Delete of 3 items over 2 catalogs, Reindex After Delete',
			'2 reindexes, both after the last delete',
		);
	});

	test('a source file uploaded with an unsafe name is downloaded under a safe file name', async () => {
		const transactionId = f.sim.createTransaction(FIXTURE.processSkillId);
		await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('inv:01/02?.pdf', 'bytes'))],
			parameters: addFilesParams(transactionId),
		});
		const [file] = f.sim.transaction(transactionId)!.files;
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'downloadFile', { transactionId, fileId: file.id }),
		});
		expect(result.error).toBeUndefined();
		const fileName = result.items[0].binary!.data.fileName!;
		expect(fileName).not.toMatch(/[/\\:*?"<>|]/);
		row(
			'Add Files, then Download File of a source file uploaded as "inv:01/02?.pdf"',
			`stored by Vantage as ${file.name}; output file name ${fileName} (the node's own rule for unsafe names: test/node/helpers/fileNames.test.ts)`,
		);
	});

	describe('right to the last field', () => {
		const text = (name: string, ...lines: string[]) =>
			fileItem(binaryFile(name, `${lines.join('\n')}\n`));
		const splitting = () => {
			f.sim.defineSkill(splittingSkill());
			return processParams({
				skillId: rl(FIXTURE.splittingSkillId),
				transactionMode: 'combined',
				inputFiles: 'all',
			});
		};

		test('One for All Items with a Process skill that splits one file and merges two items’ files: each document paired by its result JSON', async () => {
			const result = await runNode({
				credentials: f.store,
				items: [
					text('two.txt', 'InvoiceNumber: T-1', 'InvoiceNumber: T-2'),
					text('page-1.txt', 'InvoiceNumber: T-3'),
					text('page-2.txt', 'Continued: yes'),
				],
				parameters: splitting(),
			});
			expect(result.error).toBeUndefined();
			const paired = result.items.map((i) => [
				(i.json.fields as IDataObject).InvoiceNumber,
				i.json.pairing,
				i.pairedItem,
			]);
			expect(paired).toEqual([
				['T-1', 'resultJson', { item: 0 }],
				['T-2', 'resultJson', { item: 0 }],
				['T-3', 'resultJson', [{ item: 1 }, { item: 2 }]],
			]);
			row(
				'Process Document, One for All Items, 3 items; the Process skill splits item 0’s file in two, merges items 1 and 2 into one, new document IDs',
				'T-1 and T-2 paired with item 0, T-3 with items 1 and 2 (pairing: resultJson, from each result JSON’s SourceFiles)',
			);
		});

		test('…and when no result JSON names the files and Vantage’s document list has other IDs, the items say so', async () => {
			f.sim.injectFault(
				'DownloadFile',
				{ kind: 'status', status: 200, body: { Documents: [] } },
				Infinity,
			);
			const result = await runNode({
				credentials: f.store,
				items: [text('u1.txt', 'InvoiceNumber: U-1'), text('u2.txt', 'InvoiceNumber: U-2')],
				parameters: splitting(),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => [i.json.pairing, i.pairedItem])).toEqual([
				['unknown', [{ item: 0 }, { item: 1 }]],
				['unknown', [{ item: 0 }, { item: 1 }]],
			]);
			row(
				'The same, the result JSON names no source files and GetTransactionDocuments lists other document IDs',
				'each document paired with all items and all files, pairing: "unknown"',
			);
		});

		test('a transaction that ends Failed: the error item has status and reason, no httpCode', async () => {
			f.sim.scriptNextTransaction({ outcome: 'Failed', error: 'The file is damaged' });
			const result = await runNode({
				credentials: f.store,
				items: [text('bad.txt', 'InvoiceNumber: F-1')],
				parameters: processParams(),
				continueOnFail: true,
			});
			const [item] = result.items;
			expect(item.json).toMatchObject({ status: 'Failed' });
			expect(item.json.error).toMatch(/The file is damaged \[item 0\]$/);
			expect(item.json).not.toHaveProperty('httpCode');
			row(
				'Process Document with Continue On Fail, the transaction ends Failed',
				`error item: status ${item.json.status}, no httpCode; error ends "${String(item.json.error).replace(/^.*: /, '')}"`,
			);
		});

		test('result files of two items’ "scan.pdf" (two documents each) get names unique across the output', async () => {
			const result = await runNode({
				credentials: f.store,
				items: [text('scan.pdf', 'InvoiceNumber: N-1'), text('scan.pdf', 'InvoiceNumber: N-2')],
				parameters: processParams(
					{ skillId: rl(FIXTURE.processSkillId) },
					{ downloadResultFiles: 'all' },
				),
			});
			const names = result.items.flatMap((i) =>
				Object.values(i.binary ?? {}).map((b) => b.fileName),
			);
			expect(names).toHaveLength(12);
			expect(new Set(names).size).toBe(12);
			row(
				'Download Result Files for 2 items, each a "scan.pdf" the Process skill makes 2 documents of',
				`12 files, 12 distinct names (${names[0]}, ${names[3]}, ${names[6]}…)`,
			);
		});

		test('the trigger’s Start From stays the lower bound on the second poll; a wall-clock value is read in the workflow’s time zone', async () => {
			const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
			const [inside] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(60) });
			f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(240) });
			const timeZone = 'Asia/Tokyo';
			const wall = new Intl.DateTimeFormat('sv-SE', {
				timeZone,
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
				hour: '2-digit',
				minute: '2-digit',
				second: '2-digit',
				hourCycle: 'h23',
			})
				.format(minutesAgo(120))
				.replace(' ', 'T');
			const trigger = new ActiveTrigger(
				() => f.store,
				triggerParams('transactionCompleted', { options: { startFrom: wall } }),
				timeZone,
			);
			const first = await trigger.poll();
			const second = await trigger.poll();
			expect(idsOf(first)).toEqual([inside]);
			expect(second.executions).toHaveLength(0);
			row(
				`Trigger, Start From "${wall}" (two hours ago in ${timeZone}, no offset), one transaction created before it and one after`,
				`first poll: ${first.executions.length} execution (the later one); second poll: ${second.executions.length}`,
			);
		});

		test('Include Results: Failed and Canceled transactions give items with the keys of a processed one', async () => {
			const trigger = new ActiveTrigger(
				() => f.store,
				triggerParams('transactionCompleted', { includeResults: true }),
			);
			await trigger.poll();
			f.sim.seedCompletedTransactions(1, { createdAt: new Date(Date.now() - 3000) });
			f.sim.seedCompletedTransactions(1, {
				createdAt: new Date(Date.now() - 2000),
				status: 'Failed',
			});
			f.sim.seedCompletedTransactions(1, {
				createdAt: new Date(Date.now() - 1000),
				status: 'Canceled',
			});
			const run = await trigger.poll();
			const keys = run.executions.map((items) => Object.keys(items[0].json).sort().join(','));
			expect(new Set(keys).size).toBe(1);
			expect(run.executions.map((items) => items[0].json.error === null)).toEqual([
				true,
				false,
				false,
			]);
			row(
				'Trigger with Include Results: one Processed, one Failed, one Canceled transaction',
				`3 executions, items with the same ${keys[0].split(',').length} keys; error null, then set twice`,
			);
		});

		test('Sync names the duplicate IDs and the items that lost', async () => {
			const result = await runNode({
				credentials: f.store,
				items: [
					{ recordId: 'd', Name: 'first' },
					{ recordId: 'e', Name: 'E' },
					{ recordId: 'd', Name: 'last' },
				],
				parameters: recordParams('sync', CATALOG, { dryRun: true }),
			});
			const duplicates = result.items[0].json.duplicatesRemoved;
			expect(duplicates).toEqual({
				count: 1,
				ids: ['d'],
				items: [{ item: 0, id: 'd', keptItem: 2 }],
			});
			row(
				'Sync of 3 items, items 0 and 2 with the same record ID',
				`duplicatesRemoved: ${JSON.stringify(duplicates)}`,
			);
		});
	});

	test('a QA report for a skill that does not exist: the empty report is explained', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: qaParams('getQualitySummary', { processSkillId: rl('invoice-processing') }),
		});
		expect(result.error?.message).toBe(
			'Process Skill "invoice-processing" was not found, and the report has no rows for it [item 0]',
		);
		row(
			'Get Quality Summary for a Process Skill ID that does not exist (a typo)',
			`error: ${result.error?.message}; GetSkillInfo asked only because the reports were empty`,
		);
	});

	test('a QA report that breaks off midway, twice: read again from the start, counted once', async () => {
		seedQualityScenario(f.sim);
		f.sim.seedCompletedTransactions(300, { skillId: FIXTURE.processSkillId, manualReview: true });
		f.sim.injectFault('GetFieldsAsCsv', { kind: 'reset', afterBytes: 10_000 }, 2);
		const result = await runNode({
			credentials: f.store,
			parameters: { ...qaParams('getQualitySummary'), requestOptions: FAST },
		});
		expect(result.error).toBeUndefined();
		const occurrences = result.items
			.filter((i) => i.json.level === 'field')
			.map((i) => i.json.occurrences);
		expect(new Set(occurrences)).toEqual(new Set([608]));
		row(
			'Get Quality Summary: the fields report breaks off after 10 kB, twice',
			`3 downloads, each field counted 608 times (608 documents), nothing doubled, success`,
		);
	});

	test('a QA report that stops sending midway: Timeout without data, read again', async () => {
		f.sim.seedCompletedTransactions(300, { skillId: FIXTURE.processSkillId });
		f.sim.injectFault('GetDocumentsAsCsv', { kind: 'stall', afterBytes: 10_000 });
		const started = Date.now();
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...qaParams('getDocumentChanges', { output: 'binary' }),
				requestOptions: FAST,
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.rows).toBe(600);
		row(
			'Get Document Changes (CSV File): the body stops after 10 kB, the connection open',
			`timed out after the 1 s Timeout without data, downloaded again: 600 rows, success in ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
	});

	test('a QA report answered 500 twice: a read, so asked for again; the summary is whole', async () => {
		seedQualityScenario(f.sim);
		f.sim.injectFault(
			'GetDocumentsAsCsv',
			{ kind: 'status', status: 500, body: { title: 'Problem', status: 500, detail: 'Busy' } },
			2,
		);
		const result = await runNode({
			credentials: f.store,
			parameters: { ...qaParams('getQualitySummary'), requestOptions: FAST },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ level: 'total', documents: 8 });
		expect(f.sim.requestsTo('GetDocumentsAsCsv').map((r) => r.status)).toEqual([500, 500, 200]);
		row(
			'Get Quality Summary: the documents report answered 500, twice',
			'asked for again within Max Retries (3 requests); 8 documents summarised, success',
		);
	});

	test('a QA report that breaks off inside a quoted cell: read again, not refused as garbled', async () => {
		seedQualityScenario(f.sim);
		// The scenario's first file name is quoted ("scan 1, ""March"".pdf"): cut inside it.
		const served = await api(
			f.sim,
			await token(f.sim),
			'GET',
			`/api/reporting/v2/qa/process-skills/documents?startDate=2020-01-01&processSkillId=${FIXTURE.processSkillId}`,
		);
		const cut = Buffer.byteLength(served.text.slice(0, served.text.indexOf('"scan 1') + 5));
		f.sim.clearLog();
		f.sim.injectFault('GetDocumentsAsCsv', { kind: 'reset', afterBytes: cut });
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...qaParams('getDocumentChanges', { output: 'binary' }),
				requestOptions: FAST,
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.rows).toBe(8);
		expect(f.sim.requestsTo('GetDocumentsAsCsv').map((r) => r.fault ?? 'none')).toEqual([
			'reset',
			'none',
		]);
		row(
			'Get Document Changes (CSV File): the connection breaks inside a quoted cell of the first row',
			'the open quote is no verdict on a body that broke off: downloaded again, 8 rows, success',
		);
	});
});
