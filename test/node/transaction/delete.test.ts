import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { FAST_RETRIES, nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf, createdTransaction } from './flow';

const f = useSimulator();

describe('Transaction → Delete', () => {
	test('Delete deletes the transaction', async () => {
		const transactionId = await createdTransaction(f);
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'delete', { transactionId }),
		});
		expect(result.items[0].json).toEqual({ transactionId, deleted: true });
		expect(f.sim.requestsTo('DeleteTransaction')).toHaveLength(1);
	});

	test('items are deleted several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const fresh = () =>
			Array.from({ length: 12 }, () => ({ id: f.sim.createTransaction(FIXTURE.documentSkillId) }));
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'DeleteTransaction',
			(options) =>
				nodeParams('transaction', 'delete', { transactionId: '={{ $json.id }}', options }),
			fresh,
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs)
			expect(run.items.every((item) => item.json.deleted === true)).toBe(true);
		expect(f.sim.deletedTransactionIds()).toHaveLength(24);
	});

	test('a delete whose answer was lost is sent again; whatever Vantage says then, the item is deleted once', async () => {
		const transactionId = await createdTransaction(f);
		f.sim.injectFault('DeleteTransaction', { kind: 'reset', after: true });
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...nodeParams('transaction', 'delete', { transactionId }),
				requestOptions: FAST_RETRIES,
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ transactionId, deleted: true }]);
		expect(f.sim.requestsTo('DeleteTransaction')).toHaveLength(2);
		expect(f.sim.deletedTransactionIds()).toEqual([transactionId]);
	});
});
