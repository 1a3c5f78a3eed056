/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * The QA reports inside a real n8n (`n8n execute`): examples/quality-digest.json over the week
 * of Process-skill processing ./lib/setup.ts seeds (plus whatever the suite processed before), its
 * numbers checked against the test oracle's count over the reports Vantage serves
 * (test/simulator/qualityOracle.ts, written apart from the node); then
 * e2e/workflows/qa-reports.json runs Get Document Changes (items), Get Field Changes (a CSV File
 * written to disk) and Tenant → Create Invite.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { api, token } from '../test/helpers/http';
import { expectedSummary } from '../test/simulator/qualityOracle';
import { QUALITY_WEEK } from '../test/simulator/qualitykit';
import { FIXTURE } from '../test/simulator/simulator';
import { assert, check, equal } from './lib/checks';
import { xlsxRecords } from './lib/files';
import { n8n, parseRun, runOutput } from './lib/n8n';
import { runAlone, type Setup } from './lib/setup';

type Json = Record<string, unknown>;
type Item = { json: Json; binary?: Record<string, Json> };

/** examples/quality-digest.json and e2e/workflows/qa-reports.json */
const DIGEST = 'vaExQuality01';
const REPORTS = 'vaE2eQaRep01';
const QA = '/api/reporting/v2/qa/process-skills';

async function execute(setup: Setup, workflowId: string) {
	const result = await n8n(setup.instance, ['execute', `--id=${workflowId}`, '--rawOutput']);
	return { ...result, run: parseRun(result.stdout) };
}

/** RFC 4180 records of a report (no line breaks inside cells in the suite's data). */
function csv(text: string): Json[] {
	const [header, ...lines] = text.split('\r\n').filter((line) => line !== '');
	const cells = (line: string) =>
		[...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) =>
			m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1],
		);
	const names = cells(header);
	return lines.map((line) => {
		const values = cells(line);
		return Object.fromEntries(names.map((name, i) => [name, values[i]]));
	});
}

/** A report as Vantage serves it for the query the node sent. */
async function served(setup: Setup, report: 'documents' | 'fields', query: Json): Promise<string> {
	const qs = new URLSearchParams(query as Record<string, string>).toString();
	const res = await api(setup.sim, await token(setup.sim), 'GET', `${QA}/${report}?${qs}`);
	assert(res.status === 200, `${report} report: HTTP ${res.status}`);
	return res.text;
}

