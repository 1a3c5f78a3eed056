import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { WaitingN8n } from '../../harness/durable';
import { runNode, type RunResult } from '../../harness/n8n';
import { eventBody, randomSecret, signed } from '../../harness/webhook';
import { binaryFile, fileItem, invoiceText } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { processParams } from '../../helpers/params';

/**
 * Process Document with Needs Review and Include Document Text: the documents marked as Get
 * Results marks them, Send to Second Output's Ready and Needs Review, a transaction Vantage holds
 * in Manual Review on Needs Review with its link, and the durable wait's resume (the node's
 * webhook) routed the same way.
 */

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

/** The tenant variable the shipped script signs with (custom-activity/n8n-events.js). */
const SIGNING_VARIABLE = 'n8n-events-secret';

const clean = () =>
	fileItem(
		binaryFile(
			'clean.pdf',
			invoiceText({ number: 'P-1', date: '05.01.2026', total: '10,00', extra: ['Export: Text'] }),
		),
	);
const low = () =>
	fileItem(
		binaryFile(
			'low.pdf',
			invoiceText({
				number: 'P-2',
				date: '06.01.2026',
				total: '20,00',
				extra: ['Confidence.Total: 52', 'Export: Text'],
			}),
		),
	);

const rules = { minConfidence: 80, requiredFields: 'InvoiceNumber, InvoiceDate' };

/** Every output of the node's run (the harness's `items` is the first). */
function outputsOf(result: RunResult): INodeExecutionData[][] {
	return result.run.data.resultData.runData['ABBYY Vantage'][0].data!
		.main as INodeExecutionData[][];
}

const numbers = (items: INodeExecutionData[]) =>
	items.map((i) => (i.json.fields as IDataObject | undefined)?.InvoiceNumber ?? i.json.status);

describe('Process Document → Needs Review and Include Document Text', () => {
	test('marks each document with its reasons and adds its text; one output without Send to Second Output', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [clean(), low()],
			parameters: processParams({ needsReview: rules }, { includeDocumentText: true }),
		});
		expect(result.error).toBeUndefined();
		expect(outputsOf(result)).toHaveLength(1);
		expect(result.items.map((i) => [i.json.needsReview, i.json.reviewReasons])).toEqual([
			[false, []],
			[
				true,
				[
					expect.objectContaining({
						reason: 'lowConfidence',
						field: 'Total',
						confidence: 52,
						threshold: 80,
					}),
				],
			],
		]);
		expect(String(result.items[0].json.text)).toMatch(/^InvoiceNumber: P-1/);
		// The decision sits right after the fields, as Get Results places it.
		const keys = Object.keys(result.items[1].json);
		expect(keys.indexOf('needsReview')).toBe(keys.indexOf('fields') + 1);
	});

	test('Send to Second Output: Ready and Needs Review, in order, paired with their input items', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [low(), clean(), low()],
			parameters: processParams({ needsReview: { ...rules, secondOutput: true } }),
		});
		const [ready, review] = outputsOf(result);
		expect(numbers(ready)).toEqual(['P-1']);
		expect(ready.map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
		expect(numbers(review)).toEqual(['P-2', 'P-2']);
		expect(review.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
	});

	test('a transaction Vantage holds in Manual Review (Output the Link) needs review, with its link', async () => {
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 100 } });
		const result = await runNode({
			credentials: f.store,
			items: [clean(), clean()],
			parameters: processParams(
				{ needsReview: { ...rules, secondOutput: true } },
				{ onManualReview: 'output', concurrency: 1 },
			),
		});
		const [ready, review] = outputsOf(result);
		expect(numbers(ready)).toEqual(['P-1']);
		expect(review.map((i) => i.json)).toEqual([
			expect.objectContaining({
				waitingForManualReview: true,
				manualReviewLink: expect.stringContaining('/review/'),
				needsReview: true,
				reviewReasons: [
					{
						reason: 'manualReview',
						message: expect.stringMatching(
							/waits for Manual Review in Vantage: open manualReviewLink$/,
						),
					},
				],
			}),
		]);
	});

	test('without rules a transaction in Manual Review is not marked (no decision was made)', async () => {
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 100 } });
		const result = await runNode({
			credentials: f.store,
			items: [clean()],
			parameters: processParams({}, { onManualReview: 'output' }),
		});
		expect(result.items[0].json.waitingForManualReview).toBe(true);
		expect(result.items[0].json).not.toHaveProperty('needsReview');
	});

	test('Send to Second Output without a rule is refused before any request, naming the item', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [clean()],
			parameters: processParams({ needsReview: { secondOutput: true } }),
		});
		expect(result.error?.message).toMatch(
			/Needs Review sends documents to a second output but has no rule \[item 0\]/,
		);
		expect(f.sim.requestsTo('LaunchTransaction')).toHaveLength(0);
	});
});

