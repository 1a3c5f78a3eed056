/* eslint-disable @n8n/community-nodes/no-restricted-globals -- timing of the flow */
/**
 * Custom activities in a transaction's life (processing/lifecycle.ts): placed before Review the
 * shipped script reports transaction.manualReview and the transaction then waits in Manual Review;
 * placed after, it reports transaction.processed and the transaction is Processed only once the
 * script has returned; while a script runs the transaction is Processing; a failing script fails
 * the transaction. Configured through the class and the HTTP control API.
 */
import { api, raw } from '../../helpers/http';
import { FIXTURE } from '../simulator';
import { stageOf, TransactionStore } from '../processing/state';
import { TRANSACTIONS, useRawSimulator } from '../testkit';
import { info, launched } from '../uploadkit';
import { Receiver } from './receiver';

const s = useRawSimulator();
const EVENTS_KEY = 'a made-up key for the tests';
let n8n: Receiver;
beforeEach(async () => {
	n8n = new Receiver();
	await n8n.start();
	s.sim.setSecrets({
		'n8n-events-secret': EVENTS_KEY,
		'n8n-events-url': `${n8n.url}/webhook/vantage`,
	});
});
afterEach(async () => await n8n.stop());

const place = (...placements: Array<'beforeReview' | 'afterReview'>) =>
	s.sim.configureCustomActivity({ placements, allowPlainHttpOnLoopback: true });
const launch = async (skillId: string = FIXTURE.documentSkillId) =>
	await launched(s.sim, s.bearer, skillId, [{ name: 'invoice.txt', data: 'InvoiceNumber: 7\n' }]);
