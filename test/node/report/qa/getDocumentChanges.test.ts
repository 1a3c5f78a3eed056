import { readBinary, runNode, simulatorCredentials } from '../../../harness/n8n';
import { api, token } from '../../../helpers/http';
import { useSimulator } from '../../../helpers/fixture';
import { qaParams, rl } from '../../../helpers/params';
import { seedQualityScenario } from '../../../simulator/qualitykit';
import { FIXTURE } from '../../../simulator/simulator';

const f = useSimulator();

const documentChanges = (fields = {}) => qaParams('getDocumentChanges', fields);

const QA_DOCUMENTS = `/api/reporting/v2/qa/process-skills/documents?startDate=2020-01-01&processSkillId=${FIXTURE.processSkillId}`;

describe('Get Document Changes', () => {
	test('one item per document, values typed: booleans, numbers, ISO dates', async () => {
		const { corrected, clean } = seedQualityScenario(f.sim);
		const result = await runNode({
			credentials: f.store,
			parameters: documentChanges({ returnAll: true }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(8);
		expect(result.items[0]).toEqual({
			json: {
				ProcessSkillId: 'process-skill',
				ProcessSkillName: 'Invoice Processing',
				TransactionId: corrected[0],
				CompletedUtc: '2026-03-02T08:00:00.000Z',
				HasManualReview: true,
				DocumentId: f.sim.transaction(corrected[0])!.documents[0].id,
				DocumentName: 'scan 1, "March".pdf',
				DocumentSkillId: 'invoice-skill',
				DocumentSkillName: 'Invoice',
				ImageType: 'A4',
				ImageColority: 'BlackWhite',
				ImageSource: 'Pdf',
				DocumentSkillChanged: false,
				NumberOfExportedFields: 6,
				NumberOfChangedFields: 4,
			},
			pairedItem: { item: 0 },
		});
		expect(result.items[4].json).toMatchObject({
			TransactionId: clean[0],
			HasManualReview: false,
			NumberOfChangedFields: 0,
		});
		const [request] = f.sim.requestsTo('GetDocumentsAsCsv');
		expect(request.query).toEqual({
			startDate: '2020-01-01T00:00:00.000Z',
			processSkillId: 'process-skill',
		});
	});

	test('every filter of the spec, dates read in the workflow’s time zone and sent as UTC', async () => {
		await runNode({
			credentials: f.store,
			timezone: 'Europe/Berlin',
			parameters: documentChanges({
				startDate: '2026-03-01T00:00:00',
				filters: {
					processSkillId: rl(' process-skill '),
					endDate: '2026-04-01',
					imageType: 'A4',
					imageColority: 'BlackWhite',
					imageSource: '={{ "pdf" }}',
					wasCorrectedInManualReview: 'true',
					wasDocumentTypeChangedInManualReview: 'false',
				},
			}),
		});
		expect(f.sim.requestsTo('GetDocumentsAsCsv')[0].query).toEqual({
			startDate: '2026-02-28T23:00:00.000Z',
			endDate: '2026-03-31T22:00:00.000Z',
			processSkillId: 'process-skill',
			imageType: 'A4',
			imageColority: 'BlackWhite',
			imageSource: 'Pdf',
			wasCorrectedInManualReview: 'true',
			wasDocumentTypeChangedInManualReview: 'false',
		});
	});

	test('the filters select what the simulator processed', async () => {
		seedQualityScenario(f.sim);
		const names = async (filters: Record<string, unknown>) => {
			const result = await runNode({
				credentials: f.store,
				parameters: documentChanges({ returnAll: true, filters }),
			});
			return [...new Set(result.items.map((i) => i.json.DocumentName))];
		};
		expect(await names({ wasCorrectedInManualReview: 'true' })).toEqual(['scan 1, "March".pdf']);
		expect(await names({ imageSource: 'Photo' })).toEqual(['photo.jpg']);
		expect(await names({ wasDocumentTypeChangedInManualReview: 'true' })).toEqual(['receipt.pdf']);
		expect(await names({ endDate: '2026-03-05T00:00:00Z' })).toEqual(['scan 1, "March".pdf']);
	});

	test('Limit: only that many items (the default is 50)', async () => {
		f.sim.seedCompletedTransactions(40, { skillId: FIXTURE.processSkillId });
		const limited = await runNode({
			credentials: f.store,
			parameters: documentChanges({ limit: 3 }),
		});
		expect(limited.items).toHaveLength(3);
		const byDefault = await runNode({ credentials: f.store, parameters: documentChanges() });
		expect(byDefault.items).toHaveLength(50);
		const all = await runNode({
			credentials: f.store,
			parameters: documentChanges({ returnAll: true }),
		});
		expect(all.items).toHaveLength(80);
	});

	test('CSV File: the report as served, in a binary field, with its row count', async () => {
		seedQualityScenario(f.sim);
		const result = await runNode({
			credentials: f.store,
			parameters: documentChanges({
				startDate: '2026-03-01T00:00:00Z',
				output: 'binary',
				binaryPropertyName: 'report',
				filters: { endDate: '2026-04-01T00:00:00Z' },
			}),
		});
		expect(result.error).toBeUndefined();
		const served = await api(
			f.sim,
			await token(f.sim),
			'GET',
			'/api/reporting/v2/qa/process-skills/documents?startDate=2026-03-01T00:00:00.000Z&endDate=2026-04-01T00:00:00.000Z',
		);
		const [item] = result.items;
		expect(item.json).toEqual({
			rows: 8,
			fileName: 'document-changes-2026-03-01-to-2026-04-01.csv',
			fileSize: Buffer.byteLength(served.text),
			filters: { startDate: '2026-03-01T00:00:00.000Z', endDate: '2026-04-01T00:00:00.000Z' },
		});
		expect(item.binary!.report).toMatchObject({
			fileName: 'document-changes-2026-03-01-to-2026-04-01.csv',
			mimeType: 'text/csv',
		});
		expect((await readBinary(item, 'report')).toString('utf8')).toBe(served.text);
	});

	test('a report without rows: no items, or a CSV of the header alone', async () => {
		const result = await runNode({ credentials: f.store, parameters: documentChanges() });
		expect([result.error, result.items]).toEqual([undefined, []]);
		const file = await runNode({
			credentials: f.store,
			parameters: documentChanges({ output: 'binary' }),
		});
		expect(file.items[0].json).toMatchObject({ rows: 0 });
		expect((await readBinary(file.items[0])).toString()).toMatch(/^ProcessSkillId,.*\r\n$/);
	});

	test('an empty report for a skill that does not exist says so; one of a Document skill too', async () => {
		const missing = await runNode({
			credentials: f.store,
			parameters: documentChanges({ filters: { processSkillId: rl('process-skil') } }),
		});
		expect(missing.error?.message).toBe(
			'Process Skill "process-skil" was not found, and the report has no rows for it [item 0]',
		);
		const document = await runNode({
			credentials: f.store,
			parameters: documentChanges({ filters: { processSkillId: rl(FIXTURE.documentSkillId) } }),
		});
		expect(document.error?.message).toMatch(
			/^Skill "invoice-skill" is a Document skill: the QA reports cover the transactions of Process skills/,
		);
		// Without a skill filter an empty report is simply empty.
		const any = await runNode({
			credentials: f.store,
			parameters: { ...documentChanges(), filters: {} },
		});
		expect([any.error, any.items]).toEqual([undefined, []]);
		expect(f.sim.requestsTo('GetSkillInfo')).toHaveLength(2);
	});

	test('bad input is refused before any request, naming the parameter and the item', async () => {
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[{ startDate: 'yesterday-ish' }, /^Start Date is not a valid date/],
			[
				{ startDate: '2026-03-02T00:00:00Z', filters: { endDate: '2026-03-01T00:00:00Z' } },
				/^End Date \(.*\) must be at or after Start Date/,
			],
			[
				{ filters: { imageType: '={{ "Poster" }}' } },
				/^Image Type must be one of "Unknown", "Receipt", "A4"/,
			],
			[
				{ filters: { wasCorrectedInManualReview: '={{ "maybe" }}' } },
				/^Corrected in Manual Review must be "true", "false" or empty, not "maybe"/,
			],
			[{ output: '={{ "pdf" }}' }, /^Output must be one of "items", "binary", not "pdf"/],
			[{ limit: 0 }, /^Limit must be between 1/],
			[{ output: 'binary', binaryPropertyName: ' ' }, /^Put Output File in Field is empty/],
		];
		for (const [fields, message] of cases) {
			const result = await runNode({
				credentials: f.store,
				items: [{}, {}],
				parameters: documentChanges(fields),
			});
			expect(result.error?.message).toMatch(message);
			expect(result.error?.message).toMatch(/\[item 0\]$/);
		}
		expect(f.sim.requestsTo('GetDocumentsAsCsv')).toHaveLength(0);
	});

	test('Vantage’s refusal becomes an error with its detail; the report of a user without the role is 403', async () => {
		f.sim.injectFault('GetDocumentsAsCsv', {
			kind: 'status',
			status: 400,
			body: { title: 'Bad Request', status: '400', detail: 'The startDate is out of range.' },
		});
		const refused = await runNode({ credentials: f.store, parameters: documentChanges() });
		expect(refused.error?.message).toBe(
			'ABBYY Vantage rejected the request: The startDate is out of range. [item 0]',
		);
		const operator = await runNode({
			credentials: simulatorCredentials(f.sim, { username: FIXTURE.operatorUsername }),
			parameters: documentChanges(),
		});
		expect(operator.error?.message).toMatch(
			/^ABBYY Vantage denied access: Only Tenant Administrators/,
		);
		expect((operator.error as { description?: string }).description).toMatch(
			/Only Tenant Administrators and Processing Supervisors may use reports/,
		);
	});

	test('a download that breaks off is sent again from the start; the items are whole', async () => {
		f.sim.seedCompletedTransactions(300, { skillId: FIXTURE.processSkillId });
		f.sim.injectFault('GetDocumentsAsCsv', { kind: 'reset', afterBytes: 5000 }, 2);
		const result = await runNode({
			credentials: f.store,
			parameters: { ...documentChanges({ returnAll: true }), requestOptions: { retryDelay: 0.01 } },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(600);
		expect(new Set(result.items.map((i) => i.json.DocumentId)).size).toBe(600);
		expect(f.sim.requestsTo('GetDocumentsAsCsv')).toHaveLength(3);
	});

	test('a download that keeps breaking off fails after Max Retries, saying why', async () => {
		f.sim.seedCompletedTransactions(300, { skillId: FIXTURE.processSkillId });
		f.sim.injectFault('GetDocumentsAsCsv', { kind: 'reset', afterBytes: 5000 }, Infinity);
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...documentChanges({ output: 'binary' }),
				requestOptions: { maxRetries: 1, retryDelay: 0.01 },
			},
		});
		// Vantage was reached and had answered: the message says where it broke.
		expect(result.error?.message).toBe(
			'ABBYY Vantage answered, but the connection broke while reading the answer [item 0]',
		);
		expect((result.error as { description?: string }).description).toMatch(
			/^While downloading the document changes report, after 2 attempts, network code ECONNRESET\./,
		);
		expect(f.sim.requestsTo('GetDocumentsAsCsv')).toHaveLength(2);
	});

	test('a report answered 500 is asked for again within Max Retries', async () => {
		seedQualityScenario(f.sim);
		f.sim.injectFault('GetDocumentsAsCsv', { kind: 'status', status: 500 }, 2);
		const result = await runNode({
			credentials: f.store,
			parameters: { ...documentChanges({ returnAll: true }), requestOptions: { retryDelay: 0.01 } },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(8);
		expect(f.sim.requestsTo('GetDocumentsAsCsv').map((r) => r.status)).toEqual([500, 500, 200]);
	});

	test('a report with an error page after its header is refused, naming the line: no items, no file', async () => {
		seedQualityScenario(f.sim);
		const page = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n</html>\r\n';
		for (const output of ['items', 'binary']) {
			f.sim.injectFault('GetDocumentsAsCsv', { kind: 'garble', afterLines: 3, text: page });
			const result = await runNode({
				credentials: f.store,
				continueOnFail: true,
				parameters: documentChanges({ output, returnAll: true }),
			});
			expect(result.items).toHaveLength(1);
			const [item] = result.items;
			expect(item.binary).toBeUndefined();
			expect(item.json).toMatchObject({
				error:
					'The document changes report was not complete: line 4 has 1 cell where the header has 15 [item 0]',
				report: 'document changes report',
				line: 4,
			});
			expect(item.json.errorDescription).toMatch(
				/not a whole CSV report .* nothing of it was output/,
			);
		}
		// A garbled answer is no passing problem: it is not asked for again.
		expect(f.sim.requestsTo('GetDocumentsAsCsv')).toHaveLength(2);
	});

	test('a report that breaks off inside a quoted cell is read again, not refused', async () => {
		seedQualityScenario(f.sim);
		// The scenario's first file name is quoted ("scan 1, ""March"".pdf"): cut inside it.
		const text = (await api(f.sim, await token(f.sim), 'GET', QA_DOCUMENTS)).text;
		f.sim.clearLog();
		f.sim.injectFault('GetDocumentsAsCsv', {
			kind: 'reset',
			afterBytes: Buffer.byteLength(text.slice(0, text.indexOf('"scan 1') + 5)),
		});
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...documentChanges({ output: 'binary' }),
				requestOptions: { retryDelay: 0.01 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.rows).toBe(8);
		expect(f.sim.requestsTo('GetDocumentsAsCsv').map((r) => r.fault ?? 'none')).toEqual([
			'reset',
			'none',
		]);
	});

	test('a download that stops midway times out (Timeout without data) and is sent again', async () => {
		f.sim.seedCompletedTransactions(300, { skillId: FIXTURE.processSkillId });
		f.sim.injectFault('GetDocumentsAsCsv', { kind: 'stall', afterBytes: 5000 });
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...documentChanges({ returnAll: true }),
				requestOptions: { timeout: 1, retryDelay: 0.01 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(600);
		expect(f.sim.requestsTo('GetDocumentsAsCsv').map((r) => r.fault ?? 'none')).toEqual([
			'stall',
			'none',
		]);
	});

	test('cancelling the execution stops a download at once', async () => {
		f.sim.seedCompletedTransactions(300, { skillId: FIXTURE.processSkillId });
		f.sim.injectFault('GetDocumentsAsCsv', { kind: 'stall', afterBytes: 5000 });
		const result = await runNode({
			credentials: f.store,
			cancelAfterMs: 500,
			parameters: documentChanges({ output: 'binary' }),
		});
		expect(result.status).toBe('canceled');
		expect(result.elapsedMs).toBeLessThan(5000);
		expect(f.sim.requestsTo('GetDocumentsAsCsv')).toHaveLength(1);
	});

	test('Continue On Fail: a failed item becomes an error item, the others run', async () => {
		seedQualityScenario(f.sim);
		const result = await runNode({
			credentials: f.store,
			continueOnFail: true,
			items: [{ start: '2026-03-15T00:00:00Z' }, { start: 'never' }],
			parameters: documentChanges({ startDate: '={{ $json.start }}', returnAll: true }),
		});
		expect(result.items.map((i) => [i.pairedItem, i.json.DocumentName ?? i.json.error])).toEqual([
			[{ item: 0 }, 'receipt.pdf'],
			[{ item: 0 }, 'receipt.pdf'],
			[{ item: 1 }, 'Start Date is not a valid date: "never" [item 1]'],
		]);
	});
});
