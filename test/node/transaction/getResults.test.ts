import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf, createdTransaction, processedTransaction } from './flow';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

const getResults = (transactionId: string, options: IDataObject = {}) =>
	nodeParams('transaction', 'getResults', { transactionId, options });

describe('Transaction → Get Results', () => {
	test('Get Results shapes the fields as Process Document does; a transaction still processing is explained', async () => {
		const transactionId = await processedTransaction(f, 'GR-1');
		const result = await runNode({
			credentials: f.store,
			parameters: getResults(transactionId, { includeFieldDetails: true }),
		});
		const json = result.items[0].json;
		expect(json).toMatchObject({ transactionId, status: 'Processed' });
		expect((json.fields as IDataObject).InvoiceNumber).toBe('GR-1');
		expect((json.fields as IDataObject).LineItems).toEqual([
			{ Description: 'Item', Quantity: 1, Amount: 5 },
		]);
		expect(json.fieldDetails).toBeDefined();

		const pending = await createdTransaction(f);
		const early = await runNode({
			credentials: f.store,
			parameters: getResults(pending),
		});
		expect(early.error?.message).toBe(
			`Transaction ${pending} has no results yet: its status is New [item 0]`,
		);
	});

	test('a Failed transaction is a NodeApiError with Vantage’s reason and the transaction ID', async () => {
		const [transactionId] = f.sim.seedCompletedTransactions(1, { status: 'Failed' });
		const result = await runNode({ credentials: f.store, parameters: getResults(transactionId) });
		// n8n records the error as a plain object: its name says which class it was.
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			errorResponse: { id: transactionId, status: 'Failed', error: expect.any(String) },
		});
		expect(result.error?.message).toBe(
			`Transaction ${transactionId} ended with status Failed: The document could not be processed: the file is damaged [item 0]`,
		);
	});

	test('transactions are read several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const ids = f.sim.seedCompletedTransactions(12, { skillId: FIXTURE.documentSkillId });
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'GetTransactionInfo',
			(options) => getResults('={{ $json.id }}', options),
			ids.map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs) {
			expect(run.items.map((item) => [item.json.transactionId, item.json.status])).toEqual(
				ids.map((id) => [id, 'Processed']),
			);
		}
	});
});
