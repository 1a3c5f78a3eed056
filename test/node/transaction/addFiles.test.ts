import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { binaryFile, fileItem } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { createdTransaction } from './flow';

const f = useSimulator();

const addFiles = (transactionId: string, extra: IDataObject = {}) =>
	nodeParams('transaction', 'addFiles', { transactionId, ...extra });

describe('Transaction → Add Files, Start', () => {
	test('files from the selected binary fields are added, then the transaction starts', async () => {
		const transactionId = await createdTransaction(f, FIXTURE.processSkillId);
		const added = await runNode({
			credentials: f.store,
			items: [
				fileItem({
					attachment_0: binaryFile('one.pdf', 'InvoiceNumber: 1'),
					attachment_1: binaryFile('two.pdf', 'InvoiceNumber: 2'),
					ignored: binaryFile('three.pdf', 'InvoiceNumber: 3'),
				}),
			],
			parameters: addFiles(transactionId, {
				binaryPropertyNames: 'attachment_0, attachment_1',
				options: { autoCrop: 'No' },
			}),
		});
		expect(added.error).toBeUndefined();
		expect(added.items[0].json).toEqual({
			transactionId,
			files: [
				{ name: 'one.pdf', size: 16, binaryField: 'attachment_0' },
				{ name: 'two.pdf', size: 16, binaryField: 'attachment_1' },
			],
		});
		const body = f.sim.requestsTo('AddFilesToTransaction')[0].body as { model: IDataObject };
		expect(body.model).toEqual({
			files: [
				{ imageProcessingOptions: { autoCrop: 'No' } },
				{ imageProcessingOptions: { autoCrop: 'No' } },
			],
		});
		const started = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'start', { transactionId }),
		});
		expect(started.items[0].json).toEqual({ transactionId, started: true });
		expect(f.sim.transaction(transactionId)?.status).toBe('Processing');
	});

	test('a name already in the transaction is a 409 with advice; nothing is sent again', async () => {
		const transactionId = await createdTransaction(f, FIXTURE.processSkillId);
		const item = fileItem(binaryFile('same.pdf', 'x'));
		await runNode({ credentials: f.store, items: [item], parameters: addFiles(transactionId) });
		const again = await runNode({
			credentials: f.store,
			items: [item],
			parameters: addFiles(transactionId),
		});
		expect(again.error?.message).toMatch(
			/^ABBYY Vantage reported a conflict: A file with the same name already exists in the transaction \[item 0\]$/,
		);
		expect((again.error as { description?: string }).description).toMatch(
			/same name is already in the transaction/,
		);
		expect(f.sim.requestsTo('AddFilesToTransaction')).toHaveLength(2);
	});

	test('with a Document ID the files go to that document’s source files', async () => {
		const transactionId = await createdTransaction(f, FIXTURE.processSkillId);
		const doc = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'add', { transactionId }),
		});
		const documentId = doc.items[0].json.documentId as string;
		const result = await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('page1.png', 'p1', 'image/png'))],
			parameters: addFiles(transactionId, { options: { documentId } }),
		});
		expect(result.items[0].json).toMatchObject({ transactionId, documentId });
		const [request] = f.sim.requestsTo('AddFilesToTransactionDocument');
		expect(request.params).toMatchObject({ transactionId, documentId });
		expect((request.body as { model: IDataObject }).model).toEqual({ files: [{}] });
	});

	test('starting a transaction without files is refused by Vantage with a readable reason', async () => {
		const transactionId = await createdTransaction(f);
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'start', { transactionId }),
		});
		expect(result.error?.message).toMatch(
			/^ABBYY Vantage rejected the request: Transaction cannot be started \[item 0\]$/,
		);
		expect(f.sim.requestsTo('StartTransaction')).toHaveLength(1);
	});
});
