import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { readBinary, runNode, simulatorCredentials, type CredentialStore } from '../harness/n8n';
import { sampleCsv, VantageSimulator, type ExportScript } from '../simulator/simulator';

let sim: VantageSimulator;
let store: CredentialStore;

beforeEach(async () => {
	sim = new VantageSimulator();
	await sim.start();
	store = simulatorCredentials(sim);
});
afterEach(async () => await sim.stop());

const report = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'report',
	operation,
	...extra,
});

async function createExport(script?: ExportScript): Promise<string> {
	if (script) sim.scriptNextExport(script);
	const result = await runNode({
		credentials: store,
		parameters: report('createExport', { startDate: '2025-11-01T00:00:00Z' }),
	});
	expect(result.error).toBeUndefined();
	return result.items[0].json.requestId as string;
}

describe('Create Export', () => {
	test('sends only the start date when nothing else is set; outputs the request id', async () => {
		const result = await runNode({
			credentials: store,
			parameters: report('createExport', {
				startDate: '2025-11-03T17:19:54.386Z',
				additionalFields: {},
			}),
		});
		const [request] = sim.requestsTo('CreateTransactionStepsExportRequest');
		expect(request.body).toEqual({ filters: { startDate: '2025-11-03T17:19:54.386Z' } });
		expect(result.items).toEqual([
			{
				json: { requestId: sim.exportIds()[0], filters: { startDate: '2025-11-03T17:19:54.386Z' } },
				pairedItem: { item: 0 },
			},
		]);
	});

	test('sends every filter that is set, as UTC date-times', async () => {
		await runNode({
			credentials: store,
			timezone: 'Europe/Berlin',
			parameters: report('createExport', {
				// The date picker's wall-clock value is read in the workflow's time zone.
				startDate: '2025-11-03T10:00:00',
				additionalFields: {
					endDate: '2025-11-17T20:05:26.097+01:00',
					skillId: ' skill-1 ',
					transactionId: 'tx-1',
					sendEmailNotification: true,
				},
			}),
		});
		expect(sim.requestsTo('CreateTransactionStepsExportRequest')[0].body).toEqual({
			filters: {
				startDate: '2025-11-03T09:00:00.000Z',
				endDate: '2025-11-17T19:05:26.097Z',
				skillId: 'skill-1',
				transactionId: 'tx-1',
			},
			sendEmailNotification: true,
		});
	});

	test('accepts n8n date values from expressions (Luxon DateTime, JS Date)', async () => {
		const items = [{}, {}];
		await runNode({
			credentials: store,
			items,
			parameters: report('createExport', {
				startDate:
					"={{ $itemIndex === 0 ? DateTime.fromISO('2025-06-01T12:00:00', { zone: 'America/New_York' }) : new Date(Date.UTC(2025, 5, 2)) }}",
			}),
		});
		expect(
			sim
				.requestsTo('CreateTransactionStepsExportRequest')
				.map((r) => (r.body as IDataObject).filters),
		).toEqual([
			{ startDate: '2025-06-01T16:00:00.000Z' },
			{ startDate: '2025-06-02T00:00:00.000Z' },
		]);
	});

	test('empty optional filters are omitted, not sent as empty strings', async () => {
		await runNode({
			credentials: store,
			parameters: report('createExport', {
				startDate: '2025-11-03T00:00:00Z',
				additionalFields: {
					endDate: '',
					skillId: '  ',
					transactionId: '',
					sendEmailNotification: false,
				},
			}),
		});
		expect(sim.requestsTo('CreateTransactionStepsExportRequest')[0].body).toEqual({
			filters: { startDate: '2025-11-03T00:00:00.000Z' },
		});
	});

	test.each([
		[
			'an invalid Start Date',
			{ startDate: 'yesterday' },
			/^Start Date is not a valid date: "yesterday" \[item 0\]$/,
		],
		[
			'an empty Start Date (n8n itself refuses the required field)',
			{ startDate: '' },
			/Parameter "Start Date" is required/,
		],
		['an impossible date', { startDate: '2025-02-30T00:00:00' }, /^Start Date is not a valid date/],
		[
			'an invalid End Date',
			{ startDate: '2025-11-03T00:00:00Z', additionalFields: { endDate: '31/12/2025' } },
			/^End Date is not a valid date/,
		],
		[
			'End Date before Start Date',
			{ startDate: '2025-11-03T00:00:00Z', additionalFields: { endDate: '2025-11-02T00:00:00Z' } },
			/^End Date \(2025-11-02T00:00:00.000Z\) is before Start Date \(2025-11-03T00:00:00.000Z\) \[item 0\]$/,
		],
		[
			'a Skill ID that is not text',
			{ startDate: '2025-11-03T00:00:00Z', additionalFields: { skillId: '={{ { id: 1 } }}' } },
			/^Skill ID must be text/,
		],
	])('rejects %s before any request', async (_name, extra, message) => {
		const result = await runNode({
			credentials: store,
			parameters: report('createExport', extra as INodeParameters),
		});
		expect(result.error?.message).toMatch(message);
		expect(sim.requests).toHaveLength(0);
	});
});

