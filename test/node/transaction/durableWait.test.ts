import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { WaitingN8n, type Execution, type Line } from '../../harness/durable';
import { runNode, runPoll } from '../../harness/n8n';
import { eventBody, randomSecret, signed, type EventSecrets } from '../../harness/webhook';
import { binaryFile, fileItem, invoiceText } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, processParams } from '../../helpers/params';
/** The secret the shipped script signs with (custom-activity/n8n-events.js, SECRET_NAME). */
const SIGNING_VARIABLE = 'n8n-events-secret';
import type { VantageSimulator } from '../../simulator/simulator';

/**
 * Process Document and Wait For Transaction with On Manual Review → Resume When Vantage Pushes,
 * through n8n-core's engine and n8n's waiting-webhook flow (../../harness/durable.ts): the
 * simulator's Custom activity runs the shipped script after Review, which posts to the resume URL
 * the node gave the transaction.
 */

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

let secrets: EventSecrets | undefined;
const started: WaitingN8n[] = [];
afterEach(async () => {
	await Promise.all(started.splice(0).map(async (n8n) => await n8n.stop()));
	await f.sim.customActivitiesSettled();
});

/** An n8n whose executions can wait, and the script after Review signing with `secret`. */
async function n8nWith(
	options: { line?: Line; secret?: string; webhookWaitingBaseUrl?: string } = {},
): Promise<WaitingN8n> {
	secrets = { secret: options.secret ?? randomSecret() };
	placeScript(f.sim, secrets.secret);
	const n8n = new WaitingN8n({
		credentials: () => f.store,
		secrets: () => secrets,
		line: options.line,
		webhookWaitingBaseUrl: options.webhookWaitingBaseUrl,
	});
	started.push(n8n);
	return await n8n.start();
}

function placeScript(sim: VantageSimulator, secret: string): void {
	sim.configureCustomActivity({ placements: ['afterReview'], allowPlainHttpOnLoopback: true });
	sim.setSecrets({ [SIGNING_VARIABLE]: secret });
}

const invoice = (number: string) =>
	fileItem(binaryFile(`${number}.pdf`, invoiceText({ number, total: '10,00' })));

const resumeOptions = (extra: IDataObject = {}) => ({ onManualReview: 'resume', ...extra });

/** The next `count` transactions wait in Manual Review until the test finishes them. */
function reviewNext(count = 1): void {
	for (let i = 0; i < count; i++) {
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 100_000 } });
	}
}

/** The transaction ids an execution waits for, from what n8n stored. */
function waitingIds(n8n: WaitingN8n, execution: Execution): string[] {
	return n8n
		.waitingInput(execution.id)
		.filter((entry) => !(entry.json.durableWait as IDataObject).failed)
		.map((entry) => String(entry.json.transactionId));
}

/**
 * Finish the review of `transactionId` while n8n cannot be reached: the script after Review runs
 * but sends nothing (no secret in the tenant), and the transaction ends Processed.
 */
async function finishReviewUnheard(transactionId: string): Promise<void> {
	f.sim.setSecrets({ [SIGNING_VARIABLE]: null });
	f.sim.completeTransaction(transactionId);
	await f.sim.customActivitiesSettled();
	f.sim.setSecrets({ [SIGNING_VARIABLE]: secrets!.secret });
}

/** Finish the review of `transactionId`: the script after Review posts to the resume URL. */
async function finishReview(transactionId: string): Promise<void> {
	f.sim.completeTransaction(transactionId);
	await f.sim.customActivitiesSettled();
}

/** The keys of items, without the values that differ between two runs. */
const shape = (items: INodeExecutionData[]) =>
	items.map((item) => ({
		keys: Object.keys(item.json).sort(),
		fields: item.json.fields,
		status: item.json.status,
		pairedItem: item.pairedItem,
	}));

