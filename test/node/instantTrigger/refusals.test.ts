import type { IDataObject } from 'n8n-workflow';

import { useSimulator } from '../../helpers/fixture';
import { eventBody, newId, randomSecret, signed, type PushRequest } from '../../harness/webhook';
import { instantTrigger, secrets } from './instant';

const f = useSimulator();
const TX = '6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';

/** The push of a valid event for TX, changed by `change`. */
function pushOf(change: (request: PushRequest, body: IDataObject) => void = () => {}): PushRequest {
	const body = eventBody(TX);
	const request = signed(body, secrets.secret);
	change(request, body);
	return request;
}

/** Re-sign `body` after changing it (a body refused although its signature is right). */
const resigned = (body: IDataObject): PushRequest => signed(body, secrets.secret);

const minutes = (m: number) => m * 60_000;

describe('Instant Trigger → refusals: the right status, no Vantage request, no execution', () => {
	test.each<[string, number, () => PushRequest, RegExp]>([
		[
			'no signature',
			401,
			() => pushOf((r) => delete r.headers['x-vantage-signature']),
			/X-Vantage-Signature header is missing or malformed/,
		],
		[
			'a signature of the wrong form',
			401,
			() => pushOf((r) => (r.headers['x-vantage-signature'] = 'sha256=abc')),
			/missing or malformed/,
		],
		[
			'a forged signature (another secret)',
			401,
			() => signed(eventBody(TX), randomSecret()),
			/does not match/,
		],
		[
			'a body changed after signing (another transaction)',
			401,
			() =>
				pushOf((r, body) => {
					r.body = JSON.stringify({ ...body, transactionId: 'a'.repeat(8) + TX.slice(8) });
				}),
			/does not match/,
		],
		[
			'no timestamp',
			401,
			() => pushOf((r) => delete r.headers['x-vantage-timestamp']),
			/X-Vantage-Timestamp header is missing or malformed/,
		],
		[
			'a stale timestamp (6 minutes old)',
			401,
			() => signed(eventBody(TX), secrets.secret, Date.now() - minutes(6)),
			/more than 5 minutes old/,
		],
		[
			'a timestamp 2 minutes in the future',
			401,
			() => signed(eventBody(TX), secrets.secret, Date.now() + minutes(2)),
			/in the future/,
		],
		[
			'a body over 16 KiB',
			413,
			() =>
				resigned({
					...eventBody(TX),
					documentIds: Array.from({ length: 500 }, () => newId()),
				}),
			/larger than 16384 bytes/,
		],
		[
			'text/plain',
			415,
			() => pushOf((r) => (r.headers['content-type'] = 'text/plain')),
			/application\/json/,
		],
		[
			'form data',
			415,
			() =>
				pushOf((r) => {
					r.headers['content-type'] = 'application/x-www-form-urlencoded';
					r.body = 'transactionId=x';
				}),
			/application\/json/,
		],
		[
			'signed, but specVersion 2',
			400,
			() => resigned({ ...eventBody(TX), specVersion: 2 }),
			/specVersion must be 1/,
		],
		[
			'signed, but an unknown event',
			400,
			() => resigned({ ...eventBody(TX), event: 'transaction.deleted' }),
			/event must be one of/,
		],
		[
			'signed, but a transactionId that is no UUID',
			400,
			() => resigned(eventBody('not-a-transaction')),
			/transactionId must be a UUID/,
		],
		[
			'signed, but documentIds not a list',
			400,
			() => resigned({ ...eventBody(TX), documentIds: 'all' }),
			/documentIds/,
		],
	])('%s → %i', async (_case, status, request, message) => {
		const trigger = await instantTrigger(f);
		const push = await trigger.push(request());
		expect(push.status).toBe(status);
		expect(push.body).toEqual({ status: 'refused', message: expect.stringMatching(message) });
		const handled = await push.handled;
		expect(handled.error).toBeUndefined();
		expect(handled.execution).toBeUndefined();
		expect(f.sim.requests).toHaveLength(0);
		expect(trigger.staticData).toBe('{}');
		// n8n's log says why, without the secret or the signature.
		expect(trigger.logs).toEqual([
			expect.stringMatching(new RegExp(`refused a push with ${status}`)),
		]);
		const signature = request().headers['x-vantage-signature'];
		for (const line of trigger.logs) {
			expect(line).not.toContain(secrets.secret);
			if (signature) expect(line).not.toContain(signature.slice(3));
		}
	});

	test('a body that is not JSON is refused by n8n itself (422) before the node runs', async () => {
		const trigger = await instantTrigger(f);
		const push = await trigger.push(pushOf((r) => (r.body = '{"specVersion": 1,')));
		expect(push.status).toBe(422);
		expect((await push.handled).result).toBeUndefined();
		expect(f.sim.requests).toHaveLength(0);
	});

	test('during a rotation the previous secret is accepted too; any other is not', async () => {
		const old = secrets.secret;
		const fresh = randomSecret();
		const trigger = await instantTrigger(
			f,
			{},
			{
				secrets: () => ({ secret: fresh, previousSecret: old }),
			},
		);
		const tx = f.sim.seedCompletedTransactions(2);
		const byOld = await trigger.push(signed(eventBody(tx[0]), old));
		const byNew = await trigger.push(signed(eventBody(tx[1]), fresh));
		const byOther = await trigger.push(signed(eventBody(tx[1]), randomSecret()));
		expect([byOld.status, byNew.status, byOther.status]).toEqual([202, 202, 401]);
		expect((await byOld.handled).execution).toHaveLength(1);
		expect((await byNew.handled).execution).toHaveLength(1);
		expect((await byOther.handled).execution).toBeUndefined();
	});

	test('the old secret alone no longer signs once Previous Secret is cleared', async () => {
		const trigger = await instantTrigger(f, {}, { secrets: () => ({ secret: randomSecret() }) });
		const push = await trigger.push(pushOf());
		expect(push.status).toBe(401);
	});
});
