import { createHash } from 'node:crypto';

import { FIXTURE } from './simulator';
import { useRawSimulator } from './testkit';
import { download, launched, resultJson, settle, type TransactionDtoJson } from './uploadkit';

const s = useRawSimulator();

const INVOICE = [
	'InvoiceNumber: INV-1',
	'InvoiceDate: 03.11.2025',
	'Total: 1.250,00',
	'Confidence.Total: 62',
	'PONumbers: A, B',
	'Vendor.Name: ACME',
	'Vendor.VatId: DE1',
	'LineItem: Desk; 2; 99,50',
	'LineItem: Chair; 4; 1.150,50',
	'RuleError: Total does not match the line items',
].join('\n');

async function processed(skillId: string, files: Array<{ name: string; data?: string }>) {
	const tx = await launched(s.sim, s.bearer, skillId, files);
	const dto = await settle(s.sim, s.bearer, tx);
	expect(dto.status).toBe('Processed');
	return dto;
}

/** An extracted simple field as the result JSON has it. */
const simple = (id: string, value: string, raw = value, confidence = 95) => ({
	Id: id,
	Value: value,
	Annotation: { Confidence: confidence, RawValue: raw, Source: 'Text' },
	NeedVerification: confidence < 70,
	isVerified: false,
});
const concept = (name: string, type: string, max = 1, path = name) => ({
	Id: `f-${path}`,
	Name: name,
	Type: type,
	Cardinality: { Min: 0, Max: max },
});
const row = (
	i: number,
	description: string,
	quantity: string,
	amount: string,
	rawAmount: string,
) => ({
	Id: `o-LineItems-${i}`,
	Value: {
		Id: `o-LineItems-${i}-obj`,
		Concept: 'LineItems',
		ConceptId: 'c-LineItems',
		Fields: [
			{ Name: 'Description', List: [simple(`o-LineItems[${i}].Description-0`, description)] },
			{ Name: 'Quantity', List: [simple(`o-LineItems[${i}].Quantity-0`, quantity)] },
			{ Name: 'Amount', List: [simple(`o-LineItems[${i}].Amount-0`, amount, rawAmount)] },
		],
	},
	NeedVerification: false,
	isVerified: false,
});

