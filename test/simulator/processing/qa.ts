/**
 * The Analytics Reporting Warehouse as the simulator keeps it: derived, row by row and on demand,
 * from the transactions it processed. docs.abbyy.com (analytics reporting): statistics are
 * collected for Process skills; the warehouse compares each document's state before Manual Review
 * with its state after processing. Here: every Processed transaction of a Process skill, each of
 * its documents, each field the including Document skill extracted from it.
 *
 * What Manual Review changed is not observable through the API, so the simulator reads it from the
 * document's source text (inferred, documented here): for a transaction that went through Manual
 * Review,
 *
 *   Review.Total: RecognitionIssue    that field's value was corrected (Correct | RecognitionIssue |
 *                                     DetectedIncorrectly | NotDetected); a NotDetected field that
 *                                     extraction did not find was added by the reviewer
 *   Review.Vendor.VatId: DetectedIncorrectly, NotInDocument
 *                                     a false positive: extraction found a value the document does
 *                                     not have, and the reviewer removed it; its row has that error
 *                                     flag (RecognitionIssue or DetectedIncorrectly: which one
 *                                     Vantage sets is not documented, so the line names it) and
 *                                     IsInDocument 0
 *   Review.Class: Receipt             the reviewer changed the document type
 *   ImageType: Receipt                the document's image type, colority and source (any
 *   ImageColority: Gray               transaction); defaults come from the file type
 *   ImageSource: Photo
 *
 * and without Review lines, a value extraction was unsure of (confidence below 70: it "needs
 * verification") had a recognition issue and was corrected. A transaction without Manual Review
 * changed nothing. A field extraction did not find, and no reviewer added, was rightly left empty:
 * its row is Correct with IsInDocument 0. The column names
 * are the OpenAPI examples' plus what docs.abbyy.com describes (document skill, image properties,
 * completion time); their order and the ones beyond the examples are inferred.
 */
import type { FieldDefinition, SkillDefinition } from '../skills';
import { readLines, type FieldValue, type FieldValues } from './extract';
import { documentText, type Results } from './results';
import { filesOf, type DocumentState, type SourceFile, type TransactionState } from './state';

export const DOCUMENT_COLUMNS = [
	'ProcessSkillId',
	'ProcessSkillName',
	'TransactionId',
	'CompletedUtc',
	'HasManualReview',
	'DocumentId',
	'DocumentName',
	'DocumentSkillId',
	'DocumentSkillName',
	'ImageType',
	'ImageColority',
	'ImageSource',
	'DocumentSkillChanged',
	'NumberOfExportedFields',
	'NumberOfChangedFields',
] as const;

export const FIELD_COLUMNS = [
	'ProcessSkillId',
	'ProcessSkillName',
	'TransactionId',
	'DocumentId',
	'DocumentName',
	'DocumentSkillId',
	'DocumentSkillName',
	'FieldID',
	'FieldName',
	'Correct',
	'RecognitionIssue',
	'DetectedIncorrectly',
	'NotDetected',
	'IsInDocument',
] as const;

export const REVIEW_OUTCOMES = [
	'Correct',
	'RecognitionIssue',
	'DetectedIncorrectly',
	'NotDetected',
] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];

/** One extracted field of a document, as the fields report has it. */
export interface FieldRow {
	/** `f-<dotted path>`, the id the result JSON gives the field's definition. */
	id: string;
	/** The path with `/`, as Vantage's FullName writes it (Vendor/Name). */
	name: string;
	outcome: ReviewOutcome;
	inDocument: boolean;
}

/** One document of the documents report, with its fields. */
export interface QaDocument {
	tx: TransactionState;
	processSkill: SkillDefinition;
	documentSkill: SkillDefinition;
	doc: DocumentState;
	name: string;
	imageType: string;
	imageColority: string;
	imageSource: string;
	typeChanged: boolean;
	fields: FieldRow[];
	changed: number;
	exported: number;
}

