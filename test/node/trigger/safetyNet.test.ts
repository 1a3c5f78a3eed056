import { sleep, type IDataObject, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { Executions } from '../../harness/n8n';
import { randomSecret } from '../../harness/webhook';
import { useSimulator } from '../../helpers/fixture';
import { FIXTURE } from '../../simulator/simulator';
import { MAX_RUNNING } from '../../../nodes/AbbyyVantage/constants';
import { AbbyyVantageTrigger } from '../../../nodes/AbbyyVantageTrigger/AbbyyVantageTrigger.node';
import { transactionInReview } from '../instantTrigger/instant';
import { triggerParams } from './poll';
import { SharedWorkflow, idOf, type PollPath, type SharedWorkflowOptions } from './sharedWorkflow';

const f = useSimulator();
const secrets = { secret: randomSecret() };
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

let workflows = 0;
const opened: SharedWorkflow[] = [];
afterEach(async () => {
	await Promise.all(opened.splice(0).map(async (w) => await w.stop()));
});

/** Options of the polling trigger: the safety net on, no grace period unless given. */
const net = (options: IDataObject = {}): IDataObject => ({
	safetyNet: true,
	gracePeriodMinutes: 0,
	...options,
});

/**
 * An active workflow with the Instant Trigger and a polling trigger of `event` (the safety net on
 * unless `options` say otherwise), both listening and polled once (its first activation).
 */
async function workflow(
	path: PollPath,
	{
		event = 'transactionCompleted',
		options = net(),
		fields = {},
		...rest
	}: Partial<SharedWorkflowOptions> & {
		event?: 'transactionCompleted' | 'manualReview';
		options?: IDataObject;
		fields?: IDataObject;
	} = {},
): Promise<SharedWorkflow> {
	const w = new SharedWorkflow({
		store: () => f.store,
		secrets: () => secrets,
		workflowId: `wf-net-${++workflows}`,
		path,
		poll: triggerParams(event, { options, ...fields }),
		...rest,
	});
	opened.push(w);
	await w.start();
	const baseline = await w.poll();
	expect(baseline.error).toBeUndefined();
	expect(baseline.executions).toHaveLength(0);
	return w;
}

/** Each of `ids` pushed (after Review) and confirmed: answered 202 and started once. */
async function pushedAndDelivered(w: SharedWorkflow, ids: string[]): Promise<void> {
	const pushes = await Promise.all(ids.map(async (id) => await w.push(id)));
	expect(pushes.map((p) => p.status)).toEqual(ids.map(() => 202));
	for (const p of pushes) expect((await p.handled).execution).toBeDefined();
}

/** Resolves once `check` holds (checked every 10 ms, for at most 10 s). */
async function until(check: () => boolean): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (!check()) {
		if (Date.now() > deadline) throw new Error('timed out waiting');
		await sleep(10);
	}
}

const sorted = (ids: string[]) => [...ids].sort();

/** `w` after n8n restarted: a new process, its modules (and the triggers' memory) loaded afresh. */
async function restart(w: SharedWorkflow): Promise<SharedWorkflow> {
	let fresh: typeof import('./sharedWorkflow') | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		fresh = require('./sharedWorkflow') as typeof import('./sharedWorkflow');
	});
	const restarted = await w.restartedIn(fresh!);
	opened.push(restarted);
	return restarted;
}

