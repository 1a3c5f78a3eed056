/**
 * The skills the simulator knows: definitions (fields, classes, included skills) and the default
 * set every simulator starts with. `./routes/skills.ts` serves them; `./results/` extracts with them.
 */
import { FIXTURE } from './fixture';
import type { FieldType, SkillListItemDto, SkillType, TextFieldFormat } from './schemas';
import type { z } from 'zod/v4';

export interface FieldDefinition {
	name: string;
	/** Default 'Text'. */
	type?: FieldType;
	/** For Text fields; default 'Text'. */
	textFormat?: TextFieldFormat;
	/** A repeating simple field, or a table when the field is a Group. */
	isRepeatable?: boolean;
	/** Fields of a Group (the columns of a table). */
	children?: FieldDefinition[];
}

export interface SkillDefinition {
	id: string;
	name: string;
	type?: SkillType;
	/** Document skills: the field tree (GetSkillInfo `fields`, the result JSON). */
	fields?: FieldDefinition[];
	/** Classification skills: class names (ids are the names in lower case). */
	classes?: string[];
	/** Process skills: ids of the skills it includes; the first Document skill extracts. */
	skills?: string[];
	/**
	 * Process skills: cut the files' text into documents with ids of their own (see
	 * processing/lifecycle.ts) instead of a two-page bundle per file.
	 */
	splitsDocuments?: boolean;
}

const text = (name: string, textFormat: TextFieldFormat = 'Text'): FieldDefinition => ({
	name,
	type: 'Text',
	textFormat,
});

/** The Invoice skill's fields: simple, dated, amounts, a repeating field, a group and a table. */
export const INVOICE_FIELDS: FieldDefinition[] = [
	text('InvoiceNumber'),
	text('InvoiceDate', 'Date'),
	text('Total', 'Amount'),
	text('Currency'),
	{ ...text('PONumbers'), isRepeatable: true },
	{ name: 'Vendor', type: 'Group', isRepeatable: false, children: [text('Name'), text('VatId')] },
	{
		name: 'LineItems',
		type: 'Group',
		isRepeatable: true,
		children: [text('Description'), text('Quantity', 'Number'), text('Amount', 'Amount')],
	},
];

export const RECEIPT_FIELDS: FieldDefinition[] = [
	text('Merchant'),
	text('Total', 'Amount'),
	text('Date', 'Date'),
];

export const DEFAULT_CLASSES = ['Invoice', 'Receipt', 'Other'];

/** The skills every simulator starts with (FIXTURE ids). */
export function defaultSkills(): SkillDefinition[] {
	return [
		{
			id: FIXTURE.processSkillId,
			name: 'Invoice Processing',
			type: 'Process',
			skills: [FIXTURE.classificationSkillId, FIXTURE.documentSkillId],
		},
		{ id: FIXTURE.documentSkillId, name: 'Invoice', type: 'Document', fields: INVOICE_FIELDS },
		{
			id: FIXTURE.classificationSkillId,
			name: 'Document Classifier',
			type: 'Classification',
			classes: DEFAULT_CLASSES,
		},
		{ id: FIXTURE.receiptSkillId, name: 'Receipt', type: 'Document', fields: RECEIPT_FIELDS },
		{ id: FIXTURE.ocrSkillId, name: 'OCR', type: 'Ocr' },
	];
}

/**
 * The splitting Process skill (FIXTURE.splittingSkillId), not among the default skills (the
 * pickers' lists stay as they are): `sim.defineSkill(splittingSkill())` adds it.
 */
export function splittingSkill(): SkillDefinition {
	return {
		id: FIXTURE.splittingSkillId,
		name: 'Invoice Splitting',
		type: 'Process',
		skills: [FIXTURE.classificationSkillId, FIXTURE.documentSkillId],
		splitsDocuments: true,
	};
}

/**
 * A skill added as a list item only (`addSkill`): Document skills extract the Invoice fields,
 * Classification skills know the default classes, Process skills include the default
 * classifier and the Invoice skill.
 */
export function fromListItem(item: z.infer<typeof SkillListItemDto>): SkillDefinition {
	switch (item.type) {
		case 'Document':
		case undefined:
			return { ...item, fields: INVOICE_FIELDS };
		case 'Classification':
			return { ...item, classes: DEFAULT_CLASSES };
		case 'Process':
			return { ...item, skills: [FIXTURE.classificationSkillId, FIXTURE.documentSkillId] };
		default:
			return { ...item };
	}
}

export function classId(name: string): string {
	return name.toLowerCase().replace(/\s+/g, '-');
}
