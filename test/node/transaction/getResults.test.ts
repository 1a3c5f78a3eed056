import type { IDataObject } from 'n8n-workflow';

import { readBinary, runNode, type RunResult } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf, createdTransaction, processedTransaction } from './flow';
import { DOCUMENT_TEXT_MAX_CHARS } from '../../../nodes/AbbyyVantage/helpers/documentText';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

const getResults = (transactionId: string, options: IDataObject = {}) =>
	nodeParams('transaction', 'getResults', { transactionId, options });

describe('Transaction → Get Results', () => {
	test('Get Results shapes the fields as Process Document does; a transaction still processing is explained', async () => {
		const transactionId = await processedTransaction(f, 'GR-1');
		const result = await runNode({
			credentials: f.store,
			parameters: getResults(transactionId, { includeFieldDetails: true }),
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
			parameters: getResults(pending),
		});
		expect(early.error?.message).toBe(
			`Transaction ${pending} has no results yet: its status is New [item 0]`,
		);
	});

	test('a Failed transaction is a NodeApiError with Vantage’s reason and the transaction ID', async () => {
		const [transactionId] = f.sim.seedCompletedTransactions(1, { status: 'Failed' });
		const result = await runNode({ credentials: f.store, parameters: getResults(transactionId) });
		// n8n records the error as a plain object: its name says which class it was.
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			errorResponse: { id: transactionId, status: 'Failed', error: expect.any(String) },
		});
		expect(result.error?.message).toBe(
			`Transaction ${transactionId} ended with status Failed: The document could not be processed: the file is damaged [item 0]`,
		);
	});

	test('transactions are read several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const ids = f.sim.seedCompletedTransactions(12, { skillId: FIXTURE.documentSkillId });
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'GetTransactionInfo',
			(options) => getResults('={{ $json.id }}', options),
			ids.map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs) {
			expect(run.items.map((item) => [item.json.transactionId, item.json.status])).toEqual(
				ids.map((id) => [id, 'Processed']),
			);
		}
	});

	describe('Needs Review and Include Document Text', () => {
		/** Three invoices as Vantage would have read them, one transaction each. */
		function seedInvoices(): string[] {
			const files = [
				// Read cleanly; the skill exports Text.
				'InvoiceNumber: A-1\nInvoiceDate: 05.01.2026\nTotal: 100,00\nExport: Text\n',
				// Its total read with 55 % confidence, and a business rule failed.
				'InvoiceNumber: A-2\nInvoiceDate: 06.01.2026\nTotal: 200,00\nConfidence.Total: 55\nRuleError: Total differs from the sum of the lines\nExport: Text\n',
				// No date, and no Text export.
				'InvoiceNumber: A-3\nTotal: 300,00\n',
			];
			return files.map(
				(text, i) =>
					f.sim.seedCompletedTransactions(1, { files: [{ name: `a-${i + 1}.pdf`, text }] })[0],
			);
		}

		const needsReview = {
			minConfidence: 80,
			requiredFields: 'InvoiceNumber, InvoiceDate',
			ruleErrors: true,
			uncertainDocumentType: true,
		};

		async function run(extra: IDataObject = {}): Promise<{ ids: string[]; result: RunResult }> {
			const ids = seedInvoices();
			f.sim.clearLog();
			const result = await runNode({
				credentials: f.store,
				items: ids.map((id) => ({ id })),
				parameters: nodeParams('transaction', 'getResults', {
					transactionId: '={{ $json.id }}',
					needsReview,
					options: {
						includeDocumentText: true,
						downloadResultFiles: 'selected',
						resultFileTypes: ['Text'],
					},
					...extra,
				}),
			});
			expect(result.error).toBeUndefined();
			return { ids, result };
		}

		test('each document marked needsReview with the reasons, its text in the item, each file downloaded once', async () => {
			const { ids, result } = await run();
			const [clean, low, undated] = result.items.map((item) => item.json);
			expect(clean).toMatchObject({
				transactionId: ids[0],
				needsReview: false,
				reviewReasons: [],
				text: 'InvoiceNumber: A-1\nInvoiceDate: 05.01.2026\nTotal: 100,00\nExport: Text\n',
			});
			expect(clean.textNote).toBeUndefined();
			// The decision follows the fields, so that it reads at the top of the item.
			expect(Object.keys(clean).slice(0, 6)).toEqual([
				'transactionId',
				'documentId',
				'status',
				'fields',
				'needsReview',
				'reviewReasons',
			]);
			expect(low.needsReview).toBe(true);
			expect(low.reviewReasons).toEqual([
				{
					reason: 'ruleError',
					rule: 'rule-1',
					errorType: 'Condition',
					fieldId: 'Total',
					message:
						'Vantage reported a rule error on Total: Total differs from the sum of the lines',
				},
				{
					reason: 'lowConfidence',
					field: 'Total',
					value: 200,
					confidence: 55,
					threshold: 80,
					message: 'Total 200 was read with 55 % confidence, below the threshold of 80 %',
				},
			]);
			expect(undated).toMatchObject({
				needsReview: true,
				reviewReasons: [
					{
						reason: 'requiredFieldEmpty',
						field: 'InvoiceDate',
						message: 'InvoiceDate is required, and it is empty',
					},
				],
				text: null,
				textNote:
					'Vantage returned no Text result file for this document: the skill must export Text for it to be here',
			});
			// The Text file serves the text and the binary with one download; the Json file is read once.
			const downloads = f.sim.requestsTo('DownloadFile').map((r) => r.params.transactionId);
			expect(downloads.sort()).toEqual([ids[0], ids[0], ids[1], ids[1], ids[2]].sort());
			expect((await readBinary(result.items[0], 'text')).toString('utf8')).toBe(clean.text);
		});

		test('Split Table Into Items: every row of a document carries its decision', async () => {
			const [id] = f.sim.seedCompletedTransactions(1, {
				files: [
					{
						name: 'rows.pdf',
						text: 'InvoiceNumber: R-1\nInvoiceDate: 05.01.2026\nLineItem: Bolts; 1; 5,00\nLineItem: Nuts; 2; 7,00\nConfidence.LineItems.Amount: 40\n',
					},
				],
			});
			const rows = await runNode({
				credentials: f.store,
				parameters: nodeParams('transaction', 'getResults', {
					transactionId: id,
					needsReview: { minConfidence: 80 },
					options: { splitTable: 'LineItems' },
				}),
			});
			expect(rows.items.map((i) => [i.json.tableRow, i.json.needsReview])).toEqual([
				[0, true],
				[1, true],
			]);
			expect((rows.items[0].json.reviewReasons as IDataObject[]).map((r) => r.field)).toEqual([
				'LineItems[0].Amount',
				'LineItems[1].Amount',
			]);
		});

		test('a document type Vantage classified unconfidently (a Classification skill)', async () => {
			const [id] = f.sim.seedCompletedTransactions(1, {
				skillId: FIXTURE.classificationSkillId,
				files: [{ name: 'scan.pdf', text: 'Class: Receipt\nConfidence.Class: 55\n' }],
			});
			const result = await runNode({
				credentials: f.store,
				parameters: nodeParams('transaction', 'getResults', {
					transactionId: id,
					needsReview: { uncertainDocumentType: true },
				}),
			});
			expect(result.items[0].json).toMatchObject({
				needsReview: true,
				reviewReasons: [
					{
						reason: 'uncertainDocumentType',
						documentType: 'Receipt',
						confidence: 55,
						message:
							'Vantage did not classify the document type confidently: Receipt at 55 % confidence',
					},
				],
			});
		});

		test('a text longer than the limit is cut, saying so', async () => {
			const long = `InvoiceNumber: L-1\nExport: Text\n${'A line of the document text.\n'.repeat(5000)}`;
			const [id] = f.sim.seedCompletedTransactions(1, {
				files: [{ name: 'long.pdf', text: long }],
			});
			const result = await runNode({
				credentials: f.store,
				parameters: getResults(id, { includeDocumentText: true }),
			});
			const json = result.items[0].json;
			expect((json.text as string).length).toBeLessThanOrEqual(DOCUMENT_TEXT_MAX_CHARS);
			expect(json.text).toMatch(
				/\n\[… text cut here: the first [\d,]+ of 145,032 characters are above]$/,
			);
			expect(json.textNote).toMatch(/^The text was cut to its first [\d,]+ of 145,032 characters/);
			// Without Needs Review no decision is made: the item has no such keys.
			expect(json).not.toHaveProperty('needsReview');
		});

		test('Send to Second Output: documents needing review leave on Needs Review, the others on Ready', async () => {
			const { ids, result } = await run({ needsReview: { ...needsReview, secondOutput: true } });
			const outputs = outputsOf(result);
			expect(outputs.map((items) => items.map((i) => i.json.transactionId))).toEqual([
				[ids[0]],
				[ids[1], ids[2]],
			]);
		});
	});
});

/** Every output of the node's run (the harness's `items` is the first). */
function outputsOf(result: RunResult) {
	return result.run.data.resultData.runData['ABBYY Vantage'][0].data!.main as Array<
		Array<{ json: IDataObject }>
	>;
}
