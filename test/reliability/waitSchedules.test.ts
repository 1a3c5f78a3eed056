/**
 * The wait schedule at default settings, in real time (README, "Waits"): a check at once, then one
 * every Wait Interval (1 s) until each pause may be 40 % of the time waited so far, up to Wait
 * Interval Limit. Each test waits seconds on purpose, so they run in the reliability tier; the
 * schedule's arithmetic is a unit test (test/node/helpers/polling.test.ts).
 */
import { runNode } from '../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../helpers/binary';
import { expectSchedule, pollPauses, useSimulator } from '../helpers/fixture';
import { nodeParams, rl } from '../helpers/params';
import { FIXTURE } from '../simulator/simulator';

const f = useSimulator();

const invoice = (number: string) => fileItem(binaryFile(`${number}.pdf`, invoiceText({ number })));

describe('Process Document: the wait at default settings', () => {
	test('at default settings a 1.5-s job is polled at once, after 1 s and after 2 s, when it is noticed', async () => {
		f.sim.scriptNextTransaction({ processing: { ms: 1500 } });
		const result = await runNode({
			credentials: f.store,
			items: [invoice('S-1')],
			parameters: nodeParams('transaction', 'processDocument', {
				skillId: rl(FIXTURE.documentSkillId),
			}),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'Processed', polls: 3 });
		const polls = f.sim.requestsTo('GetTransactionInfo');
		expect(polls.map((r) => r.status)).toEqual([200, 200, 200]);
		const pauses = pollPauses(polls);
		expect(pauses.expected).toEqual([1000, 1000]);
		expectSchedule(pauses);
	});

	test('at default settings a 9-s job: pauses of 1 s, then 40 % of the time waited (8 polls; every second: 10)', async () => {
		f.sim.scriptNextTransaction({ processing: { ms: 9000 } });
		const result = await runNode({
			credentials: f.store,
			items: [invoice('S-2')],
			parameters: nodeParams('transaction', 'processDocument', {
				skillId: rl(FIXTURE.documentSkillId),
			}),
		});
		expect(result.error).toBeUndefined();
		const polls = f.sim.requestsTo('GetTransactionInfo');
		// At about 0, 1, 2, 3, 4.2, 5.9, 8.2 (still processing) and 11.5 s.
		expect(polls).toHaveLength(8);
		expect(result.items[0].json.polls).toBe(8);
		expectSchedule(pollPauses(polls));
	});
});
