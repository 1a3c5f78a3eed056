import type { ICredentialDataDecryptedObject, INode, IWebhookFunctions } from 'n8n-workflow';

import {
	CREDENTIAL_REUSE_MS,
	readWebhookCredential,
} from '../../../nodes/AbbyyVantage/transport/webhookCredentials';
import { EVENT_SECRET } from '../../../nodes/AbbyyVantage/vantage/eventSecret';
import { useSimulator } from '../../helpers/fixture';
import { eventBody, randomSecret, signed, type EventSecrets } from '../../harness/webhook';
import { instantTrigger, secrets } from './instant';

const f = useSimulator();

describe('Instant Trigger → credential reads: one per node every few seconds, not one per push', () => {
	test('pushes at the same moment, and the next within seconds, share one read of each credential', async () => {
		const trigger = await instantTrigger(f);
		const tx = f.sim.seedCompletedTransactions(6);
		const together = await Promise.all(
			tx.slice(0, 5).map(async (id) => await trigger.push(signed(eventBody(id), secrets.secret))),
		);
		await Promise.all(together.map(async (push) => await push.handled));
		const signIns = f.sim.requestsTo('Token').length;
		const next = await trigger.push(signed(eventBody(tx[5]), secrets.secret));
		await next.handled;
		// The token a push before it signed in for comes with the shared read: no sign-in of its own.
		expect(f.sim.requestsTo('Token')).toHaveLength(signIns);
		expect([...together, next].map((push) => push.status)).toEqual(Array(6).fill(202));
		expect(trigger.executions).toHaveLength(6);
		expect(trigger.credentialReads).toEqual({ [EVENT_SECRET]: 1, [f.store.type]: 1 });
	});

	test('a secret added since the read (a rotation) is taken at once; a forged push still refused', async () => {
		let current: EventSecrets = { secret: secrets.secret };
		const trigger = await instantTrigger(f, {}, { secrets: () => current });
		const [first, second, third] = f.sim.seedCompletedTransactions(3);
		const before = await trigger.push(signed(eventBody(first), secrets.secret));
		await before.handled;
		const fresh = randomSecret();
		current = { secret: fresh, previousSecret: secrets.secret };
		const byFresh = await trigger.push(signed(eventBody(second), fresh));
		await byFresh.handled;
		const forged = await trigger.push(signed(eventBody(third), randomSecret()));
		expect([before.status, byFresh.status, forged.status]).toEqual([202, 202, 401]);
		expect((await forged.handled).execution).toBeUndefined();
		expect(trigger.executions).toHaveLength(2);
		// The first read, the read for the fresh secret, and the forged push's check against the store.
		expect(trigger.credentialReads[EVENT_SECRET]).toBe(3);
	});
});

describe('readWebhookCredential', () => {
	/** A webhook request's context for `node` of `workflowId`, counting n8n's credential reads. */
	function request(
		reads: { count: number; fail?: boolean; value: ICredentialDataDecryptedObject },
		node = 'Trigger',
		workflowId = 'wf-reads',
	): IWebhookFunctions {
		const described: INode = {
			id: node,
			name: node,
			type: 'x',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { someApi: { id: 'cred-reads', name: 'account' } },
		};
		return {
			getNode: () => described,
			getWorkflow: () => ({ id: workflowId, active: true, name: 'w' }),
			getCredentials: async () => {
				reads.count++;
				if (reads.fail) throw new Error('cannot decrypt');
				return reads.value;
			},
		} as unknown as IWebhookFunctions;
	}

	afterEach(() => jest.restoreAllMocks());

	test('kept for CREDENTIAL_REUSE_MS, then read again; each request gets its own copy', async () => {
		let now = 1_000_000;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		const reads = { count: 0, value: { secret: 'a' } as ICredentialDataDecryptedObject };
		const first = await readWebhookCredential(request(reads), 'someApi');
		first.data.accessToken = 'written by n8n';
		now += CREDENTIAL_REUSE_MS - 1;
		const second = await readWebhookCredential(request(reads), 'someApi');
		expect([first.reused, second.reused, reads.count]).toEqual([false, true, 1]);
		expect(second.data).toEqual({ secret: 'a' });
		now += 1;
		reads.value = { secret: 'b' };
		const third = await readWebhookCredential(request(reads), 'someApi');
		expect([third.reused, third.data.secret, reads.count]).toEqual([false, 'b', 2]);
		const forced = await readWebhookCredential(request(reads), 'someApi', true);
		expect([forced.reused, reads.count]).toEqual([false, 3]);
		// What a request shares (a token n8n signed in for) comes with the later copies.
		forced.share({ accessToken: 'signed in' });
		await Promise.resolve();
		const later = await readWebhookCredential(request(reads), 'someApi');
		expect([later.reused, later.data.accessToken, reads.count]).toEqual([true, 'signed in', 3]);
	});

	test('another node or workflow reads its own; a failed read is not kept', async () => {
		const reads = { count: 0, value: { secret: 'a' } as ICredentialDataDecryptedObject };
		await readWebhookCredential(request(reads, 'One', 'wf-own'), 'someApi');
		await readWebhookCredential(request(reads, 'Two', 'wf-own'), 'someApi');
		await readWebhookCredential(request(reads, 'One', 'wf-other'), 'someApi');
		expect(reads.count).toBe(3);
		const failing = { count: 0, fail: true, value: {} as ICredentialDataDecryptedObject };
		await expect(readWebhookCredential(request(failing, 'Failing'), 'someApi')).rejects.toThrow(
			'cannot decrypt',
		);
		failing.fail = false;
		await expect(
			readWebhookCredential(request(failing, 'Failing'), 'someApi'),
		).resolves.toMatchObject({
			data: {},
			reused: false,
		});
		expect(failing.count).toBe(2);
	});
});
