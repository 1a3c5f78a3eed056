import { readBinary, runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { concurrencyOf } from '../transaction/flow';
import { documentWithFile, PAGE_BYTES } from './documents';

const f = useSimulator();

const download = (transactionId: string, documentId: string, options = {}) =>
	nodeParams('transactionDocument', 'downloadSourceFile', {
		transactionId,
		documentId,
		fileId: '={{ $json.fileId }}',
		options,
	});

describe('Transaction Document → Download Source File', () => {
	test('a source file of a document is downloaded under its own name', async () => {
		const { transactionId, documentId, fileId } = await documentWithFile(f);
		const file = await runNode({
			credentials: f.store,
			items: [{ fileId }],
			parameters: download(transactionId, documentId),
		});
		expect(file.items[0].json).toEqual({
			transactionId,
			documentId,
			fileId,
			fileName: 'page.png',
			fileSize: 19,
		});
		expect((await readBinary(file.items[0])).toString()).toBe(PAGE_BYTES);
	});

	test('files are downloaded several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const { transactionId, documentId, fileId } = await documentWithFile(f);
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'DownloadTransactionDocumentSourceFile',
			(options) => download(transactionId, documentId, options),
			Array.from({ length: 12 }, () => ({ fileId })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs)
			expect(run.items.every((i) => i.json.fileName === 'page.png')).toBe(true);
	});
});
