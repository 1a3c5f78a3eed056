import type { IDataObject } from 'n8n-workflow';

import { findColumn, type ReportColumn } from './reportRows';

/**
 * Extraction quality from the two QA reports, tallied row by row; only counters per document
 * type and per field are kept, never the rows. Column names as the Reporting OpenAPI document's
 * examples (GetDocumentsAsCsv, GetFieldsAsCsv) give them. A figure whose column the report lacks
 * is null, never a guess.
 *
 * Per document type (documents report, one row per document):
 * - `straightThrough`: documents that did not go through Manual Review (`HasManualReview` 0): no
 *   person touched them. With `reviewed`, they make up `documents`.
 * - `reviewed`: documents that went through Manual Review, of which `reviewedUnchanged` left it
 *   with nothing changed (no field changed, type kept), `corrected` with fields changed
 *   (`NumberOfChangedFields` > 0) and `documentTypeChanged` with another type
 *   (`DocumentSkillChanged`); a document can be both corrected and retyped.
 * - `fieldsExported`: fields the documents put out (sum of `NumberOfExportedFields`);
 *   `fieldsChanged`: of those, changed in Manual Review (sum of `NumberOfChangedFields`).
 *
 * Per field of a document type (fields report, one row per field instance):
 * - `occurrences`: instances; `inDocument`: of those, present in the document (`IsInDocument`).
 * - `corrected`: instances not correct before Manual Review (`Correct` 0); `recognitionIssues`,
 *   `locatedWrongly` (`DetectedIncorrectly`), `notDetected`: instances with that outcome.
 * - `accuracyPercent`: ABBYY's field accuracy, Correct / (Correct + Recognition Issue + Located
 *   Incorrectly + Not Detected), each term a count of field instances
 *   (docs.abbyy.com/vantage/documentation/skill-designer/document/analyzing-extracted-data,
 *   "Accuracy"), over every instance of the fields report, whether `IsInDocument` or not: a
 *   value found for a field the document does not have (IsInDocument 0 with an error flag) is an
 *   error, a field rightly left empty (IsInDocument 0, Correct) is correct. An instance with no
 *   flag set is in no term: ABBYY's page defines none for it. Fields of documents that skipped
 *   Manual Review count as correct: the reports compare the state before Manual Review with the
 *   final one.
 *
 * A document's type is its Document skill: the documents report's own type column, else the
 * fields report's for the same DocumentId; without either it is UNKNOWN_TYPE, and fields of the
 * same name from different types are counted together.
 */

/** Where a document's type is named, in order of preference. */
const TYPE_NAME_COLUMNS = ['DocumentSkillName', 'DocumentTypeName', 'DocumentType', 'ClassName'];
const TYPE_ID_COLUMNS = ['DocumentSkillId', 'DocumentTypeId'];

/** The name a document or field row without a known type is counted under. */
export const UNKNOWN_TYPE = '(unknown)';

/** A document's type as one report names it, for the rows of the other report. */
export interface DocumentType {
	type: string;
	id: string | null;
}

export interface DocumentTypeTally {
	documentType: string;
	documentSkillId: string | null;
	documents: number;
	straightThrough: number;
	reviewed: number;
	reviewedUnchanged: number;
	corrected: number;
	documentTypeChanged: number;
	fieldsExported: number;
	fieldsChanged: number;
}

export type DocumentCounts = Omit<DocumentTypeTally, 'documentType' | 'documentSkillId'>;

export interface FieldTally {
	documentType: string;
	field: string;
	occurrences: number;
	inDocument: number;
	corrected: number;
	recognitionIssues: number;
	locatedWrongly: number;
	notDetected: number;
	/** ABBYY's accuracy terms, over every instance: Correct, and all four outcomes. */
	accurate: number;
	judged: number;
}

const isTrue = (value: unknown) => value === true;
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A document's or field's type columns: its name, else its skill id. */
export interface TypeColumns {
	name?: string;
	id?: string;
}

export function typeColumns(columns: ReportColumn[]): TypeColumns {
	return {
		name: findColumn(columns, TYPE_NAME_COLUMNS),
		id: findColumn(columns, TYPE_ID_COLUMNS),
	};
}

/** Whether the report names each row's type. */
export const namesTypes = (columns: TypeColumns) => !!(columns.name || columns.id);

/** The type a row names itself, if any. */
export function ownType(row: IDataObject, columns: TypeColumns): DocumentType | undefined {
	const text = (key?: string) =>
		key && typeof row[key] === 'string' && row[key] ? String(row[key]) : null;
	const id = text(columns.id);
	const type = text(columns.name) ?? id;
	return type ? { type, id } : undefined;
}

/** Which of the documents report's columns this report has. */
export interface DocumentColumns extends TypeColumns {
	documentId?: string;
	reviewed?: string;
	typeChanged?: string;
	exported?: string;
	changed?: string;
}