/** Wait (no API poll) until the transaction has left Processing, and no script runs any more. */
async function finished(tx: string): Promise<void> {
	for (let i = 0; s.sim.transaction(tx)!.status === 'Processing'; i++) {
		if (i > 1000) throw new Error(`transaction ${tx} is still Processing`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	await s.sim.customActivitiesSettled();
}
const events = () => n8n.requests.map((r) => (JSON.parse(r.body) as { event: string }).event);

describe('placed after Review', () => {
	test('pushes transaction.processed with no poll; Processing while the script runs, Processed after', async () => {
		place('afterReview');
		s.sim.scriptNextTransaction({ processing: { ms: 30 } });
		n8n.answer({ status: 202, delayMs: 300 });
		const tx = await launch();
		const [received] = await n8n.received(1);
		expect(s.sim.transaction(tx)).toMatchObject({ status: 'Processing', manualReviewLink: null });
		expect(await info(s.sim, s.bearer, tx)).toMatchObject({ status: 'Processing' });
		await s.sim.customActivitiesSettled();
		const done = s.sim.transaction(tx)!;
		expect(done.status).toBe('Processed');
		expect(Date.parse(done.completedUtc!)).toBeGreaterThanOrEqual(received.at + 290);
		expect(JSON.parse(received.body)).toMatchObject({
			event: 'transaction.processed',
			transactionId: tx,
			documentIds: done.documents.map((d) => d.id),
			documentCount: done.documents.length,
		});
		expect(s.sim.transactionEventLog(tx)).toEqual([
			{
				at: expect.any(Number),
				placement: 'afterReview',
				kind: 'started',
				message: 'Custom activity (after Review) started',
			},
			{
				at: expect.any(Number),
				placement: 'afterReview',
				kind: 'message',
				message: expect.stringMatching(
					/^n8n events: events URL \(127\.0\.0\.1:\d+\): accepted \(attempt 1\)$/,
				),
			},
			{
				at: expect.any(Number),
				placement: 'afterReview',
				kind: 'finished',
				message: 'Custom activity (after Review) finished',
			},
		]);
		const [run] = s.sim.customActivityRuns(tx);
		expect(run).toMatchObject({
			placement: 'afterReview',
			outcome: 'completed',
			transactionId: tx,
		});
		expect(run.requests.map((r) => r.status)).toEqual([202]);
		expect(JSON.stringify(s.sim.transactionEventLog(tx))).not.toContain(EVENTS_KEY);
	});

	test('polled (the default script): the poll that ends processing starts the script', async () => {
		place('afterReview');
		n8n.answer({ status: 202, delayMs: 150 });
		const tx = await launch();
		expect((await info(s.sim, s.bearer, tx)).status).toBe('Processing');
		expect(n8n.requests).toHaveLength(0);
		expect((await info(s.sim, s.bearer, tx)).status).toBe('Processing');
		await n8n.received(1);
		expect((await info(s.sim, s.bearer, tx)).status).toBe('Processing');
		await s.sim.customActivitiesSettled();
		expect((await info(s.sim, s.bearer, tx)).status).toBe('Processed');
	});

	test('n8n down: the script gives up and the transaction is Processed all the same', async () => {
		place('afterReview');
		n8n.answer(503, 503, 503);
		s.sim.scriptNextTransaction({ processing: { ms: 0 } });
		const tx = await launch();
		await n8n.received(3);
		await s.sim.customActivitiesSettled();
		expect(s.sim.transaction(tx)!.status).toBe('Processed');
		expect(s.sim.transactionEventLog(tx).map((e) => e.kind)).toEqual([
			'started',
			'message',
			'message',
			'message',
			'message',
			'finished',
		]);
	});
});

describe('placed before Review', () => {
	test('pushes transaction.manualReview, then the transaction waits in Manual Review', async () => {
		place('beforeReview');
		s.sim.scriptNextTransaction({ processing: { ms: 20 }, manualReview: { ms: 60_000 } });
		n8n.answer({ status: 202, delayMs: 100 });
		const tx = await launch();
		await n8n.received(1);
		expect(s.sim.transaction(tx)).toMatchObject({ status: 'Processing', manualReviewLink: null });
		await s.sim.customActivitiesSettled();
		expect(events()).toEqual(['transaction.manualReview']);
		const dto = await info(s.sim, s.bearer, tx);
		expect(dto.status).toBe('Processing');
		expect(dto.manualReviewLink).toMatch(/\/review\//);
	});

	test('both places: manualReview first, processed when review ends; Manual Review polled', async () => {
		place('beforeReview', 'afterReview');
		s.sim.scriptNextTransaction({ processing: { ms: 0 }, manualReview: { polls: 1 } });
		const tx = await launch();
		await n8n.received(1);
		await s.sim.customActivitiesSettled();
		// The first poll after the script sees the review link, the next ends Manual Review.
		expect((await info(s.sim, s.bearer, tx)).manualReviewLink).toMatch(/\/review\//);
		const after = await info(s.sim, s.bearer, tx);
		expect(after).toMatchObject({ status: 'Processing' });
		expect(after.manualReviewLink).toBeUndefined();
		await n8n.received(2);
		await s.sim.customActivitiesSettled();
		expect((await info(s.sim, s.bearer, tx)).status).toBe('Processed');
		expect(events()).toEqual(['transaction.manualReview', 'transaction.processed']);
		expect(s.sim.customActivityRuns(tx).map((r) => r.placement)).toEqual([
			'beforeReview',
			'afterReview',
		]);
	});
});

describe('a script that fails fails the transaction (the shipped one never does)', () => {
	test.each([
		['an uncaught exception', 'throw new Error("ERP down");', 'ERP down'],
		[
			'Context.ErrorMessage',
			'Context.ErrorMessage = "Rejected by the ERP";',
			'Rejected by the ERP',
		],
		[
			'an undocumented member',
			'Context.Transaction.Documents[0].GetField("Total");',
			'Document.GetField is not a documented member',
		],
	])('%s, after Review: Failed with its message', async (_name, source, error) => {
		s.sim.configureCustomActivity({ placements: ['afterReview'], source });
		s.sim.scriptNextTransaction({ processing: { ms: 0 } });
		const tx = await launch();
		await finished(tx);
		expect(s.sim.transaction(tx)).toMatchObject({ status: 'Failed' });
		expect(s.sim.transaction(tx)!.error).toContain(error);
		expect((await info(s.sim, s.bearer, tx)).error).toContain(error);
		expect(s.sim.transactionEventLog(tx).at(-1)).toMatchObject({
			kind: 'failed',
			message: expect.stringContaining(error),
		});
	});

	test('before Review: Failed, never in Manual Review', async () => {
		s.sim.configureCustomActivity({ placements: ['beforeReview'], source: 'throw "no";' });
		s.sim.scriptNextTransaction({ processing: { ms: 0 }, manualReview: { ms: 60_000 } });
		const tx = await launch();
		await finished(tx);
		expect(s.sim.transaction(tx)).toMatchObject({
			status: 'Failed',
			error: 'no',
			manualReviewLink: null,
		});
	});
});

describe('which transactions meet a Custom activity', () => {
	test("only the configured skills'; a flow that fails first runs none; none configured, none run", async () => {
		s.sim.configureCustomActivity({
			placements: ['afterReview'],
			skillIds: [FIXTURE.processSkillId.toUpperCase()],
			allowPlainHttpOnLoopback: true,
		});
		s.sim.setDefaultTransactionScript({ processing: { ms: 0 } });
		const other = await launch(FIXTURE.documentSkillId);
		const mine = await launch(FIXTURE.processSkillId);
		s.sim.scriptNextTransaction({ processing: { ms: 0 }, outcome: 'Failed' });
		const failed = await launch(FIXTURE.processSkillId);
		await finished(mine);
		expect(s.sim.customActivityRuns().map((r) => r.transactionId)).toEqual([mine]);
		// Without a Custom activity a transaction moves on polls, as ever.
		expect((await info(s.sim, s.bearer, other)).status).toBe('Processed');
		expect((await info(s.sim, s.bearer, failed)).status).toBe('Failed');
		s.sim.configureCustomActivity({ placements: [] });
		const none = await launch(FIXTURE.processSkillId);
		expect((await info(s.sim, s.bearer, none)).status).toBe('Processed');
		expect(s.sim.customActivityRuns()).toHaveLength(1);
	});

	test("secrets are the tenant's: another tenant's secret is not read", async () => {
		place('afterReview');
		s.sim.clearSecrets();
		s.sim.setSecrets(
			{ 'n8n-events-secret': EVENTS_KEY, 'n8n-events-url': `${n8n.url}/x` },
			'another-tenant',
		);
		s.sim.scriptNextTransaction({ processing: { ms: 0 } });
		const tx = await launch();
		await finished(tx);
		expect(n8n.requests).toHaveLength(0);
		expect(s.sim.customActivityRuns(tx)[0].log).toEqual([
			'n8n events: no secret named n8n-events-secret (Configuration > Environment Variables); nothing sent',
		]);
		expect(s.sim.transaction(tx)!.status).toBe('Processed');
	});
});

describe('completeTransaction in a flow with Custom activities', () => {
	test('Processed: the activities not run yet run (no Manual Review wait), then Processed', async () => {
		place('beforeReview', 'afterReview');
		s.sim.scriptNextTransaction({ outcome: 'Never', manualReview: { ms: 60_000 } });
		const tx = await launch();
		s.sim.completeTransaction(tx);
		expect(s.sim.transaction(tx)!.status).toBe('Processing');
		await s.sim.customActivitiesSettled();
		expect(s.sim.transaction(tx)!.status).toBe('Processed');
		expect(events()).toEqual(['transaction.manualReview', 'transaction.processed']);
	});

	test('Failed while a script runs: Failed now, and the script ending changes nothing', async () => {
		place('afterReview');
		n8n.answer({ status: 202, delayMs: 100 });
		s.sim.scriptNextTransaction({ processing: { ms: 0 } });
		const tx = await launch();
		await n8n.received(1);
		s.sim.completeTransaction(tx, 'Failed');
		expect(s.sim.transaction(tx)!.status).toBe('Failed');
		await s.sim.customActivitiesSettled();
		expect(s.sim.transaction(tx)!.status).toBe('Failed');
	});
});

test('the active list reports a running script as stage CustomActivity (stageOf)', () => {
	const tx = new TransactionStore(() => 0).create(FIXTURE.documentSkillId);
	tx.status = 'Processing';
	expect(stageOf(tx)).toEqual({ stage: 'Automatic', stageName: 'Extraction' });
	for (const phase of ['beforeReview', 'afterReview'] as const) {
		tx.flow = phase;
		expect(stageOf(tx)).toEqual({ stage: 'CustomActivity', stageName: 'Custom activity' });
	}
	tx.flow = 'review';
	tx.review = { poll: 0, at: 0, link: 'x' };
	expect(stageOf(tx)).toEqual({ stage: 'ManualReview', stageName: 'Manual Review' });
});

test('the request log and faults work as before: the pushes are not API requests', async () => {
	place('afterReview');
	s.sim.scriptNextTransaction({ processing: { ms: 0 } });
	s.sim.injectFault('GetTransactionInfo', { kind: 'status', status: 503 });
	const tx = await launch();
	expect((await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}`)).status).toBe(503);
	await n8n.received(1);
	await s.sim.customActivitiesSettled();
	expect((await info(s.sim, s.bearer, tx)).status).toBe('Processed');
	expect(s.sim.requests.map((r) => `${r.route} ${r.status}`)).toEqual([
		'LaunchTransaction 201',
		'GetTransactionInfo 503',
		'GetTransactionInfo 200',
	]);
});

describe('HTTP control API (for the e2e suites)', () => {
	const control = async (method: string, path: string, body?: unknown) =>
		await raw(`${s.sim.url}/__simulator/${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});

	test('place the activity, set the secrets, read the runs and the event log', async () => {
		s.sim.clearSecrets();
		expect(
			(
				await control('POST', 'custom-activity', {
					placements: ['afterReview'],
					allowPlainHttpOnLoopback: true,
				})
			).status,
		).toBe(200);
		expect(
			(
				await control('POST', 'secrets', {
					secrets: { 'n8n-events-secret': EVENTS_KEY, 'n8n-events-url': `${n8n.url}/hook` },
				})
			).status,
		).toBe(200);
		s.sim.scriptNextTransaction({ processing: { ms: 0 } });
		const tx = await launch();
		await n8n.received(1);
		await s.sim.customActivitiesSettled();
		const log = (await control('GET', `event-log/${tx}`)).json as Array<{ kind: string }>;
		expect(log.map((e) => e.kind)).toEqual(['started', 'message', 'finished']);
		const runs = (await control('GET', `custom-activity/runs/${tx}`)).json as Array<
			Record<string, unknown>
		>;
		expect(runs).toEqual([
			expect.objectContaining({
				transactionId: tx,
				placement: 'afterReview',
				outcome: 'completed',
			}),
		]);
		expect(
			(runs[0].requests as Array<{ headers: Record<string, string> }>)[0].headers[
				'X-Vantage-Signature'
			],
		).toMatch(/^v1=[0-9a-f]{64}$/);
		expect((await control('GET', 'custom-activity/runs')).json).toHaveLength(1);
		expect((await control('DELETE', 'custom-activity/runs')).status).toBe(200);
		expect((await control('GET', 'custom-activity/runs')).json).toEqual([]);
		// A deleted secret, then none: the next run sends nothing.
		expect((await control('POST', 'secrets', { secrets: { 'n8n-events-url': null } })).status).toBe(
			200,
		);
		expect((await control('DELETE', 'secrets', {})).status).toBe(200);
		expect((await control('DELETE', 'custom-activity')).status).toBe(200);
		s.sim.scriptNextTransaction({ processing: { ms: 0 } });
		const plain = await launch();
		expect((await info(s.sim, s.bearer, plain)).status).toBe('Processed');
		expect(n8n.requests).toHaveLength(1);
	});

	test('a bad configuration or secret is refused with 400 and changes nothing', async () => {
		expect((await control('POST', 'custom-activity', { placements: ['inReview'] })).status).toBe(
			400,
		);
		expect((await control('POST', 'custom-activity', { placements: 'afterReview' })).status).toBe(
			400,
		);
		expect(
			(await control('POST', 'custom-activity', { placements: [], timeScale: 0 })).status,
		).toBe(400);
		expect((await control('POST', 'secrets', { secrets: ['x'] })).status).toBe(400);
		expect((await control('POST', 'secrets', { secrets: { x: 1 } })).status).toBe(400);
		expect((await control('GET', 'event-log/11111111-2222-4333-8444-555555555555')).status).toBe(
			400,
		);
		s.sim.scriptNextTransaction({ processing: { ms: 0 } });
		const tx = await launch();
		expect((await info(s.sim, s.bearer, tx)).status).toBe('Processed');
		expect(s.sim.customActivityRuns()).toEqual([]);
	});
});
