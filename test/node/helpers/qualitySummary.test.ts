import {
	documentColumns,
	documentTypeItem,
	fieldColumns,
	fieldItem,
	percent,
	QualityTally,
	UNKNOWN_TYPE,
} from '../../../nodes/AbbyyVantage/helpers/qualitySummary';
import {
	columnKind,
	reportColumns,
	typedRecord,
	typedValue,
} from '../../../nodes/AbbyyVantage/helpers/reportRows';

describe('report rows: one type per column, from its name', () => {
	test('flags, counts, dates and text', () => {
		expect(
			[
				'HasManualReview',
				'IsInDocument',
				'Correct',
				'NumberOfChangedFields',
				'PagesCount',
				'Duration',
				'CompletedUtc',
				'StartDate',
				'DocumentName',
				'FieldID',
			].map(columnKind),
		).toEqual([
			'boolean',
			'boolean',
			'boolean',
			'number',
			'number',
			'number',
			'date',
			'date',
			'text',
			'text',
		]);
	});

	test('values as their column reads them; what does not read stays text; empty is null', () => {
		expect(['1', '0', 'true', 'False', '', 'maybe'].map((v) => typedValue('boolean', v))).toEqual([
			true,
			false,
			true,
			false,
			null,
			'maybe',
		]);
		expect(['12', '-3.5', ' 7 ', '', '1,5'].map((v) => typedValue('number', v))).toEqual([
			12,
			-3.5,
			7,
			null,
			'1,5',
		]);
		expect(
			[
				'11/17/2025 10:00:05',
				'2025-11-17T10:00:05',
				'2025-11-17T10:00:05+01:00',
				'2025-11-17',
				'13/45/2025 10:00:00',
				'soon',
			].map((v) => typedValue('date', v)),
		).toEqual([
			'2025-11-17T10:00:05.000Z',
			'2025-11-17T10:00:05.000Z',
			'2025-11-17T09:00:05.000Z',
			'2025-11-17T00:00:00.000Z',
			'13/45/2025 10:00:00',
			'soon',
		]);
		expect(typedValue('text', ' 12 ')).toBe(' 12 ');
	});

	test('repeated and blank header names are made unique; extra and missing cells kept', () => {
		const columns = reportColumns(['Id', 'Id', '', 'Correct']);
		expect(columns.map((c) => c.key)).toEqual(['Id', 'Id_2', 'column_3', 'Correct']);
		expect(typedRecord(columns, ['a', 'b', 'c', '1', 'extra'])).toEqual({
			Id: 'a',
			Id_2: 'b',
			column_3: 'c',
			Correct: true,
			column_5: 'extra',
		});
		expect(typedRecord(columns, ['a'])).toEqual({
			Id: 'a',
			Id_2: null,
			column_3: null,
			Correct: null,
		});
	});
});

