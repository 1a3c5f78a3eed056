import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { readBinary, runNode, serialize } from '../../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { processParams as process, rl } from '../../helpers/params';
import { FIXTURE, splittingSkill } from '../../simulator/simulator';

const f = useSimulator((sim) =>
	// The first status poll already sees the outcome: tests do not wait a poll interval.
	sim.setDefaultTransactionScript({ processing: { polls: 0 } }),
);

const invoice = (
	number: string,
	name = `${number}.pdf`,
	extra: Parameters<typeof invoiceText>[0] = { number },
) => fileItem(binaryFile(name, invoiceText({ ...extra, number })));

function uploads(route: 'LaunchTransaction' | 'AddFilesToTransaction') {
	return f.sim
		.requestsTo(route)
		.map((r) => r.body as { model: IDataObject | null; files: IDataObject[] });
}

describe('Process Document: files in, fields out', () => {
	test('one small file is launched in one call and comes back as one item with its fields as plain JSON', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				invoice('INV-1', 'inv-1.pdf', {
					number: 'INV-1',
					date: '03.11.2025',
					total: '1.250,00',
					vendor: 'ACME GmbH',
					poNumbers: ['PO-7', 'PO-8'],
					lines: [
						['Paper', '2', '10,00'],
						['Toner', '1', '1.240,00'],
					],
				}),
			],
			parameters: process(),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({
			status: 'Processed',
			uploadMethod: 'launch',
			skill: { id: FIXTURE.documentSkillId, name: 'Invoice' },
			sourceFiles: ['inv-1.pdf'],
			businessRulesErrors: [],
			classification: null,
		});
		expect(item.json.transactionId).toMatch(/^[0-9a-f-]{36}$/);
		expect(item.json.documentId).toMatch(/^[0-9a-f-]{36}$/);
		const fields = item.json.fields as IDataObject;
		expect(fields.InvoiceNumber).toBe('INV-1');
		expect(fields.InvoiceDate).toBe('2025-11-03');
		// Decimal fields are JSON numbers; dates stay ISO text.
		expect(fields.Total).toBe(1250);
		// A repeating field is an array, a group an object, a table an array of row objects.
		expect(fields.PONumbers).toEqual(['PO-7', 'PO-8']);
		expect(fields.Vendor).toMatchObject({ Name: 'ACME GmbH' });
		expect(fields.LineItems).toEqual([
			{ Description: 'Paper', Quantity: 2, Amount: 10 },
			{ Description: 'Toner', Quantity: 1, Amount: 1240 },
		]);
		expect(item.json.fieldDetails).toBeUndefined();
		expect(uploads('LaunchTransaction')).toHaveLength(1);
		expect(f.sim.requestsTo('CreateTransaction')).toHaveLength(0);
		expect(f.sim.requestsTo('LaunchTransaction')[0].query).toEqual({
			skillId: FIXTURE.documentSkillId,
		});
	});

	test('Include Field Details adds confidence, raw value and verification flags beside the fields', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				invoice('INV-2', 'inv.pdf', {
					number: 'INV-2',
					total: '1.250,00',
					extra: ['Confidence.Total: 62'],
				}),
			],
			parameters: process({}, { includeFieldDetails: true }),
		});
		const json = result.items[0].json;
		expect((json.fields as IDataObject).Total).toBe(1250);
		expect((json.fieldDetails as IDataObject).Total).toEqual({
			value: 1250,
			confidence: 62,
			rawValue: '1.250,00',
			needsVerification: true,
			verified: false,
		});
	});

	test('several files of a Process skill use create → add files → start, one item per extracted document', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				fileItem({
					first: binaryFile('a.pdf', invoiceText({ number: 'A-1' })),
					second: binaryFile('b.pdf', invoiceText({ number: 'B-1' })),
				}),
			],
			parameters: process({ skillId: rl(FIXTURE.processSkillId), inputFiles: 'all' }),
		});
		expect(result.error).toBeUndefined();
		// The Process skill splits each file into two documents.
		expect(result.items).toHaveLength(4);
		expect(result.items.map((i) => i.pairedItem)).toEqual(Array(4).fill({ item: 0 }));
		expect(new Set(result.items.map((i) => i.json.transactionId)).size).toBe(1);
		expect(result.items.map((i) => (i.json.fields as IDataObject).InvoiceNumber).sort()).toEqual([
			'A-1',
			'A-1-2',
			'B-1',
			'B-1-2',
		]);
		// Each document names the file it came from, as its result JSON (SourceFiles) tells.
		expect(
			result.items.map((i) => [
				(i.json.fields as IDataObject).InvoiceNumber,
				i.json.sourceFiles,
				i.json.pairing,
			]),
		).toEqual([
			['A-1', ['a.pdf'], 'resultJson'],
			['A-1-2', ['a.pdf'], 'resultJson'],
			['B-1', ['b.pdf'], 'resultJson'],
			['B-1-2', ['b.pdf'], 'resultJson'],
		]);
		expect(f.sim.requestsTo('GetTransactionDocuments')).toHaveLength(0);
		expect(result.items[0].json).toMatchObject({
			uploadMethod: 'separateCalls',
			classification: { class: 'Invoice', confident: true },
		});
		expect(f.sim.requestsTo('CreateTransaction')).toHaveLength(1);
		expect(uploads('AddFilesToTransaction')[0].files.map((file) => file.name)).toEqual([
			'a.pdf',
			'b.pdf',
		]);
		expect(f.sim.requestsTo('StartTransaction')).toHaveLength(1);
		expect(f.sim.requestsTo('LaunchTransaction')).toHaveLength(0);
	});

	test('Upload Method pins the path, and the file bytes arrive unchanged', async () => {
		const bytes = Buffer.from(
			invoiceText({ number: 'PIN-1' }) + '\u0000\u00ff binary tail',
			'latin1',
		);
		const result = await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('scan.pdf', bytes))],
			parameters: process({}, { uploadMethod: 'separate' }),
		});
		expect(result.items[0].json.uploadMethod).toBe('separateCalls');
		const [sent] = uploads('AddFilesToTransaction')[0].files;
		expect(sent).toMatchObject({ name: 'scan.pdf', size: bytes.length });
		const { createHash } = await import('node:crypto');
		expect(sent.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
	});

	test('One for All Items puts every item’s files into one transaction; each document is paired with its own item', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [invoice('X-1'), invoice('X-2'), invoice('X-3')],
			parameters: process({ skillId: rl(FIXTURE.processSkillId), transactionMode: 'combined' }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(6);
		expect(
			result.items.map((item) => [
				(item.json.fields as IDataObject).InvoiceNumber,
				item.json.sourceFiles,
				item.pairedItem,
			]),
		).toEqual([
			['X-1', ['X-1.pdf'], { item: 0 }],
			['X-1-2', ['X-1.pdf'], { item: 0 }],
			['X-2', ['X-2.pdf'], { item: 1 }],
			['X-2-2', ['X-2.pdf'], { item: 1 }],
			['X-3', ['X-3.pdf'], { item: 2 }],
			['X-3-2', ['X-3.pdf'], { item: 2 }],
		]);
		expect(f.sim.createdCounts().transactions).toBe(1);
	});

	test('file names are made unique within the transaction, also where Vantage would replace characters', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				invoice('D-1', 'invoice.pdf'),
				invoice('D-2', 'invoice.pdf'),
				invoice('D-3', 'a:b.pdf'),
				invoice('D-4', 'a_b.pdf'),
				fileItem(binaryFile(undefined, invoiceText({ number: 'D-5' }), 'image/png')),
			],
			parameters: process({ skillId: rl(FIXTURE.processSkillId), transactionMode: 'combined' }),
		});
		expect(result.error).toBeUndefined();
		expect(uploads('AddFilesToTransaction')[0].files.map((file) => file.name)).toEqual([
			'invoice.pdf',
			'invoice-2.pdf',
			'a:b.pdf',
			'a_b-2.pdf',
			'data.png',
		]);
		expect(result.items[0].json.renamedFiles).toEqual([
			{ from: 'invoice.pdf', to: 'invoice-2.pdf', item: 1, property: 'data' },
			{ from: 'a_b.pdf', to: 'a_b-2.pdf', item: 3, property: 'data' },
		]);
		// Vantage stores "a:b.pdf" as "a_b.pdf"; each document is still paired with its own item.
		expect(result.items.map((item) => [item.json.sourceFiles, item.pairedItem])).toEqual(
			[
				['invoice.pdf', 0],
				['invoice-2.pdf', 1],
				['a_b.pdf', 2],
				['a_b-2.pdf', 3],
				['data.png', 4],
			].flatMap(([name, item]) => Array(2).fill([[name], { item }])),
		);
	});

	test('registration and skill parameters and image options travel in the Model part', async () => {
		await runNode({
			credentials: f.store,
			items: [invoice('M-1')],
			parameters: process(
				{},
				{
					registrationParameters: { parameter: [{ key: 'Source', value: 'n8n' }] },
					skillParameters: { parameter: [{ key: 'Country', value: 'DE' }] },
					autoCrop: 'Yes',
					autoOrientation: 'No',
				},
			),
		});
		expect(uploads('LaunchTransaction')[0].model).toEqual({
			files: [{ imageProcessingOptions: { autoCrop: 'Yes', autoOrientation: 'No' } }],
			registrationParameters: [{ key: 'Source', value: 'n8n' }],
			skillParameters: [{ key: 'Country', value: 'DE' }],
		});
	});

	test('a classification skill gives the class and no fields', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [invoice('C-1')],
			parameters: process({ skillId: rl(FIXTURE.classificationSkillId) }),
		});
		expect(result.items[0].json).toMatchObject({
			fields: {},
			resultFiles: [],
			classification: { class: expect.any(String), confident: expect.any(Boolean) },
		});
	});

	test('Split Table Into Items gives one item per line item, the other fields repeated', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				invoice('T-1', 't.pdf', {
					number: 'T-1',
					lines: [
						['A', '1', '1,00'],
						['B', '2', '2,00'],
						['C', '3', '3,00'],
					],
				}),
			],
			parameters: process({}, { splitTable: 'LineItems' }),
		});
		expect(result.items).toHaveLength(3);
		expect(result.items.map((i) => i.json.tableRow)).toEqual([0, 1, 2]);
		expect(
			result.items.map(
				(i) => ((i.json.fields as IDataObject).LineItems as IDataObject).Description,
			),
		).toEqual(['A', 'B', 'C']);
		for (const item of result.items) {
			expect((item.json.fields as IDataObject).InvoiceNumber).toBe('T-1');
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	test('Download Result Files attaches the files as binary fields named after their type', async () => {
		const all = await runNode({
			credentials: f.store,
			items: [invoice('F-1')],
			parameters: process({}, { downloadResultFiles: 'all' }),
		});
		const binary = all.items[0].binary ?? {};
		expect(Object.keys(binary).sort()).toEqual(['fieldsJson', 'json', 'pdf']);
		expect(binary.pdf).toMatchObject({
			mimeType: 'application/pdf',
			fileName: 'F-1-doc1-Invoice.pdf',
		});
		expect((await readBinary(all.items[0], 'pdf')).subarray(0, 8).toString()).toBe('%PDF-1.4');
		const parsed = JSON.parse((await readBinary(all.items[0], 'json')).toString('utf8'));
		expect(parsed.Documents[0].Id).toBe(all.items[0].json.documentId);

		const chosen = await runNode({
			credentials: f.store,
			items: [invoice('F-2')],
			parameters: process({}, { downloadResultFiles: 'selected', resultFileTypes: ['Pdf'] }),
		});
		expect(Object.keys(chosen.items[0].binary ?? {})).toEqual(['pdf']);
	});

	test('result files as binary: names unique across items and documents, after the source file and the document', async () => {
		const result = await runNode({
			credentials: f.store,
			// Two e-mails, each with a "scan.pdf": two transactions, two documents each.
			items: [
				fileItem(binaryFile('scan.pdf', invoiceText({ number: 'N-1' }))),
				fileItem(binaryFile('scan.pdf', invoiceText({ number: 'N-2' }))),
			],
			parameters: process(
				{ skillId: rl(FIXTURE.processSkillId) },
				{ downloadResultFiles: 'all', splitTable: 'LineItems' },
			),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(4);
		const names = result.items.map((item) =>
			Object.values(item.binary ?? {}).map((binary) => binary.fileName),
		);
		expect(names).toEqual([
			['scan-doc1-Invoice.json', 'scan-doc1-Invoice_fields.json', 'scan-doc1-Invoice.pdf'],
			['scan-doc2-Invoice.json', 'scan-doc2-Invoice_fields.json', 'scan-doc2-Invoice.pdf'],
			['scan-doc1-Invoice-2.json', 'scan-doc1-Invoice_fields-2.json', 'scan-doc1-Invoice-2.pdf'],
			['scan-doc2-Invoice-2.json', 'scan-doc2-Invoice_fields-2.json', 'scan-doc2-Invoice-2.pdf'],
		]);
	});

	test('Delete Transaction After Reading deletes it once the results are in the output', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [invoice('DEL-1')],
			parameters: process({}, { deleteAfterReading: true }),
		});
		expect(result.items[0].json).toMatchObject({ transactionDeleted: true });
		expect(f.sim.requestsTo('DeleteTransaction')).toHaveLength(1);
		expect(f.sim.requestsTo('DeleteTransaction')[0].params.transactionId).toBe(
			result.items[0].json.transactionId,
		);
	});
});

