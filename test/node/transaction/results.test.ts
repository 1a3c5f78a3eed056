import type { IDataObject } from 'n8n-workflow';

import { readBinary, runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { createdTransaction, processedTransaction, startedTransaction } from './flow';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

describe('Transaction → Get, Wait For Transaction, Get Results, Download File, Delete', () => {
	test('Get returns the transaction as Vantage describes it', async () => {
		const transactionId = await processedTransaction(f, 'G-1');
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'get', { transactionId }),
		});
		expect(result.items[0].json).toMatchObject({
			transactionId,
			id: transactionId,
			status: 'Processed',
			sourceFiles: [{ id: expect.any(String), name: 'G-1.pdf' }],
			documents: [{ id: expect.any(String), resultFiles: expect.any(Array) }],
		});
	});

	test('Wait For Transaction waits until Processed and counts documents and polls', async () => {
		const transactionId = await createdTransaction(f);
		await startedTransaction(f, transactionId, 2);
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'waitForTransaction', {
				transactionId,
				options: { pollInterval: 1 },
			}),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			transactionId,
			status: 'Processed',
			waitingForManualReview: false,
			documentCount: 1,
		});
		expect(result.items[0].json.polls).toBeGreaterThanOrEqual(2);
	});

	test('Get Results shapes the fields as Process Document does; a transaction still processing is explained', async () => {
		const transactionId = await processedTransaction(f, 'GR-1');
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'getResults', {
				transactionId,
				options: { includeFieldDetails: true },
			}),
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
			parameters: nodeParams('transaction', 'getResults', { transactionId: pending }),
		});
		expect(early.error?.message).toBe(
			`Transaction ${pending} has no results yet: its status is New [item 0]`,
		);
	});

	test('Download File gives a result file as binary with Vantage’s file name', async () => {
		const transactionId = await processedTransaction(f, 'DL-1');
		const info = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'get', { transactionId }),
		});
		const files = (info.items[0].json.documents as IDataObject[])[0].resultFiles as IDataObject[];
		const pdf = files.find((file) => file.type === 'Pdf')!;
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'downloadFile', { transactionId, fileId: pdf.fileId }),
		});
		expect(result.items[0].json).toMatchObject({
			transactionId,
			fileId: pdf.fileId,
			fileName: 'Invoice.pdf',
		});
		expect((await readBinary(result.items[0])).subarray(0, 8).toString()).toBe('%PDF-1.4');
	});

	test('Delete deletes the transaction', async () => {
		const transactionId = await createdTransaction(f);
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'delete', { transactionId }),
		});
		expect(result.items[0].json).toEqual({ transactionId, deleted: true });
		expect(f.sim.requestsTo('DeleteTransaction')).toHaveLength(1);
	});
});
