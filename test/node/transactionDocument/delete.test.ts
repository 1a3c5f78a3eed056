import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { FAST_RETRIES, nodeParams } from '../../helpers/params';
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

	test('a delete whose answer was lost is sent again, and its "not found" counts as deleted', async () => {
		const { transactionId, documentId } = await documentWithFile(f);
		f.sim.injectFault('DeleteTransactionDocument', { kind: 'reset', after: true });
		const deleted = await runNode({
			credentials: f.store,
			parameters: {
				...nodeParams('transactionDocument', 'delete', { transactionId, documentId }),
				requestOptions: FAST_RETRIES,
			},
		});
		expect(deleted.error).toBeUndefined();
		expect(deleted.items[0].json).toEqual({ transactionId, documentId, deleted: true });
		expect(f.sim.requestsTo('DeleteTransactionDocument').map((r) => r.status)).toEqual([0, 404]);
		expect(f.sim.transaction(transactionId)).toMatchObject({ documents: [] });
	});

	test('a document that is not there fails the item when no earlier answer was lost', async () => {
		const { transactionId } = await documentWithFile(f);
		f.sim.injectFault('DeleteTransactionDocument', { kind: 'status', status: 503 });
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...nodeParams('transactionDocument', 'delete', {
					transactionId,
					documentId: '00000000-0000-0000-0000-000000000000',
				}),
				requestOptions: FAST_RETRIES,
			},
		});
		expect(String((result.error as Error | undefined)?.message)).toMatch(/could not find/i);
		expect(f.sim.requestsTo('DeleteTransactionDocument').map((r) => r.status)).toEqual([503, 404]);
	});
});