describe('Process Document: what comes out', () => {
	test('Download Result Files = JSON Only attaches the full result JSON and nothing else', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [invoice('J-1')],
			parameters: process({}, { downloadResultFiles: 'json' }),
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(Object.keys(item.binary ?? {})).toEqual(['json']);
		expect(item.binary?.json).toMatchObject({
			mimeType: 'application/json',
			fileName: 'J-1-doc1-Invoice.json',
		});
		const parsed = JSON.parse((await readBinary(item, 'json')).toString('utf8'));
		expect(parsed.Documents[0].Id).toBe(item.json.documentId);
		expect((item.json.fields as IDataObject).InvoiceNumber).toBe('J-1');
	});

	test('business rule errors come out with the document, as Vantage reports them', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				invoice('BR-1', 'br.pdf', {
					number: 'BR-1',
					total: '10,00',
					extra: ['RuleError: Total does not match the line items', 'RuleError: Vendor unknown'],
				}),
			],
			parameters: process(),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.businessRulesErrors).toEqual([
			{
				errorType: 'Condition',
				customMessage: 'Total does not match the line items',
				ruleId: 'rule-1',
				currentFieldId: 'Total',
			},
			{
				errorType: 'Condition',
				customMessage: 'Vendor unknown',
				ruleId: 'rule-2',
				currentFieldId: 'Total',
			},
		]);
		// Rule errors do not stop the fields: the document was processed.
		expect(result.items[0].json).toMatchObject({
			status: 'Processed',
			fields: { InvoiceNumber: 'BR-1' },
		});
	});

	test('an OCR skill gives no fields, and its OCR result files on request', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [invoice('O-1', 'page.pdf')],
			parameters: process({ skillId: rl(FIXTURE.ocrSkillId) }, { downloadResultFiles: 'all' }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.json).toMatchObject({
			status: 'Processed',
			fields: {},
			skill: null,
			classification: null,
			sourceFiles: ['page.pdf'],
			resultFiles: [
				{ fileId: expect.any(String), fileName: 'OCR.json', type: 'OcrJson' },
				{ fileId: expect.any(String), fileName: 'OCR.txt', type: 'Text' },
			],
		});
		expect(Object.keys(item.binary ?? {}).sort()).toEqual(['ocrJson', 'text']);
		expect(item.binary?.text).toMatchObject({
			mimeType: 'text/plain',
			fileName: 'page-doc1-OCR.txt',
		});
		expect((await readBinary(item, 'text')).toString('utf8')).toContain('InvoiceNumber: O-1');
		const ocr = JSON.parse((await readBinary(item, 'ocrJson')).toString('utf8'));
		expect(ocr.Pages[0].Text).toContain('InvoiceNumber: O-1');
	});
});

