import type { IDataObject } from 'n8n-workflow';

import { readBinary, runNode } from '../../harness/n8n';
import { binaryFile, fileItem } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { createdTransaction } from '../transaction/flow';

const f = useSimulator();

describe('Transaction Document → Get, Get Many, Download Source File, Delete', () => {
	test('a document with a source file is listed, read, downloaded and deleted', async () => {
		const transactionId = await createdTransaction(f, FIXTURE.processSkillId);
		const added = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'add', { transactionId }),
		});
		const documentId = added.items[0].json.documentId as string;
		await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('page.png', 'the bytes of a page', 'image/png'))],
			parameters: nodeParams('transaction', 'addFiles', { transactionId, options: { documentId } }),
		});

		const many = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'getMany', { transactionId, returnAll: true }),
		});
		expect(many.items.map((i) => i.json.documentId)).toEqual([documentId]);

		const one = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'get', { transactionId, documentId }),
		});
		const [source] = one.items[0].json.sourceFiles as IDataObject[];
		expect(source).toMatchObject({ name: 'page.png' });

		const file = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'downloadSourceFile', {
				transactionId,
				documentId,
				fileId: source.id,
			}),
		});
		expect(file.items[0].json).toMatchObject({ fileName: 'page.png', fileSize: 19 });
		expect((await readBinary(file.items[0])).toString()).toBe('the bytes of a page');

		const deleted = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'delete', { transactionId, documentId }),
		});
		expect(deleted.items[0].json).toEqual({ transactionId, documentId, deleted: true });
		expect(f.sim.requestsTo('DeleteTransactionDocument')).toHaveLength(1);
	});
});
