import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const f = useSimulator();

describe('Transaction → Create', () => {
	test('creates a transaction of the skill with its parameters and an optional mobile link', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'create', {
				skillId: rl(FIXTURE.receiptSkillId),
				options: {
					registrationParameters: { parameter: [{ key: 'Order', value: 42 }] },
					generateMobileInputLink: true,
				},
			}),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			mobileInputLink: expect.any(String),
			skillId: 'Receipt',
			status: 'New',
		});
		expect(f.sim.requestsTo('CreateTransaction')[0].body).toEqual({
			skillId: 'Receipt',
			registrationParameters: [{ key: 'Order', value: '42' }],
			generateMobileInputLink: true,
		});
	});

	test('an unknown skill is a readable 404 and nothing is created twice', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'create', { skillId: rl('no-such-skill') }),
		});
		expect(result.error?.message).toMatch(
			/^ABBYY Vantage could not find it: Skill with specified skillId not found or not published \[item 0\]$/,
		);
		expect(f.sim.requestsTo('CreateTransaction')).toHaveLength(1);
	});
});
