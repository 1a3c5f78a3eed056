import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf } from '../transaction/flow';
import { documents, documentWithFile } from './documents';

const f = useSimulator();

describe('Transaction Document → Get Many', () => {
	test('the documents of a transaction are listed with their source files', async () => {
		const { transactionId, documentId } = await documentWithFile(f);
		const many = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'getMany', { transactionId, returnAll: true }),
		});
		expect(many.items.map((i) => i.json.documentId)).toEqual([documentId]);
		expect(many.items[0].json).toMatchObject({
			transactionId,
			sourceFiles: [{ name: 'page.png', id: expect.any(String) }],
		});
	});

	test('Limit cuts the list', async () => {
		const { transactionId, documentIds } = await documents(f, 3);
		const two = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'getMany', { transactionId, limit: 2 }),
		});
		expect(two.items.map((i) => i.json.documentId)).toEqual(documentIds.slice(0, 2));
	});

	test('transactions are listed several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const ids = Array.from({ length: 12 }, () => f.sim.createTransaction(FIXTURE.processSkillId));
		const { auto, pinned } = await concurrencyOf(
			f,
			'GetTransactionDocuments',
			(options) =>
				nodeParams('transactionDocument', 'getMany', {
					transactionId: '={{ $json.id }}',
					returnAll: true,
					options,
				}),
			ids.map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
	});
});
