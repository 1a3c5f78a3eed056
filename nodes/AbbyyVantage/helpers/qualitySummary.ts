import type { IDataObject } from 'n8n-workflow';

import { findColumn, type ReportColumn } from './reportRows';

/**
 * Extraction quality from the two QA reports, tallied row by row: per document type, how many
 * documents were processed, reviewed, corrected, had their type changed, and passed without
 * correction (straight-through); per field of each type, how often its value was corrected, not
 * detected, located wrongly or had a recognition issue. Only counters per type and per field are
 * kept, never the rows. Column names as the Reporting OpenAPI document's examples and
 * docs.abbyy.com (analytics reporting) give them; where a report lacks one, what it would tell is
 * not counted.
 */

/** Where a document's type is named, in order of preference. */
const TYPE_NAME_COLUMNS = ['DocumentSkillName', 'DocumentTypeName', 'DocumentType', 'ClassName'];
const TYPE_ID_COLUMNS = ['DocumentSkillId', 'DocumentTypeId'];

/** The name a document or field row without a type column is counted under. */
export const UNKNOWN_TYPE = '(unknown)';

export interface DocumentTypeTally {
	documentType: string;
	documentSkillId: string | null;
	documents: number;
	reviewed: number;
	corrected: number;
	documentTypeChanged: number;
	straightThrough: number;
	fieldsExported: number;
	fieldsChanged: number;
}

export interface FieldTally {
	documentType: string;
	field: string;
	occurrences: number;
	corrected: number;
	recognitionIssues: number;
	locatedWrongly: number;
	notDetected: number;
	inDocument: number;
}

const isTrue = (value: unknown) => value === true;
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A document's or field's type: its name, else its skill id, else UNKNOWN_TYPE. */
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

function typeOf(row: IDataObject, columns: TypeColumns): { type: string; id: string | null } {
	const id =
		columns.id && typeof row[columns.id] === 'string' && row[columns.id]
			? String(row[columns.id])
			: null;
	const name =
		columns.name && typeof row[columns.name] === 'string' && row[columns.name]
			? String(row[columns.name])
			: null;
	return { type: name ?? id ?? UNKNOWN_TYPE, id };
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

export class QualityTally {
	private readonly types = new Map<string, DocumentTypeTally>();
	private readonly fields = new Map<string, FieldTally>();

	/** One row of the documents report (typed, see reportRows.ts). */
	addDocument(row: IDataObject, columns: DocumentColumns): void {
		const { type, id } = typeOf(row, columns);
		const tally = this.type(type, id);
		tally.documents++;
		const changed = columns.changed ? count(row[columns.changed]) : 0;
		const typeChanged = columns.typeChanged ? isTrue(row[columns.typeChanged]) : false;
		if (columns.reviewed && isTrue(row[columns.reviewed])) tally.reviewed++;
		if (changed > 0) tally.corrected++;
		if (typeChanged) tally.documentTypeChanged++;
		if (changed === 0 && !typeChanged) tally.straightThrough++;
		tally.fieldsExported += columns.exported ? count(row[columns.exported]) : 0;
		tally.fieldsChanged += changed;
	}

	/**
	 * One row of the fields report. `typeOfDocument` names the type when the fields report has no
	 * type column (read from the documents report by document id).
	 */
	addField(row: IDataObject, columns: FieldColumns, typeOfDocument?: string): void {
		const own = typeOf(row, columns);
		const type = own.type === UNKNOWN_TYPE && typeOfDocument ? typeOfDocument : own.type;
		const field = columns.field ? String(row[columns.field] ?? '') : '';
		const key = `${type}\u0000${field}`;
		let tally = this.fields.get(key);
		if (!tally) {
			tally = {
				documentType: type,
				field,
				occurrences: 0,
				corrected: 0,
				recognitionIssues: 0,
				locatedWrongly: 0,
				notDetected: 0,
				inDocument: 0,
			};
			this.fields.set(key, tally);
		}
		tally.occurrences++;
		const recognitionIssue = columns.recognitionIssue && isTrue(row[columns.recognitionIssue]);
		const locatedWrongly = columns.locatedWrongly && isTrue(row[columns.locatedWrongly]);
		const notDetected = columns.notDetected && isTrue(row[columns.notDetected]);
		if (recognitionIssue) tally.recognitionIssues++;
		if (locatedWrongly) tally.locatedWrongly++;
		if (notDetected) tally.notDetected++;
		if (columns.inDocument && isTrue(row[columns.inDocument])) tally.inDocument++;
		// Corrected: not correct before Manual Review; without a Correct column, any of the three.
		const corrected = columns.correct
			? row[columns.correct] === false
			: Boolean(recognitionIssue || locatedWrongly || notDetected);
		if (corrected) tally.corrected++;
	}

	/** Document types, most documents first, then by name. */
	documentTypes(): DocumentTypeTally[] {
		return [...this.types.values()].sort(
			(a, b) => b.documents - a.documents || a.documentType.localeCompare(b.documentType),
		);
	}

	/** Fields by document type (in `documentTypes` order), most often corrected first, then by name. */
	fieldTallies(): FieldTally[] {
		const order = new Map(this.documentTypes().map((t, i) => [t.documentType, i]));
		const rank = (type: string) => order.get(type) ?? order.size;
		return [...this.fields.values()].sort(
			(a, b) =>
				rank(a.documentType) - rank(b.documentType) ||
				a.documentType.localeCompare(b.documentType) ||
				share(b.corrected, b.occurrences) - share(a.corrected, a.occurrences) ||
				a.field.localeCompare(b.field),
		);
	}

	/** All document types together. */
	total(): Omit<DocumentTypeTally, 'documentType' | 'documentSkillId'> {
		const total = {
			documents: 0,
			reviewed: 0,
			corrected: 0,
			documentTypeChanged: 0,
			straightThrough: 0,
			fieldsExported: 0,
			fieldsChanged: 0,
		};
		for (const t of this.types.values()) {
			for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += t[key];
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
				reviewed: 0,
				corrected: 0,
				documentTypeChanged: 0,
				straightThrough: 0,
				fieldsExported: 0,
				fieldsChanged: 0,
			};
			this.types.set(documentType, tally);
		}
		tally.documentSkillId ??= documentSkillId;
		return tally;
	}
}

