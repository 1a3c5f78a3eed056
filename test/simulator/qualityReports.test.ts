import { request } from 'undici';

import { api, token } from '../helpers/http';
import { COMPLETED, seedQualityScenario, seedReviewedMonth } from './qualitykit';
import { FIXTURE } from './simulator';
import { problemOf, useRawSimulator } from './testkit';
import { launched } from './uploadkit';

const s = useRawSimulator();

const QA = '/api/reporting/v2/qa/process-skills';

async function report(path: 'documents' | 'fields', query: Record<string, string>) {
	const qs = new URLSearchParams(query).toString();
	return await api(s.sim, s.bearer, 'GET', `${QA}/${path}?${qs}`);
}

/** The CSV as rows of cells (the simulator quotes with "" but these tests avoid commas in data). */
function rows(text: string): Array<Record<string, string>> {
	const [header, ...lines] = text.split('\r\n').filter((line) => line !== '');
	const names = header.split(',');
	return lines.map((line) => {
		// Quoted cells hold a comma only in the scenario's file name; read it as one cell.
		const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ''));
		return Object.fromEntries(
			names.map((n, i) => [n, cells[i]?.replace(/^"|"$/g, '').replace(/""/g, '"')]),
		);
	});
}

const ALL = { startDate: '2020-01-01', processSkillId: FIXTURE.processSkillId };

