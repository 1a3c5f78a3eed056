import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { binaryFile, fileItem } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { addFilesParams, nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf, createdTransaction } from './flow';

const f = useSimulator();

function uploads(
	route: 'AddFilesToTransaction' | 'AddFilesToTransactionDocument' = 'AddFilesToTransaction',
) {
	return f.sim
		.requestsTo(route)
		.map((r) => r.body as { model: IDataObject | null; files: Array<{ name: string }> });
}

describe('Transaction → Add Files', () => {
	test('files from the selected binary fields are added, with the image options', async () => {
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
			parameters: addFilesParams(transactionId, {
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
		expect(uploads()[0].model).toEqual({
			files: [
				{ imageProcessingOptions: { autoCrop: 'No' } },
				{ imageProcessingOptions: { autoCrop: 'No' } },
			],
		});
		expect(f.sim.transaction(transactionId)!.files.map((file) => file.name)).toEqual([
			'one.pdf',
			'two.pdf',
		]);
	});

	test('a name already in the transaction is made unique instead of a 409, and the output says so', async () => {
		const transactionId = await createdTransaction(f, FIXTURE.processSkillId);
		const item = fileItem(binaryFile('same.pdf', 'x'));
		await runNode({
			credentials: f.store,
			items: [item],
			parameters: addFilesParams(transactionId),
		});
		// Vantage stores "a:b.pdf" as "a_b.pdf": a later "a_b.pdf" would clash with it.
		await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('a:b.pdf', 'y'))],
			parameters: addFilesParams(transactionId),
		});
		const again = await runNode({
			credentials: f.store,
			items: [fileItem({ data: binaryFile('same.pdf', 'x'), other: binaryFile('a_b.pdf', 'z') })],
			parameters: addFilesParams(transactionId, { inputFiles: 'all' }),
		});
		expect(again.error).toBeUndefined();
		expect(again.items[0].json).toEqual({
			transactionId,
			files: [
				{ name: 'same-2.pdf', size: 1, binaryField: 'data' },
				{ name: 'a_b-2.pdf', size: 1, binaryField: 'other' },
			],
			renamedFiles: [
				{ from: 'same.pdf', to: 'same-2.pdf', item: 0, property: 'data' },
				{ from: 'a_b.pdf', to: 'a_b-2.pdf', item: 0, property: 'other' },
			],
		});
		// The names in the transaction were read once, before the upload; nothing was refused.
		expect(f.sim.requests.map((r) => `${r.route} ${r.status}`).slice(-2)).toEqual([
			'GetTransactionInfo 200',
			'AddFilesToTransaction 200',
		]);
		expect(f.sim.transaction(transactionId)!.files.map((file) => file.name)).toEqual([
			'same.pdf',
			'a_b.pdf',
			'same-2.pdf',
			'a_b-2.pdf',
		]);
	});

	test('the same name in two items for one transaction: the later item’s file is renamed, whichever uploads first', async () => {
		const first = await createdTransaction(f, FIXTURE.processSkillId);
		const second = await createdTransaction(f, FIXTURE.processSkillId);
		f.sim.clearLog();
		const result = await runNode({
			credentials: f.store,
			items: [
				fileItem(binaryFile('scan.pdf', 'a'), { id: first }),
				fileItem(binaryFile('scan.pdf', 'b'), { id: second }),
				fileItem(binaryFile('scan.pdf', 'c'), { id: first }),
				fileItem(binaryFile('SCAN.pdf', 'd'), { id: first }),
			],
			parameters: addFilesParams('={{ $json.id }}'),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => (item.json.files as IDataObject[])[0].name)).toEqual([
			'scan.pdf',
			'scan.pdf',
			'scan-2.pdf',
			'SCAN-3.pdf',
		]);
		expect(result.items[2].json.renamedFiles).toEqual([
			{ from: 'scan.pdf', to: 'scan-2.pdf', item: 2, property: 'data' },
		]);
		expect(result.items[1].json.renamedFiles).toBeUndefined();
		// One read of each transaction's names, shared by the items adding to it.
		expect(f.sim.requestsTo('GetTransactionInfo')).toHaveLength(2);
		expect(
			f.sim
				.transaction(first)!
				.files.map((file) => file.name)
				.sort(),
		).toEqual(['SCAN-3.pdf', 'scan-2.pdf', 'scan.pdf']);
	});

	test('with a Document ID the files go to that document’s source files, named apart from the transaction’s', async () => {
		const transactionId = await createdTransaction(f, FIXTURE.processSkillId);
		await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('page1.png', 'p0', 'image/png'))],
			parameters: addFilesParams(transactionId),
		});
		const doc = await runNode({
			credentials: f.store,
			parameters: nodeParams('transactionDocument', 'add', { transactionId }),
		});
		const documentId = doc.items[0].json.documentId as string;
		const result = await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('page1.png', 'p1', 'image/png'))],
			parameters: addFilesParams(transactionId, { options: { documentId, autoCrop: 'Yes' } }),
		});
		expect(result.items[0].json).toMatchObject({
			transactionId,
			documentId,
			files: [{ name: 'page1-2.png', size: 2, binaryField: 'data' }],
		});
		const [request] = f.sim.requestsTo('AddFilesToTransactionDocument');
		expect(request.params).toMatchObject({ transactionId, documentId });
		// A document's files take the document's image options (TransactionDocumentFileMetadataDto).
		expect((request.body as { model: IDataObject }).model).toEqual({ files: [{}] });
	});

	test('an unknown transaction is reported from reading it; nothing is uploaded', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('a.pdf', 'a'))],
			parameters: addFilesParams('00000000-0000-4000-8000-000000000000'),
		});
		expect(result.error?.message).toBe(
			'ABBYY Vantage could not find it: Transaction not found [item 0]',
		);
		expect(f.sim.requestsTo('AddFilesToTransaction')).toHaveLength(0);
	});

	test('uploads run several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const fresh = () =>
			Array.from({ length: 10 }, (_, i) =>
				fileItem(binaryFile(`f${i}.pdf`, `InvoiceNumber: ${i}`), {
					id: f.sim.createTransaction(FIXTURE.documentSkillId),
				}),
			);
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'AddFilesToTransaction',
			(options) => addFilesParams('={{ $json.id }}', { options }),
			fresh,
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs) expect(run.items).toHaveLength(10);
	});

	test.each([
		[
			'a missing binary field',
			fileItem({ other: binaryFile('x.pdf', 'x') }),
			/^The input item has no binary field "data" \[item 1\]$/,
		],
		[
			'an empty file',
			fileItem(binaryFile('empty.pdf', '')),
			/^The file in binary field "data" \(empty.pdf\) is empty \[item 1\]$/,
		],
	])('bad input in item 1 of 3 (%s) sends nothing at all', async (_name, bad, message) => {
		const ids = [0, 1, 2].map(() => f.sim.createTransaction(FIXTURE.documentSkillId));
		const result = await runNode({
			credentials: f.store,
			items: [
				fileItem(binaryFile('a.pdf', 'a'), { id: ids[0] }),
				{ ...bad, json: { id: ids[1] } },
				fileItem(binaryFile('c.pdf', 'c'), { id: ids[2] }),
			],
			parameters: addFilesParams('={{ $json.id }}'),
		});
		expect(result.error?.message).toMatch(message);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('Vantage refusing item 2 stops the run; the error names the files items 0 and 1 added', async () => {
		const ids = [0, 1, 2].map(() => f.sim.createTransaction(FIXTURE.documentSkillId));
		f.sim.injectFault(
			'AddFilesToTransaction',
			{ kind: 'status', status: 400, body: { title: 'Bad Request', status: 400, detail: 'No' } },
			1,
			2,
		);
		const result = await runNode({
			credentials: f.store,
			items: [
				fileItem(binaryFile('a.pdf', 'a'), { id: ids[0] }),
				fileItem(
					{ data: binaryFile('b1.pdf', 'b'), more: binaryFile('b2.pdf', 'b') },
					{ id: ids[1] },
				),
				fileItem(binaryFile('c.pdf', 'c'), { id: ids[2] }),
			],
			parameters: addFilesParams('={{ $json.id }}', {
				inputFiles: 'all',
				options: { concurrency: 1 },
			}),
		});
		expect(result.error?.message).toBe('ABBYY Vantage rejected the request: No [item 2]');
		expect((result.error as { description?: string }).description).toContain(
			`Before the run stopped, other items had created: file "a.pdf" added to transaction ${ids[0]} (item 0), 2 files added to transaction ${ids[1]} (item 1).`,
		);
	});
});