const CONFIDENT = 70;

/** Image properties from the file type, unless the text names them. */
function imageDefaults(
	file: SourceFile | undefined,
): Record<'type' | 'colority' | 'source', string> {
	const type = (file?.contentType ?? '').split(';')[0].trim().toLowerCase();
	if (type === 'application/pdf') return { type: 'A4', colority: 'BlackWhite', source: 'Pdf' };
	if (type === 'image/tiff') return { type: 'A4', colority: 'BlackWhite', source: 'Scan' };
	if (type.startsWith('image/')) return { type: 'Receipt', colority: 'Color', source: 'Photo' };
	return { type: 'Unknown', colority: 'Color', source: 'Unknown' };
}

/** Each leaf field path with its values (instances): groups and table rows flattened. */
function leaves(
	fields: FieldDefinition[],
	values: FieldValues,
	prefix: string,
	out: Map<string, FieldValue[]>,
): Map<string, FieldValue[]> {
	for (const f of fields) {
		const path = prefix + f.name;
		const instances = values.get(f.name) ?? [];
		if (f.type !== 'Group') {
			out.set(path, [...(out.get(path) ?? []), ...instances]);
			continue;
		}
		if (!instances.length) leaves(f.children ?? [], new Map(), `${path}.`, out);
		for (const instance of instances) {
			if (instance.kind === 'group') leaves(f.children ?? [], instance.fields, `${path}.`, out);
		}
	}
	return out;
}

function fieldRows(
	reviewed: boolean,
	skill: SkillDefinition,
	values: FieldValues,
	lines: Map<string, string[]>,
): FieldRow[] {
	const rows: FieldRow[] = [];
	for (const [path, instances] of leaves(skill.fields ?? [], values, '', new Map())) {
		const [given, ...notes] = (lines.get(`review.${path.toLowerCase()}`)?.[0] ?? '')
			.split(',')
			.map((part) => part.trim().toLowerCase());
		const stated = REVIEW_OUTCOMES.find((o) => o.toLowerCase() === given);
		// A value found where the document has nothing: an error with IsInDocument 0.
		const falsePositive =
			notes.includes('notindocument') &&
			(stated === 'RecognitionIssue' || stated === 'DetectedIncorrectly');
		const row = (outcome: ReviewOutcome, inDocument: boolean): FieldRow => ({
			id: `f-${path}`,
			name: path.replace(/\./g, '/'),
			outcome,
			inDocument,
		});
		if (!instances.length) {
			// Not found: added in review when stated NotDetected; otherwise rightly absent.
			rows.push(
				reviewed && stated === 'NotDetected' ? row('NotDetected', true) : row('Correct', false),
			);
			continue;
		}
		for (const value of instances) {
			const unsure = value.kind === 'simple' && value.confidence < CONFIDENT;
			const outcome: ReviewOutcome = !reviewed
				? 'Correct'
				: (stated ?? (unsure ? 'RecognitionIssue' : 'Correct'));
			rows.push(row(outcome, !(reviewed && falsePositive)));
		}
	}
	return rows;
}

/** Every document of a Processed Process-skill transaction, with what review did to it. */
export function qaDocument(
	tx: TransactionState,
	doc: DocumentState,
	processSkill: SkillDefinition,
	results: Results,
): QaDocument {
	const files = filesOf(tx, doc);
	const lines = readLines(documentText(tx, doc));
	const { skill, values } = results.extraction(tx, doc);
	const reviewed = tx.manualReview;
	const fields = fieldRows(reviewed, skill, values, lines);
	const defaults = imageDefaults(files[0]);
	const stated = (key: string) => lines.get(key)?.[0];
	return {
		tx,
		processSkill,
		documentSkill: skill,
		doc,
		name: files[0]?.name ?? '',
		imageType: stated('imagetype') ?? defaults.type,
		imageColority: stated('imagecolority') ?? defaults.colority,
		imageSource: stated('imagesource') ?? defaults.source,
		typeChanged: reviewed && stated('review.class') !== undefined,
		fields,
		changed: fields.filter((f) => f.outcome !== 'Correct').length,
		exported: fields.filter((f) => f.inDocument).length,
	};
}