describe('QA reports: derived from the transactions the simulator processed', () => {
	test('documents: one row per document of each Processed transaction of a Process skill', async () => {
		const { corrected, clean, retyped } = seedQualityScenario(s.sim);
		const res = await report('documents', { startDate: '2020-01-01' });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('text/csv');
		expect(res.text.split('\r\n')[0]).toBe(
			'ProcessSkillId,ProcessSkillName,TransactionId,CompletedUtc,HasManualReview,DocumentId,DocumentName,DocumentSkillId,DocumentSkillName,ImageType,ImageColority,ImageSource,DocumentSkillChanged,NumberOfExportedFields,NumberOfChangedFields',
		);
		const documents = rows(res.text);
		// Each transaction's file became two documents; the Document skill's and the failed one are not here.
		expect(documents.map((d) => d.TransactionId)).toEqual(
			[...corrected, ...clean, ...retyped].flatMap((id) => [id, id]),
		);
		expect(documents[0]).toEqual({
			ProcessSkillId: 'process-skill',
			ProcessSkillName: 'Invoice Processing',
			TransactionId: corrected[0],
			CompletedUtc: '03/02/2026 08:00:00',
			HasManualReview: '1',
			DocumentId: s.sim.transaction(corrected[0])!.documents[0].id,
			DocumentName: 'scan 1, "March".pdf',
			DocumentSkillId: 'invoice-skill',
			DocumentSkillName: 'Invoice',
			ImageType: 'A4',
			ImageColority: 'BlackWhite',
			ImageSource: 'Pdf',
			DocumentSkillChanged: 'false',
			NumberOfExportedFields: '6',
			NumberOfChangedFields: '4',
		});
		expect(documents[4]).toMatchObject({
			HasManualReview: '0',
			ImageSource: 'Photo',
			ImageColority: 'Color',
			NumberOfChangedFields: '0',
		});
		expect(documents[6]).toMatchObject({ HasManualReview: '1', DocumentSkillChanged: 'true' });
	});

	test('fields: one row per field of each document, with what Manual Review found', async () => {
		const { corrected } = seedQualityScenario(s.sim);
		const res = await report('fields', ALL);
		expect(res.status).toBe(200);
		expect(res.text.split('\r\n')[0]).toBe(
			'ProcessSkillId,ProcessSkillName,TransactionId,DocumentId,DocumentName,DocumentSkillId,DocumentSkillName,FieldID,FieldName,Correct,RecognitionIssue,DetectedIncorrectly,NotDetected,IsInDocument',
		);
		const fields = rows(res.text);
		expect(fields).toHaveLength(8 * 10);
		const firstDocument = fields.filter((f) => f.TransactionId === corrected[0]).slice(0, 10);
		const flags = (f: Record<string, string>) =>
			[f.Correct, f.RecognitionIssue, f.DetectedIncorrectly, f.NotDetected, f.IsInDocument].join(
				'',
			);
		expect(firstDocument.map((f) => [f.FieldID, f.FieldName, flags(f)])).toEqual([
			['f-InvoiceNumber', 'InvoiceNumber', '10001'],
			['f-InvoiceDate', 'InvoiceDate', '10001'],
			['f-Total', 'Total', '01001'],
			['f-Currency', 'Currency', '10001'],
			['f-PONumbers', 'PONumbers', '00011'],
			['f-Vendor.Name', 'Vendor/Name', '00101'],
			// A false positive: found, not in the document, removed in review.
			['f-Vendor.VatId', 'Vendor/VatId', '00100'],
			['f-LineItems.Description', 'LineItems/Description', '10000'],
			['f-LineItems.Quantity', 'LineItems/Quantity', '10000'],
			['f-LineItems.Amount', 'LineItems/Amount', '10000'],
		]);
	});

	test('a transaction processed through the API, with Manual Review, is in the reports', async () => {
		s.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 1 } });
		const id = await launched(s.sim, s.bearer, FIXTURE.processSkillId, [
			{ name: 'a.pdf', data: 'InvoiceNumber: API-1\nTotal: 5,00\nConfidence.Total: 40\n' },
		]);
		for (let i = 0; i < 3; i++)
			await api(s.sim, s.bearer, 'GET', `/api/publicapi/v1/transactions/${id}`);
		expect(s.sim.transaction(id)!.status).toBe('Processed');
		const documents = rows((await report('documents', ALL)).text);
		expect(
			documents.map((d) => [d.TransactionId, d.HasManualReview, d.NumberOfChangedFields]),
		).toEqual([
			[id, '1', '1'],
			[id, '1', '1'],
		]);
	});

	test('a false positive is an error flag with IsInDocument 0; a field rightly left empty is Correct with IsInDocument 0', async () => {
		const text = (review: string) =>
			['InvoiceNumber: FP-1', 'Currency: EUR', 'Vendor.VatId: DE1', review].join('\n');
		const [located] = s.sim.seedCompletedTransactions(1, {
			skillId: FIXTURE.processSkillId,
			manualReview: true,
			files: [
				{ name: 'a.pdf', text: text('Review.Vendor.VatId: DetectedIncorrectly, NotInDocument') },
			],
		});
		const [misread] = s.sim.seedCompletedTransactions(1, {
			skillId: FIXTURE.processSkillId,
			manualReview: true,
			files: [{ name: 'b.pdf', text: text('Review.Currency: recognitionissue,notindocument') }],
		});
		// Only an error can be a false positive; without Manual Review nothing was judged wrong.
		const [correct] = s.sim.seedCompletedTransactions(1, {
			skillId: FIXTURE.processSkillId,
			manualReview: true,
			files: [{ name: 'c.pdf', text: text('Review.Currency: Correct, NotInDocument') }],
		});
		const [unreviewed] = s.sim.seedCompletedTransactions(1, {
			skillId: FIXTURE.processSkillId,
			files: [
				{ name: 'd.pdf', text: text('Review.Vendor.VatId: DetectedIncorrectly, NotInDocument') },
			],
		});
		const fields = rows((await report('fields', ALL)).text);
		const flags = (tx: string, name: string) => {
			const f = fields.find((r) => r.TransactionId === tx && r.FieldName === name)!;
			return [
				f.Correct,
				f.RecognitionIssue,
				f.DetectedIncorrectly,
				f.NotDetected,
				f.IsInDocument,
			].join('');
		};
		expect(
			[located, misread, correct, unreviewed].map((tx) => [
				flags(tx, 'Vendor/VatId'),
				flags(tx, 'Currency'),
				flags(tx, 'PONumbers'),
			]),
		).toEqual([
			['00100', '10001', '10000'],
			['10001', '01000', '10000'],
			['10001', '10001', '10000'],
			['10001', '10001', '10000'],
		]);
		const documents = rows((await report('documents', ALL)).text);
		const changed = (tx: string) =>
			documents
				.filter((d) => d.TransactionId === tx)
				.map((d) => [d.NumberOfExportedFields, d.NumberOfChangedFields]);
		// The false positive is a change, and no field of the document is exported for it.
		expect(changed(located)).toEqual([
			['2', '1'],
			['2', '1'],
		]);
		expect(changed(correct)).toEqual([
			['3', '0'],
			['3', '0'],
		]);
	});

	test("the 'example' column set: exactly the columns of the OpenAPI document's examples", async () => {
		seedQualityScenario(s.sim);
		s.sim.setQaColumns({ documents: 'example', fields: 'example' });
		const documents = await report('documents', ALL);
		expect(documents.text.split('\r\n')[0]).toBe(
			'ProcessSkillId,ProcessSkillName,TransactionId,HasManualReview,DocumentId,DocumentName,ImageSource,DocumentSkillChanged,NumberOfExportedFields,NumberOfChangedFields',
		);
		expect(rows(documents.text)[0]).toMatchObject({ HasManualReview: '1', ImageSource: 'Pdf' });
		const fields = await report('fields', ALL);
		expect(fields.text.split('\r\n')[0]).toBe(
			'ProcessSkillId,ProcessSkillName,TransactionId,DocumentId,DocumentName,FieldID,FieldName,Correct,RecognitionIssue,DetectedIncorrectly,NotDetected,IsInDocument',
		);
		expect(rows(fields.text)).toHaveLength(80);
	});

	test('the same request gives the same bytes: the data is derived, not random', async () => {
		seedQualityScenario(s.sim);
		const first = await report('fields', ALL);
		const second = await report('fields', ALL);
		expect(second.text).toBe(first.text);
	});
});