describe('Process Document: One for All Items, each document with its own item', () => {
	const combined = (options: IDataObject = {}, skillId: string = FIXTURE.processSkillId) =>
		process({ skillId: rl(skillId), transactionMode: 'combined', inputFiles: 'all' }, options);

	test('a document is paired with the item whose file it came from; an item with two files gets both files’ documents', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				fileItem({
					a: binaryFile('a.pdf', invoiceText({ number: 'A' })),
					b: binaryFile('b.pdf', invoiceText({ number: 'B' })),
				}),
				invoice('C', 'c.pdf'),
			],
			parameters: combined({ uploadMethod: 'separate' }),
		});
		expect(result.error).toBeUndefined();
		expect(
			result.items.map((item) => [
				(item.json.fields as IDataObject).InvoiceNumber,
				item.json.sourceFiles,
				item.pairedItem,
			]),
		).toEqual([
			['A', ['a.pdf'], { item: 0 }],
			['A-2', ['a.pdf'], { item: 0 }],
			['B', ['b.pdf'], { item: 0 }],
			['B-2', ['b.pdf'], { item: 0 }],
			['C', ['c.pdf'], { item: 1 }],
			['C-2', ['c.pdf'], { item: 1 }],
		]);
	});

	test('a Process skill that splits and merges files: each document is paired by its result JSON’s SourceFiles', async () => {
		f.sim.defineSkill(splittingSkill());
		const text = (...lines: string[]) => binaryFile(`${lines[0]}.txt`, lines.slice(1).join('\n'));
		const result = await runNode({
			credentials: f.store,
			items: [
				// One file holding two invoices: two documents.
				fileItem(text('two', 'InvoiceNumber: S-1', 'InvoiceNumber: S-2')),
				fileItem(text('first-page', 'InvoiceNumber: S-3')),
				// Its second page, from another item: one document made of two items' files.
				fileItem(text('second-page', 'Continued: yes', 'LineItem: Desk; 1; 5')),
			],
			parameters: combined({}, FIXTURE.splittingSkillId),
		});
		expect(result.error).toBeUndefined();
		expect(
			result.items.map((item) => [
				(item.json.fields as IDataObject).InvoiceNumber,
				item.json.sourceFiles,
				item.json.pairing,
				item.pairedItem,
			]),
		).toEqual([
			['S-1', ['two.txt'], 'resultJson', { item: 0 }],
			['S-2', ['two.txt'], 'resultJson', { item: 0 }],
			['S-3', ['first-page.txt', 'second-page.txt'], 'resultJson', [{ item: 1 }, { item: 2 }]],
		]);
		// The documents Vantage lists for the transaction are not these: they were not asked for.
		expect(f.sim.requestsTo('GetTransactionDocuments')).toHaveLength(0);
	});

	test('when no result names a document’s files, each document carries all of them and every item, and says pairing "unknown"', async () => {
		f.sim.defineSkill(splittingSkill());
		// Result JSON without SourceFiles, and transaction documents whose ids are not the processed ones.
		f.sim.injectFault(
			'DownloadFile',
			{ kind: 'status', status: 200, body: { Documents: [] } },
			Infinity,
		);
		const result = await runNode({
			credentials: f.store,
			items: [invoice('U-1'), invoice('U-2')],
			parameters: combined({}, FIXTURE.splittingSkillId),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.json.sourceFiles).toEqual(['U-1.pdf', 'U-2.pdf']);
			expect(item.json.pairing).toBe('unknown');
			expect(item.pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		}
		expect(f.sim.requestsTo('GetTransactionDocuments')).toHaveLength(1);
	});

	test('without sources in the result JSON, Vantage’s transaction documents pair each document (pairing "transactionDocuments")', async () => {
		f.sim.injectFault(
			'DownloadFile',
			{ kind: 'status', status: 200, body: { Documents: [] } },
			Infinity,
		);
		const result = await runNode({
			credentials: f.store,
			items: [invoice('D-1'), invoice('D-2')],
			parameters: combined(),
		});
		expect(result.error).toBeUndefined();
		expect(
			result.items.map((item) => [item.json.sourceFiles, item.json.pairing, item.pairedItem]),
		).toEqual([
			[['D-1.pdf'], 'transactionDocuments', { item: 0 }],
			[['D-1.pdf'], 'transactionDocuments', { item: 0 }],
			[['D-2.pdf'], 'transactionDocuments', { item: 1 }],
			[['D-2.pdf'], 'transactionDocuments', { item: 1 }],
		]);
	});

	test('Auto Crop and Auto Orientation are read per file, from each file’s own item', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [
				invoice('I-1', 'i1.pdf'),
				invoice('I-2', 'i2.pdf'),
				fileItem({
					x: binaryFile('i3.pdf', invoiceText({ number: 'I-3' })),
					y: binaryFile('i4.pdf', invoiceText({ number: 'I-4' })),
				}),
			],
			parameters: process(
				{
					skillId: rl(FIXTURE.processSkillId),
					transactionMode: 'combined',
					inputFiles: 'all',
				},
				{
					autoCrop: '={{ ["Yes", undefined, "No"][$itemIndex] }}',
					autoOrientation: '={{ $itemIndex === 2 ? "Yes" : undefined }}',
				},
			),
		});
		expect(result.error).toBeUndefined();
		expect(uploads('AddFilesToTransaction')[0].model).toEqual({
			files: [
				{ imageProcessingOptions: { autoCrop: 'Yes' } },
				{},
				{ imageProcessingOptions: { autoCrop: 'No', autoOrientation: 'Yes' } },
				{ imageProcessingOptions: { autoCrop: 'No', autoOrientation: 'Yes' } },
			],
		});
	});
});

