import type { IDataObject } from 'n8n-workflow';

import { runNode, simulatorCredentials } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import type { Fault } from '../../simulator/faults';
import { FIXTURE } from '../../simulator/simulator';
import { MAX_EVENTS_PER_POLL, MAX_REMEMBERED } from '../../../nodes/AbbyyVantage/constants';
import { ListingVariant } from './listingVariant';
import { ActiveTrigger, idsOf, triggerParams } from './poll';

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
		expect(trigger.cursor().event).toBe('transactionCompleted');
	});

	test('each transaction that completes later starts exactly one execution, oldest first', async () => {
		const trigger = completed();
		await trigger.poll();
		const a = f.sim.seedCompletedTransactions(2, { createdAt: (i) => minutesAgo(10 - i) });
		const second = await trigger.poll();
		expect(idsOf(second)).toEqual(a);
		expect(second.executions[0][0].json).toMatchObject({
			status: 'Processed',
			skillId: FIXTURE.documentSkillId,
		});
		const third = await trigger.poll();
		expect(third.executions).toHaveLength(0);
		const b = f.sim.seedCompletedTransactions(1);
		const fourth = await trigger.poll();
		expect(idsOf(fourth)).toEqual(b);
		expect(trigger.emittedIds()).toEqual([...a, ...b]);
	});

	test('a transaction created long ago that completes late is still emitted, once (inside Look Back)', async () => {
		f.sim.scriptNextTransaction({ outcome: 'Never' });
		const trigger = completed();
		await trigger.poll();
		// Created and waiting before the trigger's last poll; completes only now.
		const [old] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(600) });
		const run = await trigger.poll();
		expect(idsOf(run)).toEqual([old]);
		expect((await trigger.poll()).executions).toHaveLength(0);
	});

	test(`a burst of 2 500: ${MAX_EVENTS_PER_POLL} executions per poll at most, oldest first, each once; the window is read in pages of 1000`, async () => {
		const trigger = completed();
		await trigger.poll();
		f.sim.clearLog();
		const burst = f.sim.seedCompletedTransactions(2500, {
			createdAt: (i) => new Date(Date.now() - 60_000 + i),
		});
		const first = await trigger.poll();
		expect(f.sim.requestsTo('GetCompletedTransactions').map((r) => r.query.Offset)).toEqual([
			'0',
			'1000',
			'2000',
		]);
		const second = await trigger.poll();
		const third = await trigger.poll();
		expect([first, second, third].map((run) => run.executions.length)).toEqual([1000, 1000, 500]);
		expect(trigger.emittedIds()).toEqual(burst);
		expect((await trigger.poll()).executions).toHaveLength(0);
	}, 60_000);

	test('across restarts and crash points nothing is lost and nothing emitted twice', async () => {
		const trigger = completed();
		await trigger.poll();
		const all = f.sim.seedCompletedTransactions(10, { createdAt: (i) => minutesAgo(20 - i) });
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(10);
		// n8n crashed after storing execution 4 (its cursor) and before the rest: start again from there.
		const restarted = completed().restart(run.cursorAtEmit[3]);
		expect(idsOf(await restarted.poll())).toEqual(all.slice(4));
		// A restart with the stored static data emits nothing again.
		const again = completed().restart(trigger.staticData);
		expect((await again.poll()).executions).toHaveLength(0);
	});

	test('a poll reading a cursor older than what this n8n process handed over (durable poll cursors: commits still on their way) emits nothing again', async () => {
		const trigger = completed();
		await trigger.poll();
		f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(3 - i) });
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(3);
		// Only the first execution's commit (with its cursor) has landed when the next poll starts.
		trigger.staticData = run.cursorAtEmit[0];
		expect((await trigger.poll()).executions).toHaveLength(0);
		expect(Object.keys(trigger.cursor().seen)).toHaveLength(3);
	});

	test('two polls at once (a slow Vantage, Poll Times ticking again): each transaction once, the second poll emits nothing', async () => {
		const trigger = completed();
		await trigger.poll();
		const before = trigger.staticData;
		const ids = f.sim.seedCompletedTransactions(20, { createdAt: (i) => minutesAgo(20 - i) });
		f.sim.setLatency(300);
		const [a, b] = await Promise.all([trigger.poll(), trigger.poll()]);
		f.sim.setLatency(0);
		const [ran, skipped] = a.executions.length ? [a, b] : [b, a];
		expect(idsOf(ran)).toEqual(ids);
		expect(skipped.executions).toHaveLength(0);
		expect(skipped.error).toBeUndefined();
		expect(skipped.staticData).toBe(before);
		// n8n keeps one static data object: the poll that ran left it as the next poll reads it.
		trigger.staticData = ran.staticData;
		expect((await trigger.poll()).executions).toHaveLength(0);
		// The baseline, the poll that ran and the last one: the skipped poll sent nothing.
		expect(f.sim.requestsTo('GetCompletedTransactions')).toHaveLength(3);
	});

	test('a failed poll (403) throws a readable error, emits nothing and keeps the cursor', async () => {
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
		expect(idsOf(next)).toEqual(ids);
	});

	// The first attempt and its three retries all fail: the poll gives up.
	test.each<[string, Fault, RegExp]>([
		['a 503 answer', { kind: 'status', status: 503, retryAfter: '0' }, /503|unavailable/i],
		['a 429 answer', { kind: 'status', status: 429, retryAfter: '0' }, /429|too many/i],
		['a lost connection', { kind: 'reset' }, /connection|reset|socket/i],
	])(
		'%s that persists past the retries fails the poll: nothing emitted, the cursor kept, the next poll emits each once',
		async (_name, fault, message) => {
			const trigger = completed();
			await trigger.poll();
			const before = trigger.staticData;
			const ids = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(3 - i) });
			f.sim.injectFault('GetCompletedTransactions', fault, 4);
			const failed = await trigger.poll();
			expect(failed.error?.message).toMatch(message);
			expect(failed.executions).toHaveLength(0);
			expect(trigger.staticData).toBe(before);
			expect(f.sim.requestsTo('GetCompletedTransactions').length).toBe(1 + 4);
			expect(idsOf(await trigger.poll())).toEqual(ids);
			expect((await trigger.poll()).executions).toHaveLength(0);
		},
		30_000,
	);

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
		expect(idsOf(run)).toEqual(ids);
	});

	test('Fetch Test Event returns the transaction that completed last, even if already emitted, and leaves the cursor', async () => {
		const trigger = completed();
		await trigger.poll();
		// Created in order 0, 1, 2; completed in order 2, 1, 0.
		const ids = f.sim.seedCompletedTransactions(3, {
			createdAt: (i) => minutesAgo(30 - i),
			completedAt: (i) => minutesAgo(10 - i),
		});
		const emitted = await trigger.poll();
		expect(idsOf(emitted)).toEqual(ids);
		const cursor = trigger.staticData;
		const manual = await trigger.poll('manual');
		expect(manual.executions).toHaveLength(0);
		expect(manual.returned?.[0][0].json.transactionId).toBe(ids[2]);
		expect(trigger.staticData).toBe(cursor);
		const late = f.sim.seedCompletedTransactions(1, {
			createdAt: minutesAgo(40),
			completedAt: minutesAgo(1),
		});
		expect((await trigger.poll('manual')).returned?.[0][0].json.transactionId).toBe(late[0]);
	});

	test('Start From: the first activation emits what was created since that date', async () => {
		const old = f.sim.seedCompletedTransactions(2, { createdAt: (i) => minutesAgo(120 - i) });
		f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(600) });
		const trigger = completed({ options: { startFrom: minutesAgo(180).toISOString() } });
		const run = await trigger.poll();
		expect(idsOf(run)).toEqual(old);
	});

	test('Start From stays the lower bound on later polls until Look Back has moved past it', async () => {
		const [recent] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(120) });
		f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(600) });
		const trigger = completed({ options: { startFrom: minutesAgo(180).toISOString() } });
		expect(idsOf(await trigger.poll())).toEqual([recent]);
		f.sim.clearLog();
		// The second poll lists from Start From, not from now − Look Back (48 hours).
		expect((await trigger.poll()).executions).toHaveLength(0);
		const listedFrom = Date.parse(
			String(f.sim.requestsTo('GetCompletedTransactions')[0].query.StartDate),
		);
		expect(Math.abs(listedFrom - minutesAgo(180).getTime())).toBeLessThan(60_000);
		const [later] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(30) });
		expect(idsOf(await trigger.poll())).toEqual([later]);
		// Look Back shorter than the time since Start From: the window starts at now − Look Back.
		const short = completed({
			options: { startFrom: minutesAgo(180).toISOString(), lookBackHours: 1 },
		});
		short.staticData = trigger.staticData;
		f.sim.clearLog();
		await short.poll();
		const shortFrom = Date.parse(
			String(f.sim.requestsTo('GetCompletedTransactions')[0].query.StartDate),
		);
		expect(Math.abs(shortFrom - minutesAgo(60).getTime())).toBeLessThan(60_000);
	});

	test('Start From without an offset (as the date picker stores it) is read in the workflow’s time zone', async () => {
		const timeZone = 'America/New_York';
		const [inside] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(120) });
		f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(240) });
		// 150 minutes ago on a New York wall clock: "YYYY-MM-DDTHH:mm:ss".
		const wall = new Intl.DateTimeFormat('sv-SE', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hourCycle: 'h23',
		})
			.format(minutesAgo(150))
			.replace(' ', 'T');
		expect(wall).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
		const trigger = new ActiveTrigger(
			() => f.store,
			triggerParams('transactionCompleted', { options: { startFrom: wall } }),
			timeZone,
		);
		const run = await trigger.poll();
		expect(run.error).toBeUndefined();
		expect(idsOf(run)).toEqual([inside]);
	});

	test('a Start From that is not a date is refused, naming the parameter', async () => {
		const run = await completed({ options: { startFrom: 'next Tuesday' } }).poll();
		expect(run.error?.message).toMatch(/^Start From is not a valid date: "next Tuesday"/);
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

	test('changing a filter of an active trigger starts from now: no history replayed', async () => {
		const failedOnly = { transactionStatus: 'Failed' };
		const trigger = completed(failedOnly);
		await trigger.poll();
		// Processed ones the Failed filter never saw.
		f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(10 - i) });
		expect((await trigger.poll()).executions).toHaveLength(0);
		// The same workflow, its Status changed to Any: its static data is kept.
		const any = completed({ transactionStatus: 'any' });
		any.staticData = trigger.staticData;
		expect((await any.poll()).executions).toHaveLength(0);
		expect(any.cursor().filters).not.toContain('transactionStatus');
		const next = f.sim.seedCompletedTransactions(1);
		expect(idsOf(await any.poll())).toEqual(next);
		// Back to Failed: that is a change too, the cursor of Any does not carry over.
		const back = completed(failedOnly);
		back.staticData = any.staticData;
		expect((await back.poll()).executions).toHaveLength(0);
		expect(back.cursor().filters).toContain('"transactionStatus":"Failed"');
	});

	test('ids older than Look Back are forgotten (the list no longer returns them)', async () => {
		const trigger = completed({ options: { lookBackHours: 1 } });
		await trigger.poll();
		const [recent] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(5) });
		await trigger.poll();
		const cursor = trigger.cursor();
		// As if emitted in an earlier poll, two hours ago.
		trigger.staticData = JSON.stringify({
			cursor: { ...cursor, seen: { ...cursor.seen, 'gone-1': Date.now() - 2 * 3600_000 } },
		});
		await trigger.poll();
		expect(Object.keys(trigger.cursor().seen)).toEqual([recent]);
	});

	test(`at ${MAX_REMEMBERED} remembered ids the oldest go and the window's start moves up past them: nothing is emitted twice`, async () => {
		const trigger = completed();
		await trigger.poll();
		const cursor = trigger.cursor();
		// A busy day: MAX_REMEMBERED ids emitted over the last ten hours.
		const hourAgo = (h: number) => Date.now() - h * 3600_000;
		const seen: Record<string, number> = {};
		for (let i = 0; i < MAX_REMEMBERED; i++) seen[`earlier-${i}`] = hourAgo(10) + i * 3000;
		trigger.staticData = JSON.stringify({ cursor: { ...cursor, seen } });
		const fresh = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(3 - i) });
		expect(idsOf(await trigger.poll())).toEqual(fresh);
		const after = trigger.cursor();
		expect(Object.keys(after.seen)).toHaveLength(MAX_REMEMBERED);
		expect(after.seen).not.toHaveProperty('earlier-2');
		expect(after.seen).toHaveProperty('earlier-3');
		expect(after.floor).toBe(seen['earlier-3']);
		// Lists start at the floor: what was created before it is not found, even when it
		// completes now; what is remembered is not emitted again.
		f.sim.clearLog();
		f.sim.seedCompletedTransactions(1, { createdAt: new Date(hourAgo(11)) });
		expect((await trigger.poll()).executions).toHaveLength(0);
		expect(f.sim.requestsTo('GetCompletedTransactions')[0].query.StartDate).toBe(
			new Date(seen['earlier-3']).toISOString(),
		);
		expect(Object.values(trigger.cursor().seen).every((t) => typeof t === 'number')).toBe(true);
	});

	test('list entries created before the window or with an unreadable creation time: emitted once at most, also after a restart; the cursor holds times only', async () => {
		const variant = new ListingVariant(f.sim.url);
		const url = await variant.start();
		try {
			const store = simulatorCredentials(f.sim, { baseUrl: url });
			const trigger = new ActiveTrigger(() => store, triggerParams('transactionCompleted'));
			await trigger.poll();
			const [plain, unreadable, early] = f.sim.seedCompletedTransactions(3);
			variant.createTimes.set(unreadable, 'yesterday-ish');
			variant.createTimes.set(early, minutesAgo(60 * 49).toISOString());
			const run = await trigger.poll();
			expect(idsOf(run).sort()).toEqual([plain, unreadable].sort());
			const { seen } = trigger.cursor();
			expect(Object.keys(seen).sort()).toEqual([plain, unreadable].sort());
			expect(Object.values(seen).every((t) => typeof t === 'number' && t > 0)).toBe(true);
			expect((await trigger.poll()).executions).toHaveLength(0);
			const restarted = new ActiveTrigger(() => store, triggerParams('transactionCompleted'));
			expect((await restarted.restart(trigger.staticData).poll()).executions).toHaveLength(0);
		} finally {
			await variant.stop();
		}
	});

	test('Include Results gives the extracted fields, one item per document, as Get Results shapes them plus `completed`', async () => {
		const trigger = completed({ includeResults: true });
		await trigger.poll();
		const [id] = f.sim.seedCompletedTransactions(1);
		const run = await trigger.poll();
		expect(run.executions).toHaveLength(1);
		const items = run.executions[0];
		expect(items[0].json).toMatchObject({
			transactionId: id,
			status: 'Processed',
			fields: expect.any(Object),
			completed: { transactionId: id, status: 'Processed' },
		});
		expect(Object.keys(items[0].json.fields as IDataObject)).toContain('InvoiceNumber');
		const results = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'getResults', { transactionId: id }),
		});
		expect(results.error).toBeUndefined();
		// The trigger's two extra keys: the list entry the event came from, and the error (none).
		const withoutCompleted = items.map(({ json }) => {
			expect(json.error).toBeNull();
			const rest = { ...json };
			delete rest.completed;
			delete rest.error;
			return rest;
		});
		expect(withoutCompleted).toEqual(results.items.map((item) => item.json));
		expect(items.every((item) => !item.binary)).toBe(true);
	});

	test('Include Results: a failed or cancelled transaction’s item has the keys of a processed one, `error` set', async () => {
		const trigger = completed({ includeResults: true });
		await trigger.poll();
		const [processed] = f.sim.seedCompletedTransactions(1, { createdAt: minutesAgo(3) });
		const [failed] = f.sim.seedCompletedTransactions(1, {
			createdAt: minutesAgo(2),
			status: 'Failed',
		});
		const [canceled] = f.sim.seedCompletedTransactions(1, {
			createdAt: minutesAgo(1),
			status: 'Canceled',
		});
		const run = await trigger.poll();
		expect(idsOf(run)).toEqual([processed, failed, canceled]);
		const [ok, bad, stopped] = run.executions.map((items) => items[0].json);
		expect(Object.keys(bad).sort()).toEqual(Object.keys(ok).sort());
		expect(Object.keys(stopped).sort()).toEqual(Object.keys(ok).sort());
		expect(ok).toMatchObject({ status: 'Processed', error: null });
		expect(bad).toMatchObject({
			transactionId: failed,
			status: 'Failed',
			fields: {},
			sourceFiles: ['seed-1.txt'],
			error: expect.stringContaining('could not be processed'),
			completed: { transactionId: failed, status: 'Failed' },
		});
		expect(stopped).toMatchObject({ status: 'Canceled', fields: {}, sourceFiles: ['seed-1.txt'] });
		expect(stopped.error).toEqual(expect.any(String));
	});

	test('without Include Results the item carries completedUtc: the list’s completion time, or null where the list has none', async () => {
		const trigger = completed();
		await trigger.poll();
		const at = minutesAgo(1);
		f.sim.seedCompletedTransactions(1, { completedAt: at });
		const [item] = (await trigger.poll()).executions[0];
		expect(item.json.completedUtc).toBe(at.toISOString());

		const variant = new ListingVariant(f.sim.url);
		const url = await variant.start();
		try {
			variant.removedKeys.add('completedUtc');
			const store = simulatorCredentials(f.sim, { baseUrl: url });
			const plain = new ActiveTrigger(() => store, triggerParams('transactionCompleted'));
			await plain.poll();
			f.sim.seedCompletedTransactions(1);
			const [entry] = (await plain.poll()).executions[0];
			expect(entry.json).toHaveProperty('completedUtc', null);
		} finally {
			await variant.stop();
		}
	});

	test.each([
		['reading a transaction', 'GetTransactionInfo' as const],
		['downloading a result file', 'DownloadFile' as const],
	])(
		'Include Results: a failure %s after the first event emits nothing and keeps the cursor; the next poll emits each once',
		async (_what, route) => {
			const trigger = completed({ includeResults: true });
			await trigger.poll();
			const before = trigger.staticData;
			const ids = f.sim.seedCompletedTransactions(3, { createdAt: (i) => minutesAgo(3 - i) });
			// The first event's request goes through; the second event's fails.
			f.sim.injectFault(route, { kind: 'delay', ms: 0 }, 1);
			f.sim.injectFault(
				route,
				{ kind: 'status', status: 404, body: { title: 'Not Found', status: 404, detail: 'Gone' } },
				1,
			);
			const failed = await trigger.poll();
			expect(failed.error?.message).toMatch(/Gone|not found/i);
			expect(failed.executions).toHaveLength(0);
			expect(trigger.staticData).toBe(before);
			const next = await trigger.poll();
			expect(idsOf(next)).toEqual(ids);
			expect((await trigger.poll()).executions).toHaveLength(0);
		},
	);

	test("Include Results stops building when n8n's poll budget would run out; the next poll emits the rest, each once", async () => {
		const trigger = completed({ includeResults: true });
		await trigger.poll();
		const ids = f.sim.seedCompletedTransactions(6, { createdAt: (i) => minutesAgo(10 - i) });
		// Each event reads its transaction and result (two round trips of 200 ms): about 0.4 s.
		f.sim.setLatency(200);
		const first = await trigger.poll('trigger', 1000);
		expect(first.error).toBeUndefined();
		expect(first.executions.length).toBeGreaterThanOrEqual(1);
		expect(first.executions.length).toBeLessThan(ids.length);
		f.sim.setLatency(0);
		const rest = await trigger.poll('trigger', 60_000);
		expect([...idsOf(first), ...idsOf(rest)]).toEqual(ids);
		expect((await trigger.poll()).executions).toHaveLength(0);
	});

	test('an unknown event fails with a readable error', async () => {
		const trigger = new ActiveTrigger(() => f.store, { event: 'transactionDeleted' });
		const run = await trigger.poll();
		expect(run.error?.message).toBe('Unknown event "transactionDeleted"');
		expect(run.error).toMatchObject({
			description: expect.stringContaining('Transaction Completed'),
		});
	});
});