describe('QA reports: filters', () => {
	beforeEach(() => seedQualityScenario(s.sim));
	const ids = async (query: Record<string, string>) => [
		...new Set(rows((await report('documents', query)).text).map((d) => d.DocumentName)),
	];

	test('completion time from startDate to endDate (UTC; a date alone is midnight)', async () => {
		expect(await ids({ startDate: '2026-03-05' })).toEqual(['photo.jpg', 'receipt.pdf']);
		expect(await ids({ startDate: '2026-03-01', endDate: '2026-03-10T12:00:00Z' })).toEqual([
			'scan 1, "March".pdf',
			'photo.jpg',
		]);
		expect(await ids({ startDate: '2026-03-10T12:00:00.001Z' })).toEqual(['receipt.pdf']);
		expect(COMPLETED.retyped.toISOString()).toBe('2026-03-20T16:00:00.000Z');
	});

	test('skills, image properties and the two switches', async () => {
		expect(await ids({ startDate: '2020-01-01', processSkillId: 'nope' })).toEqual([]);
		expect(await ids({ startDate: '2020-01-01', imageSource: 'photo' })).toEqual(['photo.jpg']);
		expect(
			await ids({ startDate: '2020-01-01', imageColority: 'BlackWhite', imageType: 'A4' }),
		).toEqual(['scan 1, "March".pdf', 'receipt.pdf']);
		expect(await ids({ startDate: '2020-01-01', wasCorrectedInManualReview: 'true' })).toEqual([
			'scan 1, "March".pdf',
		]);
		expect(await ids({ startDate: '2020-01-01', wasCorrectedInManualReview: 'False' })).toEqual([
			'photo.jpg',
			'receipt.pdf',
		]);
		expect(
			await ids({ startDate: '2020-01-01', wasDocumentTypeChangedInManualReview: 'true' }),
		).toEqual(['receipt.pdf']);
		const fields = await report('fields', { ...ALL, documentSkillId: 'Receipt' });
		expect(rows(fields.text)).toEqual([]);
		expect(
			rows((await report('fields', { ...ALL, documentSkillId: 'invoice-skill' })).text),
		).toHaveLength(80);
	});

	test('no matching data: the header row alone', async () => {
		const res = await report('fields', { startDate: '2030-01-01', processSkillId: 'unknown' });
		expect([res.status, res.text]).toEqual([
			200,
			expect.stringMatching(/^ProcessSkillId,.*IsInDocument\r\n$/),
		]);
	});
});

describe('QA reports: the contract', () => {
	const invalid = (res: { status: number; json: unknown }, key: string, message: RegExp) => {
		expect(res.status).toBe(400);
		const body = problemOf(res);
		// The Reporting spec types ProblemDetails.status as a string.
		expect(body.status).toBe('400');
		expect((body.errors as Record<string, string[]>)[key][0]).toMatch(message);
	};

	test('startDate is required, processSkillId too on /fields', async () => {
		invalid(await report('documents', {}), 'startDate', /The startDate field is required/);
		invalid(await report('fields', { processSkillId: 'x' }), 'startDate', /required/);
		invalid(await report('fields', { startDate: '2026-01-01' }), 'processSkillId', /required/);
		expect((await report('documents', { startDate: '2026-01-01' })).status).toBe(200);
	});

	test('dates and switches that do not bind are 400', async () => {
		invalid(await report('documents', { startDate: 'last week' }), 'startDate', /not valid/);
		invalid(await report('documents', { startDate: '2026-13-45' }), 'startDate', /not valid/);
		invalid(
			await report('documents', { startDate: '2026-01-01', endDate: 'soon' }),
			'endDate',
			/not valid/,
		);
		invalid(
			await report('documents', { startDate: '2026-02-01', endDate: '2026-01-01' }),
			'endDate',
			/earlier/,
		);
		invalid(
			await report('documents', { startDate: '2026-01-01', wasCorrectedInManualReview: 'yes' }),
			'wasCorrectedInManualReview',
			/not valid/,
		);
	});

	test('only Tenant Administrators and Processing Supervisors', async () => {
		const operator = await token(s.sim, FIXTURE.operatorUsername);
		const res = await api(s.sim, operator, 'GET', `${QA}/documents?startDate=2026-01-01`);
		expect(res.status).toBe(403);
	});
});