/** A CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180). */
export function csvCell(value: string | number | boolean): string {
	const text = String(value);
	return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: Array<string | number | boolean>): string {
	return `${cells.map(csvCell).join(',')}\r\n`;
}

/** `MM/dd/yyyy HH:mm:ss` UTC, as the transaction-steps export writes its times. */
export function usDateTime(ms: number): string {
	const d = new Date(ms);
	const two = (n: number) => String(n).padStart(2, '0');
	return `${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/**
 * The columns of the OpenAPI document's examples (GetDocumentsAsCsv, GetFieldsAsCsv: "a subset of
 * columns"), served instead of the full set with the `example` column set (SimulatorOptions
 * qaColumns), so that clients are tested against the minimum they can rely on.
 */
export const EXAMPLE_COLUMNS = {
	documents: [
		'ProcessSkillId',
		'ProcessSkillName',
		'TransactionId',
		'HasManualReview',
		'DocumentId',
		'DocumentName',
		'ImageSource',
		'DocumentSkillChanged',
		'NumberOfExportedFields',
		'NumberOfChangedFields',
	],
	fields: [
		'ProcessSkillId',
		'ProcessSkillName',
		'TransactionId',
		'DocumentId',
		'DocumentName',
		'FieldID',
		'FieldName',
		'Correct',
		'RecognitionIssue',
		'DetectedIncorrectly',
		'NotDetected',
		'IsInDocument',
	],
} as const;

type Cell = string | number | boolean;

export function documentCells(d: QaDocument): Record<(typeof DOCUMENT_COLUMNS)[number], Cell> {
	return {
		ProcessSkillId: d.processSkill.id,
		ProcessSkillName: d.processSkill.name,
		TransactionId: d.tx.id,
		CompletedUtc: usDateTime(d.tx.completedAt ?? 0),
		HasManualReview: d.tx.manualReview ? 1 : 0,
		DocumentId: d.doc.id,
		DocumentName: d.name,
		DocumentSkillId: d.documentSkill.id,
		DocumentSkillName: d.documentSkill.name,
		ImageType: d.imageType,
		ImageColority: d.imageColority,
		ImageSource: d.imageSource,
		DocumentSkillChanged: d.typeChanged,
		NumberOfExportedFields: d.exported,
		NumberOfChangedFields: d.changed,
	};
}

export function fieldCells(
	d: QaDocument,
	f: FieldRow,
): Record<(typeof FIELD_COLUMNS)[number], Cell> {
	return {
		ProcessSkillId: d.processSkill.id,
		ProcessSkillName: d.processSkill.name,
		TransactionId: d.tx.id,
		DocumentId: d.doc.id,
		DocumentName: d.name,
		DocumentSkillId: d.documentSkill.id,
		DocumentSkillName: d.documentSkill.name,
		FieldID: f.id,
		FieldName: f.name,
		Correct: f.outcome === 'Correct' ? 1 : 0,
		RecognitionIssue: f.outcome === 'RecognitionIssue' ? 1 : 0,
		DetectedIncorrectly: f.outcome === 'DetectedIncorrectly' ? 1 : 0,
		NotDetected: f.outcome === 'NotDetected' ? 1 : 0,
		IsInDocument: f.inDocument ? 1 : 0,
	};
}

/** The report's rows of one document, as CSV lines of `columns`. */
export function reportLines(
	report: 'documents' | 'fields',
	d: QaDocument,
	columns: readonly string[],
): string {
	const line = (cells: Record<string, Cell>) => csvLine(columns.map((c) => cells[c]));
	if (report === 'documents') return line(documentCells(d));
	let text = '';
	for (const f of d.fields) text += line(fieldCells(d, f));
	return text;
}
