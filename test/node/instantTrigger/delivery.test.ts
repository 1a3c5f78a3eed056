import type { IDataObject } from 'n8n-workflow';

import { useSimulator } from '../../helpers/fixture';
import { eventBody, signed } from '../../harness/webhook';
import { FIXTURE } from '../../simulator/simulator';
import { ActiveTrigger, triggerParams } from '../trigger/poll';
import {
	instantTrigger,
	secrets,
	shortWait,
	startedTransaction,
	transactionInReview,
} from './instant';

const f = useSimulator();

/**
 * The polling ABBYY Vantage Trigger for `event`, its baseline taken now (before the transaction
 * exists): what it emits for a transaction, to compare the Instant Trigger's item with.
 */
async function pollingTrigger(
	event: 'transactionCompleted' | 'manualReview',
	fields: IDataObject = {},
) {
	const trigger = new ActiveTrigger(() => f.store, triggerParams(event, fields));
	await trigger.poll();
	return async (id: string) => {
		const run = await trigger.poll();
		const execution = run.executions.find((items) => items[0].json.transactionId === id);
		if (!execution) throw new Error(`the polling trigger did not emit ${id}`);
		return execution;
	};
}

describe('Instant Trigger → delivery', () => {
	test('a valid event is answered 202 at once and starts one execution with the polling trigger’s item', async () => {
		const polled = await pollingTrigger('transactionCompleted');
		const trigger = await instantTrigger(f);
		// The Custom activity runs inside the transaction: it is still processing when the push comes.
		const id = await startedTransaction(f.sim, { processing: { polls: 2 } });
		const push = await trigger.push(signed(eventBody(id), secrets.secret));
		expect(push.status).toBe(202);
		expect(push.body).toEqual({ status: 'accepted', eventId: expect.stringContaining(id) });
		// The answer left before the confirmation ended (the transaction was still processing).
		const first = await Promise.race([
			push.handled.then(() => 'confirmed'),
			Promise.resolve('answered'),
		]);
		expect(first).toBe('answered');
		const handled = await push.handled;
		expect(handled.error).toBeUndefined();
		expect(handled.execution).toHaveLength(1);
		const item = handled.execution![0].json;
		expect(item).toMatchObject({
			transactionId: id,
			status: 'Processed',
			skillId: FIXTURE.documentSkillId,
		});
		expect(f.sim.requestsTo('GetTransactionInfo').length).toBeGreaterThanOrEqual(3);
		// The polling trigger's Transaction Completed item for the same transaction, key for key.
		expect(handled.execution).toEqual(await polled(id));
		expect(trigger.logs).toEqual([]);
	});

	test('Include Results: the extracted fields, one item per document, as the polling trigger gives them', async () => {
		const polled = await pollingTrigger('transactionCompleted', { includeResults: true });
		const trigger = await instantTrigger(f, { includeResults: true });
		const [id] = f.sim.seedCompletedTransactions(1);
		const push = await trigger.push(signed(eventBody(id), secrets.secret));
		expect(push.status).toBe(202);
		const { execution } = await push.handled;
		expect(execution?.length).toBeGreaterThanOrEqual(1);
		expect(execution![0].json).toMatchObject({
			transactionId: id,
			status: 'Processed',
			fields: expect.any(Object),
			completed: expect.objectContaining({ transactionId: id }),
			error: null,
		});
		expect(execution).toEqual(await polled(id));
	});

	test('a transaction that failed is delivered as Transaction Completed too, with Vantage’s error', async () => {
		const trigger = await instantTrigger(f, { includeResults: true });
		const [id] = f.sim.seedCompletedTransactions(1, { status: 'Failed' });
		const { execution } = await (await trigger.push(signed(eventBody(id), secrets.secret))).handled;
		expect(execution).toHaveLength(1);
		expect(execution![0].json).toMatchObject({ transactionId: id, status: 'Failed', fields: {} });
		expect(execution![0].json.error).toEqual(expect.any(String));
	});

	test('a transaction waiting in Manual Review: the review link, the polling trigger’s item', async () => {
		const polled = await pollingTrigger('manualReview');
		const trigger = await instantTrigger(f, { events: ['manualReview'] });
		const id = await transactionInReview(f.sim);
		const push = await trigger.push(
			signed(eventBody(id, 'transaction.manualReview'), secrets.secret),
		);
		expect(push.status).toBe(202);
		const { execution } = await push.handled;
		expect(execution).toHaveLength(1);
		expect(execution![0].json).toMatchObject({
			transactionId: id,
			status: 'Processing',
			manualReviewLink: expect.stringContaining('/review/'),
		});
		expect(execution).toEqual(await polled(id));
	});

	test('Events filter the state Vantage shows, not the body: a review push for a transaction without review delivers its completion', async () => {
		const trigger = await instantTrigger(f, { events: ['transactionCompleted', 'manualReview'] });
		const [id] = f.sim.seedCompletedTransactions(1);
		const push = await trigger.push(
			signed(eventBody(id, 'transaction.manualReview'), secrets.secret),
		);
		const { execution } = await push.handled;
		expect(execution?.[0].json).toMatchObject({ transactionId: id, status: 'Processed' });
		// The push after the Review step comes too late now: the completion was delivered.
		const after = await trigger.push(signed(eventBody(id), secrets.secret));
		expect(after.status).toBe(409);
	});

	test('a push sent after the Review step waits for completion, even while a review link is still shown', async () => {
		const trigger = await instantTrigger(f, {
			events: ['transactionCompleted', 'manualReview'],
			...shortWait(2),
		});
		const id = await transactionInReview(f.sim);
		const push = await trigger.push(signed(eventBody(id), secrets.secret));
		expect((await push.handled).execution).toBeUndefined();
		expect(trigger.logs).toEqual([
			expect.stringMatching(
				/did not show it completed within 2 seconds \(last status: Processing\)/,
			),
		]);
		f.sim.completeTransaction(id);
		const after = await trigger.push(signed(eventBody(id), secrets.secret));
		expect((await after.handled).execution?.[0].json).toMatchObject({
			transactionId: id,
			status: 'Processed',
		});
	});

	test('a busy tenant: the newest of 2 400 completed in the last minutes is found at an end of the list, in two pages of 50', async () => {
		const trigger = await instantTrigger(f);
		const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
		const seeded = f.sim.seedCompletedTransactions(2400, {
			createdAt: (i) => minutesAgo(9 - i / 400),
			completedAt: (i) => minutesAgo(8 - i / 400),
		});
		const oldest = seeded[0];
		const newest = seeded[seeded.length - 1];
		const middle = seeded[1200];
		const deliver = async (id: string) => {
			f.sim.clearLog();
			const push = await trigger.push(signed(eventBody(id), secrets.secret));
			const handled = await push.handled;
			return {
				item: handled.execution?.[0]?.json,
				pages: f.sim
					.requestsTo('GetCompletedTransactions')
					.map((r) => [Number(r.query.Offset ?? 0), Number(r.query.Limit)]),
			};
		};
		// Vantage's order is not documented: the just-completed one is at one end or the other.
		const atEnd = await deliver(newest);
		expect(atEnd.item).toMatchObject({ transactionId: newest });
		expect(atEnd.pages).toEqual([
			[0, 50],
			[2350, 50],
		]);
		const atStart = await deliver(oldest);
		expect(atStart.item).toMatchObject({ transactionId: oldest });
		expect(atStart.pages).toEqual([[0, 50]]);
		// Anywhere else, the entries between the ends, page by page.
		const between = await deliver(middle);
		expect(between.item).toMatchObject({ transactionId: middle });
		expect(between.pages).toEqual([
			[0, 50],
			[2350, 50],
			[50, 1000],
			[1050, 1000],
		]);
		expect(trigger.executions).toHaveLength(3);
	});

	test('a state Events leaves out starts nothing', async () => {
		const trigger = await instantTrigger(f, { events: ['manualReview'] });
		const [id] = f.sim.seedCompletedTransactions(1);
		const push = await trigger.push(signed(eventBody(id), secrets.secret));
		expect(push.status).toBe(202);
		expect((await push.handled).execution).toBeUndefined();
		expect(trigger.logs).toEqual([expect.stringMatching(/Events leaves out/)]);
	});

	test('the Skill filter reads the transaction’s skill from Vantage', async () => {
		const receipts = await instantTrigger(f, {
			skillId: { __rl: true, mode: 'id', value: FIXTURE.receiptSkillId },
		});
		const documents = await instantTrigger(f, {
			skillId: { __rl: true, mode: 'id', value: FIXTURE.documentSkillId },
		});
		const [id] = f.sim.seedCompletedTransactions(1);
		const toReceipts = await receipts.push(signed(eventBody(id), secrets.secret));
		expect((await toReceipts.handled).execution).toBeUndefined();
		expect(receipts.logs).toEqual([expect.stringMatching(/another skill/)]);
		const toDocuments = await documents.push(signed(eventBody(id), secrets.secret));
		expect((await toDocuments.handled).execution?.[0].json.transactionId).toBe(id);
	});

	test('a timestamp 4 minutes old or 50 seconds ahead is still fresh', async () => {
		const trigger = await instantTrigger(f);
		const [a, b] = f.sim.seedCompletedTransactions(2);
		const old = await trigger.push(signed(eventBody(a), secrets.secret, Date.now() - 4 * 60_000));
		const ahead = await trigger.push(signed(eventBody(b), secrets.secret, Date.now() + 50_000));
		expect([old.status, ahead.status]).toEqual([202, 202]);
	});

	test('a transaction that never reaches a delivered state within Wait Timeout: no execution, and its claim is released', async () => {
		const trigger = await instantTrigger(f, shortWait(2));
		const id = await startedTransaction(f.sim, { outcome: 'Never' });
		const push = await trigger.push(signed(eventBody(id), secrets.secret));
		expect(push.status).toBe(202);
		const handled = await push.handled;
		expect(handled.execution).toBeUndefined();
		expect(handled.error).toBeUndefined();
		expect(trigger.logs).toEqual([
			expect.stringMatching(/did not show it completed within 2 seconds/),
		]);
		// Released: when the transaction completes, a new push of it is delivered.
		f.sim.completeTransaction(id);
		const again = await trigger.push(signed(eventBody(id), secrets.secret));
		expect(again.status).toBe(202);
		expect((await again.handled).execution?.[0].json.transactionId).toBe(id);
	});

	test('a transaction Vantage does not know: no execution, the reason logged, the claim released', async () => {
		const trigger = await instantTrigger(f);
		const id = '0b7e7a4c-5d1e-4f2a-9c3b-8e6d5f4a3b2c';
		const push = await trigger.push(signed(eventBody(id), secrets.secret));
		expect(push.status).toBe(202);
		expect((await push.handled).execution).toBeUndefined();
		expect(trigger.logs).toEqual([expect.stringMatching(new RegExp(`${id}.*starts no execution`))]);
		expect(JSON.parse(trigger.staticData).global.abbyyVantageDeliveries.delivered).toEqual({});
	});

	test('nothing of the secret or the signature reaches an item, the static data or the log', async () => {
		const trigger = await instantTrigger(f, { includeResults: true });
		const [id] = f.sim.seedCompletedTransactions(1);
		const request = signed(eventBody(id), secrets.secret);
		const push = await trigger.push(request);
		const handled = await push.handled;
		const everything = JSON.stringify({
			handled,
			staticData: trigger.staticData,
			logs: trigger.logs,
		});
		expect(everything).not.toContain(secrets.secret);
		expect(everything).not.toContain(request.headers['x-vantage-signature'].slice(3));
	});
});