describe('Resume When Vantage Pushes: documents that need no review', () => {
	test('come out at once, as Keep Waiting outputs them; the execution never waits', async () => {
		const n8n = await n8nWith();
		const execution = await n8n.run({
			items: [invoice('A-1')],
			parameters: processParams({}, resumeOptions()),
		});
		expect(execution.error).toBeUndefined();
		expect(execution.status).toBe('success');
		const keep = await runNode({
			credentials: f.store,
			items: [invoice('A-1')],
			parameters: processParams(),
		});
		expect(shape(execution.items)).toEqual(shape(keep.items));
		// The transaction carried the execution's resume URL, for the script.
		const launch = f.sim.requestsTo('LaunchTransaction')[0].body as { model: IDataObject };
		expect(launch.model.registrationParameters).toEqual([
			{ key: 'n8nResumeUrl', value: execution.resumeUrl },
		]);
		expect(execution.resumeUrl).toMatch(/\/webhook-waiting\/\d+\?signature=[0-9a-f]{64}$/);
	});
});

describe('Resume When Vantage Pushes: a review', () => {
	test('the execution waits holding nothing, and resumes with what Keep Waiting outputs when the script pushes', async () => {
		const n8n = await n8nWith();
		reviewNext();
		const execution = await n8n.run({
			items: [invoice('R-1')],
			parameters: processParams({}, resumeOptions()),
		});
		expect(execution.error).toBeUndefined();
		expect(execution.status).toBe('waiting');
		const [id] = waitingIds(n8n, execution);
		expect(execution.items).toEqual([
			{
				json: expect.objectContaining({
					transactionId: id,
					status: 'Processing',
					waitingForManualReview: true,
					manualReviewLink: expect.stringContaining('/review/'),
					waitingSince: expect.any(String),
					waitLimitAt: expect.any(String),
				}),
				pairedItem: { item: 0 },
			},
		]);
		// What n8n stored is all the wait needs: JSON, no binary data.
		const stored = n8n.stored.get(execution.id)!;
		expect(stored.waitTill!.getTime() - Date.now()).toBeGreaterThan(167 * 3600_000);
		expect(n8n.waitingInput(execution.id)[0].binary).toBeUndefined();

		f.sim.clearLog();
		await finishReview(id);
		await n8n.settled();
		const history = n8n.history.get(execution.id)!;
		expect(history).toHaveLength(2);
		const resumed = history[1];
		expect(resumed.status).toBe('success');
		const [run] = f.sim.customActivityRuns(id);
		expect(run.requests.map((r) => r.status)).toEqual([202]);
		const keep = await runNode({
			credentials: f.store,
			items: [invoice('R-1')],
			parameters: processParams(),
		});
		expect(shape(resumed.items)).toEqual(shape(keep.items));
		expect(resumed.items[0].json).toMatchObject({
			transactionId: id,
			status: 'Processed',
			uploadMethod: 'launch',
			fields: expect.objectContaining({ InvoiceNumber: 'R-1' }),
		});
	});
});

