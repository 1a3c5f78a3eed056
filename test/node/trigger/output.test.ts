import { sleep, type IDataObject } from 'n8n-workflow';

import { Executions } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import {
	MAX_EVENTS_PER_POLL,
	MAX_RUNNING,
	RUNNING_AT_MOST_MS,
} from '../../../nodes/AbbyyVantage/constants';
import { ActiveTrigger, idsOf, triggerParams } from './poll';

const f = useSimulator();
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
let workflows = 0;

/** An active Transaction Completed trigger of a workflow of its own, its executions run as `runs`. */
function completed(fields: IDataObject = {}, executions = new Executions()) {
	const trigger = new ActiveTrigger(
		() => f.store,
		triggerParams('transactionCompleted', fields),
		undefined,
		{ executions, workflowId: `wf-output-${++workflows}` },
	);
	return { trigger, executions };
}

/** Wait until `condition` holds (checked every 10 ms), at most `ms`. */
async function until(condition: () => boolean, ms = 10_000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!condition() && Date.now() < deadline) await sleep(10);
	expect(condition()).toBe(true);
}

/**
 * An active trigger whose executions never finish by themselves, after a poll that found
 * MAX_RUNNING + 5 completed transactions and handed over MAX_RUNNING of them (a 1.5-s budget).
 */
async function heldAfterFirstPoll() {
	const { trigger, executions } = completed({}, new Executions('held'));
	await trigger.poll();
	const count = MAX_RUNNING + 5;
	const burst = f.sim.seedCompletedTransactions(count, {
		createdAt: (i) => minutesAgo(count - i),
	});
	const first = await trigger.poll('trigger', 1500);
	expect(first.executions).toHaveLength(MAX_RUNNING);
	return { trigger, executions, burst };
}

describe('Trigger → Output: One Execution per Transaction (the default)', () => {
	test(`a burst of 100 whose executions take a while: one poll hands them all over, never more than ${MAX_RUNNING} running at once, each once, oldest first`, async () => {
		const { trigger, executions } = completed({}, new Executions({ takes: 40 }));
		await trigger.poll();
		const burst = f.sim.seedCompletedTransactions(100, {
			createdAt: (i) => new Date(Date.now() - 60_000 + i),
		});
		const run = await trigger.poll();
		expect(run.error).toBeUndefined();
		expect(idsOf(run)).toEqual(burst);
		expect(executions.maxRunning).toBe(MAX_RUNNING);
		await until(() => executions.running === 0);
		expect((await trigger.poll()).executions).toHaveLength(0);
	});

	test('the static data n8n saves at each __emit (only when it saw a change) holds every event handed over so far', async () => {
		const { trigger } = completed({}, new Executions({ takes: 30 }));
		await trigger.poll();
		const burst = f.sim.seedCompletedTransactions(60, { createdAt: (i) => minutesAgo(60 - i) });
		const run = await trigger.poll();
		expect(idsOf(run)).toEqual(burst);
		// What n8n stored at the last __emit: every event but the last is in it, the last too.
		const saved = JSON.parse(run.savedStaticData) as { cursor: { seen: Record<string, number> } };
		expect(Object.keys(saved.cursor.seen).sort()).toEqual([...burst].sort());
	});

	test("while the trigger's executions run, a poll waits for room until n8n's poll budget runs out; what it did not hand over follows at later polls, each once", async () => {
		const { trigger, executions } = completed({}, new Executions('held'));
		await trigger.poll();
		const burst = f.sim.seedCompletedTransactions(50, { createdAt: (i) => minutesAgo(50 - i) });
		// Budget 4 s (the trigger stops a second early): room for 5 more is made meanwhile.
		const polling = trigger.poll('trigger', 4000);
		await until(() => executions.running === MAX_RUNNING);
		executions.finish(5);
		const first = await polling;
		expect(first.error).toBeUndefined();
		expect(idsOf(first)).toEqual(burst.slice(0, MAX_RUNNING + 5));
		expect(executions.maxRunning).toBe(MAX_RUNNING);
		// Only what was handed over is marked: the rest stay unseen.
		expect(Object.keys(trigger.cursor().seen).sort()).toEqual(
			burst.slice(0, MAX_RUNNING + 5).sort(),
		);
		// Still MAX_RUNNING running: the next poll hands over nothing and changes nothing.
		const before = trigger.staticData;
		const blocked = await trigger.poll('trigger', 1500);
		expect(blocked.executions).toHaveLength(0);
		expect(JSON.parse(trigger.staticData)).toEqual(JSON.parse(before));
		// As they finish, later polls hand over the rest.
		while (trigger.emittedIds().length < burst.length) {
			executions.finish();
			await trigger.poll('trigger', 1500);
		}
		expect(trigger.emittedIds()).toEqual(burst);
		executions.finish();
		expect((await trigger.poll()).executions).toHaveLength(0);
	}, 60_000);

	test(`an execution n8n never reports finished stops counting after ${RUNNING_AT_MOST_MS / 60_000} minutes`, async () => {
		const { trigger, executions, burst } = await heldAfterFirstPoll();
		// The clock jumps ahead and keeps going (the poll's budget must still run out).
		const realNow = Date.now.bind(Date);
		const later = jest
			.spyOn(Date, 'now')
			.mockImplementation(() => realNow() + RUNNING_AT_MOST_MS + 1);
		try {
			const second = await trigger.poll('trigger', 1500);
			expect(idsOf(second)).toEqual(burst.slice(MAX_RUNNING));
		} finally {
			later.mockRestore();
			executions.finish();
		}
	});

	test('a restart of n8n forgets the executions of the process that ended: the new one hands over the rest', async () => {
		const { trigger, executions, burst } = await heldAfterFirstPoll();
		trigger.restart();
		const after = await trigger.poll('trigger', 1500);
		expect(idsOf(after)).toEqual(burst.slice(MAX_RUNNING));
		executions.finish();
	});
});

