/**
 * The shipped script (custom-activity/n8n-events.js) as Vantage runs it (the simulator's runner:
 * Node's vm, only the documented members, synchronous Send) against a loopback server standing in
 * for n8n: the event it sends, how it signs it, when it tries again and when it gives up, what it
 * logs. Every run must complete (the script never fails the customer's transaction) and no log line
 * may hold the secret or a signature.
 */
import { createHmac } from 'node:crypto';

import { shippedScript } from '../simulator/customActivity/activities';
import { Receiver, type Answer } from '../simulator/customActivity/receiver';
import {
	ScriptRunner,
	type RunOptions,
	type ScriptResult,
	type SentRequest,
} from '../simulator/customActivity/runner';

const SECRET = 'Zx9-sécret-🔑-4f7a0c';
const TX = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const DOCS = ['d0000000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000002'];
/** Test time: a minute of Timeout is 60 ms, and the script's clock runs 1000 times as fast. */
const FAST: RunOptions = { allowPlainHttpOnLoopback: true, timeScale: 0.001 };

let runner: ScriptRunner;
let n8n: Receiver;
beforeAll(() => (runner = new ScriptRunner(2)));
afterAll(async () => await runner.stop());
beforeEach(async () => {
	n8n = new Receiver();
	await n8n.start();
});
afterEach(async () => await n8n.stop());

interface Setup {
	secrets?: Record<string, string>;
	parameters?: Array<{ key: string; value: string }>;
	documentIds?: string[];
	placement?: 'beforeReview' | 'afterReview';
	options?: RunOptions;
}

/** Run the shipped script; check it completed and logged no secret and no signature. */
async function run(setup: Setup = {}): Promise<ScriptResult> {
	const documentIds = setup.documentIds ?? DOCS;
	const result = await runner.run({
		source: shippedScript(setup.placement ?? 'afterReview'),
		transaction: { id: TX, documentIds, registrationParameters: setup.parameters ?? [] },
		secrets: setup.secrets ?? {
			'n8n-events-secret': SECRET,
			'n8n-events-url': `${n8n.url}/webhook/vantage`,
		},
		pages: documentIds.length,
		options: setup.options ?? FAST,
	});
	expect(result).toMatchObject({ outcome: 'completed' });
	const logged = result.log.join('\n');
	expect(logged).not.toContain(SECRET);
	for (const request of result.requests) {
		const signature = request.headers['X-Vantage-Signature'];
		if (signature) expect(logged).not.toContain(signature.slice(3));
	}
	expect(logged).not.toContain('/webhook/vantage');
	return result;
}

function signatureOf(request: SentRequest, secret = SECRET): string {
	const event = JSON.parse(request.body!) as { eventId: string; transactionId: string };
	const timestamp = request.headers['X-Vantage-Timestamp'];
	const text = `v1:${timestamp}:${event.eventId}:${event.transactionId}`;
	return `v1=${createHmac('sha256', secret).update(text).digest('hex')}`;
}

