import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../harness/n8n';
import { maxInFlight, useSimulator } from '../../../helpers/fixture';
import { nodeParams } from '../../../helpers/params';

const f = useSimulator();

describe('Create Export', () => {
	test('sends only the start date when nothing else is set; outputs the request id', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('report', 'createExport', {
				startDate: '2025-11-03T17:19:54.386Z',
				additionalFields: {},
			}),
		});
		const [request] = f.sim.requestsTo('CreateTransactionStepsExportRequest');
		expect(request.body).toEqual({ filters: { startDate: '2025-11-03T17:19:54.386Z' } });
		expect(result.items).toEqual([
			{
				json: {
					requestId: f.sim.exportIds()[0],
					filters: { startDate: '2025-11-03T17:19:54.386Z' },
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('sends every filter that is set, as UTC date-times', async () => {
		await runNode({
			credentials: f.store,
			timezone: 'Europe/Berlin',
			parameters: nodeParams('report', 'createExport', {
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
		expect(f.sim.requestsTo('CreateTransactionStepsExportRequest')[0].body).toEqual({
			filters: {
				startDate: '2025-11-03T09:00:00.000Z',
				endDate: '2025-11-17T19:05:26.097Z',
				skillId: 'skill-1',
				transactionId: 'tx-1',
			},
			sendEmailNotification: true,
		});
	});

	test('a date-only value is midnight in the workflow’s time zone (typed, or from toISODate())', async () => {
		const result = await runNode({
			credentials: f.store,
			timezone: 'Europe/Berlin',
			items: [{}, {}],
			parameters: nodeParams('report', 'createExport', {
				startDate:
					'={{ $itemIndex === 0 ? "2026-11-01" : DateTime.fromISO("2026-07-01").toISODate() }}',
			}),
		});
		expect(result.error).toBeUndefined();
		expect(
			f.sim
				.requestsTo('CreateTransactionStepsExportRequest')
				.map((r) => (r.body as { filters: { startDate: string } }).filters.startDate),
		).toEqual(['2026-10-31T23:00:00.000Z', '2026-06-30T22:00:00.000Z']);
	});

	test('bad input in a later item stops the run before any export is created', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [{ start: '2026-11-01' }, { start: 'last Tuesday' }],
			parameters: nodeParams('report', 'createExport', { startDate: '={{ $json.start }}' }),
		});
		expect(result.error?.message).toBe('Start Date is not a valid date: "last Tuesday" [item 1]');
		expect(f.sim.requestsTo('CreateTransactionStepsExportRequest')).toHaveLength(0);
	});

	test('accepts n8n date values from expressions (Luxon DateTime, JS Date)', async () => {
		const items = [{}, {}];
		await runNode({
			credentials: f.store,
			items,
			parameters: nodeParams('report', 'createExport', {
				startDate:
					"={{ $itemIndex === 0 ? DateTime.fromISO('2025-06-01T12:00:00', { zone: 'America/New_York' }) : new Date(Date.UTC(2025, 5, 2)) }}",
			}),
		});
		expect(
			f.sim
				.requestsTo('CreateTransactionStepsExportRequest')
				.map((r) => (r.body as IDataObject).filters),
		).toEqual([
			{ startDate: '2025-06-01T16:00:00.000Z' },
			{ startDate: '2025-06-02T00:00:00.000Z' },
		]);
	});

	test('empty optional filters are omitted, not sent as empty strings', async () => {
		await runNode({
			credentials: f.store,
			parameters: nodeParams('report', 'createExport', {
				startDate: '2025-11-03T00:00:00Z',
				additionalFields: {
					endDate: '',
					skillId: '  ',
					transactionId: '',
					sendEmailNotification: false,
				},
			}),
		});
		expect(f.sim.requestsTo('CreateTransactionStepsExportRequest')[0].body).toEqual({
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
			/^End Date \(2025-11-02T00:00:00.000Z\) must be at or after Start Date \(2025-11-03T00:00:00.000Z\) \[item 0\]$/,
		],
		[
			'a Skill that is not text',
			{ startDate: '2025-11-03T00:00:00Z', additionalFields: { skillId: '={{ { id: 1 } }}' } },
			/^Skill must be text/,
		],
	])('rejects %s before any request', async (_name, extra, message) => {
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('report', 'createExport', extra as INodeParameters),
		});
		expect(result.error?.message).toMatch(message);
		expect(f.sim.requests).toHaveLength(0);
	});
});

describe('Create Export: many items', () => {
	const items = Array.from({ length: 8 }, (_, i) => ({ day: `2025-11-0${i + 1}` }));
	const params = (options: IDataObject = {}) =>
		nodeParams('report', 'createExport', { startDate: '={{ $json.day }}', options });

	test('Concurrency Auto (the default) creates exports of several items at once, one each', async () => {
		f.sim.setLatency(30);
		const result = await runNode({ credentials: f.store, items, parameters: params() });
		const created = f.sim.requestsTo('CreateTransactionStepsExportRequest');
		expect(created).toHaveLength(8);
		expect(maxInFlight(created)).toBeGreaterThan(1);
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(new Set(result.items.map((item) => item.json.requestId)).size).toBe(8);
	});

	test('Concurrency 1 creates them one at a time', async () => {
		f.sim.setLatency(30);
		await runNode({ credentials: f.store, items, parameters: params({ concurrency: 1 }) });
		const created = f.sim.requestsTo('CreateTransactionStepsExportRequest');
		expect(created).toHaveLength(8);
		expect(maxInFlight(created)).toBe(1);
	});

	test('a refusal by Vantage names the exports other items had already created', async () => {
		f.sim.injectFault(
			'CreateTransactionStepsExportRequest',
			{ kind: 'status', status: 400, body: { title: 'Bad request', detail: 'Not allowed' } },
			1,
			2,
		);
		const result = await runNode({
			credentials: f.store,
			items: items.slice(0, 3),
			parameters: params({ concurrency: 1 }),
		});
		const [first, second] = f.sim.exportIds();
		expect(result.error?.message).toBe('ABBYY Vantage rejected the request: Not allowed [item 2]');
		expect(result.error?.description).toContain(
			`Before the run stopped, other items had created: export ${first} (item 0), export ${second} (item 1).`,
		);
	});
});