describe('QualityTally', () => {
	const documents = reportColumns([
		'DocumentId',
		'DocumentSkillId',
		'DocumentSkillName',
		'HasManualReview',
		'DocumentSkillChanged',
		'NumberOfExportedFields',
		'NumberOfChangedFields',
	]);
	const doc = (
		id: string,
		type: string,
		reviewed: string,
		retyped: string,
		exported: string,
		changed: string,
	) => typedRecord(documents, [id, type.toLowerCase(), type, reviewed, retyped, exported, changed]);

	test('per document type: straight-through is "no Manual Review"; reviewed splits into unchanged, corrected, retyped', () => {
		const tally = new QualityTally();
		const columns = documentColumns(documents);
		for (const row of [
			doc('d1', 'Invoice', '1', 'false', '10', '2'),
			doc('d2', 'Invoice', '1', 'false', '10', '0'),
			doc('d3', 'Invoice', '0', 'false', '10', '0'),
			doc('d4', 'Receipt', '1', 'true', '3', '0'),
			doc('d5', 'Receipt', '1', 'true', '3', '1'),
		])
			tally.addDocument(row, columns);
		expect(tally.documentTypes()).toEqual([
			{
				documentType: 'Invoice',
				documentSkillId: 'invoice',
				documents: 3,
				// d2 went through Manual Review with nothing changed: reviewed, not straight-through.
				straightThrough: 1,
				reviewed: 2,
				reviewedUnchanged: 1,
				corrected: 1,
				documentTypeChanged: 0,
				fieldsExported: 30,
				fieldsChanged: 2,
			},
			{
				documentType: 'Receipt',
				documentSkillId: 'receipt',
				documents: 2,
				straightThrough: 0,
				reviewed: 2,
				reviewedUnchanged: 0,
				corrected: 1,
				documentTypeChanged: 2,
				fieldsExported: 6,
				fieldsChanged: 1,
			},
		]);
		expect(tally.total()).toMatchObject({
			documents: 5,
			straightThrough: 1,
			reviewed: 4,
			reviewedUnchanged: 1,
		});
		expect(
			documentTypeItem({ ...tally.total(), documentType: null, documentSkillId: null }, columns),
		).toEqual({
			documentType: null,
			documentSkillId: null,
			documents: 5,
			straightThrough: 1,
			straightThroughPercent: 20,
			reviewed: 4,
			reviewedPercent: 80,
			reviewedUnchanged: 1,
			reviewedUnchangedPercent: 20,
			corrected: 2,
			correctedPercent: 40,
			documentTypeChanged: 2,
			documentTypeChangedPercent: 40,
			fieldsExported: 36,
			fieldsChanged: 3,
			fieldsChangedPercent: 8.33,
		});
	});

	const fields = reportColumns([
		'DocumentId',
		'FieldName',
		'Correct',
		'RecognitionIssue',
		'DetectedIncorrectly',
		'NotDetected',
		'IsInDocument',
	]);
	const fieldCols = fieldColumns(fields);

	test('per field: corrected is "not correct before review"; accuracy is ABBYY’s, over instances in the document', () => {
		const tally = new QualityTally();
		const add = (field: string, flags: string) =>
			tally.addField(typedRecord(fields, ['d1', field, ...flags.split('')]), fieldCols, {
				type: 'Invoice',
				id: 'invoice',
			});
		add('Total', '01001');
		add('Total', '10001');
		add('Date', '10001');
		// Rightly absent (not in the document): no part of the accuracy.
		add('Date', '10000');
		add('Vendor', '00011');
		add('Vendor', '00101');
		expect(tally.fieldTallies().map((t) => fieldItem(t, fieldCols))).toEqual([
			{
				documentType: 'Invoice',
				field: 'Vendor',
				occurrences: 2,
				inDocument: 2,
				corrected: 2,
				correctedPercent: 100,
				notDetected: 1,
				notDetectedPercent: 50,
				locatedWrongly: 1,
				locatedWronglyPercent: 50,
				recognitionIssues: 0,
				recognitionIssuesPercent: 0,
				accuracyPercent: 0,
			},
			expect.objectContaining({
				field: 'Total',
				corrected: 1,
				recognitionIssues: 1,
				correctedPercent: 50,
				accuracyPercent: 50,
			}),
			expect.objectContaining({
				field: 'Date',
				occurrences: 2,
				inDocument: 1,
				corrected: 0,
				accuracyPercent: 100,
			}),
		]);
	});

	test('the same field name in two document types stays two fields', () => {
		const tally = new QualityTally();
		const typed = reportColumns(['DocumentId', 'DocumentSkillName', 'FieldName', 'Correct']);
		for (const [type, correct] of [
			['Invoice', '1'],
			['Receipt', '0'],
			['Receipt', '1'],
		])
			tally.addField(typedRecord(typed, ['d', type, 'Total', correct]), fieldColumns(typed));
		expect(tally.fieldTallies().map((t) => [t.documentType, t.field, t.occurrences])).toEqual([
			['Invoice', 'Total', 1],
			['Receipt', 'Total', 2],
		]);
	});

	test('a documents report without a type column: the type the fields report names for the document', () => {
		const bare = reportColumns(['DocumentId', 'HasManualReview']);
		const tally = new QualityTally();
		tally.addDocument(typedRecord(bare, ['d1', '0']), documentColumns(bare), {
			type: 'Receipt',
			id: 'receipt',
		});
		tally.addDocument(typedRecord(bare, ['d2', '0']), documentColumns(bare));
		expect(tally.documentTypes().map((t) => [t.documentType, t.documentSkillId])).toEqual([
			['(unknown)', null],
			['Receipt', 'receipt'],
		]);
	});

	test('a report without the columns a figure needs: rows counted, under an unknown type, the figure null', () => {
		const tally = new QualityTally();
		const bare = reportColumns(['Something']);
		const columns = documentColumns(bare);
		tally.addDocument(typedRecord(bare, ['x']), columns);
		const [type] = tally.documentTypes();
		expect(documentTypeItem(type, columns)).toEqual({
			documentType: UNKNOWN_TYPE,
			documentSkillId: null,
			documents: 1,
			straightThrough: null,
			straightThroughPercent: null,
			reviewed: null,
			reviewedPercent: null,
			reviewedUnchanged: null,
			reviewedUnchangedPercent: null,
			corrected: null,
			correctedPercent: null,
			documentTypeChanged: null,
			documentTypeChangedPercent: null,
			fieldsExported: null,
			fieldsChanged: null,
			fieldsChangedPercent: null,
		});
		const onlyName = reportColumns(['FieldName']);
		tally.addField(typedRecord(onlyName, ['Total']), fieldColumns(onlyName));
		expect(fieldItem(tally.fieldTallies()[0], fieldColumns(onlyName))).toMatchObject({
			occurrences: 1,
			inDocument: null,
			corrected: null,
			accuracyPercent: null,
		});
	});

	test('percent: two decimals, null for nothing', () => {
		expect([percent(1, 3), percent(0, 5), percent(2, 0)]).toEqual([33.33, 0, null]);
	});
});
