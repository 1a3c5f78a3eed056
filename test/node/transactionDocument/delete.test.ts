import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { concurrencyOf } from '../transaction/flow';
import { documents, documentWithFile } from './documents';

const f = useSimulator();

describe('Transaction Document → Delete', () => {
	test('a document is deleted with its source files', async () => {
		const { transactionId, documentId } = await documentWithFile(f);
		const deleted = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'delete', { transactionId, documentId }),
		});
		expect(deleted.items[0].json).toEqual({ transactionId, documentId, deleted: true });
		expect(f.sim.requestsTo('DeleteTransactionDocument')).toHaveLength(1);
		expect(f.sim.transaction(transactionId)).toMatchObject({ documents: [], files: [] });
	});

	test('documents are deleted several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const fresh = async () => {
			const { transactionId, documentIds } = await documents(f, 12);
			return documentIds.map((id) => ({ id, transactionId }));
		};
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'DeleteTransactionDocument',
			(options) =>
				nodeParams('transactionDocument', 'delete', {
					transactionId: '={{ $json.transactionId }}',
					documentId: '={{ $json.id }}',
					options,
				}),
			fresh,
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs) expect(run.items.every((i) => i.json.deleted === true)).toBe(true);
	});
});
