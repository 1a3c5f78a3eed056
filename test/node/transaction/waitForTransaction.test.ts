import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { binaryFile, fileItem } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { addFilesParams, nodeParams } from '../../helpers/params';
import { FIXTURE, type TransactionScript } from '../../simulator/simulator';
import { concurrencyOf, createdTransaction, startedTransaction } from './flow';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

/** A transaction made through the node (Create, Add Files, Start) that follows `script`. */
async function startedWith(script: TransactionScript): Promise<string> {
	const transactionId = await createdTransaction(f);
	const added = await runNode({
		credentials: f.store,
		items: [fileItem(binaryFile('scan.pdf', 'InvoiceNumber: S-1'))],
		parameters: addFilesParams(transactionId),
	});
	if (added.error) throw added.error;
	f.sim.scriptNextTransaction(script);
	const started = await runNode({
		credentials: f.store,
		parameters: nodeParams('transaction', 'start', { transactionId }),
	});
	if (started.error) throw started.error;
	return transactionId;
}

const wait = (transactionId: string, options: IDataObject = {}) =>
	nodeParams('transaction', 'waitForTransaction', {
		transactionId,
		options: { pollInterval: 1, ...options },
	});

describe('Transaction → Wait For Transaction', () => {
	test('Wait For Transaction waits until Processed and counts documents and polls', async () => {
		const transactionId = await createdTransaction(f);
		await startedTransaction(f, transactionId, 2);
		const result = await runNode({ credentials: f.store, parameters: wait(transactionId) });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			transactionId,
			status: 'Processed',
			waitingForManualReview: false,
			documentCount: 1,
		});
		expect(result.items[0].json.polls).toBeGreaterThanOrEqual(2);
	});

	test('On Manual Review = Output the Link stops waiting at the review and outputs the link', async () => {
		const transactionId = await startedWith({
			processing: { polls: 0 },
			manualReview: { polls: 1000 },
		});
		const result = await runNode({
			credentials: f.store,
			parameters: wait(transactionId, { onManualReview: 'output' }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			transactionId,
			status: 'Processing',
			waitingForManualReview: true,
			manualReviewLink: f.sim.transaction(transactionId)!.manualReviewLink,
			documentCount: 0,
		});
		expect(result.items[0].json.manualReviewLink).toEqual(expect.stringContaining('/review/'));
		// The first poll saw the review: the wait stopped there instead of waiting for the operator.
		expect(result.items[0].json.polls).toBe(1);
		expect(f.sim.transaction(transactionId)!.status).toBe('Processing');
	});

	test.each([
		['Failed', 'The scan is unreadable'],
		['Canceled', undefined],
	] as const)(
		'a %s transaction is a NodeApiError with Vantage’s error text and the transaction ID; with Continue On Fail an error item',
		async (outcome, error) => {
			const ended = await startedWith({ outcome, processing: { polls: 0 }, error });
			const message = `Transaction ${ended} ended with status ${outcome}${error ? `: ${error}` : ''} [item 0]`;
			const failed = await runNode({ credentials: f.store, parameters: wait(ended) });
			// n8n records the error as a plain object: its name says which class it was.
			expect(failed.error).toMatchObject({
				name: 'NodeApiError',
				message,
				errorResponse: { id: ended, status: outcome, ...(error ? { error } : {}) },
			});

			const processed = await startedWith({ processing: { polls: 0 } });
			const items = await runNode({
				credentials: f.store,
				items: [{ id: ended }, { id: processed }],
				parameters: wait('={{ $json.id }}'),
				continueOnFail: true,
			});
			expect(items.items[0]).toEqual({
				json: expect.objectContaining({
					transactionId: ended,
					status: outcome,
					error: message,
					errorDescription: expect.any(String),
				}),
				pairedItem: { item: 0 },
			});
			expect(items.items[1]).toEqual({
				json: expect.objectContaining({ transactionId: processed, status: 'Processed' }),
				pairedItem: { item: 1 },
			});
		},
	);

	test('many transactions are polled several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const ids = f.sim.seedCompletedTransactions(12, { skillId: FIXTURE.documentSkillId });
		const { auto, pinned } = await concurrencyOf(
			f,
			'GetTransactionInfo',
			(options) => wait('={{ $json.id }}', options),
			ids.map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
	});
});