describe('the event', () => {
	test("posts the contract's event, signed with HMAC-SHA256 over timestamp, event and transaction", async () => {
		const before = Date.now();
		const result = await run({ options: { allowPlainHttpOnLoopback: true } });
		const [received] = n8n.requests;
		expect(n8n.requests).toHaveLength(1);
		expect(received.method).toBe('POST');
		expect(received.path).toBe('/webhook/vantage');
		expect(received.headers['content-type']).toMatch(/^application\/json(;|$)/);
		const timestamp = Number(received.headers['x-vantage-timestamp']);
		expect(String(timestamp)).toMatch(/^\d{10}$/);
		expect(Math.abs(timestamp - before / 1000)).toBeLessThan(5);
		const event = JSON.parse(received.body) as Record<string, unknown>;
		expect(Object.keys(event)).toEqual([
			'specVersion',
			'event',
			'eventId',
			'transactionId',
			'documentIds',
			'documentCount',
			'sentAt',
		]);
		expect(event).toEqual({
			specVersion: 1,
			event: 'transaction.processed',
			eventId: expect.stringMatching(
				new RegExp(`^${TX}\\.transaction\\.processed\\.[0-9a-z]{12}$`),
			),
			transactionId: TX,
			documentIds: DOCS,
			documentCount: 2,
			sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
		});
		expect(Math.abs(Date.parse(event.sentAt as string) - before)).toBeLessThan(5000);
		const expected = createHmac('sha256', SECRET)
			.update(`v1:${timestamp}:${event.eventId as string}:${TX}`)
			.digest('hex');
		expect(received.headers['x-vantage-signature']).toBe(`v1=${expected}`);
		expect(result.log).toEqual([
			'n8n events: events URL (' + n8n.url.slice(7) + '): accepted (attempt 1)',
		]);
	});

	test('placed before Review (its one line changed) it reports transaction.manualReview', async () => {
		await run({ placement: 'beforeReview' });
		const event = JSON.parse(n8n.requests[0].body) as { event: string; eventId: string };
		expect(event.event).toBe('transaction.manualReview');
		expect(event.eventId).toMatch(
			new RegExp(`^${TX}\\.transaction\\.manualReview\\.[0-9a-z]{12}$`),
		);
	});

	test('no field values: only ids; at most 100 document ids, with the count of them all', async () => {
		const many = Array.from({ length: 150 }, (_, i) => `doc-${String(i).padStart(3, '0')}`);
		await run({ documentIds: many });
		const { body } = n8n.requests[0];
		const event = JSON.parse(body) as { documentIds: string[]; documentCount: number };
		expect(event.documentIds).toEqual(many.slice(0, 100));
		expect(event.documentCount).toBe(150);
		expect(Buffer.byteLength(body)).toBeLessThan(16 * 1024);
	});

	test('each run has its own eventId', async () => {
		await run();
		await run();
		const ids = n8n.requests.map((r) => (JSON.parse(r.body) as { eventId: string }).eventId);
		expect(new Set(ids).size).toBe(2);
	});

	test('a resume URL parameter gets the same event too; alone, it is the only address', async () => {
		const resume = { key: 'n8nResumeUrl', value: `${n8n.url}/webhook-waiting/77?signature=abc` };
		const both = await run({ parameters: [{ key: 'Customer', value: 'ACME' }, resume] });
		expect(n8n.requests.map((r) => r.path)).toEqual([
			'/webhook/vantage',
			'/webhook-waiting/77?signature=abc',
		]);
		expect(n8n.requests[1].body).toBe(n8n.requests[0].body);
		expect(both.log).toEqual([
			expect.stringMatching(/^n8n events: events URL \(127\.0\.0\.1:\d+\): accepted/),
			expect.stringMatching(/^n8n events: resume URL \(127\.0\.0\.1:\d+\): accepted/),
		]);
		expect(both.log.join()).not.toContain('signature=abc');
		await run({ secrets: { 'n8n-events-secret': SECRET }, parameters: [resume] });
		expect(n8n.requests.map((r) => r.path).slice(2)).toEqual(['/webhook-waiting/77?signature=abc']);
	});
});

