import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf, processedTransaction } from './flow';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

const get = (options = {}) =>
	nodeParams('transaction', 'get', { transactionId: '={{ $json.id }}', options });

describe('Transaction → Get', () => {
	test('Get returns the transaction as Vantage describes it', async () => {
		const transactionId = await processedTransaction(f, 'G-1');
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'get', { transactionId }),
		});
		expect(result.items[0].json).toMatchObject({
			transactionId,
			id: transactionId,
			status: 'Processed',
			sourceFiles: [{ id: expect.any(String), name: 'G-1.pdf' }],
			documents: [{ id: expect.any(String), resultFiles: expect.any(Array) }],
		});
	});

	test('items are read several at a time under Concurrency Auto (the default), one at a time when pinned to 1', async () => {
		const ids = Array.from({ length: 20 }, () => f.sim.createTransaction(FIXTURE.documentSkillId));
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'GetTransactionInfo',
			get,
			ids.map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs) {
			expect(run.items.map((item) => [item.json.transactionId, item.pairedItem])).toEqual(
				ids.map((id, item) => [id, { item }]),
			);
		}
	});

	test('a Concurrency outside 1–32 is refused before any request', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [{ id: f.sim.createTransaction(FIXTURE.documentSkillId) }],
			parameters: get({ concurrency: 33 }),
		});
		expect(result.error?.message).toBe('Concurrency must be between 1 and 32, not 33 [item 0]');
		expect(f.sim.requests).toHaveLength(0);
	});
});
