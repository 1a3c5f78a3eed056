import { readBinary, runNode } from '../../../harness/n8n';
import { useSimulator } from '../../../helpers/fixture';
import { qaParams, rl } from '../../../helpers/params';
import { seedQualityScenario } from '../../../simulator/qualitykit';
import { FIXTURE } from '../../../simulator/simulator';

const f = useSimulator();

const fieldChanges = (fields = {}) => qaParams('getFieldChanges', fields);

describe('Get Field Changes', () => {
	test('one item per field of each document, flags as booleans', async () => {
		const { corrected } = seedQualityScenario(f.sim);
		const result = await runNode({ credentials: f.store, parameters: fieldChanges({ limit: 10 }) });
		expect(result.error).toBeUndefined();
		const documentId = f.sim.transaction(corrected[0])!.documents[0].id;
		expect(result.items.map((i) => i.json)).toEqual(
			[
				['InvoiceNumber', true, false, false, false, true],
				['InvoiceDate', true, false, false, false, true],
				['Total', false, true, false, false, true],
				['Currency', true, false, false, false, true],
				['PONumbers', false, false, false, true, true],
				['Vendor/Name', false, false, true, false, true],
				['Vendor/VatId', false, false, true, false, false],
				['LineItems/Description', true, false, false, false, false],
				['LineItems/Quantity', true, false, false, false, false],
				['LineItems/Amount', true, false, false, false, false],
			].map(([name, correct, recognition, located, notDetected, inDocument]) => ({
				ProcessSkillId: 'process-skill',
				ProcessSkillName: 'Invoice Processing',
				TransactionId: corrected[0],
				DocumentId: documentId,
				DocumentName: 'scan 1, "March".pdf',
				DocumentSkillId: 'invoice-skill',
				DocumentSkillName: 'Invoice',
				FieldID: `f-${String(name).replace(/\//g, '.')}`,
				FieldName: name,
				Correct: correct,
				RecognitionIssue: recognition,
				DetectedIncorrectly: located,
				NotDetected: notDetected,
				IsInDocument: inDocument,
			})),
		);
	});

	test('Process Skill is required; Document Skill and every other filter are sent', async () => {
		await runNode({
			credentials: f.store,
			parameters: fieldChanges({
				processSkillId: rl(FIXTURE.processSkillId),
				filters: {
					documentSkillId: rl(FIXTURE.documentSkillId),
					imageColority: 'Gray',
					wasDocumentTypeChangedInManualReview: 'true',
				},
			}),
		});
		expect(f.sim.requestsTo('GetFieldsAsCsv')[0].query).toEqual({
			startDate: '2020-01-01T00:00:00.000Z',
			processSkillId: 'process-skill',
			documentSkillId: 'invoice-skill',
			imageColority: 'Gray',
			wasDocumentTypeChangedInManualReview: 'true',
		});
		const empty = await runNode({
			credentials: f.store,
			parameters: fieldChanges({ processSkillId: rl('  ') }),
		});
		expect(empty.error?.message).toBe('Process Skill is empty [item 0]');
		expect(f.sim.requestsTo('GetFieldsAsCsv')).toHaveLength(1);
	});

	test('CSV File: rows counted, bytes as served', async () => {
		seedQualityScenario(f.sim);
		const result = await runNode({
			credentials: f.store,
			parameters: fieldChanges({ output: 'binary' }),
		});
		expect(result.items[0].json).toMatchObject({
			rows: 80,
			fileName: 'field-changes-2020-01-01-to-now.csv',
		});
		const text = (await readBinary(result.items[0])).toString('utf8');
		expect(text.split('\r\n').filter(Boolean)).toHaveLength(81);
		expect(result.items[0].json.fileSize).toBe(Buffer.byteLength(text));
	});

	test('an empty report for a Process skill that exists is simply empty', async () => {
		const result = await runNode({ credentials: f.store, parameters: fieldChanges() });
		expect([result.error, result.items]).toEqual([undefined, []]);
		expect(f.sim.requestsTo('GetSkillInfo')).toHaveLength(1);
	});

	test('a missing skill: the empty report is explained', async () => {
		const result = await runNode({
			credentials: f.store,
			continueOnFail: true,
			parameters: fieldChanges({ processSkillId: rl('deleted-skill') }),
		});
		expect(result.items[0].json).toEqual({
			processSkillId: 'deleted-skill',
			rows: 0,
			error:
				'Process Skill "deleted-skill" was not found, and the report has no rows for it [item 0]',
			errorDescription:
				'Pick the Process skill from the list, or check its ID. Vantage finds only published skills.',
		});
	});

	test('a retired skill that still has reporting data: its rows, no check', async () => {
		seedQualityScenario(f.sim);
		f.sim.unpublishSkill(FIXTURE.processSkillId);
		const result = await runNode({
			credentials: f.store,
			parameters: fieldChanges({ returnAll: true }),
		});
		expect([result.error, result.items.length]).toEqual([undefined, 80]);
		expect(f.sim.requestsTo('GetSkillInfo')).toHaveLength(0);
	});
});