describe('results', () => {
	test('a Document skill: Json, FieldsJson and Pdf result files, rule errors', async () => {
		const dto = await processed(FIXTURE.documentSkillId, [{ name: 'inv.txt', data: INVOICE }]);
		const doc = dto.documents![0];
		expect(doc).toEqual({
			id: expect.any(String),
			resultFiles: [
				{ fileId: expect.any(String), fileName: 'Invoice.json', type: 'Json' },
				{ fileId: expect.any(String), fileName: 'Invoice_fields.json', type: 'FieldsJson' },
				{ fileId: expect.any(String), fileName: 'Invoice.pdf', type: 'Pdf' },
			],
			businessRulesErrors: [
				{
					errorType: 'Condition',
					customMessage: 'Total does not match the line items',
					ruleId: 'rule-1',
					currentFieldId: 'Total',
				},
			],
		});
		const pdf = await download(s.sim, s.bearer, dto.id, doc.resultFiles![2].fileId);
		expect(pdf.contentType).toBe('application/octet-stream');
		expect(pdf.body.subarray(0, 8).toString()).toBe('%PDF-1.4');
		expect(pdf.body.toString().trimEnd().endsWith('%%EOF')).toBe(true);
	});

	test('the Json result has the documented shape, values read from the file', async () => {
		const dto = await processed(FIXTURE.documentSkillId, [{ name: 'inv.txt', data: INVOICE }]);
		const file = s.sim.transaction(dto.id)!.files[0];
		const text = (name: string, path = name) => concept(name, 'String', 1, path);
		expect(await resultJson(s.sim, s.bearer, dto)).toEqual({
			Id: dto.id,
			SkillId: 'invoice-skill',
			SkillName: 'Invoice',
			SkillVersion: 1,
			Documents: [
				{
					Id: dto.documents![0].id,
					ExtractedData: {
						DocumentDefinition: {
							RootConcept: {
								Id: 'c-root',
								Name: 'Invoice',
								Fields: [
									text('InvoiceNumber'),
									concept('InvoiceDate', 'ISOdate'),
									concept('Total', 'Decimal'),
									text('Currency'),
									concept('PONumbers', 'String', -1),
									{
										...concept('Vendor', 'Concept'),
										ValueConcepts: [
											{
												Id: 'c-Vendor',
												Name: 'Vendor',
												Fields: [text('Name', 'Vendor.Name'), text('VatId', 'Vendor.VatId')],
											},
										],
									},
									{
										...concept('LineItems', 'Concept', -1),
										ValueConcepts: [
											{
												Id: 'c-LineItems',
												Name: 'LineItems',
												Fields: [
													text('Description', 'LineItems.Description'),
													concept('Quantity', 'Decimal', 1, 'LineItems.Quantity'),
													concept('Amount', 'Decimal', 1, 'LineItems.Amount'),
												],
											},
										],
									},
								],
							},
						},
						RootObject: {
							Id: 'o-root',
							Concept: 'Invoice',
							ConceptId: 'c-root',
							Fields: [
								{ Name: 'InvoiceNumber', List: [simple('o-InvoiceNumber-0', 'INV-1')] },
								{
									Name: 'InvoiceDate',
									List: [simple('o-InvoiceDate-0', '2025-11-03', '03.11.2025')],
								},
								{ Name: 'Total', List: [simple('o-Total-0', '1250.00', '1.250,00', 62)] },
								{ Name: 'Currency', List: [] },
								{
									Name: 'PONumbers',
									List: [simple('o-PONumbers-0', 'A'), simple('o-PONumbers-1', 'B')],
								},
								{
									Name: 'Vendor',
									List: [
										{
											Id: 'o-Vendor-0',
											Value: {
												Id: 'o-Vendor-0-obj',
												Concept: 'Vendor',
												ConceptId: 'c-Vendor',
												Fields: [
													{ Name: 'Name', List: [simple('o-Vendor[0].Name-0', 'ACME')] },
													{ Name: 'VatId', List: [simple('o-Vendor[0].VatId-0', 'DE1')] },
												],
											},
											NeedVerification: false,
											isVerified: false,
										},
									],
								},
								{
									Name: 'LineItems',
									List: [
										row(0, 'Desk', '2', '99.50', '99,50'),
										row(1, 'Chair', '4', '1150.50', '1.150,50'),
									],
								},
							],
						},
					},
					RuleErrors: [{ RuleName: 'rule-1', ErrorMessage: 'Total does not match the line items' }],
				},
			],
			SourceFiles: [{ Id: file.id, Name: 'inv.txt' }],
		});
	});

	test('FieldsJson holds the values only: simple, repeating, group, table', async () => {
		const dto = await processed(FIXTURE.documentSkillId, [{ name: 'inv.txt', data: INVOICE }]);
		expect(await resultJson(s.sim, s.bearer, dto, 0, 'FieldsJson')).toEqual({
			Version: '3.0',
			Fields: {
				InvoiceNumber: 'INV-1',
				InvoiceDate: '2025-11-03',
				Total: '1250.00',
				Currency: null,
				PONumbers: ['A', 'B'],
				Vendor: { Name: 'ACME', VatId: 'DE1' },
				LineItems: [
					{ Description: 'Desk', Quantity: '2', Amount: '99.50' },
					{ Description: 'Chair', Quantity: '4', Amount: '1150.50' },
				],
			},
		});
	});

	test('a file without field lines gets defaults derived from its name', async () => {
		const dto = await processed(FIXTURE.documentSkillId, [
			{ name: 'scan 7.pdf', data: '%PDF-1.7 …' },
		]);
		const hex = createHash('sha256').update('scan 7.pdf').digest('hex').slice(0, 6);
		expect(dto.documents![0].businessRulesErrors).toEqual([]);
		const fields = (await resultJson(s.sim, s.bearer, dto, 0, 'FieldsJson')).Fields;
		expect(fields).toEqual({
			InvoiceNumber: `INV-${hex}`,
			InvoiceDate: '2025-01-15',
			Total: '1250.00',
			Currency: 'EUR',
			PONumbers: [`PO-${hex}`],
			Vendor: { Name: 'ACME Corporation', VatId: 'DE123456789' },
			LineItems: [{ Description: `Item ${hex}`, Quantity: '1', Amount: '1250.00' }],
		});
	});

	test('unreadable dates and amounts keep the raw value and need verification', async () => {
		const data = 'InvoiceDate: 31.02.2025\nTotal: n/a\nQuantity: x';
		const dto = await processed(FIXTURE.documentSkillId, [{ name: 'bad.txt', data }]);
		const json = await resultJson(s.sim, s.bearer, dto);
		type Doc = {
			ExtractedData: { RootObject: { Fields: Array<{ Name: string; List: unknown[] }> } };
		};
		const root = (json.Documents as Doc[])[0].ExtractedData.RootObject;
		const byName = Object.fromEntries(root.Fields.map((f) => [f.Name, f.List]));
		expect(byName.InvoiceDate).toEqual([simple('o-InvoiceDate-0', '31.02.2025', '31.02.2025', 30)]);
		expect(byName.Total).toEqual([simple('o-Total-0', 'n/a', 'n/a', 30)]);
		expect(byName.InvoiceNumber).toEqual([]);
	});

	test('a Process skill: two classified documents per file, the second with InvoiceNumber-2', async () => {
		const dto = await processed(FIXTURE.processSkillId, [
			{ name: 'a.txt', data: 'InvoiceNumber: A-1' },
			{ name: 'b.txt', data: 'InvoiceNumber: B-1' },
		]);
		expect(dto.documents).toHaveLength(4);
		const numbers = [];
		for (let i = 0; i < 4; i++) {
			const fields = (await resultJson(s.sim, s.bearer, dto, i, 'FieldsJson')).Fields as Record<
				string,
				unknown
			>;
			numbers.push(fields.InvoiceNumber);
		}
		expect(numbers).toEqual(['A-1', 'A-1-2', 'B-1', 'B-1-2']);
		const classification = {
			isResultClassConfident: true,
			resultClass: { id: 'invoice', name: 'Invoice' },
			classConfidences: [
				{ classId: 'invoice', className: 'Invoice', confidence: 97 },
				{ classId: 'receipt', className: 'Receipt', confidence: 2 },
				{ classId: 'other', className: 'Other', confidence: 1 },
			],
		};
		expect(dto.documents![1].classification).toEqual(classification);
		expect(dto.documents![1].resultFiles!.map((f) => f.fileName)).toEqual([
			'Invoice.json',
			'Invoice_fields.json',
			'Invoice.pdf',
		]);
		const json = await resultJson(s.sim, s.bearer, dto, 1);
		expect(json).toMatchObject({ SkillId: 'invoice-skill', SkillName: 'Invoice' });
		expect((json.Documents as Array<Record<string, unknown>>)[0].ClassificationResult).toEqual({
			IsResultClassConfident: true,
			ResultClass: 'invoice',
			ResultClassName: 'Invoice',
			ClassConfidences: [
				{ Class: 'invoice', ClassName: 'Invoice', Confidence: 97 },
				{ Class: 'receipt', ClassName: 'Receipt', Confidence: 2 },
				{ Class: 'other', ClassName: 'Other', Confidence: 1 },
			],
		});
	});

	test('a Classification skill: classification and no result files', async () => {
		const byLine = await processed(FIXTURE.classificationSkillId, [
			{ name: 'x.txt', data: 'Class: Receipt\nConfidence.Class: 55' },
		]);
		expect(byLine.documents![0]).toEqual({
			id: expect.any(String),
			resultFiles: [],
			classification: {
				isResultClassConfident: false,
				resultClass: { id: 'receipt', name: 'Receipt' },
				classConfidences: [
					{ classId: 'receipt', className: 'Receipt', confidence: 55 },
					{ classId: 'invoice', className: 'Invoice', confidence: 23 },
					{ classId: 'other', className: 'Other', confidence: 22 },
				],
			},
			businessRulesErrors: [],
		});
		const byName = await processed(FIXTURE.classificationSkillId, [{ name: 'my-invoice.pdf' }]);
		expect(byName.documents![0].classification?.resultClass.name).toBe('Invoice');
		const other = await processed(FIXTURE.classificationSkillId, [{ name: 'letter.pdf' }]);
		expect(other.documents![0].classification?.resultClass.name).toBe('Other');
	});

	test('an OCR skill: OcrJson and Text result files, no fields', async () => {
		const dto: TransactionDtoJson = await processed(FIXTURE.ocrSkillId, [
			{ name: 'page.txt', data: 'Hello OCR' },
		]);
		const files = dto.documents![0].resultFiles!;
		expect(files.map((f) => [f.fileName, f.type])).toEqual([
			['OCR.json', 'OcrJson'],
			['OCR.txt', 'Text'],
		]);
		expect(dto.documents![0]).not.toHaveProperty('classification');
		const textFile = await download(s.sim, s.bearer, dto.id, files[1].fileId);
		expect(textFile.body.toString()).toBe('Hello OCR');
		expect(await resultJson(s.sim, s.bearer, dto, 0, 'OcrJson')).toMatchObject({
			Pages: [{ Index: 0, Text: 'Hello OCR' }],
		});
	});

	test('the Receipt skill extracts its own fields; results of one document are stable', async () => {
		const dto = await processed(FIXTURE.receiptSkillId, [
			{ name: 'r.txt', data: 'Merchant: Café\nTotal: € 12,5\nDate: 2025-03-04' },
		]);
		const fields = await resultJson(s.sim, s.bearer, dto, 0, 'FieldsJson');
		expect(fields.Fields).toEqual({ Merchant: 'Café', Total: '12.50', Date: '2025-03-04' });
		expect(await resultJson(s.sim, s.bearer, dto, 0, 'FieldsJson')).toEqual(fields);
	});
});
