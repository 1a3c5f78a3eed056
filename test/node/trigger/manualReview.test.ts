import { api, raw, token } from '../../helpers/http';
import { useSimulator } from '../../helpers/fixture';
import { FIXTURE } from '../../simulator/simulator';
import { buildMultipart } from '../../../nodes/AbbyyVantage/helpers/multipart';
import { ActiveTrigger, idsOf, triggerParams } from './poll';

const f = useSimulator();

/** A transaction that enters Manual Review once started, files and start through the API. */
async function transactionInReview(): Promise<string> {
	f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 1000 } });
	const id = f.sim.createTransaction(FIXTURE.documentSkillId);
	const body = await buildMultipart({ files: [{}] }, [
		{ name: 'r.pdf', size: 1, streamed: false, open: async () => Buffer.from('x') },
	]);
	const bearer = await token(f.sim);
	const upload = await raw(`${f.sim.url}/api/publicapi/v1/transactions/${id}/files`, {
		method: 'POST',
		headers: { authorization: `Bearer ${bearer}`, 'content-type': body.contentType },
		body: body.body as Buffer,
	});
	expect(upload.status).toBe(200);
	await api(f.sim, bearer, 'POST', `/api/publicapi/v1/transactions/${id}/start`);
	// The first status read moves it into review.
	await api(f.sim, bearer, 'GET', `/api/publicapi/v1/transactions/${id}`);
	return id;
}

describe('Trigger → Transaction Awaiting Manual Review', () => {
	test('a transaction entering Manual Review is emitted once, with its review link', async () => {
		const trigger = new ActiveTrigger(() => f.store, triggerParams('manualReview'));
		// The Skill filter (a resource locator) travels as SkillId; another skill sees nothing.
		const otherSkill = new ActiveTrigger(
			() => f.store,
			triggerParams('manualReview', {
				reviewSkillId: { __rl: true, mode: 'id', value: FIXTURE.receiptSkillId },
			}),
		);
		await trigger.poll();
		await otherSkill.poll();
		const id = await transactionInReview();
		const run = await trigger.poll();
		expect(run.error).toBeUndefined();
		expect(run.executions).toHaveLength(1);
		expect(run.executions[0][0].json).toMatchObject({
			transactionId: id,
			status: 'Processing',
			manualReviewLink: expect.stringContaining('/review/'),
		});
		expect((await trigger.poll()).executions).toHaveLength(0);
		expect((await otherSkill.poll()).executions).toHaveLength(0);
		expect(f.sim.requestsTo('GetActiveTransactions').at(-1)?.query).toMatchObject({
			SkillId: FIXTURE.receiptSkillId,
			StageType: 'ManualReview',
		});
	});

	test('Fetch Test Event returns the latest transaction in review, with its link, even if already emitted; the cursor stays', async () => {
		const trigger = new ActiveTrigger(() => f.store, triggerParams('manualReview'));
		await trigger.poll();
		expect((await trigger.poll('manual')).returned).toBeNull();
		await transactionInReview();
		const latest = await transactionInReview();
		expect(idsOf(await trigger.poll())).toHaveLength(2);
		const cursor = trigger.staticData;
		const manual = await trigger.poll('manual');
		expect(manual.executions).toHaveLength(0);
		expect(manual.returned?.[0][0].json).toMatchObject({
			transactionId: latest,
			manualReviewLink: expect.stringContaining('/review/'),
		});
		expect(trigger.staticData).toBe(cursor);
	});
});
