/**
 * The test oracle of Get Quality Summary: the figures it should output, counted straight from the
 * two QA reports' CSV text as Vantage (here the simulator) serves them. Written apart from the
 * node (it imports nothing of nodes/, neither helpers/qualitySummary.ts nor its CSV reader) and
 * kept plain: filter the rows, count, divide.
 *
 * Definitions (docs/reports-and-quality.md, Get Quality Summary):
 * - straight-through: a document without Manual Review (`HasManualReview` 0);
 * - reviewed unchanged: with Manual Review, no field changed and the type kept;
 * - field accuracy as ABBYY defines it: Correct / (Correct + Recognition Issue + Located
 *   Incorrectly + Not Detected), each a count of the field's instances, over all its rows whatever
 *   `IsInDocument` says (a false positive, IsInDocument 0 with an error flag, is an error; a field
 *   rightly left empty, IsInDocument 0 and Correct, is correct),
 *   docs.abbyy.com/vantage/documentation/skill-designer/document/analyzing-extracted-data.
 */

type Row = Record<string, string>;

/** RFC 4180 records: quoted cells with "" for a quote and line breaks inside; CRLF or LF. */
export function csvRows(text: string): Row[] {
	const records: string[][] = [];
	let record: string[] = [];
	let cell = '';
	let quoted = false;
	const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	for (let i = 0; i < body.length; i++) {
		const ch = body[i];
		if (quoted) {
			if (ch === '"' && body[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (ch === '"') quoted = false;
			else cell += ch;
		} else if (ch === '"') quoted = true;
		else if (ch === ',') {
			record.push(cell);
			cell = '';
		} else if (ch === '\n' || ch === '\r') {
			if (ch === '\r' && body[i + 1] === '\n') i++;
			record.push(cell);
			if (record.length > 1 || record[0] !== '') records.push(record);
			record = [];
			cell = '';
		} else cell += ch;
	}
	if (cell !== '' || record.length) records.push([...record, cell]);
	const [header, ...rest] = records;
	return rest.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]])));
}

const yes = (value: string | undefined) => value === '1' || value?.toLowerCase() === 'true';
const pct = (part: number, whole: number) =>
	whole > 0 ? Math.round((part / whole) * 10000) / 100 : null;

export interface ExpectedDocuments {
	documents: number;
	straightThrough: number;
	straightThroughPercent: number | null;
	reviewed: number;
	reviewedPercent: number | null;
	reviewedUnchanged: number;
	reviewedUnchangedPercent: number | null;
	corrected: number;
	correctedPercent: number | null;
	documentTypeChanged: number;
	documentTypeChangedPercent: number | null;
	fieldsExported: number;
	fieldsChanged: number;
	fieldsChangedPercent: number | null;
}

export interface ExpectedField {
	occurrences: number;
	inDocument: number;
	corrected: number;
	correctedPercent: number | null;
	notDetected: number;
	notDetectedPercent: number | null;
	locatedWrongly: number;
	locatedWronglyPercent: number | null;
	recognitionIssues: number;
	recognitionIssuesPercent: number | null;
	accuracyPercent: number | null;
}

function documentFigures(rows: Row[]): ExpectedDocuments {
	const n = rows.length;
	const straight = rows.filter((d) => !yes(d.HasManualReview)).length;
	const reviewed = rows.filter((d) => yes(d.HasManualReview));
	const unchanged = reviewed.filter(
		(d) => Number(d.NumberOfChangedFields) === 0 && !yes(d.DocumentSkillChanged),
	).length;
	const corrected = rows.filter((d) => Number(d.NumberOfChangedFields) > 0).length;
	const retyped = rows.filter((d) => yes(d.DocumentSkillChanged)).length;
	const exported = rows.reduce((sum, d) => sum + Number(d.NumberOfExportedFields), 0);
	const changed = rows.reduce((sum, d) => sum + Number(d.NumberOfChangedFields), 0);
	return {
		documents: n,
		straightThrough: straight,
		straightThroughPercent: pct(straight, n),
		reviewed: reviewed.length,
		reviewedPercent: pct(reviewed.length, n),
		reviewedUnchanged: unchanged,
		reviewedUnchangedPercent: pct(unchanged, n),
		corrected,
		correctedPercent: pct(corrected, n),
		documentTypeChanged: retyped,
		documentTypeChangedPercent: pct(retyped, n),
		fieldsExported: exported,
		fieldsChanged: changed,
		fieldsChangedPercent: pct(changed, exported),
	};
}

function fieldFigures(rows: Row[]): ExpectedField {
	const n = rows.length;
	const count = (column: string) => rows.filter((r) => yes(r[column])).length;
	const inDocument = rows.filter((r) => yes(r.IsInDocument));
	const correct = count('Correct');
	const judged =
		correct + count('RecognitionIssue') + count('DetectedIncorrectly') + count('NotDetected');
	const corrected = rows.filter((r) => !yes(r.Correct)).length;
	return {
		occurrences: n,
		inDocument: inDocument.length,
		corrected,
		correctedPercent: pct(corrected, n),
		notDetected: count('NotDetected'),
		notDetectedPercent: pct(count('NotDetected'), n),
		locatedWrongly: count('DetectedIncorrectly'),
		locatedWronglyPercent: pct(count('DetectedIncorrectly'), n),
		recognitionIssues: count('RecognitionIssue'),
		recognitionIssuesPercent: pct(count('RecognitionIssue'), n),
		accuracyPercent: pct(correct, judged),
	};
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
	return groups;
}

export interface ExpectedSummary {
	total: ExpectedDocuments;
	/** By document type. */
	types: Record<string, ExpectedDocuments>;
	/** By `<document type>/<field name>`. */
	fields: Record<string, ExpectedField>;
}

/**
 * The expected figures of both reports. A row's document type is its DocumentSkillName, else the
 * other report's for the same DocumentId, else "(unknown)".
 */
export function expectedSummary(documentsCsv: string, fieldsCsv: string): ExpectedSummary {
	const documents = csvRows(documentsCsv);
	const fields = csvRows(fieldsCsv);
	const typeOf = new Map<string, string>();
	for (const row of [...documents, ...fields]) {
		if (row.DocumentSkillName && !typeOf.has(row.DocumentId)) {
			typeOf.set(row.DocumentId, row.DocumentSkillName);
		}
	}
	const type = (row: Row) => row.DocumentSkillName || typeOf.get(row.DocumentId) || '(unknown)';
	return {
		total: documentFigures(documents),
		types: Object.fromEntries(
			[...groupBy(documents, type)].map(([name, rows]) => [name, documentFigures(rows)]),
		),
		fields: Object.fromEntries(
			[...groupBy(fields, (r) => `${type(r)}/${r.FieldName}`)].map(([key, rows]) => [
				key,
				fieldFigures(rows),
			]),
		),
	};
}
