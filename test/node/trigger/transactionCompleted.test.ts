import type { IDataObject } from 'n8n-workflow';

import { useSimulator } from '../../helpers/fixture';
import { rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { ActiveTrigger, triggerParams } from './poll';

const f = useSimulator();
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

const completed = (fields: IDataObject = {}) =>
	new ActiveTrigger(() => f.store, triggerParams('transactionCompleted', fields));

describe('Trigger → Transaction Completed', () => {
	test('first activation starts from now: what was already completed does not flood in', async () => {
		f.sim.seedCompletedTransactions(5, { createdAt: minutesAgo(30) });
		const trigger = completed();
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.executions).toHaveLength(0);
		expect(JSON.parse(trigger.staticData).cursor.event).toBe('transactionCompleted');
	});

	test('each transaction that completes later starts exactly one execution, oldest first', async () => {
		const trigger = completed();
		await trigger.poll();
		const a = f.sim.seedCompletedTransactions(2, { createdAt: (i) => minutesAgo(10 - i) });
		const second = await trigger.poll();
		expect(second.executions.map((items) => items[0].json.transactionId)).toEqual(a);
		expect(second.executions[0][0].json).toMatchObject({
			status: 'Processed',
			skillId: FIXTURE.documentSkillId,
		});
		const third = await trigger.poll();
		expect(third.executions).toHaveLength(0);
		const b = f.sim.seedCompletedTransactions(1);
		const fourth = await trigger.poll();
		expect(fourth.executions.map((items) => items[0].json.transactionId)).toEqual(b);
		expect(trigger.emittedIds()).toEqual([...a, ...b]);
	});

	test('a transaction created long ago that completes late is still emitted, once (inside Look Back)', async () => {
		f.sim.scriptNextTransaction({ outcome: 'Never' });
		const trigger = completed();
		await trigger.poll();
		// Created and waiting before the trigger's last poll; completes only now.
		const [old] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(600) });
		const run = await trigger.poll();
		expect(run.executions.map((items) => items[0].json.transactionId)).toEqual([old]);
		expect((await trigger.poll()).executions).toHaveLength(0);
	});

	test('a burst of 2 500 in one interval: 2 500 executions, each once, read in pages of 1000', async () => {
		const trigger = completed();
		await trigger.poll();
		f.sim.clearLog();
		const burst = f.sim.seedCompletedTransactions(2500, {
			createdAt: (i) => new Date(Date.now() - 60_000 + i),
		});
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(2500);
		expect(new Set(run.executions.map((items) => items[0].json.transactionId))).toEqual(
			new Set(burst),
		);
		expect(f.sim.requestsTo('GetCompletedTransactions').map((r) => r.query.Offset)).toEqual([
			'0',
			'1000',
			'2000',
		]);
		expect((await trigger.poll()).executions).toHaveLength(0);
	}, 60_000);

	test('across restarts and crash points nothing is lost and nothing emitted twice', async () => {
		const trigger = completed();
		await trigger.poll();
		const all = f.sim.seedCompletedTransactions(10, { createdAt: (i) => minutesAgo(20 - i) });
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(10);
		// n8n crashed after storing execution 4 (its cursor) and before the rest: start again from there.
		const restarted = new ActiveTrigger(() => f.store, triggerParams('transactionCompleted'));
		restarted.staticData = run.cursorAtEmit[3];
		const resumed = await restarted.poll();
		expect(resumed.executions.map((items) => items[0].json.transactionId)).toEqual(all.slice(4));
		// A restart with the stored static data (round-tripped as JSON) emits nothing again.
		const again = new ActiveTrigger(() => f.store, triggerParams('transactionCompleted'));
		again.staticData = JSON.parse(JSON.stringify(trigger.staticData));
		expect((await again.poll()).executions).toHaveLength(0);
	});

	test('a failed poll throws a readable error, emits nothing and keeps the cursor', async () => {
		const trigger = completed();
		await trigger.poll();
		const before = trigger.staticData;
		const ids = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(3 - i) });
		f.sim.injectFault(
			'GetCompletedTransactions',
			{
				kind: 'status',
				status: 403,
				body: { title: 'Forbidden', status: 403, detail: 'No access' },
			},
			1,
		);
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(/^ABBYY Vantage denied access: No access/);
		expect(failed.executions).toHaveLength(0);
		expect(trigger.staticData).toBe(before);
		const next = await trigger.poll();
		expect(next.executions.map((items) => items[0].json.transactionId)).toEqual(ids);
	});

	test('a passing problem during a poll is retried inside the poll', async () => {
		const trigger = completed();
		await trigger.poll();
		const ids = f.sim.seedCompletedTransactions(1);
		f.sim.injectFault(
			'GetCompletedTransactions',
			{ kind: 'status', status: 503, retryAfter: '0' },
			1,
		);
		const run = await trigger.poll();
		expect(run.error).toBeUndefined();
		expect(run.executions.map((items) => items[0].json.transactionId)).toEqual(ids);
	});

	test('Fetch Test Event returns the most recent matching transaction, even if already emitted', async () => {
		const trigger = completed();
		await trigger.poll();
		const ids = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(5 - i) });
		await trigger.poll();
		const cursor = trigger.staticData;
		const manual = await trigger.poll('manual');
		expect(manual.executions).toHaveLength(0);
		expect(manual.returned?.[0][0].json.transactionId).toBe(ids[2]);
		expect(trigger.staticData).toBe(cursor);
	});

	test('Start From: the first activation emits what was created since that date', async () => {
		const old = f.sim.seedCompletedTransactions(2, { createdAt: (i) => minutesAgo(120 - i) });
		f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(600) });
		const trigger = completed({ options: { startFrom: minutesAgo(180).toISOString() } });
		const run = await trigger.poll();
		expect(run.executions.map((items) => items[0].json.transactionId)).toEqual(old);
	});

	test('Status, Skill and registration parameters filter in the request', async () => {
		const trigger = completed({
			transactionStatus: 'Failed',
			skillId: rl('Receipt'),
			transactionParameters: { parameter: [{ key: 'Source', value: 'mail' }] },
		});
		await trigger.poll();
		expect(f.sim.requestsTo('GetCompletedTransactions')[0].query).toMatchObject({
			TransactionStatus: 'Failed',
			SkillId: 'Receipt',
			'TransactionParameters[0].Key': 'Source',
			'TransactionParameters[0].Value': 'mail',
		});
	});

	test('Include Results gives the extracted fields, one item per document', async () => {
		const trigger = completed({ includeResults: true });
		await trigger.poll();
		const [id] = f.sim.seedCompletedTransactions(1);
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(1);
		const [item] = run.executions[0];
		expect(item.json).toMatchObject({
			transactionId: id,
			status: 'Processed',
			fields: expect.any(Object),
		});
		expect(Object.keys(item.json.fields as IDataObject)).toContain('InvoiceNumber');
	});
});
