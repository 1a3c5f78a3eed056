import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { qaParams, rl } from '../../helpers/params';
import { seedQualityScenario } from '../../simulator/qualitykit';
import { FIXTURE } from '../../simulator/simulator';

const f = useSimulator();

const summary = (fields = {}) => qaParams('getQualitySummary', fields);

const BASE = {
	processSkillId: 'process-skill',
	processSkillName: 'Invoice Processing',
	startDate: '2020-01-01T00:00:00.000Z',
	endDate: null,
};

/** The scenario's Invoice documents: 8, of which 2 (the photo's) passed without correction. */
const INVOICES = {
	documents: 8,
	straightThrough: 2,
	straightThroughPercent: 25,
	reviewed: 6,
	reviewedPercent: 75,
	corrected: 4,
	correctedPercent: 50,
	documentTypeChanged: 2,
	documentTypeChangedPercent: 25,
	// In the documents: corrected 6 fields each (of 4), clean 3 (of 2), retyped 2 (of 2).
	fieldsExported: 4 * 6 + 2 * 3 + 2 * 2,
	fieldsChanged: 4 * 3,
	fieldsChangedPercent: 35.29,
};

function field(name: string, counts: Partial<Record<string, number>>): IDataObject {
	const occurrences = 8;
	const c = { corrected: 0, notDetected: 0, locatedWrongly: 0, recognitionIssues: 0, ...counts };
	const pct = (n: number) => Math.round((n / occurrences) * 10000) / 100;
	return {
		level: 'field',
		...BASE,
		documentType: 'Invoice',
		field: name,
		occurrences,
		corrected: c.corrected,
		correctedPercent: pct(c.corrected),
		notDetected: c.notDetected,
		notDetectedPercent: pct(c.notDetected),
		locatedWrongly: c.locatedWrongly,
		locatedWronglyPercent: pct(c.locatedWrongly),
		recognitionIssues: c.recognitionIssues,
		recognitionIssuesPercent: pct(c.recognitionIssues),
		accuracyPercent: pct(occurrences - c.corrected),
	};
}

