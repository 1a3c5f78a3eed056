import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf, createdTransaction } from './flow';

const f = useSimulator();

const link = (transactionId: string, options = {}) =>
	nodeParams('transaction', 'generateMobileInputLink', { transactionId, options });

describe('Transaction → Generate Mobile Input Link', () => {
	test('a mobile input link is generated for a new transaction', async () => {
		const transactionId = await createdTransaction(f);
		const result = await runNode({ credentials: f.store, parameters: link(transactionId) });
		expect(result.items[0].json).toEqual({ transactionId, mobileInputLink: expect.any(String) });
	});

	test('links are asked for several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const ids = Array.from({ length: 12 }, () => f.sim.createTransaction(FIXTURE.documentSkillId));
		const { auto, pinned } = await concurrencyOf(
			f,
			'GenerateMobileInputLink',
			(options) => link('={{ $json.id }}', options),
			ids.map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
	});

	test('bad input in item 1 of 3 asks for no link at all; a refusal of item 2 names the links items 0 and 1 got', async () => {
		const ids = [0, 1, 2].map(() => f.sim.createTransaction(FIXTURE.documentSkillId));
		const bad = await runNode({
			credentials: f.store,
			items: [{ id: ids[0] }, { id: ' ' }, { id: ids[2] }],
			parameters: link('={{ $json.id }}'),
		});
		expect(bad.error?.message).toBe('Transaction ID is empty [item 1]');
		expect(f.sim.requests).toHaveLength(0);

		f.sim.injectFault(
			'GenerateMobileInputLink',
			{ kind: 'status', status: 400, body: { title: 'Bad Request', status: 400, detail: 'No' } },
			1,
			2,
		);
		const refused = await runNode({
			credentials: f.store,
			items: ids.map((id) => ({ id })),
			parameters: link('={{ $json.id }}', { concurrency: 1 }),
		});
		expect(refused.error?.message).toBe('ABBYY Vantage rejected the request: No [item 2]');
		expect((refused.error as { description?: string }).description).toContain(
			`other items had created: a mobile input link for transaction ${ids[0]} (item 0), a mobile input link for transaction ${ids[1]} (item 1).`,
		);
	});
});
