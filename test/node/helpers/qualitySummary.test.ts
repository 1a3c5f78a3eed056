import {
	documentColumns,
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

	test('per document type: documents, straight-through (neither corrected nor retyped), reviewed', () => {
		const tally = new QualityTally();
		const columns = documentColumns(documents);
		for (const row of [
			doc('d1', 'Invoice', '1', 'false', '10', '2'),
			doc('d2', 'Invoice', '1', 'false', '10', '0'),
			doc('d3', 'Invoice', '0', 'false', '10', '0'),
			doc('d4', 'Receipt', '1', 'true', '3', '0'),
		])
			tally.addDocument(row, columns);
		expect(tally.documentTypes()).toEqual([
			{
				documentType: 'Invoice',
				documentSkillId: 'invoice',
				documents: 3,
				reviewed: 2,
				corrected: 1,
				documentTypeChanged: 0,
				straightThrough: 2,
				fieldsExported: 30,
				fieldsChanged: 2,
			},
			{
				documentType: 'Receipt',
				documentSkillId: 'receipt',
				documents: 1,
				reviewed: 1,
				corrected: 0,
				documentTypeChanged: 1,
				straightThrough: 0,
				fieldsExported: 3,
				fieldsChanged: 0,
			},
		]);
		expect(tally.total()).toMatchObject({ documents: 4, straightThrough: 2, reviewed: 3 });
	});

	test('per field: corrected is "not correct before review"; each problem counted; most corrected first', () => {
		const fields = reportColumns([
			'DocumentId',
			'FieldName',
			'Correct',
			'RecognitionIssue',
			'DetectedIncorrectly',
			'NotDetected',
			'IsInDocument',
		]);
		const columns = fieldColumns(fields);
		const tally = new QualityTally();
		const add = (field: string, flags: string) =>
			tally.addField(typedRecord(fields, ['d1', field, ...flags.split('')]), columns, 'Invoice');
		add('Total', '01001');
		add('Total', '10001');
		add('Date', '10001');
		add('Vendor', '00011');
		add('Vendor', '00101');
		expect(tally.fieldTallies().map(fieldItem)).toEqual([
			{
				documentType: 'Invoice',
				field: 'Vendor',
				occurrences: 2,
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
			}),
			expect.objectContaining({ field: 'Date', corrected: 0, accuracyPercent: 100 }),
		]);
	});

	test('a report without the columns a figure needs: rows still counted, under an unknown type', () => {
		const tally = new QualityTally();
		const bare = reportColumns(['Something']);
		tally.addDocument(typedRecord(bare, ['x']), documentColumns(bare));
		expect(tally.documentTypes()).toEqual([
			expect.objectContaining({ documentType: UNKNOWN_TYPE, documents: 1, straightThrough: 1 }),
		]);
	});

	test('percent: two decimals, null for nothing', () => {
		expect([percent(1, 3), percent(0, 5), percent(2, 0)]).toEqual([33.33, 0, null]);
	});
});