describe('Get Export Status', () => {
	test('totalFileCount becomes a number; the request id is echoed; one output per item', async () => {
		const done = await createExport({ path: ['Succeeded'], files: ['a', 'b', 'c'] });
		const pending = await createExport({ path: ['Processing'] });
		const result = await runNode({
			credentials: store,
			items: [{ id: done }, { id: pending }],
			parameters: report('getExportStatus', { requestId: '={{ $json.id }}' }),
		});
		expect(result.items).toEqual([
			{
				json: {
					requestId: done,
					status: 'Succeeded',
					totalFileCount: 3,
					correlationId: expect.any(String),
					filters: { startDate: '2025-11-01T00:00:00.000Z' },
				},
				pairedItem: { item: 0 },
			},
			{
				json: expect.objectContaining({
					requestId: pending,
					status: 'Processing',
					totalFileCount: null,
				}),
				pairedItem: { item: 1 },
			},
		]);
	});

	test('an empty Request ID is refused before any request', async () => {
		const result = await runNode({
			credentials: store,
			parameters: report('getExportStatus', { requestId: '  ' }),
		});
		expect(result.error?.message).toBe('Request ID is empty [item 0]');
		expect(sim.requests).toHaveLength(0);
	});
});

describe('Wait For Export', () => {
	const wait = (extra: IDataObject = {}, options: IDataObject = {}) =>
		report('waitForExport', {
			requestId: '={{ $json.id }}',
			options: { pollInterval: 1, ...options },
			...extra,
		});

	test.each([
		['one file', ['x,y\r\n']],
		['several files', ['a\r\n', 'b\r\n', 'c\r\n', 'd\r\n']],
	])('Succeeded with %s → status plus file indexes', async (_name, files) => {
		const id = await createExport({ path: ['Queued', 'Succeeded'], files });
		const result = await runNode({ credentials: store, items: [{ id }], parameters: wait() });
		expect(result.items[0].json).toMatchObject({
			requestId: id,
			status: 'Succeeded',
			totalFileCount: files.length,
			fileIndexes: files.map((_, i) => i),
			polls: 2,
		});
	});

	test.each(['Failed', 'Cancelled'] as const)(
		'%s → an error with the status and correlation id',
		async (outcome) => {
			const id = await createExport({ path: ['Processing', outcome] });
			const result = await runNode({ credentials: store, items: [{ id }], parameters: wait() });
			const correlationId = (result.error as { context?: IDataObject })?.context;
			expect(correlationId).toBeDefined();
			expect(result.error?.message).toMatch(
				new RegExp(
					`^Export ${id} ended with status ${outcome} \\(correlation ID [0-9a-f-]{36}\\) \\[item 0\\]$`,
				),
			);
		},
	);

	test('with Continue On Fail, a failed export is an item carrying status, correlation id and pairing', async () => {
		const ok = await createExport({ path: ['Succeeded'] });
		const failed = await createExport({ path: ['Failed'] });
		const result = await runNode({
			credentials: store,
			items: [{ id: ok }, { id: failed }],
			parameters: wait(),
			continueOnFail: true,
		});
		expect(result.items[0].json).toMatchObject({ requestId: ok, status: 'Succeeded' });
		expect(result.items[1]).toEqual({
			json: expect.objectContaining({
				requestId: failed,
				status: 'Failed',
				correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
				error: expect.stringContaining(`Export ${failed} ended with status Failed`),
			}),
			pairedItem: { item: 1 },
		});
	});

	test('never finishing → a timeout error with the last status seen', async () => {
		const id = await createExport({ path: ['Queued', 'Processing'] });
		const result = await runNode({
			credentials: store,
			items: [{ id }],
			parameters: wait({}, { timeout: 2 }),
		});
		expect(result.error?.message).toBe(
			`Export ${id} did not finish within 2 seconds; last status: Processing [item 0]`,
		);
	});

	test('cancelling the execution stops the wait at once', async () => {
		const id = await createExport({ path: ['Processing'] });
		const result = await runNode({
			credentials: store,
			items: [{ id }],
			parameters: wait({}, { pollInterval: 30 }),
			cancelAfterMs: 400,
		});
		expect(result.status).toBe('canceled');
		expect(result.elapsedMs).toBeLessThan(2500);
		expect(sim.requestsTo('GetExportStatus')).toHaveLength(1);
	});

	test('poll cadence: never faster than once a second, no more polls than the interval allows', async () => {
		const id = await createExport({
			path: ['Processing', 'Succeeded'],
			advanceEvery: { ms: 3200 },
		});
		sim.clearLog();
		const result = await runNode({
			credentials: store,
			items: [{ id }],
			parameters: wait({}, { pollInterval: 1, maxPollInterval: 1 }),
		});
		expect(result.error).toBeUndefined();
		const polls = sim.requestsTo('GetExportStatus').map((r) => r.at);
		const gaps = polls.slice(1).map((t, i) => t - polls[i]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(990);
		// Succeeded at 3.2 s: polls at 0, 1, 2, 3 and 4 s at most.
		expect(polls.length).toBeLessThanOrEqual(5);
		expect(polls.length).toBeGreaterThanOrEqual(4);
	});

	test('the wait between polls backs off towards Max Poll Interval', async () => {
		const id = await createExport({
			path: ['Processing', 'Succeeded'],
			advanceEvery: { ms: 4000 },
		});
		sim.clearLog();
		await runNode({
			credentials: store,
			items: [{ id }],
			parameters: wait({}, { pollInterval: 1, maxPollInterval: 2 }),
		});
		const polls = sim.requestsTo('GetExportStatus').map((r) => r.at);
		const gaps = polls.slice(1).map((t, i) => t - polls[i]);
		// 1 s, then 1.5 s, then capped at 2 s.
		expect(gaps[0]).toBeGreaterThanOrEqual(990);
		expect(gaps[1]).toBeGreaterThanOrEqual(1490);
		expect(gaps[2]).toBeGreaterThanOrEqual(1990);
		expect(Math.max(...gaps)).toBeLessThan(2300);
	});

	test('several input items wait concurrently, not one after another', async () => {
		const ids = [];
		for (let i = 0; i < 4; i++)
			ids.push(
				await createExport({ path: ['Processing', 'Succeeded'], advanceEvery: { ms: 1500 } }),
			);
		const result = await runNode({
			credentials: store,
			items: ids.map((id) => ({ id })),
			parameters: wait(),
		});
		expect(result.items.map((item) => item.json.status)).toEqual([
			'Succeeded',
			'Succeeded',
			'Succeeded',
			'Succeeded',
		]);
		// One after another this would take at least 4 × 2 s.
		expect(result.elapsedMs).toBeLessThan(4000);
	});

	test.each([
		[
			'a Poll Interval under one second',
			{ pollInterval: 0.5 },
			/^Poll Interval must be between 1 and 86400 seconds, not 0.5 \[item 0\]$/,
		],
		[
			'a negative Timeout',
			{ timeout: -1 },
			/^Timeout must be between 1 and 604800 seconds, not -1 \[item 0\]$/,
		],
		[
			'a non-numeric interval',
			{ pollInterval: 'soon' },
			/^Poll Interval must be a number of seconds, not "soon"/,
		],
	])('rejects %s before any request', async (_name, options, message) => {
		const result = await runNode({
			credentials: store,
			items: [{ id: 'x' }],
			parameters: wait({}, options),
		});
		expect(result.error?.message).toMatch(message);
		expect(sim.requests).toHaveLength(0);
	});
});

describe('Download Export Files', () => {
	const download = (extra: IDataObject = {}) =>
		report('downloadExportFiles', { requestId: '={{ $json.id }}', ...extra });

	test('all files: one item per file, CSV as binary with the bytes the simulator served', async () => {
		const files = [sampleCsv(2, 'a'), sampleCsv(5, 'b'), 'Name,Stadt\r\nÄrzte,Zürich\r\n'];
		const id = await createExport({ path: ['Succeeded'], files });
		const result = await runNode({ credentials: store, items: [{ id }], parameters: download() });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		for (const [index, item] of result.items.entries()) {
			expect(item.json).toEqual({
				requestId: id,
				fileIndex: index,
				fileName: `export-${id}-${index}.csv`,
				totalFileCount: 3,
				fileSize: Buffer.byteLength(files[index]),
			});
			expect(item.binary!.data).toMatchObject({
				fileName: `export-${id}-${index}.csv`,
				mimeType: 'text/csv',
				fileExtension: 'csv',
			});
			expect((await readBinary(item)).toString('utf8')).toBe(files[index]);
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	test('one file by index, into a custom binary field', async () => {
		const id = await createExport({ path: ['Succeeded'], files: ['zero', 'one', 'two'] });
		const result = await runNode({
			credentials: store,
			items: [{ id }],
			parameters: download({ files: 'one', fileIndex: 1, binaryPropertyName: 'report' }),
		});
		expect(result.items).toHaveLength(1);
		expect((await readBinary(result.items[0], 'report')).toString('utf8')).toBe('one');
		expect(sim.requestsTo('GetExportResult').map((r) => r.params.fileIndex)).toEqual(['1']);
	});

	test('an index out of range is refused without downloading', async () => {
		const id = await createExport({ path: ['Succeeded'], files: ['zero', 'one'] });
		const result = await runNode({
			credentials: store,
			items: [{ id }],
			parameters: download({ files: 'one', fileIndex: 2 }),
		});
		expect(result.error?.message).toBe(
			`File Index 2 is out of range: export ${id} has 2 files (0–1) [item 0]`,
		);
		expect(sim.requestsTo('GetExportResult')).toHaveLength(0);
	});

	test('an export that has not succeeded gives a clear error, not an empty file', async () => {
		const id = await createExport({ path: ['Processing'] });
		const result = await runNode({ credentials: store, items: [{ id }], parameters: download() });
		expect(result.error?.message).toBe(
			`Export ${id} has no files to download: its status is Processing [item 0]`,
		);
		expect((result.error as { description?: string }).description).toBe(
			'Use Wait For Export before downloading.',
		);
		expect(sim.requestsTo('GetExportResult')).toHaveLength(0);
	});

	test('per-item pairing across several exports', async () => {
		const a = await createExport({ path: ['Succeeded'], files: ['a0', 'a1'] });
		const b = await createExport({ path: ['Succeeded'], files: ['b0'] });
		const result = await runNode({
			credentials: store,
			items: [{ id: a }, { id: b }],
			parameters: download(),
		});
		expect(result.items.map((i) => [i.json.requestId, i.json.fileIndex, i.pairedItem])).toEqual([
			[a, 0, { item: 0 }],
			[a, 1, { item: 0 }],
			[b, 0, { item: 1 }],
		]);
	});
});