describe('QA reports: streamed', () => {
	test('a large report arrives in pieces, generated as the client reads', async () => {
		s.sim.seedCompletedTransactions(500, { skillId: FIXTURE.processSkillId });
		const res = await request(
			`${s.sim.url}${QA}/fields?startDate=2020-01-01&processSkillId=process-skill`,
			{
				headers: { authorization: `Bearer ${s.bearer}` },
			},
		);
		expect(res.headers['transfer-encoding']).toBe('chunked');
		let pieces = 0;
		let text = '';
		for await (const chunk of res.body) {
			pieces++;
			text += (chunk as Buffer).toString('utf8');
		}
		expect(pieces).toBeGreaterThan(1);
		expect(text.split('\r\n').filter(Boolean)).toHaveLength(1 + 500 * 2 * 10);
	});

	test('a reset fault with afterBytes cuts the body midway', async () => {
		s.sim.seedCompletedTransactions(50, { skillId: FIXTURE.processSkillId });
		s.sim.injectFault('GetFieldsAsCsv', { kind: 'reset', afterBytes: 1000 });
		const res = await request(
			`${s.sim.url}${QA}/fields?startDate=2020-01-01&processSkillId=process-skill`,
			{
				headers: { authorization: `Bearer ${s.bearer}` },
			},
		);
		let received = 0;
		await expect(
			(async () => {
				for await (const chunk of res.body) received += (chunk as Buffer).length;
			})(),
		).rejects.toThrow();
		expect(received).toBe(1000);
	});

	test('a garble fault: the first lines of the real body, then its bytes, a clean 200 end', async () => {
		s.sim.seedCompletedTransactions(500, { skillId: FIXTURE.processSkillId });
		const whole = (await report('fields', ALL)).text;
		s.sim.injectFault('GetFieldsAsCsv', { kind: 'garble', afterLines: 3000, text: '<html>' });
		const garbled = await report('fields', ALL);
		expect(garbled.status).toBe(200);
		const lines = whole.split('\r\n');
		expect(garbled.text).toBe(`${lines.slice(0, 3000).join('\r\n')}\r\n<html>`);
		s.sim.injectFault('GetFieldsAsCsv', {
			kind: 'garble',
			afterBytes: 10,
			base64: Buffer.from([0, 0xff]).toString('base64'),
		});
		const bytes = await request(
			`${s.sim.url}${QA}/fields?startDate=2020-01-01&processSkillId=process-skill`,
			{ headers: { authorization: `Bearer ${s.bearer}` } },
		);
		const body = Buffer.from(await bytes.body.arrayBuffer());
		expect(body).toEqual(Buffer.concat([Buffer.from(whole.slice(0, 10)), Buffer.from([0, 0xff])]));
	});
});

describe('QA reports: a reviewed month (qualitykit)', () => {
	test('100 documents: 38 without Manual Review, 18 reviewed and unchanged, as the columns say', async () => {
		seedReviewedMonth(s.sim);
		const documents = rows((await report('documents', ALL)).text);
		const count = (test: (d: Record<string, string>) => boolean) => documents.filter(test).length;
		expect(documents).toHaveLength(100);
		expect(count((d) => d.HasManualReview === '0')).toBe(38);
		expect(
			count(
				(d) =>
					d.HasManualReview === '1' &&
					d.NumberOfChangedFields === '0' &&
					d.DocumentSkillChanged === 'false',
			),
		).toBe(18);
		expect(
			count((d) => d.NumberOfChangedFields === '0' && d.DocumentSkillChanged === 'false'),
		).toBe(56);
	});
});