describe.each<PollPath>(['activation', 'durable'])(
	'Trigger → Safety Net for the Instant Trigger (n8n polls on its %s path)',
	(path) => {
		test('what the pushes delivered starts nothing more; what they could not deliver starts once; a late push gets 409', async () => {
			const w = await workflow(path);
			const pushed = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(9 - i) });
			await pushedAndDelivered(w, pushed);
			// n8n was unreachable for these: their pushes never arrived.
			const lost = f.sim.seedCompletedTransactions(2, { createdAt: (i) => minutesAgo(5 - i) });

			const run = await w.poll();
			expect(run.error).toBeUndefined();
			expect(run.executions.map(idOf)).toEqual(lost);
			// The delivered ones are marked seen without an execution.
			expect(sorted(Object.keys(w.cursor()!.seen))).toEqual(sorted([...pushed, ...lost]));
			expect((await w.poll()).executions).toHaveLength(0);

			// The script's push arrives late (another attempt, the activity run again): refused.
			for (const id of lost) {
				const late = await w.push(id);
				expect(late.status).toBe(409);
				expect((await late.handled).execution).toBeUndefined();
			}
			expect(sorted(w.startedIds())).toEqual(sorted([...pushed, ...lost]));
			// The record in the database holds both: the poll's save did not roll the pushes back.
			expect(w.deliveredKeys()).toEqual(
				sorted([...pushed, ...lost].map((id) => `completed:${id}`)),
			);
		});

		test('n8n down while transactions complete: after the restart each starts once; nothing delivered before starts again', async () => {
			const w = await workflow(path);
			const [lost] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(5) });
			expect((await w.poll()).executions.map(idOf)).toEqual([lost]);
			const [pushed] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(4) });
			await pushedAndDelivered(w, [pushed]);

			// n8n stops; the Custom activity's pushes find nothing listening.
			await w.stop();
			const whileDown = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(3 - i) });
			for (const id of whileDown) await expect(w.push(id)).rejects.toThrow();

			// The new process knows only what the database holds.
			const restarted = await restart(w);
			const late = await restarted.push(lost);
			expect(late.status).toBe(409);
			await late.handled;
			expect((await restarted.poll()).executions.map(idOf)).toEqual(whileDown);
			expect((await restarted.poll()).executions).toHaveLength(0);
			expect((await restarted.push(whileDown[0])).status).toBe(409);
			expect(sorted(restarted.startedIds())).toEqual(sorted([lost, pushed, ...whileDown]));
		});

		test('One Execution per Poll: one execution with what the pushes did not deliver', async () => {
			const w = await workflow(path, { fields: { output: 'perPoll' } });
			const pushed = f.sim.seedCompletedTransactions(2, { createdAt: (i) => minutesAgo(9 - i) });
			await pushedAndDelivered(w, pushed);
			const lost = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(5 - i) });
			const run = await w.poll();
			expect(run.executions).toHaveLength(1);
			expect(run.executions[0].map((item) => item.json.transactionId)).toEqual(lost);
			expect((await w.poll()).executions).toHaveLength(0);
			expect((await w.push(lost[0])).status).toBe(409);
			expect(w.deliveredKeys()).toEqual(
				sorted([...pushed, ...lost].map((id) => `completed:${id}`)),
			);
		});

		test('without the safety net the trigger emits as before, and its saves keep the record of the pushes', async () => {
			const w = await workflow(path, { options: {} });
			const [pushed] = f.sim.seedCompletedTransactions(1);
			await pushedAndDelivered(w, [pushed]);
			const [other] = f.sim.seedCompletedTransactions(1);
			const run = await w.poll();
			expect(run.executions.map(idOf)).toEqual([pushed, other]);
			expect(w.deliveredKeys()).toEqual([`completed:${pushed}`]);
			// Its emits are not recorded: a push for the other is still delivered.
			const push = await w.push(other);
			expect(push.status).toBe(202);
			expect((await push.handled).execution).toBeDefined();
		});
	},
);