describe('Get Quality Summary', () => {
	test('a total, each document type, then each field: straight-through and corrections from both reports', async () => {
		seedQualityScenario(f.sim);
		const result = await runNode({ credentials: f.store, parameters: summary() });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json)).toEqual([
			{ level: 'total', ...BASE, documentType: null, documentSkillId: null, ...INVOICES },
			{
				level: 'documentType',
				...BASE,
				documentType: 'Invoice',
				documentSkillId: 'invoice-skill',
				...INVOICES,
			},
			// Most often corrected first, then by name.
			field('PONumbers', { corrected: 4, notDetected: 4 }),
			field('Total', { corrected: 4, recognitionIssues: 4 }),
			field('Vendor/Name', { corrected: 4, locatedWrongly: 4 }),
			...[
				'Currency',
				'InvoiceDate',
				'InvoiceNumber',
				'LineItems/Amount',
				'LineItems/Description',
				'LineItems/Quantity',
				'Vendor/VatId',
			].map((name) => field(name, {})),
		]);
		expect(result.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		// Each report once, with the same filters.
		const queries = ['GetDocumentsAsCsv', 'GetFieldsAsCsv'].map(
			(route) => f.sim.requestsTo(route as 'GetFieldsAsCsv')[0]?.query,
		);
		expect(queries).toEqual([
			{ startDate: '2020-01-01T00:00:00.000Z', processSkillId: 'process-skill' },
			{ startDate: '2020-01-01T00:00:00.000Z', processSkillId: 'process-skill' },
		]);
	});

	test('per period and image filters; Summarize reads only the report it needs', async () => {
		seedQualityScenario(f.sim);
		const types = await runNode({
			credentials: f.store,
			parameters: summary({
				startDate: '2026-03-05T00:00:00Z',
				summarize: 'types',
				filters: { endDate: '2026-03-15T00:00:00Z', imageSource: 'Photo' },
			}),
		});
		expect(
			types.items.map((i) => [i.json.level, i.json.documents, i.json.straightThroughPercent]),
		).toEqual([
			['total', 2, 100],
			['documentType', 2, 100],
		]);
		expect(f.sim.requestsTo('GetFieldsAsCsv')).toHaveLength(0);
		expect(f.sim.requestsTo('GetDocumentsAsCsv')[0].query).toEqual({
			startDate: '2026-03-05T00:00:00.000Z',
			endDate: '2026-03-15T00:00:00.000Z',
			processSkillId: 'process-skill',
			imageSource: 'Photo',
		});
		f.sim.clearLog();
		const fields = await runNode({
			credentials: f.store,
			parameters: summary({ summarize: 'fields' }),
		});
		expect(fields.items.every((i) => i.json.level === 'field')).toBe(true);
		expect(fields.items).toHaveLength(10);
		expect(f.sim.requestsTo('GetDocumentsAsCsv')).toHaveLength(0);
	});

	test('reports with only the columns of the OpenAPI examples: the fields report names no type, the documents report tells', async () => {
		seedQualityScenario(f.sim);
		f.sim.setQaColumns({ fields: 'example' });
		const result = await runNode({ credentials: f.store, parameters: summary() });
		expect(result.error).toBeUndefined();
		expect(
			result.items.filter((i) => i.json.level === 'field').map((i) => i.json.documentType),
		).toEqual(Array(10).fill('Invoice'));
		expect(result.items[2].json).toEqual(field('PONumbers', { corrected: 4, notDetected: 4 }));
		// Fields first, then the documents with their ids, then the fields again by document.
		expect(f.sim.requests.map((r) => r.route).filter((r) => r !== 'Token')).toEqual([
			'GetDocumentsAsCsv',
			'GetFieldsAsCsv',
			'GetDocumentsAsCsv',
			'GetFieldsAsCsv',
		]);
		f.sim.setQaColumns({ documents: 'example', fields: 'example' });
		const untyped = await runNode({ credentials: f.store, parameters: summary() });
		expect(untyped.items[1].json).toMatchObject({ documentType: '(unknown)', documents: 8 });
	});

	test('a period without documents: one total item of zeros, percentages null', async () => {
		const result = await runNode({ credentials: f.store, parameters: summary() });
		expect(result.items.map((i) => i.json)).toEqual([
			{
				level: 'total',
				...BASE,
				processSkillName: null,
				documentType: null,
				documentSkillId: null,
				documents: 0,
				straightThrough: 0,
				straightThroughPercent: null,
				reviewed: 0,
				reviewedPercent: null,
				corrected: 0,
				correctedPercent: null,
				documentTypeChanged: 0,
				documentTypeChangedPercent: null,
				fieldsExported: 0,
				fieldsChanged: 0,
				fieldsChangedPercent: null,
			},
		]);
	});

	test('a missing skill, bad dates and bad options are refused', async () => {
		const missing = await runNode({
			credentials: f.store,
			parameters: summary({ processSkillId: rl('no-such-skill') }),
		});
		expect(missing.error?.message).toBe(
			'Process Skill "no-such-skill" was not found, and the report has no rows for it [item 0]',
		);
		f.sim.clearLog();
		for (const [fields, message] of [
			[{ startDate: '2026-02-30' }, /^Start Date is not a valid date: "2026-02-30" \[item 0\]$/],
			[{ processSkillId: rl('  ') }, /^Process Skill is empty \[item 0\]$/],
			[
				{ summarize: '={{ "everything" }}' },
				/^Summarize must be one of "typesAndFields", "types", "fields"/,
			],
			[
				{ filters: { imageColority: 'Sepia' } },
				/^Image Colority must be one of "BlackWhite", "Gray", "Color"/,
			],
		] as const) {
			const result = await runNode({ credentials: f.store, parameters: summary(fields) });
			expect(result.error?.message).toMatch(message);
		}
		expect(f.sim.requests).toHaveLength(0);
	});

	test('a report that breaks off midway is read again: the counts are not doubled', async () => {
		f.sim.seedCompletedTransactions(200, { skillId: FIXTURE.processSkillId, manualReview: true });
		f.sim.injectFault('GetFieldsAsCsv', { kind: 'reset', afterBytes: 20_000 });
		const result = await runNode({
			credentials: f.store,
			parameters: { ...summary(), requestOptions: { retryDelay: 0.01 } },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.documents).toBe(400);
		expect(result.items.slice(2).every((i) => i.json.occurrences === 400)).toBe(true);
		expect(f.sim.requestsTo('GetFieldsAsCsv')).toHaveLength(2);
	});
});