export function documentColumns(columns: ReportColumn[]): DocumentColumns {
	return {
		...typeColumns(columns),
		documentId: findColumn(columns, ['DocumentId']),
		reviewed: findColumn(columns, ['HasManualReview', 'WasReviewed']),
		typeChanged: findColumn(columns, [
			'DocumentSkillChanged',
			'WasDocumentTypeChangedInManualReview',
			'DocumentTypeChanged',
		]),
		exported: findColumn(columns, ['NumberOfExportedFields']),
		changed: findColumn(columns, ['NumberOfChangedFields']),
	};
}

/** Which of the fields report's columns this report has. */
export interface FieldColumns extends TypeColumns {
	documentId?: string;
	field?: string;
	correct?: string;
	recognitionIssue?: string;
	locatedWrongly?: string;
	notDetected?: string;
	inDocument?: string;
}

export function fieldColumns(columns: ReportColumn[]): FieldColumns {
	return {
		...typeColumns(columns),
		documentId: findColumn(columns, ['DocumentId']),
		field: findColumn(columns, ['FieldName', 'FieldID', 'FieldId']),
		correct: findColumn(columns, ['Correct']),
		recognitionIssue: findColumn(columns, ['RecognitionIssue']),
		locatedWrongly: findColumn(columns, ['DetectedIncorrectly', 'LocatedIncorrectly']),
		notDetected: findColumn(columns, ['NotDetected']),
		inDocument: findColumn(columns, ['IsInDocument']),
	};
}

/** The documents report, tallied per document type. */
export class DocumentsTally {
	private readonly types = new Map<string, DocumentTypeTally>();

	/** @param columns the report's columns: a figure without its column is null in the output */
	constructor(readonly columns: DocumentColumns) {}

	/**
	 * One row (typed, see reportRows.ts). `typeOfDocument` names the type when the report has no
	 * type column (read from the fields report by document id).
	 */
	add(row: IDataObject, typeOfDocument?: DocumentType): void {
		const { columns } = this;
		const { type, id } = ownType(row, columns) ??
			typeOfDocument ?? { type: UNKNOWN_TYPE, id: null };
		const tally = this.type(type, id);
		tally.documents++;
		const changed = columns.changed ? count(row[columns.changed]) : 0;
		const typeChanged = columns.typeChanged ? isTrue(row[columns.typeChanged]) : false;
		const reviewed = columns.reviewed ? isTrue(row[columns.reviewed]) : false;
		if (reviewed) tally.reviewed++;
		else tally.straightThrough++;
		if (reviewed && changed === 0 && !typeChanged) tally.reviewedUnchanged++;
		if (changed > 0) tally.corrected++;
		if (typeChanged) tally.documentTypeChanged++;
		tally.fieldsExported += columns.exported ? count(row[columns.exported]) : 0;
		tally.fieldsChanged += changed;
	}

	/** Each document type, as first met (the output's order: inSummaryOrder). */
	documentTypes(): DocumentTypeTally[] {
		return [...this.types.values()];
	}

	/** All document types together. */
	total(): DocumentCounts {
		const total: DocumentCounts = {
			documents: 0,
			straightThrough: 0,
			reviewed: 0,
			reviewedUnchanged: 0,
			corrected: 0,
			documentTypeChanged: 0,
			fieldsExported: 0,
			fieldsChanged: 0,
		};
		for (const t of this.types.values()) {
			for (const key of Object.keys(total) as Array<keyof DocumentCounts>) total[key] += t[key];
		}
		return total;
	}

	private type(documentType: string, documentSkillId: string | null): DocumentTypeTally {
		let tally = this.types.get(documentType);
		if (!tally) {
			tally = {
				documentType,
				documentSkillId,
				documents: 0,
				straightThrough: 0,
				reviewed: 0,
				reviewedUnchanged: 0,
				corrected: 0,
				documentTypeChanged: 0,
				fieldsExported: 0,
				fieldsChanged: 0,
			};
			this.types.set(documentType, tally);
		}
		tally.documentSkillId ??= documentSkillId;
		return tally;
	}
}

/** The fields report, tallied per field of a document type. */
export class FieldsTally {
	private readonly fields = new Map<string, FieldTally>();

	/** @param columns the report's columns: a figure without its column is null in the output */
	constructor(readonly columns: FieldColumns) {}