describe('Process Document: create → add files → start, each sent once', () => {
	const separate = (options: IDataObject = {}) =>
		process({}, { uploadMethod: 'separate', ...options });
	const timeoutFault = { kind: 'delay', ms: 1500 } as const;

	test.each([
		['a 504', { kind: 'status', status: 504 } as const],
		['a timeout', timeoutFault],
	])(
		'%s on Add Files is not sent again; the error names the transaction and says the files may have reached Vantage',
		async (_name, fault) => {
			f.sim.injectFault('AddFilesToTransaction', fault, Infinity);
			const result = await runNode({
				credentials: f.store,
				items: [invoice('N-1')],
				parameters: { ...separate(), requestOptions: { timeout: 1, retryDelay: 0 } },
			});
			const [created] = f.sim.requestsTo('CreateTransaction');
			expect(created.status).toBe(201);
			const transactionId = f.sim.requestsTo('AddFilesToTransaction')[0].params.transactionId;
			expect(f.sim.requestsTo('AddFilesToTransaction')).toHaveLength(1);
			expect(f.sim.requestsTo('StartTransaction')).toHaveLength(0);
			expect(f.sim.requestsTo('CreateTransaction')).toHaveLength(1);
			const description = (result.error as { description?: string }).description ?? '';
			expect(description).toContain(`While adding file "N-1.pdf" to transaction ${transactionId}`);
			expect(description).toContain(
				'The request may have reached ABBYY Vantage and been applied; it was not sent again so that nothing is created twice.',
			);
			expect(result.error?.message).toMatch(/\[item 0\]$/);
		},
	);

	test.each([
		['a 504', { kind: 'status', status: 504 } as const],
		['a timeout', timeoutFault],
	])(
		'%s on Start is not sent again; the error names the transaction and says it may have started',
		async (_name, fault) => {
			f.sim.injectFault('StartTransaction', fault, Infinity);
			const result = await runNode({
				credentials: f.store,
				items: [invoice('N-2')],
				parameters: { ...separate(), requestOptions: { timeout: 1, retryDelay: 0 } },
				continueOnFail: true,
			});
			const transactionId = f.sim.requestsTo('StartTransaction')[0].params.transactionId;
			expect(f.sim.requestsTo('StartTransaction')).toHaveLength(1);
			expect(f.sim.requestsTo('AddFilesToTransaction')).toHaveLength(1);
			expect(f.sim.requestsTo('CreateTransaction')).toHaveLength(1);
			const [item] = result.items;
			expect(item.json).toMatchObject({ transactionId });
			expect(item.json.errorDescription).toContain(`While starting transaction ${transactionId}`);
			expect(item.json.errorDescription).toContain(
				'The request may have reached ABBYY Vantage and been applied; it was not sent again',
			);
		},
	);
});