describe('Resume When Vantage Pushes: several transactions', () => {
	test('each ended review pushes: the last resumes it once, every item in order and paired; before, it stays waiting', async () => {
		const n8n = await n8nWith();
		// Scripts are taken in launch order: items 0 and 2 wait for review, item 1 does not.
		reviewNext();
		f.sim.scriptNextTransaction({ processing: { polls: 0 } });
		reviewNext();
		const items = [invoice('M-0'), invoice('M-1'), invoice('M-2')];
		const execution = await n8n.run({
			items,
			parameters: processParams({}, resumeOptions({ concurrency: 1 })),
		});
		expect(execution.status).toBe('waiting');
		const ids = waitingIds(n8n, execution);
		expect(ids).toHaveLength(3);
		expect(execution.items.map((i) => [i.json.status, i.json.waitingForManualReview])).toEqual([
			['Processing', true],
			['Processed', false],
			['Processing', true],
		]);
		// No results were read before the wait: they are read when it resumes.
		expect(f.sim.requestsTo('DownloadFile')).toHaveLength(0);

		await finishReview(ids[2]);
		await n8n.settled();
		expect(n8n.stored.get(execution.id)!.status).toBe('waiting');
		expect(n8n.history.get(execution.id)).toHaveLength(1);
		expect(n8n.logs.join('\n')).toMatch(new RegExp(`transaction ${ids[0]} has not ended`));

		await finishReview(ids[0]);
		await n8n.settled();
		const history = n8n.history.get(execution.id)!;
		expect(history).toHaveLength(2);
		const resumed = history[1].items;
		expect(resumed.map((i) => [i.json.transactionId, i.pairedItem])).toEqual([
			[ids[0], { item: 0 }],
			[ids[1], { item: 1 }],
			[ids[2], { item: 2 }],
		]);
		const keep = await runNode({ credentials: f.store, items, parameters: processParams() });
		expect(shape(resumed)).toEqual(shape(keep.items));
	});

	test('two pushes at the same moment resume it once', async () => {
		const n8n = await n8nWith();
		reviewNext(2);
		const execution = await n8n.run({
			items: [invoice('C-0'), invoice('C-1')],
			parameters: processParams({}, resumeOptions({ concurrency: 1 })),
		});
		const ids = waitingIds(n8n, execution);
		// Both reviews end while nobody listens; then both pushes arrive together.
		for (const id of ids) await finishReviewUnheard(id);
		const calls = await Promise.all(
			ids.map(async (id) => {
				const push = signed(eventBody(id), secrets!.secret);
				return await n8n.post(execution.resumeUrl, String(push.body), push.headers);
			}),
		);
		expect(calls.map((c) => c.status)).toEqual([202, 202]);
		const handled = await Promise.all(calls.map(async (c) => await c.handled));
		expect(handled.map((h) => h.error)).toEqual([undefined, undefined]);
		expect(handled.filter((h) => h.resumed)).toHaveLength(1);
		expect(n8n.history.get(execution.id)).toHaveLength(2);
		expect(n8n.history.get(execution.id)![1].items).toHaveLength(2);
	});

	test('One for All Items: the documents come out as Keep Waiting gives them, paired by position (n8n re-pairs a resumed node)', async () => {
		const n8n = await n8nWith();
		reviewNext();
		const items = [invoice('P-0'), invoice('P-1')];
		const execution = await n8n.run({
			items,
			parameters: processParams({ transactionMode: 'combined' }, resumeOptions()),
		});
		expect(execution.status).toBe('waiting');
		expect(execution.items).toEqual([
			expect.objectContaining({ pairedItem: [{ item: 0 }, { item: 1 }] }),
		]);
		const [id] = waitingIds(n8n, execution);
		await finishReview(id);
		await n8n.settled();
		const resumed = n8n.history.get(execution.id)![1].items;
		const keep = await runNode({
			credentials: f.store,
			items,
			parameters: processParams({ transactionMode: 'combined' }),
		});
		// n8n pairs what a resumed node outputs with its input by position (n8n-core gives each item
		// of the stack entry it resumes the pairedItem of its place), whatever webhook() said: the
		// document of both items is paired with the first. Everything else is as Keep Waiting's.
		expect(keep.items.map((i) => i.pairedItem)).toEqual([[{ item: 0 }, { item: 1 }]]);
		expect(resumed.map((i) => i.pairedItem)).toEqual([{ item: 0, input: undefined }]);
		const unpaired = (items: INodeExecutionData[]) =>
			shape(items).map((i) => ({ ...i, pairedItem: undefined }));
		expect(unpaired(resumed)).toEqual(unpaired(keep.items));
	});

	test('Delete After Reading deletes each transaction once its results are in the resumed output', async () => {
		const n8n = await n8nWith();
		reviewNext();
		const execution = await n8n.run({
			items: [invoice('D-0')],
			parameters: processParams({}, resumeOptions({ deleteAfterReading: true })),
		});
		const [id] = waitingIds(n8n, execution);
		expect(f.sim.requestsTo('DeleteTransaction')).toHaveLength(0);
		await finishReview(id);
		await n8n.settled();
		const resumed = n8n.history.get(execution.id)![1].items;
		expect(resumed[0].json).toMatchObject({ transactionId: id, transactionDeleted: true });
		expect(f.sim.requestsTo('DeleteTransaction')).toHaveLength(1);
	});

	test('a transaction that failed instead comes out as an error item; the execution goes on', async () => {
		const n8n = await n8nWith();
		reviewNext();
		const execution = await n8n.run({
			items: [invoice('F-0')],
			parameters: processParams({}, resumeOptions()),
		});
		const [id] = waitingIds(n8n, execution);
		// A failed transaction runs no Custom activity: the safety net's re-send brings the push.
		f.sim.completeTransaction(id, 'Failed');
		const push = signed(eventBody(id), secrets!.secret);
		const call = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect(call.status).toBe(202);
		const { resumed } = await call.handled;
		expect(resumed?.status).toBe('success');
		expect(resumed!.items).toEqual([
			{
				json: expect.objectContaining({
					transactionId: id,
					status: 'Failed',
					error: expect.stringContaining(`Transaction ${id} ended with status Failed`),
				}),
				pairedItem: { item: 0 },
			},
		]);
	});
});