function share(part: number, whole: number): number {
	return whole > 0 ? part / whole : 0;
}

/** `part` of `whole` in percent, two decimals; null when there is nothing to divide. */
export function percent(part: number, whole: number): number | null {
	return whole > 0 ? Math.round((part / whole) * 10000) / 100 : null;
}

/** The output item of a document type (or, with `documentType` null, of all of them). */
export function documentTypeItem(
	t: Omit<DocumentTypeTally, 'documentType' | 'documentSkillId'> & {
		documentType: string | null;
		documentSkillId: string | null;
	},
): IDataObject {
	return {
		documentType: t.documentType,
		documentSkillId: t.documentSkillId,
		documents: t.documents,
		straightThrough: t.straightThrough,
		straightThroughPercent: percent(t.straightThrough, t.documents),
		reviewed: t.reviewed,
		reviewedPercent: percent(t.reviewed, t.documents),
		corrected: t.corrected,
		correctedPercent: percent(t.corrected, t.documents),
		documentTypeChanged: t.documentTypeChanged,
		documentTypeChangedPercent: percent(t.documentTypeChanged, t.documents),
		fieldsExported: t.fieldsExported,
		fieldsChanged: t.fieldsChanged,
		fieldsChangedPercent: percent(t.fieldsChanged, t.fieldsExported),
	};
}

/** The output item of one field of one document type. */
export function fieldItem(t: FieldTally): IDataObject {
	return {
		documentType: t.documentType,
		field: t.field,
		occurrences: t.occurrences,
		corrected: t.corrected,
		correctedPercent: percent(t.corrected, t.occurrences),
		notDetected: t.notDetected,
		notDetectedPercent: percent(t.notDetected, t.occurrences),
		locatedWrongly: t.locatedWrongly,
		locatedWronglyPercent: percent(t.locatedWrongly, t.occurrences),
		recognitionIssues: t.recognitionIssues,
		recognitionIssuesPercent: percent(t.recognitionIssues, t.occurrences),
		accuracyPercent: percent(t.occurrences - t.corrected, t.occurrences),
	};
}