describe('Process Document: waiting, manual review and failures', () => {
	test('a transaction in Manual Review is waited for by default, then its results come out', async () => {
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 2 } });
		const result = await runNode({
			credentials: f.store,
			items: [invoice('R-1')],
			parameters: process(),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			status: 'Processed',
			fields: { InvoiceNumber: 'R-1' },
		});
		expect(f.sim.requestsTo('GetTransactionInfo').length).toBeGreaterThanOrEqual(3);
	});

	test('On Manual Review = Output the Link stops waiting and says so, with the transaction ID', async () => {
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 100 } });
		const result = await runNode({
			credentials: f.store,
			items: [invoice('R-2')],
			parameters: process({}, { onManualReview: 'output' }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			status: 'Processing',
			waitingForManualReview: true,
			manualReviewLink: expect.stringContaining('/review/'),
			uploadMethod: 'launch',
		});
		expect(result.items[0].json.transactionId).toMatch(/^[0-9a-f-]{36}$/);
		// The same poll bookkeeping as a finished item.
		expect(result.items[0].json).toMatchObject({ polls: expect.any(Number), failedPolls: 0 });
	});

	test('a finished item carries the same poll bookkeeping keys as a manual-review item', async () => {
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 2 } });
		const result = await runNode({
			credentials: f.store,
			items: [invoice('R-3')],
			parameters: process(),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'Processed', failedPolls: 0 });
		// Processing, two polls in review, then Processed.
		expect(result.items[0].json.polls).toBe(f.sim.requestsTo('GetTransactionInfo').length);
	});

	test('a Failed transaction is an API error with Vantage’s reason and the transaction ID', async () => {
		f.sim.scriptNextTransaction({
			outcome: 'Failed',
			processing: { polls: 0 },
			error: 'The file is damaged',
		});
		const failed = await runNode({
			credentials: f.store,
			items: [invoice('E-1')],
			parameters: process(),
		});
		expect(failed.error?.message).toMatch(
			/^Transaction [0-9a-f-]{36} ended with status Failed: The file is damaged \[item 0\]$/,
		);
		// n8n records the error as a plain object: its name says which class it was.
		expect(failed.error).toMatchObject({
			name: 'NodeApiError',
			errorResponse: { status: 'Failed', error: 'The file is damaged', id: expect.any(String) },
		});

		f.sim.scriptNextTransaction({ outcome: 'Canceled', processing: { polls: 0 } });
		const items = await runNode({
			credentials: f.store,
			items: [invoice('E-2'), invoice('E-3')],
			parameters: process(),
			continueOnFail: true,
		});
		// The first item's transaction was canceled; the second one processed.
		const [canceled, fine] = items.items;
		expect(canceled.json).toMatchObject({ status: 'Canceled', transactionId: expect.any(String) });
		expect(canceled.json.error).toMatch(/ended with status Canceled \[item 0\]$/);
		// httpCode is for HTTP statuses only: the transaction's status is under status.
		expect(canceled.json).not.toHaveProperty('httpCode');
		expect(fine.json).toMatchObject({ status: 'Processed', fields: { InvoiceNumber: 'E-3' } });
		expect(fine.pairedItem).toEqual({ item: 1 });
	});

	test('a Failed transaction’s error item carries status "Failed" and Vantage’s text, and no httpCode; the error none either', async () => {
		f.sim.scriptNextTransaction({
			outcome: 'Failed',
			processing: { polls: 0 },
			error: 'The file is damaged',
		});
		const result = await runNode({
			credentials: f.store,
			items: [invoice('E-4'), invoice('E-5')],
			parameters: process({ skillId: rl(FIXTURE.processSkillId), transactionMode: 'combined' }),
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.json).toMatchObject({ status: 'Failed', transactionId: expect.any(String) });
		expect(item.json.error).toMatch(/ended with status Failed: The file is damaged \[item 0\]$/);
		expect(item.json).not.toHaveProperty('httpCode');
		expect(item.pairedItem).toEqual([{ item: 0 }, { item: 1 }]);

		f.sim.scriptNextTransaction({ outcome: 'Failed', processing: { polls: 0 } });
		const stopped = await runNode({
			credentials: f.store,
			items: [invoice('E-6')],
			parameters: process(),
		});
		expect((stopped.error as { httpCode?: unknown }).httpCode ?? null).toBeNull();
	});

	test('a transaction that does not finish within Timeout is reported with its ID and last status', async () => {
		f.sim.scriptNextTransaction({ outcome: 'Never', processing: { polls: 0 } });
		const result = await runNode({
			credentials: f.store,
			items: [invoice('W-1')],
			parameters: process({}, { timeout: 1 }),
			continueOnFail: true,
		});
		expect(result.items[0].json.error).toMatch(
			/^Transaction [0-9a-f-]{36} did not finish within 1 second; last status: Processing \[item 0\]$/,
		);
		expect(result.items[0].json.transactionId).toMatch(/^[0-9a-f-]{36}$/);
	});

	test('the wait polls through a 429, a 503 and a dropped connection; the output counts the failed polls', async () => {
		f.sim.injectFault('GetTransactionInfo', { kind: 'status', status: 429 });
		f.sim.injectFault('GetTransactionInfo', { kind: 'status', status: 503 });
		f.sim.injectFault('GetTransactionInfo', { kind: 'reset' });
		const result = await runNode({
			credentials: f.store,
			items: [invoice('H-1')],
			// No retries inside one poll: each fault fails a whole poll.
			parameters: {
				...process({}, { maxPollInterval: 1 }),
				requestOptions: { maxRetries: 0 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			status: 'Processed',
			failedPolls: 3,
			fields: { InvoiceNumber: 'H-1' },
		});
		expect(f.sim.requestsTo('GetTransactionInfo').map((r) => r.status)).toEqual([429, 503, 0, 200]);
	});

	test('cancelling the execution stops the wait at once', async () => {
		f.sim.scriptNextTransaction({ outcome: 'Never', processing: { polls: 0 } });
		const result = await runNode({
			credentials: f.store,
			items: [invoice('W-2')],
			parameters: process({}, { pollInterval: 30 }),
			cancelAfterMs: 500,
		});
		expect(result.status).toBe('canceled');
		// Stopped long before the 30 s poll interval was over.
		expect(result.elapsedMs).toBeLessThan(10_000);
	});

	test('a token that expired during the run is renewed once and the launch is not repeated', async () => {
		await runNode({ credentials: f.store, items: [invoice('T-0')], parameters: process() });
		f.sim.revokeTokens();
		const before = f.sim.createdCounts().transactions;
		const result = await runNode({
			credentials: f.store,
			items: [invoice('T-1')],
			parameters: process(),
		});
		expect(result.error).toBeUndefined();
		expect(f.sim.createdCounts().transactions - before).toBe(1);
		expect(serialize(result)).not.toContain(FIXTURE.password);
	});
});

describe('Process Document: bad input is refused before any request', () => {
	const cases: Array<[string, INodeExecutionData[], IDataObject, IDataObject, RegExp]> = [
		[
			'a missing binary field',
			[fileItem({ other: binaryFile('x.pdf', 'x') })],
			{},
			{},
			/^The input item has no binary field "data" \[item 0\]$/,
		],
		[
			'an empty file',
			[fileItem(binaryFile('empty.pdf', ''))],
			{},
			{},
			/^The file in binary field "data" \(empty.pdf\) is empty \[item 0\]$/,
		],
		[
			'an item without binary data',
			[{ json: {} }],
			{ inputFiles: 'all' },
			{},
			/^The input item has no binary data to process \[item 0\]$/,
		],
		[
			'11 registration parameters',
			[invoice('B-1')],
			{},
			{
				registrationParameters: {
					parameter: Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: 'v' })),
				},
			},
			/^Registration Parameters has 11 entries; Vantage accepts at most 10 \[item 0\]$/,
		],
		[
			'an empty parameter key',
			[invoice('B-2')],
			{},
			{ skillParameters: { parameter: [{ key: ' ', value: 'v' }] } },
			/^Skill Parameters: the key of entry 1 is empty/,
		],
		[
			'a Wait Interval under one second',
			[invoice('B-3')],
			{},
			{ pollInterval: 0.5 },
			/^Wait Interval must be between 1 and 86400 seconds, not 0.5 \[item 0\]$/,
		],
		[
			'an empty Skill from an expression',
			[invoice('B-4')],
			{ skillId: rl('={{ "" }}') },
			{},
			/^Skill is empty \[item 0\]$/,
		],
	];
	test.each(cases)('%s', async (_name, items, extra, options, message) => {
		const result = await runNode({
			credentials: f.store,
			items,
			parameters: process(extra, options),
		});
		expect(result.error?.message).toMatch(message);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('bad input in a later item stops the run before the first item creates anything', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [invoice('OK-1'), fileItem({ other: binaryFile('x.pdf', 'x') })],
			parameters: process(),
		});
		expect(result.error?.message).toMatch(/\[item 1\]$/);
		expect(f.sim.createdCounts().transactions).toBe(0);
	});

	test('Vantage refusing item 2 stops the run; the error names each transaction items 0 and 1 created, once', async () => {
		f.sim.injectFault(
			'LaunchTransaction',
			{ kind: 'status', status: 400, body: { title: 'Bad Request', status: 400, detail: 'No' } },
			1,
			2,
		);
		const result = await runNode({
			credentials: f.store,
			items: [invoice('K-1'), invoice('K-2'), invoice('K-3')],
			// A Process skill: two documents (two output items) per transaction.
			parameters: process({ skillId: rl(FIXTURE.processSkillId) }, { concurrency: 1 }),
		});
		expect(result.error?.message).toBe('ABBYY Vantage rejected the request: No [item 2]');
		const description = (result.error as { description?: string }).description ?? '';
		const named =
			/other items had created: transaction (\S+) \(item 0\), transaction (\S+) \(item 1\)\. They/.exec(
				description,
			);
		expect(named).not.toBeNull();
		expect(f.sim.transaction(named![1])?.files.map((file) => file.name)).toEqual(['K-1.pdf']);
		expect(f.sim.transaction(named![2])?.files.map((file) => file.name)).toEqual(['K-2.pdf']);
	});
});
