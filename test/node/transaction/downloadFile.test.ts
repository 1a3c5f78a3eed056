import type { IDataObject } from 'n8n-workflow';

import { readBinary, runNode } from '../../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, processParams } from '../../helpers/params';
import { concurrencyOf, processedTransaction } from './flow';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

const download = (transactionId: string, fileId: string, options: IDataObject = {}) =>
	nodeParams('transaction', 'downloadFile', { transactionId, fileId, options });

async function resultFiles(transactionId: string): Promise<IDataObject[]> {
	const info = await runNode({
		credentials: f.store,
		parameters: nodeParams('transaction', 'get', { transactionId }),
	});
	return (info.items[0].json.documents as IDataObject[])[0].resultFiles as IDataObject[];
}

describe('Transaction → Download File', () => {
	test('Download File gives a result file as binary with Vantage’s file name', async () => {
		const transactionId = await processedTransaction(f, 'DL-1');
		const pdf = (await resultFiles(transactionId)).find((file) => file.type === 'Pdf')!;
		const result = await runNode({
			credentials: f.store,
			parameters: download(transactionId, pdf.fileId as string),
		});
		expect(result.items[0].json).toMatchObject({
			transactionId,
			fileId: pdf.fileId,
			fileName: 'Invoice.pdf',
		});
		expect((await readBinary(result.items[0])).subarray(0, 8).toString()).toBe('%PDF-1.4');
	});

	test('a source file comes back byte for byte under the name it was uploaded with', async () => {
		const bytes = Buffer.concat([
			Buffer.from(invoiceText({ number: 'SRC-1' })),
			Buffer.from([0, 1, 2, 0xfe, 0xff]),
		]);
		const processed = await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('scan 7.pdf', bytes))],
			parameters: processParams(),
		});
		const transactionId = processed.items[0].json.transactionId as string;
		const info = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'get', { transactionId }),
		});
		const [source] = info.items[0].json.sourceFiles as IDataObject[];
		const result = await runNode({
			credentials: f.store,
			parameters: download(transactionId, source.id as string),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({
			transactionId,
			fileId: source.id,
			fileName: 'scan 7.pdf',
			fileSize: bytes.length,
		});
		expect(result.items[0].binary?.data).toMatchObject({ fileName: 'scan 7.pdf' });
		expect((await readBinary(result.items[0])).equals(bytes)).toBe(true);
	});

	test('files are downloaded several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const transactionId = await processedTransaction(f, 'DL-2');
		const fileIds = (await resultFiles(transactionId)).map((file) => file.fileId);
		const items = Array.from({ length: 12 }, (_, i) => ({ fileId: fileIds[i % fileIds.length] }));
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'DownloadFile',
			(options) => download(transactionId, '={{ $json.fileId }}', options),
			items,
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs) {
			expect(run.items.map((item) => item.json.fileId)).toEqual(items.map((i) => i.fileId));
		}
	});
});
