import { runNode } from '../../../harness/n8n';
import type { SimulatorFixture } from '../../../helpers/fixture';
import { nodeParams } from '../../../helpers/params';
import type { ExportScript } from '../../../simulator/simulator';

/** An export created through the node (Create Export), following `script` in the simulator. */
export async function createExport(f: SimulatorFixture, script?: ExportScript): Promise<string> {
	if (script) f.sim.scriptNextExport(script);
	const result = await runNode({
		credentials: f.store,
		parameters: nodeParams('report', 'createExport', { startDate: '2025-11-01T00:00:00Z' }),
	});
	if (result.error) throw result.error;
	return result.items[0].json.requestId as string;
}
