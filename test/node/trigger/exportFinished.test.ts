import { sleep } from 'n8n-workflow';

import { useSimulator } from '../../helpers/fixture';
import { ActiveTrigger, idsOf, triggerParams } from './poll';

const f = useSimulator();

describe('Trigger → Export Finished', () => {
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

	test('Fetch Test Event returns the export that finished last, even if already emitted; the cursor stays', async () => {
		const trigger = new ActiveTrigger(() => f.store, triggerParams('exportFinished'));
		await trigger.poll();
		const first = f.sim.createFinishedExport();
		// Created and finished a little later.
		await sleep(5);
		const last = f.sim.createFinishedExport();
		expect(idsOf(await trigger.poll())).toEqual([first, last]);
		const cursor = trigger.staticData;
		const manual = await trigger.poll('manual');
		expect(manual.executions).toHaveLength(0);
		expect(manual.returned?.[0][0].json).toMatchObject({ requestId: last, status: 'Succeeded' });
		expect(trigger.staticData).toBe(cursor);
	});

	test('Output One Execution per Poll: the exports a poll finds are the items of one execution', async () => {
		const trigger = new ActiveTrigger(
			() => f.store,
			triggerParams('exportFinished', { output: 'perPoll' }),
		);
		await trigger.poll();
		const first = f.sim.createFinishedExport();
		await sleep(5);
		const second = f.sim.createFinishedExport();
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(1);
		expect(run.executions[0].map((item) => item.json.requestId)).toEqual([first, second]);
		expect((await trigger.poll()).executions).toHaveLength(0);
	});
});