describe('attempts: at most 3 per address, none 60 s after the first; 2xx and 409 end them', () => {
	test.each<[string, Answer[], number, RegExp]>([
		['202', [202], 1, /accepted \(attempt 1\)$/],
		['409: delivered before', [409], 1, /already delivered \(409, attempt 1\)$/],
		['503, 503, 503', [503, 503, 503], 3, /gave up after 3 attempts$/],
		['503, then 202', [503, 202], 2, /accepted \(attempt 2\)$/],
		['500, 429, then 409', [500, 429, 409], 3, /already delivered \(409, attempt 3\)$/],
		[
			'401: not retried',
			[{ status: 401, body: '{"message":"bad signature"}' }],
			1,
			/refused with 401, not retried; n8n said: \{"message":"bad signature"\}$/,
		],
		['400: not retried', [400], 1, /refused with 400, not retried/],
		['404: not retried', [404], 1, /refused with 404, not retried/],
		['413: not retried', [413], 1, /refused with 413, not retried/],
		['415: not retried', [415], 1, /refused with 415, not retried/],
		[
			'no answer: the minute of Timeout ends the window',
			['hang'],
			1,
			/gave up after 1 attempt\(s\) and 60 s$/,
		],
		['503, then no answer', [503, 'hang'], 2, /gave up after 2 attempt\(s\) and 60 s$/],
	])('%s', async (_name, answers, attempts, last) => {
		n8n.answer(...answers);
		const result = await run();
		expect(n8n.requests).toHaveLength(attempts);
		expect(result.log[result.log.length - 1]).toMatch(last);
		// One line per attempt that failed in a way worth another, then the outcome.
		const failed = answers
			.slice(0, attempts)
			.filter((a) => a === 'hang' || (typeof a === 'number' && (a >= 500 || a === 429)));
		expect(result.log).toHaveLength(failed.length + 1);
		// Every attempt repeats the event and signs it anew, validly.
		expect(new Set(n8n.requests.map((r) => r.body)).size).toBe(1);
		for (const request of result.requests) {
			expect(request.headers['X-Vantage-Signature']).toBe(signatureOf(request));
		}
	});

	test('no answer: one attempt waits its Timeout (1 minute) and no other starts after 60 s', async () => {
		n8n.answer('hang');
		const result = await run();
		expect(result.requests[0].error).toBe(
			'The request was canceled due to the configured Timeout of 1 minute(s) elapsing',
		);
		// 60 ms of test time is the minute.
		expect(result.requests[0].ms).toBeGreaterThanOrEqual(55);
		expect(result.log).toEqual([
			expect.stringMatching(
				/attempt 1 failed \(The request was canceled due to the configured Timeout/,
			),
			expect.stringMatching(/gave up after 1 attempt\(s\) and 60 s$/),
		]);
	});

	test('n8n unreachable (connection refused): 3 attempts at once, then it gives up', async () => {
		const gone = new Receiver();
		const url = await gone.start();
		await gone.stop();
		const result = await run({
			secrets: { 'n8n-events-secret': SECRET, 'n8n-events-url': `${url}/hook` },
		});
		expect(result.requests).toHaveLength(3);
		expect(result.requests.every((r) => r.error?.startsWith('The connection failed'))).toBe(true);
		expect(result.log[result.log.length - 1]).toMatch(/gave up after 3 attempts$/);
	});

	test('an address Vantage refuses (plain http on the Internet, not a URL) is logged, not thrown', async () => {
		for (const url of ['http://n8n.example.invalid/webhook/x', 'not a url']) {
			const result = await run({ secrets: { 'n8n-events-secret': SECRET, 'n8n-events-url': url } });
			expect(result.requests).toHaveLength(3);
			expect(result.log[0]).toMatch(/attempt 1 failed \((Only HTTPS addresses|Invalid URI)/);
		}
		const strict = await run({ options: { timeScale: 0.001 } });
		expect(strict.log[0]).toMatch(/attempt 1 failed \(Only HTTPS addresses can be called/);
		expect(n8n.requests).toHaveLength(0);
	});
});

describe('what the script needs, and what it does without it', () => {
	test('no secret: nothing sent, and the log says which secret to create', async () => {
		const result = await run({ secrets: { 'n8n-events-url': `${n8n.url}/hook` } });
		expect(n8n.requests).toHaveLength(0);
		expect(result.log).toEqual([
			'n8n events: no secret named n8n-events-secret (Configuration > Environment Variables); nothing sent',
		]);
	});

	test('no address: nothing sent, and the log says so', async () => {
		const result = await run({ secrets: { 'n8n-events-secret': SECRET } });
		expect(n8n.requests).toHaveLength(0);
		expect(result.log).toEqual([
			'n8n events: no secret named n8n-events-url and no n8nResumeUrl parameter; nothing sent',
		]);
	});

	test.each<[RunOptions['missingSecret'], RunOptions['missingRegistrationParameter']]>([
		['throw', 'undefined'],
		['throw', 'throw'],
		['null', 'undefined'],
		['null', 'throw'],
	])(
		'whether GetSecret of an unknown name (%s) or an absent parameter (%s) throws, it sends',
		async (missingSecret, missingRegistrationParameter) => {
			await run({ options: { ...FAST, missingSecret, missingRegistrationParameter } });
			expect(n8n.requests).toHaveLength(1);
		},
	);
});
