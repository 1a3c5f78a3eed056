import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { concurrencyOf } from '../transaction/flow';
import { documents, documentWithFile } from './documents';

const f = useSimulator();

describe('Transaction Document → Get', () => {
	test('a document is read with its source files', async () => {
		const { transactionId, documentId, fileId } = await documentWithFile(f);
		const one = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'get', { transactionId, documentId }),
		});
		const [source] = one.items[0].json.sourceFiles as IDataObject[];
		expect(source).toMatchObject({ name: 'page.png', id: fileId });
		expect(one.items[0].json).toMatchObject({ transactionId, documentId });
	});

	test('documents are read several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const { transactionId, documentIds } = await documents(f, 12);
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'GetTransactionDocument',
			(options) =>
				nodeParams('transactionDocument', 'get', {
					transactionId,
					documentId: '={{ $json.id }}',
					options,
				}),
			documentIds.map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs) expect(run.items.map((i) => i.json.documentId)).toEqual(documentIds);
	});
});
