import { useSimulator } from '../../helpers/fixture';
import { FIXTURE } from '../../simulator/simulator';
import { ActiveTrigger, triggerParams } from './poll';

const f = useSimulator();

describe('Trigger → Transaction Awaiting Manual Review, Export Finished', () => {
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
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 1000 } });
		const id = f.sim.createTransaction(FIXTURE.documentSkillId);
		await trigger.poll();
		// Files and start through the API, as a client would.
		const { api, raw, token } = await import('../../helpers/http');
		const { buildMultipart } = await import('../../../nodes/AbbyyVantage/helpers/multipart');
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

	test('an export that finishes is emitted once, with totalFileCount as a number', async () => {
		const trigger = new ActiveTrigger(() => f.store, triggerParams('exportFinished'));
		await trigger.poll();
		const requestId = f.sim.createFinishedExport();
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(1);
		expect(run.executions[0][0].json).toMatchObject({
			requestId,
			status: 'Succeeded',
			totalFileCount: 1,
		});
		expect(f.sim.requestsTo('ListExportRequests')[1].query).toMatchObject({
			createdFrom: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
			statusFilter: ['Succeeded', 'Failed', 'Cancelled'],
		});
		expect((await trigger.poll()).executions).toHaveLength(0);
	});
});