describe('Resume When Vantage Pushes: a transaction that failed before the wait', () => {
	test('stops the run as without the option; under Continue On Fail it is an error item, then and after the resume', async () => {
		const n8n = await n8nWith();
		reviewNext();
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, outcome: 'Failed' });
		const stopped = await n8n.run({
			items: [invoice('E-0'), invoice('E-1')],
			parameters: processParams({}, resumeOptions({ concurrency: 1 })),
		});
		expect(stopped.status).toBe('error');
		expect(stopped.error?.message).toMatch(/ended with status Failed/);

		reviewNext();
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, outcome: 'Failed' });
		const execution = await n8n.run({
			items: [invoice('E-2'), invoice('E-3')],
			parameters: processParams({}, resumeOptions({ concurrency: 1 })),
			continueOnFail: true,
		});
		expect(execution.status).toBe('waiting');
		expect(execution.items[1].json).toMatchObject({ status: 'Failed', error: expect.any(String) });
		const [id] = waitingIds(n8n, execution);
		await finishReview(id);
		await n8n.settled();
		const resumed = n8n.history.get(execution.id)![1].items;
		expect(resumed.map((i) => [i.json.status, typeof i.json.error])).toEqual([
			['Processed', 'undefined'],
			['Failed', 'string'],
		]);
	});
});

describe('Resume When Vantage Pushes: the Wait Limit', () => {
	test('ends the wait with each transaction as it was, marked waitLimitReached, reading nothing', async () => {
		const n8n = await n8nWith();
		reviewNext();
		f.sim.scriptNextTransaction({ processing: { polls: 0 } });
		const execution = await n8n.run({
			items: [invoice('L-0'), invoice('L-1')],
			parameters: processParams({}, resumeOptions({ concurrency: 1, waitLimitHours: 2 })),
		});
		const stored = n8n.stored.get(execution.id)!;
		expect(stored.waitTill!.getTime() - Date.now()).toBeGreaterThan(2 * 3600_000 - 60_000);
		const ids = waitingIds(n8n, execution);
		f.sim.clearLog();
		const ended = await n8n.resumeByTime(execution.id);
		expect(ended.status).toBe('success');
		expect(f.sim.requests).toHaveLength(0);
		expect(ended.items.map((i) => [i.json, i.pairedItem])).toEqual([
			[
				expect.objectContaining({
					transactionId: ids[0],
					status: 'Processing',
					waitingForManualReview: true,
					waitLimitReached: true,
					waitStartedAt: expect.any(String),
					waitLimitAt: new Date(stored.waitTill!).toISOString(),
				}),
				{ item: 0 },
			],
			[
				expect.objectContaining({
					transactionId: ids[1],
					status: 'Processed',
					waitingForManualReview: false,
					waitLimitReached: true,
				}),
				{ item: 1 },
			],
		]);
		// A push after the limit finds the execution finished: n8n answers 409 before the node runs.
		await finishReview(ids[0]);
		const [run] = f.sim.customActivityRuns(ids[0]);
		expect(run.requests.map((r) => r.status)).toEqual([409]);
	});
});

