import { runNode, simulatorCredentials } from '../../../harness/n8n';
import { useSimulator } from '../../../helpers/fixture';
import { nodeParams } from '../../../helpers/params';
import { FIXTURE } from '../../../simulator/simulator';
import { createExport } from './exportkit';

const f = useSimulator();

describe('Report → Get Many Exports', () => {
	test("the credential's user's export requests, totalFileCount as a number; Limit cuts the list", async () => {
		const done = await createExport(f, { path: ['Succeeded'], files: ['a', 'b'] });
		const pending = await createExport(f, { path: ['Processing'] });
		// Another user's export is not listed: Vantage lists only the caller's.
		f.sim.createFinishedExport(FIXTURE.multiTenantUsername);
		const all = await runNode({
			credentials: f.store,
			parameters: nodeParams('report', 'getManyExports', { returnAll: true }),
		});
		expect(all.error).toBeUndefined();
		expect(all.items.map((item) => item.json)).toEqual([
			{
				requestId: done,
				status: 'Succeeded',
				totalFileCount: 2,
				createdUtc: expect.any(String),
				completedUtc: expect.any(String),
				filters: { startDate: '2025-11-01T00:00:00.000Z' },
			},
			{
				requestId: pending,
				status: 'Processing',
				totalFileCount: null,
				createdUtc: expect.any(String),
				completedUtc: null,
				filters: { startDate: '2025-11-01T00:00:00.000Z' },
			},
		]);
		expect(f.sim.requestsTo('ListExportRequests')[0].query).toEqual({});

		const one = await runNode({
			credentials: f.store,
			items: [{ n: 1 }, { n: 2 }],
			parameters: nodeParams('report', 'getManyExports', { limit: 1 }),
		});
		expect(one.items.map((item) => [item.json.requestId, item.pairedItem])).toEqual([
			[done, { item: 0 }],
			[done, { item: 1 }],
		]);
	});

	test('Status: only export requests with one of the chosen statuses, asked of Vantage', async () => {
		await createExport(f, { path: ['Succeeded'] });
		const failed = await createExport(f, { path: ['Failed'] });
		const cancelled = await createExport(f, { path: ['Cancelled'] });
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('report', 'getManyExports', {
				returnAll: true,
				filters: { status: ['Failed', 'Cancelled'] },
			}),
		});
		expect(result.items.map((item) => item.json.requestId)).toEqual([failed, cancelled]);
		expect(f.sim.requestsTo('ListExportRequests')[0].query).toEqual({
			statusFilter: ['Failed', 'Cancelled'],
		});
	});

	test('an unknown Status or a bad Limit is refused for its item before any request', async () => {
		const status = await runNode({
			credentials: f.store,
			items: [{ status: 'Failed' }, { status: 'Done' }],
			parameters: nodeParams('report', 'getManyExports', {
				returnAll: true,
				filters: { status: '={{ $json.status }}' },
			}),
		});
		expect(status.error?.message).toBe(
			'Status must be one of "New", "Queued", "Processing", "Succeeded", "Failed", "Cancelled", not "Done" [item 1]',
		);
		const limit = await runNode({
			credentials: f.store,
			parameters: nodeParams('report', 'getManyExports', { limit: 0 }),
		});
		expect(limit.error?.message).toMatch(/^Limit .*\[item 0\]$/);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('without a reporting role: the reason, from Vantage, and who may use reports', async () => {
		const result = await runNode({
			credentials: simulatorCredentials(f.sim, { username: FIXTURE.operatorUsername }),
			parameters: nodeParams('report', 'getManyExports', { returnAll: true }),
		});
		expect(result.error?.message).toMatch(
			/^ABBYY Vantage denied access: Only Tenant Administrators.*\[item 0\]$/,
		);
		expect((result.error as { description?: string }).description).toMatch(
			/Only Tenant Administrators and Processing Supervisors may use reports/,
		);
	});
});
