import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf } from './flow';

const f = useSimulator();

const create = (options = {}) =>
	nodeParams('transaction', 'create', { skillId: rl('={{ $json.skill }}'), options });

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

	test('transactions are created several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const items = Array.from({ length: 10 }, () => ({ skill: FIXTURE.documentSkillId }));
		const { auto, pinned, runs } = await concurrencyOf(f, 'CreateTransaction', create, items);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		expect(f.sim.createdCounts().transactions).toBe(20);
		for (const run of runs)
			expect(new Set(run.items.map((i) => i.json.transactionId)).size).toBe(10);
	});

	test('bad input in item 1 of 3 creates nothing: every item is checked first', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				{ skill: FIXTURE.documentSkillId },
				{ skill: FIXTURE.documentSkillId, order: '' },
				{ skill: FIXTURE.documentSkillId },
			],
			parameters: nodeParams('transaction', 'create', {
				skillId: rl('={{ $json.skill }}'),
				options: {
					registrationParameters: {
						parameter: [{ key: 'Order', value: '={{ $json.order ?? 1 }}' }],
					},
				},
			}),
		});
		expect(result.error?.message).toBe(
			'Registration Parameters: the value of "Order" is empty [item 1]',
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('Vantage refusing item 2 stops the run; the error names the transactions items 0 and 1 created', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				{ skill: FIXTURE.documentSkillId },
				{ skill: FIXTURE.receiptSkillId },
				{ skill: 'no-such-skill' },
			],
			parameters: create({ concurrency: 1 }),
		});
		expect(result.error?.message).toMatch(/^ABBYY Vantage could not find it: .* \[item 2\]$/);
		const description = (result.error as { description?: string }).description ?? '';
		const named =
			/other items had created: transaction (\S+) \(item 0\), transaction (\S+) \(item 1\)\./.exec(
				description,
			);
		expect(named).not.toBeNull();
		expect([1, 2].map((i) => f.sim.transaction(named![i])?.skillId)).toEqual([
			FIXTURE.documentSkillId,
			FIXTURE.receiptSkillId,
		]);
		expect(f.sim.createdCounts().transactions).toBe(2);
	});
});
