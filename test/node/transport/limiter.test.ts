import { sleep, type IExecuteFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE, VantageClient } from '../../../nodes/AbbyyVantage/transport';
import { RequestLimiter } from '../../../nodes/AbbyyVantage/transport/limiter';

/**
 * Concurrency Auto against a service that refuses (429) every request arriving while `capacity`
 * others are being handled, as the simulator's rate limit does: many senders, each answer after a
 * few milliseconds. Returns the limit and the requests in flight seen at each arrival.
 */
async function drive(capacity: number, requests: number, senders = 40) {
	const limiter = new RequestLimiter({ initial: 4, max: 16, adaptive: true });
	let atService = 0;
	let refused = 0;
	const inFlight: number[] = [];
	const limits: number[] = [];
	let left = requests;
	let sent = 0;
	const sender = async () => {
		while (left > 0) {
			const slot = await limiter.acquire();
			left--;
			atService++;
			const ok = atService <= capacity;
			inFlight.push(atService);
			// Answers take 1–4 ms, so that senders do not move in lockstep.
			await sleep(1 + (sent++ % 4));
			atService--;
			if (ok) limiter.succeeded();
			else {
				refused++;
				left++; // a 429 was not processed: it is sent again
				limiter.throttled(undefined, slot);
			}
			limits.push(limiter.current);
			slot.release();
		}
	};
	await Promise.all(Array.from({ length: senders }, sender));
	return { limits, inFlight, refused };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('Concurrency Auto (RequestLimiter)', () => {
	test('grows from 4 to 16 while answers are healthy', async () => {
		const { limits, refused } = await drive(100, 400);
		expect(refused).toBe(0);
		expect(limits[0]).toBe(4);
		expect(limits.at(-1)).toBe(16);
	});

	test.each([3, 6, 10])(
		'under a limit of %i in flight it settles at that limit instead of sawing below it',
		async (capacity) => {
			const { limits, inFlight, refused } = await drive(capacity, 3000);
			const settled = limits.slice(limits.length / 2);
			// Halving happens, but the climb back stops one below the refused level.
			expect(Math.min(...settled)).toBeLessThan(capacity);
			expect(mean(settled)).toBeGreaterThanOrEqual(capacity - 1);
			expect(mean(inFlight.slice(inFlight.length / 2))).toBeGreaterThanOrEqual(0.8 * capacity);
			// Probing the refused level again is rare: refusals stay a small share of the requests.
			expect(refused).toBeLessThan(3000 * 0.08);
		},
	);

	test('one overshoot halves once: refusals of requests sent at the old limit do not halve again', () => {
		const limiter = new RequestLimiter({ initial: 8, max: 16, adaptive: true });
		limiter.throttled(undefined, { epoch: 0, position: 8 });
		limiter.throttled(undefined, { epoch: 0, position: 7 });
		limiter.throttled(undefined, { epoch: 0, position: 6 });
		expect(limiter.current).toBe(4);
		limiter.throttled(undefined, { epoch: 1, position: 4 });
		expect(limiter.current).toBe(2);
	});

	test('climbs back to one below the fewest requests in flight that were refused, and stays there', () => {
		const limiter = new RequestLimiter({ initial: 8, max: 16, adaptive: true });
		limiter.throttled(undefined, { epoch: 0, position: 8 });
		limiter.throttled(undefined, { epoch: 0, position: 7 });
		for (let i = 0; i < 4; i++) limiter.succeeded();
		expect(limiter.current).toBe(6);
		for (let i = 0; i < 6 * 15; i++) limiter.succeeded();
		expect(limiter.current).toBe(6);
		// Then, now and then, one more is tried.
		for (let i = 0; i < 6; i++) limiter.succeeded();
		expect(limiter.current).toBe(7);
	});

	test('a pinned number never changes; a Retry-After still pauses every sender', async () => {
		const limiter = new RequestLimiter({ initial: 3, max: 3, adaptive: false });
		limiter.throttled(200, { epoch: 0, position: 1 });
		expect(limiter.current).toBe(3);
		const started = Date.now();
		(await limiter.acquire()).release();
		expect(Date.now() - started).toBeGreaterThanOrEqual(150);
	});
});

describe('one Auto limiter per execution and credential', () => {
	/** The little of n8n's execute context the client reads to pick its limiter. */
	const context = (executionId: string, credentialId: string) =>
		({
			getExecutionId: () => executionId,
			getNode: () => ({ credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'c' } } }),
		}) as unknown as IExecuteFunctions;

	test('nodes of one execution with one credential share it; another execution or credential has its own', () => {
		const limiter = (executionId: string, credentialId: string) =>
			new VantageClient(context(executionId, credentialId)).limiter;
		const shared = limiter('exec-a', 'cred-1');
		expect(limiter('exec-a', 'cred-1')).toBe(shared);
		expect(limiter('exec-b', 'cred-1')).not.toBe(shared);
		expect(limiter('exec-a', 'cred-2')).not.toBe(shared);
		expect(shared.adaptive).toBe(true);
	});

	test('a pinned Concurrency gives that node its own fixed limiter', () => {
		const client = new VantageClient(context('exec-c', 'cred-1'));
		client.useConcurrency(3);
		expect(client.limiter).not.toBe(new VantageClient(context('exec-c', 'cred-1')).limiter);
		expect(client.limiter.adaptive).toBe(false);
		expect(client.limiter.current).toBe(3);
	});
});