	/**
	 * One row of the fields report. `typeOfDocument` names the type when the fields report has no
	 * type column (read from the documents report by document id).
	 */
	add(row: IDataObject, typeOfDocument?: DocumentType): void {
		const { columns } = this;
		const type = (ownType(row, columns) ?? typeOfDocument)?.type ?? UNKNOWN_TYPE;
		const field = columns.field ? String(row[columns.field] ?? '') : '';
		const key = `${type}\u0000${field}`;
		let tally = this.fields.get(key);
		if (!tally) {
			tally = {
				documentType: type,
				field,
				occurrences: 0,
				inDocument: 0,
				corrected: 0,
				recognitionIssues: 0,
				locatedWrongly: 0,
				notDetected: 0,
				accurate: 0,
				judged: 0,
			};
			this.fields.set(key, tally);
		}
		tally.occurrences++;
		const flag = (column?: string) => (column ? isTrue(row[column]) : false);
		const correct = flag(columns.correct);
		const recognitionIssue = flag(columns.recognitionIssue);
		const locatedWrongly = flag(columns.locatedWrongly);
		const notDetected = flag(columns.notDetected);
		if (recognitionIssue) tally.recognitionIssues++;
		if (locatedWrongly) tally.locatedWrongly++;
		if (notDetected) tally.notDetected++;
		if (correct) tally.accurate++;
		tally.judged += [correct, recognitionIssue, locatedWrongly, notDetected].filter(Boolean).length;
		if (columns.inDocument && isTrue(row[columns.inDocument])) tally.inDocument++;
		// Corrected: not correct before Manual Review; without a Correct column, any of the three.
		const corrected = columns.correct
			? row[columns.correct] === false
			: recognitionIssue || locatedWrongly || notDetected;
		if (corrected) tally.corrected++;
	}

	/** Each field of each document type, as first met (the output's order: inSummaryOrder). */
	fieldTallies(): FieldTally[] {
		return [...this.fields.values()];
	}
}

/**
 * The summary's order, in this one place: document types with the most documents first, then by
 * name; fields by their document type in that order (a type only the fields report names comes
 * after those, by name; "(unknown)" last), then the most often corrected first, then by name.
 */
export function inSummaryOrder(
	types: DocumentTypeTally[],
	fields: FieldTally[],
): { types: DocumentTypeTally[]; fields: FieldTally[] } {
	const ordered = [...types].sort(
		(a, b) => b.documents - a.documents || a.documentType.localeCompare(b.documentType),
	);
	const place = new Map(ordered.map((t, i) => [t.documentType, i]));
	const rank = (type: string) =>
		place.get(type) ?? (type === UNKNOWN_TYPE ? place.size + 1 : place.size);
	return {
		types: ordered,
		fields: [...fields].sort(
			(a, b) =>
				rank(a.documentType) - rank(b.documentType) ||
				a.documentType.localeCompare(b.documentType) ||
				share(b.corrected, b.occurrences) - share(a.corrected, a.occurrences) ||
				a.field.localeCompare(b.field),
		),
	};
}

function share(part: number, whole: number): number {
	return whole > 0 ? part / whole : 0;
}

/** `part` of `whole` in percent, two decimals; null when there is nothing to divide. */
export function percent(part: number, whole: number): number | null {
	return whole > 0 ? Math.round((part / whole) * 10000) / 100 : null;
}

/** A count and its percentage, or both null when the report lacks what it needs. */
function figure(name: string, known: boolean, part: number, whole: number): IDataObject {
	return {
		[name]: known ? part : null,
		[`${name}Percent`]: known ? percent(part, whole) : null,
	};
}

/** The output item of a document type (or, with `documentType` null, of all of them). */
export function documentTypeItem(
	t: DocumentCounts & { documentType: string | null; documentSkillId: string | null },
	columns: DocumentColumns,
): IDataObject {
	const review = !!columns.reviewed;
	const changed = !!columns.changed;
	const typeChanged = !!columns.typeChanged;
	const exported = !!columns.exported;
	return {
		documentType: t.documentType,
		documentSkillId: t.documentSkillId,
		documents: t.documents,
		...figure('straightThrough', review, t.straightThrough, t.documents),
		...figure('reviewed', review, t.reviewed, t.documents),
		...figure(
			'reviewedUnchanged',
			review && changed && typeChanged,
			t.reviewedUnchanged,
			t.documents,
		),
		...figure('corrected', changed, t.corrected, t.documents),
		...figure('documentTypeChanged', typeChanged, t.documentTypeChanged, t.documents),
		fieldsExported: exported ? t.fieldsExported : null,
		fieldsChanged: changed ? t.fieldsChanged : null,
		fieldsChangedPercent: exported && changed ? percent(t.fieldsChanged, t.fieldsExported) : null,
	};
}

/** The output item of one field of one document type. */
export function fieldItem(t: FieldTally, columns: FieldColumns): IDataObject {
	const flags = !!(columns.recognitionIssue || columns.locatedWrongly || columns.notDetected);
	return {
		documentType: t.documentType,
		field: t.field,
		occurrences: t.occurrences,
		inDocument: columns.inDocument ? t.inDocument : null,
		...figure('corrected', !!columns.correct || flags, t.corrected, t.occurrences),
		...figure('notDetected', !!columns.notDetected, t.notDetected, t.occurrences),
		...figure('locatedWrongly', !!columns.locatedWrongly, t.locatedWrongly, t.occurrences),
		...figure('recognitionIssues', !!columns.recognitionIssue, t.recognitionIssues, t.occurrences),
		accuracyPercent: columns.correct ? percent(t.accurate, t.judged) : null,
	};
}
