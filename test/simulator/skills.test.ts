import { api } from '../helpers/http';
import { FIXTURE } from './simulator';
import { problemOf, TRANSACTIONS, useRawSimulator } from './testkit';
import { launch } from './uploadkit';

const s = useRawSimulator();
const SKILLS = '/api/publicapi/v1/skills';
const NOT_FOUND = 'Skill with specified skillId not found or not published';

describe('skills', () => {
	test('the default skills are listed with id, name and type', async () => {
		const res = await api(s.sim, s.bearer, 'GET', SKILLS);
		expect(res.status).toBe(200);
		expect(res.json).toEqual([
			{ id: FIXTURE.processSkillId, name: 'Invoice Processing', type: 'Process' },
			{ id: FIXTURE.documentSkillId, name: 'Invoice', type: 'Document' },
			{ id: FIXTURE.classificationSkillId, name: 'Document Classifier', type: 'Classification' },
			{ id: FIXTURE.receiptSkillId, name: 'Receipt', type: 'Document' },
			{ id: FIXTURE.ocrSkillId, name: 'OCR', type: 'Ocr' },
		]);
	});

	test('GetSkillInfo gives the Invoice field tree: formats, repeating field, group, table', async () => {
		const res = await api(s.sim, s.bearer, 'GET', `${SKILLS}/${FIXTURE.documentSkillId}`);
		expect(res.status).toBe(200);
		const text = (name: string, textFormat = 'Text', isRepeatable = false) => ({
			name,
			type: 'Text',
			textFormat,
			isRepeatable,
			children: [],
		});
		expect(res.json).toEqual({
			id: 'invoice-skill',
			name: 'Invoice',
			type: 'Document',
			fields: [
				text('InvoiceNumber'),
				text('InvoiceDate', 'Date'),
				text('Total', 'Amount'),
				text('Currency'),
				text('PONumbers', 'Text', true),
				{
					name: 'Vendor',
					type: 'Group',
					isRepeatable: false,
					children: [text('Name'), text('VatId')],
				},
				{
					name: 'LineItems',
					type: 'Group',
					isRepeatable: true,
					children: [text('Description'), text('Quantity', 'Number'), text('Amount', 'Amount')],
				},
			],
			classes: null,
			skills: null,
		});
	});

	test('classification skills list classes, process skills their skills, OCR neither', async () => {
		const classify = await api(
			s.sim,
			s.bearer,
			'GET',
			`${SKILLS}/${FIXTURE.classificationSkillId}`,
		);
		expect(classify.json).toMatchObject({
			type: 'Classification',
			fields: null,
			classes: [
				{ id: 'invoice', name: 'Invoice' },
				{ id: 'receipt', name: 'Receipt' },
				{ id: 'other', name: 'Other' },
			],
		});
		const process = await api(s.sim, s.bearer, 'GET', `${SKILLS}/${FIXTURE.processSkillId}`);
		expect(process.json).toMatchObject({
			type: 'Process',
			skills: [{ id: 'classify-skill' }, { id: 'invoice-skill' }],
		});
		const ocr = await api(s.sim, s.bearer, 'GET', `${SKILLS}/${FIXTURE.ocrSkillId}`);
		expect(ocr.json).toEqual({
			id: 'ocr-skill',
			name: 'OCR',
			type: 'Ocr',
			fields: null,
			classes: null,
			skills: null,
		});
		const receipt = await api(s.sim, s.bearer, 'GET', `${SKILLS}/Receipt`);
		expect((receipt.json as { fields: Array<{ name: string }> }).fields.map((f) => f.name)).toEqual(
			['Merchant', 'Total', 'Date'],
		);
	});

	test('skill ids match case-insensitively; the answer keeps the stored id', async () => {
		const res = await api(s.sim, s.bearer, 'GET', `${SKILLS}/receipt`);
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject({ id: 'Receipt' });
		const created = await api(s.sim, s.bearer, 'POST', TRANSACTIONS, { skillId: 'INVOICE-SKILL' });
		expect(created.status).toBe(201);
		const { transactionId } = created.json as { transactionId: string };
		expect(s.sim.transaction(transactionId)?.skillId).toBe('invoice-skill');
	});

	test('an unknown skill is 404 with the vendor text', async () => {
		const res = await api(s.sim, s.bearer, 'GET', `${SKILLS}/nope`);
		expect(res.status).toBe(404);
		expect(problemOf(res)).toMatchObject({ status: 404, detail: NOT_FOUND });
	});

	test('an unpublished skill is not listed and is 404 for info, create and launch', async () => {
		s.sim.unpublishSkill(FIXTURE.receiptSkillId);
		const list = (await api(s.sim, s.bearer, 'GET', SKILLS)).json as Array<{ id: string }>;
		expect(list.map((x) => x.id)).not.toContain('Receipt');
		expect((await api(s.sim, s.bearer, 'GET', `${SKILLS}/Receipt`)).status).toBe(404);
		const create = await api(s.sim, s.bearer, 'POST', TRANSACTIONS, { skillId: 'Receipt' });
		expect(create.status).toBe(404);
		expect(problemOf(create).detail).toBe(NOT_FOUND);
		const launched = await launch(s.sim, s.bearer, 'Receipt', [{ name: 'r.txt' }]);
		expect(launched.status).toBe(404);
		expect(problemOf(launched).detail).toBe(NOT_FOUND);
		s.sim.publishSkill('Receipt');
		expect((await api(s.sim, s.bearer, 'GET', `${SKILLS}/Receipt`)).status).toBe(200);
	});

	test('denied listing answers 403; single skills stay readable', async () => {
		s.sim.denySkillListing(true);
		const res = await api(s.sim, s.bearer, 'GET', SKILLS);
		expect(res.status).toBe(403);
		expect(problemOf(res)).toMatchObject({ status: 403, title: 'Forbidden' });
		expect((await api(s.sim, s.bearer, 'GET', `${SKILLS}/invoice-skill`)).status).toBe(200);
		s.sim.denySkillListing(false);
		expect((await api(s.sim, s.bearer, 'GET', SKILLS)).status).toBe(200);
	});

	test('defineSkill adds a skill with its own field tree; addSkill a list item', async () => {
		s.sim.defineSkill({
			id: '5f0c3a52-3b7e-4c3e-9a50-1b2c3d4e5f60',
			name: 'Bill of Lading',
			type: 'Document',
			fields: [
				{ name: 'Carrier' },
				{ name: 'Shipped', textFormat: 'Date' },
				{ name: 'Signed', type: 'Checkmark' },
			],
		});
		const res = await api(s.sim, s.bearer, 'GET', `${SKILLS}/5F0C3A52-3B7E-4C3E-9A50-1B2C3D4E5F60`);
		expect(res.json).toMatchObject({
			name: 'Bill of Lading',
			fields: [
				{ name: 'Carrier', type: 'Text', textFormat: 'Text', isRepeatable: false, children: [] },
				{ name: 'Shipped', type: 'Text', textFormat: 'Date' },
				{ name: 'Signed', type: 'Checkmark', isRepeatable: false, children: [] },
			],
		});
		expect((res.json as { fields: Array<Record<string, unknown>> }).fields[2]).not.toHaveProperty(
			'textFormat',
		);
		s.sim.addSkill({ id: 'workspace.default.processing', name: 'Default' });
		const listed = await api(s.sim, s.bearer, 'GET', SKILLS);
		expect(listed.json).toContainEqual({ id: 'workspace.default.processing', name: 'Default' });
	});
});