describe('Trigger → Safety Net for the Instant Trigger', () => {
	test('a push and a poll for the same transactions at once: each starts one execution', async () => {
		const w = await workflow('activation');
		const ids = f.sim.seedCompletedTransactions(12, { createdAt: (i) => minutesAgo(12 - i) });
		f.sim.setLatency(20);
		const [, ...pushes] = await Promise.all([
			w.poll(),
			...ids.filter((_, i) => i % 2 === 0).map(async (id) => await w.push(id)),
		]);
		await Promise.all(pushes.map(async (p) => await p.handled));
		f.sim.setLatency(0);
		await w.poll();
		for (const p of pushes) expect([202, 409]).toContain(p.status);
		expect(sorted(w.startedIds())).toEqual(sorted(ids));
		// Whoever came second is refused or marks it seen: nothing more, from either.
		expect((await w.poll()).executions).toHaveLength(0);
		for (const id of ids) expect((await w.push(id)).status).toBe(409);
	});

	test('the grace period counts from the first poll that found the transaction', async () => {
		const w = await workflow('durable', { options: net({ gracePeriodMinutes: 10 }) });
		// Created an hour ago, completed just now: its creation time says nothing of its push.
		const [lost] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(60) });
		const clock = jest.useFakeTimers({
			doNotFake: [
				'nextTick',
				'setImmediate',
				'clearImmediate',
				'setTimeout',
				'clearTimeout',
				'setInterval',
				'clearInterval',
				'queueMicrotask',
				'hrtime',
				'performance',
			],
			advanceTimers: true,
			now: Date.now(),
		});
		try {
			const first = await w.poll();
			expect(first.executions).toHaveLength(0);
			const found = w.cursor()!.sightings![lost];
			expect(found).toBeGreaterThan(Date.now() - 60_000);
			clock.setSystemTime(Date.now() + 9 * 60_000);
			expect((await w.poll()).executions).toHaveLength(0);
			expect(w.cursor()!.sightings![lost]).toBe(found);
			clock.setSystemTime(found + 10 * 60_000 + 1000);
			expect((await w.poll()).executions.map(idOf)).toEqual([lost]);
			expect(w.cursor()!.sightings ?? {}).toEqual({});
			const late = await w.push(lost);
			expect(late.status).toBe(409);
			await late.handled;
		} finally {
			jest.useRealTimers();
		}
	});

	test('a push confirming a transaction holds it back; a push delivering one while the poll waits to hand it over wins', async () => {
		const executions = new Executions('held');
		const w = await workflow('activation', { executions });
		const ids = f.sim.seedCompletedTransactions(MAX_RUNNING + 2, {
			createdAt: (i) => minutesAgo(30 - i),
		});
		const [waiting, confirming] = ids.slice(MAX_RUNNING);
		const polled = w.poll();
		// The poll handed over MAX_RUNNING and waits for one to finish before the next.
		await until(() => executions.running === MAX_RUNNING);
		const delivered = await w.push(waiting);
		expect(delivered.status).toBe(202);
		expect((await delivered.handled).execution).toBeDefined();
		// Vantage is slow to answer this push's confirmation: its claim is pending.
		f.sim.injectFault('GetTransactionInfo', { kind: 'delay', ms: 400 });
		const slow = await w.push(confirming);
		expect(slow.status).toBe(202);
		executions.finish();
		const run = await polled;
		expect(run.executions.map(idOf)).toEqual(ids.slice(0, MAX_RUNNING));
		// Delivered by the push meanwhile: seen. Still confirming: left for the next poll.
		expect(Object.keys(w.cursor()!.seen)).toContain(waiting);
		expect(Object.keys(w.cursor()!.seen)).not.toContain(confirming);
		expect((await slow.handled).execution).toBeDefined();
		expect((await w.poll()).executions).toHaveLength(0);
		expect(Object.keys(w.cursor()!.seen)).toContain(confirming);
		expect(sorted(w.startedIds())).toEqual(sorted(ids));
	});

	/**
	 * On n8n's activation path each of the two triggers saves the whole static data as it read it:
	 * a push whose request began before the poll saved writes the poll's cursor back as it was.
	 * The pushed transaction is of another skill than the polling trigger's, which sees only its own.
	 */
	async function rolledBack(options: IDataObject) {
		const w = await workflow('activation', {
			options,
			fields: { skillId: { __rl: true, mode: 'id', value: FIXTURE.documentSkillId } },
		});
		const [first] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(20) });
		expect((await w.poll()).executions.map(idOf)).toEqual([first]);
		// Vantage is slow to confirm this push: its request holds the static data it read meanwhile.
		const [pushed] = f.sim.seedCompletedTransactions(1, { skillId: FIXTURE.receiptSkillId });
		f.sim.injectFault('GetTransactionInfo', { kind: 'delay', ms: 500 });
		const push = await w.push(pushed);
		expect(push.status).toBe(202);
		const [second] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(10) });
		expect((await w.poll()).executions.map(idOf)).toEqual([second]);
		expect(Object.keys(w.stored()['node:ABBYY Vantage Trigger']!.cursor!.seen)).toContain(second);
		await push.handled;
		// The rollback: the database holds the cursor the push's request read.
		expect(Object.keys(w.stored()['node:ABBYY Vantage Trigger']!.cursor!.seen)).toEqual([first]);
		const restarted = await restart(w);
		return { w: restarted, first, second, pushed };
	}

	test("n8n 1.x path: a push request rolls the polling trigger's cursor back in the database; after a restart the safety net still emits nothing twice", async () => {
		const { w, first, second, pushed } = await rolledBack(net());
		expect(w.deliveredKeys()).toEqual(
			sorted([first, second, pushed].map((id) => `completed:${id}`)),
		);
		expect((await w.poll()).executions).toHaveLength(0);
		expect(Object.keys(w.cursor()!.seen)).toContain(second);
		expect(sorted(w.startedIds())).toEqual(sorted([first, second, pushed]));
	});

	test('the limit the docs state: without the safety net, that rollback makes the polling trigger emit again after a restart', async () => {
		const { w, first, second, pushed } = await rolledBack({});
		expect((await w.poll()).executions.map(idOf)).toEqual([second]);
		expect(sorted(w.startedIds())).toEqual(sorted([first, second, second, pushed]));
	});

	test('Transaction Awaiting Manual Review: a review the push delivered is not emitted again; one it missed is, once', async () => {
		const w = await workflow('durable', {
			event: 'manualReview',
			instant: { events: ['manualReview'] },
		});
		const pushed = await transactionInReview(f.sim);
		const review = await w.push(pushed, 'transaction.manualReview');
		expect(review.status).toBe(202);
		expect((await review.handled).execution?.[0].json).toMatchObject({ transactionId: pushed });
		const lost = await transactionInReview(f.sim);
		const run = await w.poll();
		expect(run.executions.map(idOf)).toEqual([lost]);
		expect(run.executions[0][0].json.manualReviewLink).toEqual(expect.stringContaining('/review/'));
		expect((await w.push(lost, 'transaction.manualReview')).status).toBe(409);
		expect(w.deliveredKeys()).toEqual(sorted([`review:${pushed}`, `review:${lost}`]));
	});

	test('Fetch Test Event shows the latest transaction even when a push delivered it, and records nothing', async () => {
		const w = await workflow('activation');
		const [pushed] = f.sim.seedCompletedTransactions(1);
		await pushedAndDelivered(w, [pushed]);
		const manual = await w.poll('manual');
		expect(manual.returned?.[0][0].json.transactionId).toBe(pushed);
		const [lost] = f.sim.seedCompletedTransactions(1);
		expect((await w.poll('manual')).returned?.[0][0].json.transactionId).toBe(lost);
		// Fetching it did not deliver it.
		expect((await w.poll()).executions.map(idOf)).toEqual([lost]);
	});

	test('a transaction created before the record forgot its oldest deliveries is not emitted, and n8n logs it', async () => {
		const w = await workflow('durable');
		const floor = Date.now() - 5 * 60_000;
		w.database = JSON.stringify({
			...w.stored(),
			global: { abbyyVantageDeliveries: { v: 1, delivered: {}, events: {}, floor } },
		});
		const [old] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(10) });
		const [recent] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(1) });
		const run = await w.poll();
		expect(run.executions.map(idOf)).toEqual([recent]);
		expect(Object.keys(w.cursor()!.seen)).toContain(old);
		expect(w.logs).toEqual([
			expect.stringMatching(new RegExp(`^warn: .*1 transaction\\(s\\) created before .*${old}`)),
		]);
	});

	test('its options: only on the two transaction events; Grace Period shown with the safety net on', () => {
		const { properties } = new AbbyyVantageTrigger().description;
		const optionsOf = (event: string) =>
			properties.find((p) => p.name === 'options' && p.displayOptions?.show?.event?.includes(event))
				?.options as INodeProperties[];
		for (const event of ['transactionCompleted', 'manualReview']) {
			expect(optionsOf(event).map((o) => o.displayName)).toEqual([
				'Grace Period (Minutes)',
				'Look Back (Hours)',
				'Safety Net for the Instant Trigger',
				'Start From',
			]);
		}
		expect(optionsOf('exportFinished').map((o) => o.name)).toEqual(['lookBackHours', 'startFrom']);
		const grace = optionsOf('transactionCompleted').find((o) => o.name === 'gracePeriodMinutes')!;
		expect(grace).toMatchObject({
			default: 10,
			typeOptions: { minValue: 0, maxValue: 1440 },
			displayOptions: { show: { safetyNet: [true] } },
		});
	});

	test('a Grace Period out of bounds is refused, naming the option', async () => {
		const w = new SharedWorkflow({
			store: () => f.store,
			secrets: () => secrets,
			workflowId: `wf-net-${++workflows}`,
			path: 'activation',
			poll: triggerParams('transactionCompleted', {
				options: net({ gracePeriodMinutes: 2000 }),
			} as INodeParameters),
		});
		const run = await w.poll();
		expect(run.error?.message).toMatch(/Grace Period \(Minutes\)/);
		// Refused before anything is read from Vantage.
		expect(f.sim.requests).toHaveLength(0);
	});
});
