import { useSimulator } from '../../helpers/fixture';
import * as webhookHarness from '../../harness/webhook';
import { eventBody, signed } from '../../harness/webhook';
import { instantTrigger, secrets, startedTransaction } from './instant';

const f = useSimulator();

/** The delivered keys of the workflow's durable copy (its global static data). */
const deliveredKeys = (staticData: string): string[] =>
	Object.keys(
		(JSON.parse(staticData) as { global?: { abbyyVantageDeliveries?: { delivered: object } } })
			.global?.abbyyVantageDeliveries?.delivered ?? {},
	).sort();

/** A new n8n process: the node and its registry loaded afresh, nothing in memory kept. */
function restartedHarness(): typeof webhookHarness {
	let fresh: typeof webhookHarness | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		fresh = require('../../harness/webhook') as typeof webhookHarness;
	});
	return fresh!;
}

describe('Instant Trigger → one execution per transaction state', () => {
	test('the same event twice (the script resends it when an answer was lost): one execution, then 409', async () => {
		const trigger = await instantTrigger(f);
		const [id] = f.sim.seedCompletedTransactions(1);
		const body = eventBody(id);
		const first = await trigger.push(signed(body, secrets.secret));
		// A resend is signed again, with its own timestamp, and the same eventId.
		const resent = await trigger.push(signed(body, secrets.secret, Date.now() + 1000));
		expect([first.status, resent.status]).toEqual([202, 409]);
		expect(resent.body).toEqual({ status: 'duplicate', message: 'This event was received before' });
		await Promise.all([first.handled, resent.handled]);
		expect(trigger.executions).toHaveLength(1);
	});

	test('the same transaction with a new eventId (the activity ran again): 409, no second execution', async () => {
		const trigger = await instantTrigger(f);
		const [id] = f.sim.seedCompletedTransactions(1);
		const first = await trigger.push(signed(eventBody(id), secrets.secret));
		await first.handled;
		f.sim.clearLog();
		const again = await trigger.push(signed(eventBody(id), secrets.secret));
		expect(again.status).toBe(409);
		await again.handled;
		expect(trigger.executions).toHaveLength(1);
		// Refused from the registry: nothing read from Vantage.
		expect(f.sim.requests).toHaveLength(0);
	});

	test('concurrent pushes of one transaction: one 202, the rest 409, one execution', async () => {
		const trigger = await instantTrigger(f);
		// Still processing: the first push holds its claim while it waits for completion.
		const id = await startedTransaction(f.sim, { processing: { polls: 2 } });
		const pushes = await Promise.all(
			Array.from(
				{ length: 8 },
				async () => await trigger.push(signed(eventBody(id), secrets.secret)),
			),
		);
		expect(pushes.map((p) => p.status).sort()).toEqual([202, 409, 409, 409, 409, 409, 409, 409]);
		await Promise.all(pushes.map(async (p) => await p.handled));
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0][0].json.transactionId).toBe(id);
	});

	test('concurrent requests each write the static data they read: the last write holds every delivery', async () => {
		const trigger = await instantTrigger(f);
		const slow = await startedTransaction(f.sim, { processing: { polls: 2 } });
		const [quick] = f.sim.seedCompletedTransactions(1);
		// Both requests read the static data before either wrote; the quick one writes first.
		const [a, b] = await Promise.all([
			trigger.push(signed(eventBody(slow), secrets.secret)),
			trigger.push(signed(eventBody(quick), secrets.secret)),
		]);
		const quickDone = await b.handled;
		expect(quickDone.execution).toHaveLength(1);
		expect(deliveredKeys(trigger.staticData)).toEqual([`completed:${quick}`]);
		await a.handled;
		expect(deliveredKeys(trigger.staticData)).toEqual(
			[`completed:${quick}`, `completed:${slow}`].sort(),
		);
	});

	test('after a restart, the durable copy in the static data still refuses a delivered transaction', async () => {
		const trigger = await instantTrigger(f);
		const [id] = f.sim.seedCompletedTransactions(1);
		await (
			await trigger.push(signed(eventBody(id), secrets.secret))
		).handled;
		await trigger.stop();

		const n8n = restartedHarness();
		const restarted = new n8n.InstantTrigger({
			workflowId: 'wf-restarted',
			credentials: () => f.store,
			secrets: () => secrets,
		});
		// Another workflow id: nothing of the first process's registry could help.
		restarted.staticData = trigger.staticData;
		await restarted.start();
		try {
			const again = await restarted.push(n8n.signed(n8n.eventBody(id), secrets.secret));
			expect(again.status).toBe(409);
			await again.handled;
			expect(restarted.executions).toHaveLength(0);
			const [other] = f.sim.seedCompletedTransactions(1);
			const fresh = await restarted.push(n8n.signed(n8n.eventBody(other), secrets.secret));
			expect(fresh.status).toBe(202);
			await fresh.handled;
			expect(deliveredKeys(restarted.staticData)).toEqual(
				[`completed:${id}`, `completed:${other}`].sort(),
			);
		} finally {
			await restarted.stop();
		}
	});

	test('a test event (Listen for test event) is delivered without touching the record', async () => {
		const trigger = await instantTrigger(f, {}, { mode: 'manual' });
		const [id] = f.sim.seedCompletedTransactions(1);
		const first = await trigger.push(signed(eventBody(id), secrets.secret));
		const second = await trigger.push(signed(eventBody(id), secrets.secret));
		expect([first.status, second.status]).toEqual([202, 202]);
		await Promise.all([first.handled, second.handled]);
		expect(trigger.executions).toHaveLength(2);
		expect(trigger.staticData).toBe('{}');
	});
});