export async function qualitySuite(setup: Setup): Promise<void> {
	const { instance, sim } = setup;

	console.log('\nexamples/quality-digest.json');
	const digest = await execute(setup, DIGEST);
	await check('runs to success inside n8n', () => {
		equal([digest.code, digest.run?.status], [0, 'success'], 'exit code and status');
	});
	const documentsQuery = sim.requestsTo('GetDocumentsAsCsv')[0]?.query as Json | undefined;
	await check('each report read once, for the last seven days as UTC date-times', () => {
		equal(
			[sim.requestsTo('GetDocumentsAsCsv').length, sim.requestsTo('GetFieldsAsCsv').length],
			[1, 1],
			'report requests',
		);
		assert(documentsQuery, 'no documents report request');
		equal(sim.requestsTo('GetFieldsAsCsv')[0].query, documentsQuery, 'the same query for both');
		const start = String(documentsQuery.startDate);
		assert(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(start), `startDate ${start}`);
		const days = (Date.now() - Date.parse(start)) / 86_400_000;
		assert(days >= 7 && days < 8, `startDate ${days} days ago`);
		equal(documentsQuery.processSkillId, 'process-skill', 'processSkillId');
	});
	const items = runOutput<Item>(digest.run, 'Quality summary');
	let fieldsCsv = '';
	await check(
		'the digest’s numbers are those the test oracle counts in the reports Vantage serves',
		async () => {
			const documentsCsv = await served(setup, 'documents', documentsQuery ?? {});
			fieldsCsv = await served(setup, 'fields', documentsQuery ?? {});
			const documents = csv(documentsCsv);
			// The seeded week at least (earlier e2e workflows processed more with the same skill).
			assert(
				documents.length >=
					2 *
						(QUALITY_WEEK.corrected +
							QUALITY_WEEK.clean +
							QUALITY_WEEK.confirmed +
							QUALITY_WEEK.retyped),
				`${documents.length} documents`,
			);
			const expected = expectedSummary(documentsCsv, fieldsCsv);
			const base = ['processSkillId', 'processSkillName', 'startDate', 'endDate'];
			// The figures of an item (or of the oracle), keys in order: `equal` compares JSON text.
			const figures = (json: object | undefined) =>
				Object.fromEntries(
					Object.entries(json ?? {})
						.filter(
							([key]) =>
								![...base, 'level', 'documentType', 'documentSkillId', 'field'].includes(key),
						)
						.sort(([a], [b]) => a.localeCompare(b)),
				);
			const total = items[0]?.json ?? {};
			equal(total.level, 'total', 'first item');
			equal(figures(total), figures(expected.total), 'total item');
			// Straight-through is "no Manual Review": not the documents that merely passed unchanged.
			const unreviewed = documents.filter((d) => d.HasManualReview === '0').length;
			equal(total.straightThrough, unreviewed, 'straightThrough: documents without Manual Review');
			const types = items.filter((i) => i.json.level === 'documentType');
			equal(types.length, Object.keys(expected.types).length, 'document type items');
			for (const { json } of types) {
				equal(
					figures(json),
					figures(expected.types[String(json.documentType)]),
					`${json.documentType}`,
				);
			}
			const fieldItems = items.filter((i) => i.json.level === 'field');
			equal(fieldItems.length, Object.keys(expected.fields).length, 'field items');
			for (const { json } of fieldItems) {
				const key = `${json.documentType}/${json.field}`;
				equal(figures(json), figures(expected.fields[key]), key);
			}
		},
	);
	await check(
		'field accuracy counts every instance: false positives as errors, fields rightly left empty as correct',
		() => {
			const rows = csv(fieldsCsv);
			const flag = (row: Json, column: string) => (row[column] === '1' ? 1 : 0);
			const errors = (row: Json) =>
				flag(row, 'RecognitionIssue') + flag(row, 'DetectedIncorrectly') + flag(row, 'NotDetected');
			const absent = rows.filter((r) => r.IsInDocument === '0');
			// The seeded week has both (test/simulator/qualitykit.ts, CORRECTED_TEXT).
			assert(
				absent.some((r) => errors(r) > 0),
				'no false positive (IsInDocument 0 with an error flag) in the fields report',
			);
			assert(
				absent.some((r) => flag(r, 'Correct') === 1),
				'no field rightly left empty (IsInDocument 0, Correct) in the fields report',
			);
			// ABBYY's Correct ÷ (Correct + Recognition Issue + Located Incorrectly + Not Detected),
			// counted here over all of a field's rows, IsInDocument not read.
			const fieldItems = items.filter((i) => i.json.level === 'field');
			assert(fieldItems.length > 0, 'no field items');
			for (const { json } of fieldItems) {
				const own = rows.filter(
					(r) => r.DocumentSkillName === json.documentType && r.FieldName === json.field,
				);
				const correct = own.reduce((sum, r) => sum + flag(r, 'Correct'), 0);
				const judged = correct + own.reduce((sum, r) => sum + errors(r), 0);
				const expected = judged ? Math.round((correct / judged) * 10000) / 100 : null;
				equal(json.accuracyPercent, expected, `${json.documentType}/${json.field} accuracyPercent`);
			}
			const vatId = fieldItems.find((i) => i.json.field === 'Vendor/VatId')?.json;
			// Each corrected document of the week has one: its accuracy is below 100 %.
			assert(
				vatId &&
					Number(vatId.locatedWrongly) >= 2 * QUALITY_WEEK.corrected &&
					Number(vatId.accuracyPercent) < 100,
				`Vendor/VatId: false positives counted (${JSON.stringify(vatId)})`,
			);
		},
	);
	await check(
		'below 85 % straight-through: the total takes the alert branch (e-mail disabled)',
		() => {
			const alerted = runOutput<Item>(digest.run, 'Straight-through below 85 %', 0);
			equal(
				alerted.map((i) => i.json.level),
				['total'],
				'items on the true branch',
			);
			assert(Number(alerted[0].json.straightThroughPercent) < 85, 'straight-through below 85 %');
		},
	);
	await check('the digest saved as a spreadsheet: one row per item', () => {
		// Named after the day in n8n's time zone.
		const name = readdirSync(instance.filesDir).find((f) =>
			/^quality-\d{4}-\d{2}-\d{2}\.xlsx$/.test(f),
		);
		assert(name, `no quality-<date>.xlsx in ${instance.filesDir}`);
		const path = join(instance.filesDir, name);
		const { header, records } = xlsxRecords(path);
		assert(
			['level', 'documentType', 'field', 'straightThroughPercent', 'correctedPercent'].every((c) =>
				header.includes(c),
			),
			`columns ${header.join(', ')}`,
		);
		equal(records.length, items.length, 'rows');
		equal(records[0].level, 'total', 'first row');
	});

	console.log('\ne2e/workflows/qa-reports.json');
	const reports = await execute(setup, REPORTS);
	await check(
		'Get Document Changes, Get Field Changes as a file and Create Invite run to success',
		() => {
			equal(
				[reports.code, reports.run?.status],
				[0, 'success'],
				`exit code and status (n8n printed: ${(reports.stdout + reports.stderr).slice(-1500)})`,
			);
		},
	);
	await check('Document changes: 5 items (Limit), typed, only corrected documents', () => {
		const rows = runOutput<Item>(reports.run, 'Document changes');
		equal(rows.length, 5, 'items');
		for (const { json } of rows) {
			equal(
				[typeof json.HasManualReview, typeof json.NumberOfChangedFields],
				['boolean', 'number'],
				'types',
			);
			assert((json.NumberOfChangedFields as number) > 0, 'a corrected document');
		}
		// The suite's own reads of the reports send no switch: this is the node's request.
		const sent = sim
			.requestsTo('GetDocumentsAsCsv')
			.filter((r) => r.query.wasCorrectedInManualReview !== undefined);
		equal(
			sent.map((r) => [r.query.processSkillId, r.query.wasCorrectedInManualReview]),
			[['process-skill', 'true']],
			'switch sent',
		);
	});
	await check(
		'Field changes: the CSV File on disk holds exactly the bytes served, rows counted',
		async () => {
			const [item] = runOutput<Item>(reports.run, 'Field changes as CSV');
			const text = await served(setup, 'fields', {
				startDate: '2020-01-01T00:00:00.000Z',
				processSkillId: 'process-skill',
			});
			const file = join(instance.filesDir, String(item.json.fileName));
			assert(existsSync(file), `${file} written`);
			equal(readFileSync(file, 'utf8'), text, 'file bytes');
			equal(
				[item.json.rows, item.json.fileSize],
				[csv(text).length, Buffer.byteLength(text)],
				'rows and size',
			);
			equal(item.binary?.data?.mimeType, 'text/csv', 'MIME type');
		},
	);
	await check('Create Invite: one invite, validity 7 days as a TimeSpan', () => {
		const invites = sim.invites().filter((i) => i.email === 'e2e.admin@example.com');
		equal(
			invites.map((i) => [i.tenantName, i.validWithin, i.tenantDescription]),
			[['E2E Tenant', '7.00:00:00', 'Created by the e2e suite']],
			'invites',
		);
		equal(runOutput<Item>(reports.run, 'Invite')[0]?.json.invited, true, 'output');
	});
	await check('no password, client secret or token in the CLI output of these runs', () => {
		const secrets = [FIXTURE.password, FIXTURE.clientSecret, ...sim.issuedTokens()];
		const text = [digest, reports].map((r) => r.stdout + r.stderr).join('\n');
		for (const secret of secrets) {
			assert(!text.includes(secret), `a secret (${secret.slice(0, 3)}…) is in the CLI output`);
		}
	});
}

if (require.main === module) runAlone(qualitySuite, { includeE2eWorkflows: true });
