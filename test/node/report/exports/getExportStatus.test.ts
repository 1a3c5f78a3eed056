import { runNode } from '../../../harness/n8n';
import { useSimulator } from '../../../helpers/fixture';
import { nodeParams } from '../../../helpers/params';
import { createExport } from './exportkit';

const f = useSimulator();

describe('Get Export Status', () => {
	test('totalFileCount becomes a number; the request id is echoed; one output per item', async () => {
		const done = await createExport(f, { path: ['Succeeded'], files: ['a', 'b', 'c'] });
		const pending = await createExport(f, { path: ['Processing'] });
		const result = await runNode({
			credentials: f.store,
			items: [{ id: done }, { id: pending }],
			parameters: nodeParams('report', 'getExportStatus', { requestId: '={{ $json.id }}' }),
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
			credentials: f.store,
			parameters: nodeParams('report', 'getExportStatus', { requestId: '  ' }),
		});
		expect(result.error?.message).toBe('Request ID is empty [item 0]');
		expect(f.sim.requests).toHaveLength(0);
	});
});
