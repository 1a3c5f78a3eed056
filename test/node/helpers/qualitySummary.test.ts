import {
	documentColumns,
	DocumentsTally,
	documentTypeItem,
	fieldColumns,
	fieldItem,
	FieldsTally,
	inSummaryOrder,
	percent,
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

describe('the tallies of the two reports, in the summary’s order', () => {
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
		const columns = documentColumns(documents);
		const tally = new DocumentsTally(columns);
		for (const row of [
			doc('d1', 'Invoice', '1', 'false', '10', '2'),
			doc('d2', 'Invoice', '1', 'false', '10', '0'),
			doc('d3', 'Invoice', '0', 'false', '10', '0'),
			doc('d4', 'Receipt', '1', 'true', '3', '0'),
			doc('d5', 'Receipt', '1', 'true', '3', '1'),
		])
			tally.add(row);
		expect(inSummaryOrder(tally.documentTypes(), []).types).toEqual([
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

	test('per field: corrected is "not correct before review"; accuracy is ABBYY’s, over every instance', () => {
		const tally = new FieldsTally(fieldCols);
		// Flags: Correct, RecognitionIssue, DetectedIncorrectly, NotDetected, IsInDocument.
		const rows: Array<[string, string]> = [
			['Total', '01001'],
			['Total', '10001'],
			// A false positive (a value for a field the document does not have): an error.
			['Total', '01000'],
			['Date', '10001'],
			// Rightly left empty (not in the document): correct.
			['Date', '10000'],
			['Vendor', '00011'],
			['Vendor', '00101'],
			['Vendor', '00100'],
			['Vendor', '10000'],
			// No flag at all: in no term of ABBYY's formula.
			['Stamp', '00000'],
			['Stamp', '00001'],
		];
		for (const [field, flags] of rows)
			tally.add(typedRecord(fields, ['d1', field, ...flags.split('')]), {
				type: 'Invoice',
				id: 'invoice',
			});
		// ABBYY's formula counted by hand from the rows above, IsInDocument ignored.
		const accuracy = (field: string) => {
			const flags = rows.filter(([name]) => name === field).map(([, f]) => f);
			const correct = flags.filter((f) => f[0] === '1').length;
			const errors = flags.reduce((sum, f) => sum + Number(f[1]) + Number(f[2]) + Number(f[3]), 0);
			return correct + errors ? Math.round((correct / (correct + errors)) * 10000) / 100 : null;
		};
		expect(['Vendor', 'Total', 'Date', 'Stamp'].map(accuracy)).toEqual([25, 33.33, 100, null]);
		const { fields: ordered } = inSummaryOrder([], tally.fieldTallies());
		expect(ordered.map((t) => fieldItem(t, fieldCols))).toEqual([
			// Not correct in either instance: corrected 100 %, first.
			expect.objectContaining({
				field: 'Stamp',
				occurrences: 2,
				inDocument: 1,
				corrected: 2,
				accuracyPercent: null,
			}),
			{
				documentType: 'Invoice',
				field: 'Vendor',
				occurrences: 4,
				inDocument: 2,
				corrected: 3,
				correctedPercent: 75,
				notDetected: 1,
				notDetectedPercent: 25,
				locatedWrongly: 2,
				locatedWronglyPercent: 50,
				recognitionIssues: 0,
				recognitionIssuesPercent: 0,
				// 1 correct (rightly empty) of 1 + 1 not detected + 2 located wrongly (one not in the document).
				accuracyPercent: accuracy('Vendor'),
			},
			expect.objectContaining({
				field: 'Total',
				occurrences: 3,
				inDocument: 2,
				corrected: 2,
				recognitionIssues: 2,
				correctedPercent: 66.67,
				accuracyPercent: accuracy('Total'),
			}),
			expect.objectContaining({
				field: 'Date',
				occurrences: 2,
				inDocument: 1,
				corrected: 0,
				accuracyPercent: accuracy('Date'),
			}),
		]);
	});

	test('the same field name in two document types stays two fields', () => {
		const typed = reportColumns(['DocumentId', 'DocumentSkillName', 'FieldName', 'Correct']);
		const tally = new FieldsTally(fieldColumns(typed));
		for (const [type, correct] of [
			['Invoice', '1'],
			['Receipt', '0'],
			['Receipt', '1'],
		])
			tally.add(typedRecord(typed, ['d', type, 'Total', correct]));
		const { fields: ordered } = inSummaryOrder([], tally.fieldTallies());
		expect(ordered.map((t) => [t.documentType, t.field, t.occurrences])).toEqual([
			['Invoice', 'Total', 1],
			['Receipt', 'Total', 2],
		]);
	});

	test('a documents report without a type column: the type the fields report names for the document', () => {
		const bare = reportColumns(['DocumentId', 'HasManualReview']);
		const tally = new DocumentsTally(documentColumns(bare));
		tally.add(typedRecord(bare, ['d1', '0']), { type: 'Receipt', id: 'receipt' });
		tally.add(typedRecord(bare, ['d2', '0']));
		const { types } = inSummaryOrder(tally.documentTypes(), []);
		expect(types.map((t) => [t.documentType, t.documentSkillId])).toEqual([
			['(unknown)', null],
			['Receipt', 'receipt'],
		]);
	});

	test('a report without the columns a figure needs: rows counted, under an unknown type, the figure null', () => {
		const bare = reportColumns(['Something']);
		const columns = documentColumns(bare);
		const tally = new DocumentsTally(columns);
		tally.add(typedRecord(bare, ['x']));
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
		const fieldTally = new FieldsTally(fieldColumns(onlyName));
		fieldTally.add(typedRecord(onlyName, ['Total']));
		expect(fieldItem(fieldTally.fieldTallies()[0], fieldTally.columns)).toMatchObject({
			occurrences: 1,
			inDocument: null,
			corrected: null,
			accuracyPercent: null,
		});
	});

	test('the summary’s order: types by documents, fields by their type’s place, then most often corrected', () => {
		const typed = reportColumns(['DocumentId', 'DocumentSkillName', 'HasManualReview']);
		const types = new DocumentsTally(documentColumns(typed));
		for (const [id, type] of [
			['d1', 'Receipt'],
			['d2', 'Invoice'],
			['d3', 'Invoice'],
			['d4', 'Bill'],
		])
			types.add(typedRecord(typed, [id, type, '0']));
		const named = reportColumns(['DocumentId', 'DocumentSkillName', 'FieldName', 'Correct']);
		const fields = new FieldsTally(fieldColumns(named));
		for (const [type, field, correct] of [
			['Receipt', 'Total', '1'],
			['Receipt', 'Date', '0'],
			// A type the documents report does not have, and fields without a type.
			['Waybill', 'Number', '1'],
			['', 'Stamp', '1'],
			['Payslip', 'Net', '1'],
			['Invoice', 'Total', '1'],
			['Bill', 'Total', '0'],
		])
			fields.add(typedRecord(named, ['d', type, field, correct]));
		const ordered = inSummaryOrder(types.documentTypes(), fields.fieldTallies());
		// Most documents first, then by name.
		expect(ordered.types.map((t) => t.documentType)).toEqual(['Invoice', 'Bill', 'Receipt']);
		expect(ordered.fields.map((f) => `${f.documentType}/${f.field}`)).toEqual([
			'Invoice/Total',
			'Bill/Total',
			// Date was corrected in every document, Total in none.
			'Receipt/Date',
			'Receipt/Total',
			'Payslip/Net',
			'Waybill/Number',
			`${UNKNOWN_TYPE}/Stamp`,
		]);
		// Without the documents report: by type name, "(unknown)" still last.
		expect(inSummaryOrder([], fields.fieldTallies()).fields.map((f) => f.documentType)).toEqual([
			'Bill',
			'Invoice',
			'Payslip',
			'Receipt',
			'Receipt',
			'Waybill',
			UNKNOWN_TYPE,
		]);
	});

	test('percent: two decimals, null for nothing', () => {
		expect([percent(1, 3), percent(0, 5), percent(2, 0)]).toEqual([33.33, 0, null]);
	});
});