describe('Resume When Vantage Pushes: the resume URL is checked', () => {
	async function waitingExecution(line?: Line) {
		const n8n = await n8nWith({ line });
		reviewNext();
		const execution = await n8n.run({
			items: [invoice('S-0')],
			parameters: processParams({}, resumeOptions()),
		});
		const [id] = waitingIds(n8n, execution);
		await finishReviewUnheard(id);
		f.sim.clearLog();
		return { n8n, execution, id };
	}

	/** The execution still waits, and nothing about `ids` was read from Vantage. */
	function untouched(n8n: WaitingN8n, execution: Execution, ids: string[]) {
		expect(n8n.stored.get(execution.id)!.status).toBe('waiting');
		expect(f.sim.requests.filter((r) => ids.some((id) => r.path.includes(id)))).toEqual([]);
	}

	test('unsigned, wrongly signed, stale or malformed pushes are refused before anything is read', async () => {
		const { n8n, execution, id } = await waitingExecution();
		const good = signed(eventBody(id), secrets!.secret);
		const cases: Array<[string, { body: string; headers: Record<string, string> }, number]> = [
			[
				'unsigned',
				{ body: String(good.body), headers: { 'content-type': 'application/json' } },
				401,
			],
			[
				'another secret',
				((p) => ({ body: String(p.body), headers: p.headers }))(
					signed(eventBody(id), randomSecret()),
				),
				401,
			],
			[
				'stale',
				((p) => ({ body: String(p.body), headers: p.headers }))(
					signed(eventBody(id), secrets!.secret, Date.now() - 6 * 60_000),
				),
				401,
			],
			[
				'text/plain',
				{ body: String(good.body), headers: { ...good.headers, 'content-type': 'text/plain' } },
				415,
			],
		];
		for (const [what, request, status] of cases) {
			const call = await n8n.post(execution.resumeUrl, request.body, request.headers);
			expect([what, call.status]).toEqual([what, status]);
			expect((await call.handled).resumed).toBeUndefined();
		}
		untouched(n8n, execution, [id]);
	});

	test('a signed push for a transaction this execution does not wait for resumes nothing and reads nothing', async () => {
		const { n8n, execution, id } = await waitingExecution();
		const [other] = f.sim.seedCompletedTransactions(1);
		const push = signed(eventBody(other), secrets!.secret);
		const call = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect(call.status).toBe(404);
		expect(call.body).toMatchObject({
			message: `This execution does not wait for transaction ${other}`,
		});
		untouched(n8n, execution, [id, other]);
	});

	test('a replayed push is refused (409); after the resume, n8n answers 409 itself', async () => {
		const { n8n, execution, id } = await waitingExecution();
		// Another transaction keeps it waiting, so the first push cannot resume it.
		const push = signed(eventBody(id), secrets!.secret);
		const first = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect(first.status).toBe(202);
		expect((await first.handled).resumed).toBeDefined();
		const again = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect(again.status).toBe(409);
		expect(n8n.history.get(execution.id)).toHaveLength(2);
	});

	test('the same event sent twice while it waits: the second is refused as received before', async () => {
		const n8n = await n8nWith();
		reviewNext(2);
		const execution = await n8n.run({
			items: [invoice('T-0'), invoice('T-1')],
			parameters: processParams({}, resumeOptions({ concurrency: 1 })),
		});
		const [id] = waitingIds(n8n, execution);
		await finishReviewUnheard(id);
		const push = signed(eventBody(id), secrets!.secret);
		const first = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect(first.status).toBe(202);
		await first.handled;
		const again = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect([again.status, again.body]).toEqual([
			409,
			{ status: 'duplicate', message: 'This event was received before' },
		]);
		expect(n8n.stored.get(execution.id)!.status).toBe('waiting');
	});

	test('n8n 2.x: a resume URL without the execution’s token is refused by n8n before the node runs', async () => {
		const { n8n, execution, id } = await waitingExecution('2');
		const push = signed(eventBody(id), secrets!.secret);
		const forged = execution.resumeUrl.replace(
			/signature=[0-9a-f]+/,
			`signature=${'0'.repeat(64)}`,
		);
		const call = await n8n.post(forged, String(push.body), push.headers);
		expect(call.status).toBe(401);
		const bare = await n8n.post(forged.split('?')[0], String(push.body), push.headers);
		expect(bare.status).toBe(401);
		untouched(n8n, execution, [id]);
	});

	test('n8n 1.x (no token in resume URLs): the event’s signature is what guards the address', async () => {
		const { n8n, execution, id } = await waitingExecution('1');
		expect(execution.resumeUrl).not.toContain('?');
		const forged = await n8n.post(execution.resumeUrl, JSON.stringify(eventBody(id)), {
			'content-type': 'application/json',
		});
		expect(forged.status).toBe(401);
		untouched(n8n, execution, [id]);
		const push = signed(eventBody(id), secrets!.secret);
		const real = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect(real.status).toBe(202);
		expect((await real.handled).resumed?.status).toBe('success');
	});

	test('a push placed before Review (transaction.manualReview) leaves it waiting', async () => {
		const n8n = await n8nWith();
		reviewNext();
		const execution = await n8n.run({
			items: [invoice('B-0')],
			parameters: processParams({}, resumeOptions()),
		});
		const [id] = waitingIds(n8n, execution);
		const push = signed(eventBody(id, 'transaction.manualReview'), secrets!.secret);
		const call = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect(call.status).toBe(202);
		expect((await call.handled).resumed).toBeUndefined();
		expect(n8n.logs.join('\n')).toMatch(/it waits in Manual Review/);
		expect(n8n.stored.get(execution.id)!.status).toBe('waiting');
	});
});

