import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf, createdTransaction } from './flow';

const f = useSimulator();

describe('Transaction → Get Registration Parameters', () => {
	test('parameters come back as the list and as a key → value object', async () => {
		const transactionId = await createdTransaction(f, FIXTURE.documentSkillId, {
			registrationParameters: { parameter: [{ key: 'Source', value: 'mail' }] },
			skillParameters: { parameter: [{ key: 'Strict', value: 'true' }] },
		});
		const registration = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'getRegistrationParameters', { transactionId }),
		});
		expect(registration.items[0].json).toEqual({
			transactionId,
			parameters: [{ key: 'Source', value: 'mail' }],
			values: { Source: 'mail' },
		});
	});

	test('items are read several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const ids = Array.from({ length: 12 }, () => f.sim.createTransaction(FIXTURE.documentSkillId));
		const { auto, pinned } = await concurrencyOf(
			f,
			'GetTransactionRegistrationParameters',
			(options) =>
				nodeParams('transaction', 'getRegistrationParameters', {
					transactionId: '={{ $json.id }}',
					options,
				}),
			ids.map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
	});
});