describe('Trigger → Output: One Execution per Poll', () => {
	test(`every transaction a poll finds is an item of one execution, oldest first; a burst of 2 500 takes three polls (${MAX_EVENTS_PER_POLL} each), each once`, async () => {
		const { trigger, executions } = completed({ output: 'perPoll' });
		await trigger.poll();
		const few = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(3 - i) });
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(1);
		expect(run.executions[0].map((item) => item.json.transactionId)).toEqual(few);
		expect(run.executions[0][0].json).toMatchObject({ status: 'Processed' });
		expect((await trigger.poll()).executions).toHaveLength(0);

		const burst = f.sim.seedCompletedTransactions(2500, {
			createdAt: (i) => new Date(Date.now() - 60_000 + i),
		});
		const polls = [await trigger.poll(), await trigger.poll(), await trigger.poll()];
		expect(polls.map((p) => p.executions.map((items) => items.length))).toEqual([
			[1000],
			[1000],
			[500],
		]);
		expect(
			polls.flatMap((p) => p.executions.flat().map((item) => item.json.transactionId)),
		).toEqual(burst);
		expect((await trigger.poll()).executions).toHaveLength(0);
		expect(executions.maxRunning).toBe(1);
	}, 60_000);

	test('with Include Results: one item per document of every transaction, in one execution', async () => {
		const { trigger } = completed({ output: 'perPoll', includeResults: true });
		await trigger.poll();
		const ids = f.sim.seedCompletedTransactions(2, { createdAt: (i) => minutesAgo(2 - i) });
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(1);
		expect(run.executions[0].map((item) => item.json.transactionId)).toEqual(ids);
		expect(run.executions[0][0].json).toHaveProperty('fields');
		expect(run.executions[0][0].json).toHaveProperty('completed');
	});

	test('Fetch Test Event still returns the one transaction that completed last', async () => {
		const { trigger } = completed({ output: 'perPoll' });
		const ids = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(3 - i) });
		const test = await trigger.poll('manual');
		expect(test.returned?.[0].map((item) => item.json.transactionId)).toEqual([ids[2]]);
		expect(test.executions).toHaveLength(0);
	});

	test('an Output that is not one of the choices is refused, naming the parameter', async () => {
		const { trigger } = completed({ output: 'perDay' });
		const run = await trigger.poll();
		expect(run.error?.message).toBe('Output must be one of "perEvent", "perPoll", not "perDay"');
	});
});
