/**
 * Waits in real time (docs/reliability-and-speed.md, "Waits"): a check at once, then one every
 * Wait Interval (1 s) until each pause may be 40 % of the time waited so far, up to Wait Interval
 * Limit; never two checks less than a second apart; failed checks do not end a wait. Each test
 * waits seconds on purpose, so they run in the reliability tier; the schedule's arithmetic is a
 * unit test (test/node/helpers/polling.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../helpers/binary';
import { expectSchedule, pollPauses, useSimulator } from '../helpers/fixture';
import { nodeParams, rl } from '../helpers/params';
import { createExport } from '../node/report/exports/exportkit';
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
		expect(result.items[0].json).toMatchObject({ status: 'Processed' });
		const polls = f.sim.requestsTo('GetTransactionInfo');
		// Three polls on a quiet machine (0, 1 and 2 s); a loaded one may notice the job a poll
		// earlier or later. What must hold whatever the load: the schedule (never sooner).
		expect(polls.length).toBeGreaterThanOrEqual(2);
		expect(polls.length).toBeLessThanOrEqual(4);
		expect(result.items[0].json.polls).toBe(polls.length);
		expect(polls.every((r) => r.status === 200)).toBe(true);
		const pauses = pollPauses(polls);
		expect(pauses.expected.every((ms) => ms === 1000)).toBe(true);
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
		expect(polls.length).toBeGreaterThanOrEqual(7);
		expect(polls.length).toBeLessThanOrEqual(9);
		expect(result.items[0].json.polls).toBe(polls.length);
		expectSchedule(pollPauses(polls));
	});
});

describe('Wait For Export: the wait in real time', () => {
	const wait = (extra: IDataObject = {}, options: IDataObject = {}) =>
		nodeParams('report', 'waitForExport', {
			requestId: '={{ $json.id }}',
			options: { pollInterval: 1, ...options },
			...extra,
		});

	test('poll cadence: never faster than once a second, no more polls than the interval allows', async () => {
		const id = await createExport(f, {
			path: ['Processing', 'Succeeded'],
			advanceEvery: { ms: 3200 },
		});
		f.sim.clearLog();
		const result = await runNode({
			credentials: f.store,
			items: [{ id }],
			parameters: wait({}, { pollInterval: 1, maxPollInterval: 1 }),
		});
		expect(result.error).toBeUndefined();
		const polls = f.sim.requestsTo('GetExportStatus').map((r) => r.at);
		const gaps = polls.slice(1).map((t, i) => t - polls[i]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(990);
		// Succeeded at 3.2 s: polls at 0, 1, 2, 3 and 4 s at most.
		expect(polls.length).toBeLessThanOrEqual(5);
		expect(polls.length).toBeGreaterThanOrEqual(4);
	});

	test('at default settings: a poll at once, then every second, then pauses of 40 % of the time waited', async () => {
		const id = await createExport(f, {
			path: ['Processing', 'Succeeded'],
			advanceEvery: { ms: 4500 },
		});
		f.sim.clearLog();
		const result = await runNode({
			credentials: f.store,
			items: [{ id }],
			parameters: nodeParams('report', 'waitForExport', { requestId: '={{ $json.id }}' }),
		});
		expect(result.error).toBeUndefined();
		const polls = f.sim.requestsTo('GetExportStatus');
		// Succeeded at 4.5 s: polls at about 0, 1, 2, 3, 4.2 and 5.9 s.
		expect(polls.length).toBeGreaterThanOrEqual(5);
		expect(polls.length).toBeLessThanOrEqual(7);
		expect(result.items[0].json.polls).toBe(polls.length);
		const pauses = pollPauses(polls, { maxIntervalMs: 60_000 });
		// 1 s three times, then 40 % of the time waited (about 1.2 and 1.7 s on a quiet machine; the
		// figures follow the measured times, which a loaded machine stretches).
		expect(pauses.expected.slice(0, 3)).toEqual([1000, 1000, 1000]);
		expect(pauses.expected.slice(3).every((ms) => ms > 1000)).toBe(true);
		expectSchedule(pauses);
	});

	test('the pauses grow no longer than Wait Interval Limit', async () => {
		const id = await createExport(f, {
			path: ['Processing', 'Succeeded'],
			advanceEvery: { ms: 7000 },
		});
		f.sim.clearLog();
		await runNode({
			credentials: f.store,
			items: [{ id }],
			parameters: wait({}, { pollInterval: 1, maxPollInterval: 2 }),
		});
		const pauses = pollPauses(f.sim.requestsTo('GetExportStatus'), { maxIntervalMs: 2000 });
		// 1 s three times, 1.2 s, 1.7 s, then capped at 2 s.
		expect(pauses.actual.length).toBeGreaterThanOrEqual(5);
		expect(pauses.expected.slice(-1)).toEqual([2000]);
		expectSchedule(pauses);
	});

	test('a wait survives hiccups: polls failing with 503, 429 or a reset are repeated until the export finishes', async () => {
		const id = await createExport(f, {
			path: ['Processing', 'Processing', 'Processing', 'Succeeded'],
		});
		f.sim.injectFault('GetExportStatus', { kind: 'status', status: 503 }, 1);
		f.sim.injectFault('GetExportStatus', { kind: 'status', status: 429 }, 1);
		f.sim.injectFault('GetExportStatus', { kind: 'reset' }, 1);
		const result = await runNode({
			credentials: f.store,
			items: [{ id }],
			// No retries inside a poll: every fault fails its poll, and the wait goes on.
			parameters: {
				...wait({}, { pollInterval: 1, maxPollInterval: 1 }),
				requestOptions: { maxRetries: 0 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'Succeeded', failedPolls: 3 });
	});
});