describe('Process Document → Needs Review with Resume When Vantage Pushes', () => {
	const started: WaitingN8n[] = [];
	afterEach(async () => {
		await Promise.all(started.splice(0).map(async (n8n) => await n8n.stop()));
		await f.sim.customActivitiesSettled();
	});

	let secret = '';
	async function waitingN8n(): Promise<WaitingN8n> {
		secret = randomSecret();
		f.sim.configureCustomActivity({ placements: ['afterReview'], allowPlainHttpOnLoopback: true });
		f.sim.setSecrets({ [SIGNING_VARIABLE]: secret });
		const n8n = new WaitingN8n({ credentials: () => f.store, secrets: () => ({ secret }) });
		started.push(n8n);
		return await n8n.start();
	}

	const parameters = (extra: IDataObject = {}, secondOutput = false) =>
		processParams(
			{ needsReview: { ...rules, secondOutput } },
			{ onManualReview: 'resume', concurrency: 1, ...extra },
		);

	test('Send to Second Output with Resume When Vantage Pushes is refused before any request, naming the item', async () => {
		// n8n 1.x passes on only a resumed node's first output: Needs Review would be lost there.
		const n8n = await waitingN8n();
		const execution = await n8n.run({ items: [clean()], parameters: parameters({}, true) });
		expect(execution.status).toBe('error');
		expect(JSON.stringify(execution.run.data.resultData.error)).toMatch(
			/Needs Review → Send to Second Output cannot be used with On Manual Review → Resume When Vantage Pushes \[item 0\]/,
		);
		expect(f.sim.requestsTo('LaunchTransaction')).toHaveLength(0);
		expect(f.sim.requestsTo('CreateTransaction')).toHaveLength(0);
	});

	test('the push resumes the node with every document marked, on its one output', async () => {
		const n8n = await waitingN8n();
		f.sim.scriptNextTransaction({ processing: { polls: 0 } });
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 100_000 } });
		const execution = await n8n.run({ items: [clean(), low()], parameters: parameters() });
		expect(execution.status).toBe('waiting');
		const waiting = execution.run.data.resultData.runData['ABBYY Vantage'].at(-1)!.data!
			.main as INodeExecutionData[][];
		expect(waiting.map((items) => items.length)).toEqual([2]);
		const inReview = waiting[0].find((i) => i.json.waitingForManualReview === true)!;
		expect(inReview.json).toMatchObject({ needsReview: true });
		const reviewed = String(inReview.json.transactionId);

		// The review ends while the script cannot sign (no secret in the tenant); the push is then
		// sent as the script sends it, to read what the node's webhook returned.
		f.sim.setSecrets({ [SIGNING_VARIABLE]: null });
		f.sim.completeTransaction(reviewed);
		await f.sim.customActivitiesSettled();
		const push = signed(eventBody(reviewed), secret);
		const call = await n8n.post(execution.resumeUrl, String(push.body), push.headers);
		expect(call.status).toBe(202);
		const { result, resumed } = await call.handled;
		expect(resumed?.status).toBe('success');
		const outputs = result!.workflowData as INodeExecutionData[][];
		expect(outputs.map(numbers)).toEqual([['P-1', 'P-2']]);
		expect(outputs[0].map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(outputs[0].map((i) => i.json.needsReview)).toEqual([false, true]);
		expect(outputs[0][1].json).toMatchObject({
			reviewReasons: [expect.objectContaining({ reason: 'lowConfidence', field: 'Total' })],
		});
		expect(outputs[0][1].json).not.toHaveProperty('durableWait');
	});

	test('at the Wait Limit n8n passes the entries through, each marked for review', async () => {
		const n8n = await waitingN8n();
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 100_000 } });
		const execution = await n8n.run({
			items: [clean()],
			parameters: parameters({ waitLimitHours: 1 }),
		});
		expect(execution.status).toBe('waiting');
		const ended = await n8n.resumeByTime(execution.id);
		expect(ended.status).toBe('success');
		const main = ended.run.data.resultData.runData['ABBYY Vantage'].at(-1)!.data!
			.main as INodeExecutionData[][];
		expect(main).toHaveLength(1);
		expect(main[0].map((i) => i.json)).toEqual([
			expect.objectContaining({
				waitLimitReached: true,
				waitingForManualReview: true,
				needsReview: true,
				reviewReasons: [expect.objectContaining({ reason: 'manualReview' })],
			}),
		]);
	});
});