describe('Resume When Vantage Pushes: refused before any upload', () => {
	async function refused(
		n8n: WaitingN8n,
		options: IDataObject,
		fields: IDataObject = {},
		items = [invoice('X-0')],
	) {
		const execution = await n8n.run({ items, parameters: processParams(fields, options) });
		expect(execution.status).toBe('error');
		expect(f.sim.requestsTo('LaunchTransaction')).toHaveLength(0);
		expect(f.sim.requestsTo('CreateTransaction')).toHaveLength(0);
		return execution.error!;
	}

	test('a resume URL longer than Vantage stores (256 characters)', async () => {
		const long = `http://127.0.0.1:1/${'n8n-'.repeat(60)}webhook-waiting`;
		const n8n = await n8nWith({ webhookWaitingBaseUrl: long });
		const error = await refused(n8n, resumeOptions());
		expect(error.message).toMatch(
			/resume URL for this execution has \d+ characters; Vantage stores at most 256/,
		);
		expect((error as { description?: string }).description).toMatch(/WEBHOOK_URL/);
	});

	test('a resume URL on n8n’s own machine (WEBHOOK_URL unset) while Vantage is elsewhere', async () => {
		// n8n's default without WEBHOOK_URL; Vantage in a cloud: nothing is read or sent.
		const n8n = await n8nWith({ webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting' });
		f.store.data = { ...f.store.data, baseUrl: 'https://vantage.example.com' };
		const error = await refused(n8n, resumeOptions());
		expect(error.message).toBe(
			'On Manual Review → Resume When Vantage Pushes: n8n’s resume URL for this execution (http://localhost:5678/…) names n8n’s own machine, which ABBYY Vantage at vantage.example.com cannot reach [item 0]',
		);
		expect((error as { description?: string }).description).toMatch(/WEBHOOK_URL/);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('a resume URL on n8n’s own machine with Vantage there too (on premises, a test) is taken', async () => {
		const n8n = await n8nWith({ webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting' });
		const execution = await n8n.run({
			items: [invoice('X-0')],
			parameters: processParams({}, resumeOptions()),
		});
		expect(execution.error).toBeUndefined();
		expect(f.sim.requestsTo('LaunchTransaction')).toHaveLength(1);
	});

	test('no room for n8nResumeUrl among the Registration Parameters, or the name taken', async () => {
		const n8n = await n8nWith();
		const ten = Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
		const full = await refused(n8n, {
			...resumeOptions(),
			registrationParameters: { parameter: ten },
		});
		expect(full.message).toMatch(/Resume When Vantage Pushes needs one more \(n8nResumeUrl\)/);
		const taken = await refused(n8n, {
			...resumeOptions(),
			registrationParameters: { parameter: [{ key: 'n8nResumeUrl', value: 'x' }] },
		});
		expect(taken.message).toMatch(/name n8nResumeUrl/);
	});

	test('no Event Secret credential, or one too short to sign', async () => {
		const n8n = await n8nWith();
		secrets = undefined;
		const none = await refused(n8n, resumeOptions());
		expect(none.message).toMatch(/needs the ABBYY Vantage Event Secret credential/);
		secrets = { secret: 'short' };
		const short = await refused(n8n, resumeOptions());
		expect(short.message).toMatch(/Secret must be at least 32 characters/);
	});

	test('a choice that differs between items (the execution waits once, for all)', async () => {
		const n8n = await n8nWith();
		const error = await refused(
			n8n,
			{ onManualReview: '={{ $itemIndex === 0 ? "resume" : "wait" }}' },
			{},
			[invoice('X-0'), invoice('X-1')],
		);
		expect(error.message).toMatch(/Resume When Vantage Pushes for every item or for none/);
	});
});

describe('Wait For Transaction: Resume When Vantage Pushes', () => {
	test('waits for a transaction in review and resumes with what Keep Waiting outputs', async () => {
		const n8n = await n8nWith();
		reviewNext();
		const started = await runNode({
			credentials: f.store,
			items: [invoice('W-0')],
			parameters: processParams({}, { onManualReview: 'output' }),
		});
		const id = String(started.items[0].json.transactionId);
		const parameters = nodeParams('transaction', 'waitForTransaction', {
			transactionId: id,
			options: { pollInterval: 1, onManualReview: 'resume' },
		});
		const execution = await n8n.run({ items: [{ n: 1 }], parameters });
		expect(execution.status).toBe('waiting');
		expect(execution.items[0].json).toMatchObject({
			transactionId: id,
			waitingForManualReview: true,
		});
		// The transaction was created without the resume URL: the safety net's re-send (or a push
		// signed the same way) brings the news.
		await finishReviewUnheard(id);
		const push = signed(eventBody(id), secrets!.secret);
		const call = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		const { resumed } = await call.handled;
		expect(resumed?.status).toBe('success');
		const keep = await runNode({
			credentials: f.store,
			items: [{ n: 1 }],
			parameters: nodeParams('transaction', 'waitForTransaction', {
				transactionId: id,
				options: { pollInterval: 1 },
			}),
		});
		const strip = (items: INodeExecutionData[]) =>
			items.map((i) => ({ ...i, json: { ...i.json, polls: 0, failedPolls: 0 } }));
		expect(strip(resumed!.items)).toEqual(strip(keep.items));
	});

	test('after the Wait Limit, the item loops back into Wait For Transaction, which reads the API first', async () => {
		const n8n = await n8nWith();
		reviewNext();
		const started = await runNode({
			credentials: f.store,
			items: [invoice('W-1')],
			parameters: processParams({}, { onManualReview: 'output' }),
		});
		const id = String(started.items[0].json.transactionId);
		const parameters = nodeParams('transaction', 'waitForTransaction', {
			transactionId: '={{ $json.transactionId }}',
			options: { pollInterval: 1, onManualReview: 'resume' },
		});
		const execution = await n8n.run({ items: [{ transactionId: id }], parameters });
		const ended = await n8n.resumeByTime(execution.id);
		expect(ended.items[0].json).toMatchObject({ transactionId: id, waitLimitReached: true });
		// The review ended while nobody listened (the push was lost).
		await finishReviewUnheard(id);
		// The loop: the limit's item goes into Wait For Transaction again.
		const again = await n8n.run({ items: ended.items, parameters });
		expect(again.status).toBe('success');
		expect(again.items[0].json).toMatchObject({
			transactionId: id,
			status: 'Processed',
			waitingForManualReview: false,
		});
	});
});

describe('A push lost while n8n was unreachable: the safety net re-sends it', () => {
	/** The polling trigger, Transaction Completed with the safety net, polled as n8n polls it. */
	let nets = 0;
	function safetyNet(n8n: WaitingN8n, instanceBaseUrl = n8n.url, signing = true) {
		let staticData = '{}';
		const workflowId = `wf-safety-net-${++nets}`;
		const logs: string[] = [];
		return {
			logs,
			poll: async () => {
				const run = await runPoll({
					credentials: f.store,
					parameters: {
						event: 'transactionCompleted',
						options: { safetyNet: true, gracePeriodMinutes: 0 },
					},
					staticData,
					workflowId,
					eventSecret: signing ? (secrets as unknown as Record<string, string>) : undefined,
					instanceBaseUrl,
					logs,
				});
				expect(run.error).toBeUndefined();
				staticData = run.staticData;
				return run;
			},
		};
	}

	test('the review ended while nobody listened; the next poll re-sends the push and the execution resumes once', async () => {
		const n8n = await n8nWith();
		const net = safetyNet(n8n);
		await net.poll(); // the trigger's first poll: its baseline
		reviewNext();
		const execution = await n8n.run({
			items: [invoice('N-0')],
			parameters: processParams({}, resumeOptions()),
		});
		const [id] = waitingIds(n8n, execution);
		// n8n is unreachable when the review ends: the script's push is lost.
		await finishReviewUnheard(id);
		const run = await net.poll();
		await n8n.settled();
		expect(run.executions.map((items) => items[0].json.transactionId)).toEqual([id]);
		expect(net.logs.join('\n')).toMatch(
			new RegExp(`re-sent the push of transaction ${id} to its waiting execution: 202`),
		);
		expect(net.logs.join('\n')).not.toContain(execution.resumeUrl);
		const history = n8n.history.get(execution.id)!;
		expect(history).toHaveLength(2);
		expect(history[1].items[0].json).toMatchObject({ transactionId: id, status: 'Processed' });
		// Once: the next poll sends nothing again.
		await net.poll();
		expect(net.logs.filter((l) => l.includes('re-sent'))).toHaveLength(1);
	});

	test('no re-send to an address that is not this n8n’s, nor without the Event Secret credential', async () => {
		const n8n = await n8nWith();
		const elsewhere = safetyNet(n8n, 'https://n8n.example.com');
		const unsigned = safetyNet(n8n, n8n.url, false);
		await elsewhere.poll();
		await unsigned.poll();
		reviewNext();
		const execution = await n8n.run({
			items: [invoice('N-1')],
			parameters: processParams({}, resumeOptions()),
		});
		const [id] = waitingIds(n8n, execution);
		await finishReviewUnheard(id);
		await unsigned.poll();
		expect(unsigned.logs.join('\n')).toMatch(
			/1 completed transaction\(s\) wait to resume an execution, but their push cannot be re-sent: no Event Secret credential is selected/,
		);
		await elsewhere.poll();
		expect(elsewhere.logs.join('\n')).toMatch(
			/is not re-sent: its resume URL is not on this n8n’s address/,
		);
		expect(n8n.history.get(execution.id)).toHaveLength(1);
		expect(n8n.stored.get(execution.id)!.status).toBe('waiting');
	});
});
