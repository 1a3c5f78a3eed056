import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';

const CATALOG = 'Vendors / EU 2026';
const f = useSimulator((sim) => sim.addCatalog(CATALOG));

describe('Reindex', () => {
	const reindex = (extra: IDataObject = {}): INodeParameters =>
		nodeParams('catalog', 'reindex', {
			catalogId: rl(CATALOG),
			options: { pollInterval: 1 },
			...extra,
		});

	test('waits until Completed and outputs the operation record', async () => {
		f.sim.scriptNextReindex({ outcome: 'Completed', after: { polls: 1 } });
		const result = await runNode({ credentials: f.store, parameters: reindex() });
		expect(result.items[0].json).toEqual({
			catalogId: CATALOG,
			operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
			currentState: 'Completed',
			indexModelId: expect.any(String),
			workflowProcessingId: expect.any(String),
			created: expect.any(String),
			completed: expect.any(String),
			polls: 2,
			failedPolls: 0,
		});
		expect(
			f.sim.requestsTo('GetReindexOperation').every((r) => r.params.catalogId === CATALOG),
		).toBe(true);
	});

	test('Failed is a clear error naming the catalog and operation', async () => {
		f.sim.scriptNextReindex({ outcome: 'Failed', after: { polls: 0 } });
		const result = await runNode({ credentials: f.store, parameters: reindex() });
		expect(result.error?.message).toMatch(
			new RegExp(
				`^Reindex of catalog "${CATALOG}" failed \\(operation [0-9a-f-]{36}\\) \\[item 0\\]$`,
			),
		);
	});

	test('without waiting, the started operation is returned at once', async () => {
		f.sim.scriptNextReindex({ outcome: 'Never' });
		const result = await runNode({
			credentials: f.store,
			parameters: reindex({ waitForCompletion: false }),
		});
		expect(result.items[0].json).toMatchObject({ catalogId: CATALOG, currentState: 'InProgress' });
		expect(f.sim.requestsTo('GetReindexOperation')).toHaveLength(0);
	});

	test('a reindex that never ends times out with the last state', async () => {
		f.sim.scriptNextReindex({ outcome: 'Never' });
		const result = await runNode({
			credentials: f.store,
			parameters: reindex({ options: { pollInterval: 1, timeout: 1 } }),
		});
		expect(result.error?.message).toBe(
			`Reindex of catalog "${CATALOG}" did not finish within 1 second; last state: InProgress [item 0]`,
		);
	});

	test('cancelling stops the wait at once', async () => {
		f.sim.scriptNextReindex({ outcome: 'Never' });
		const result = await runNode({
			credentials: f.store,
			parameters: reindex({ options: { pollInterval: 60 } }),
			cancelAfterMs: 300,
		});
		expect(result.status).toBe('canceled');
		// Stopped long before the 60 s poll interval was over.
		expect(result.elapsedMs).toBeLessThan(10_000);
	});
});
