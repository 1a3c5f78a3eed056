import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runNode, type RunResult } from '../../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../../helpers/binary';
import { maxInFlight, type SimulatorFixture } from '../../helpers/fixture';
import { addFilesParams, nodeParams, processParams, rl } from '../../helpers/params';
import { FIXTURE, type RouteId } from '../../simulator/simulator';

/** A transaction created through the node (Create), not yet started. */
export async function createdTransaction(
	f: SimulatorFixture,
	skillId: string = FIXTURE.documentSkillId,
	options: IDataObject = {},
): Promise<string> {
	const result = await runNode({
		credentials: f.store,
		parameters: nodeParams('transaction', 'create', { skillId: rl(skillId), options }),
	});
	if (result.error) throw result.error;
	return result.items[0].json.transactionId as string;
}

/**
 * A started transaction holding one invoice, added with Add Files and started with Start through
 * the node; the simulator keeps it processing for `polls` status reads.
 */
export async function startedTransaction(
	f: SimulatorFixture,
	transactionId: string,
	polls: number,
	number = 'W',
): Promise<void> {
	const added = await runNode({
		credentials: f.store,
		items: [fileItem(binaryFile(`${number}.pdf`, `InvoiceNumber: ${number}`))],
		parameters: addFilesParams(transactionId),
	});
	if (added.error) throw added.error;
	f.sim.scriptNextTransaction({ processing: { polls } });
	const started = await runNode({
		credentials: f.store,
		parameters: nodeParams('transaction', 'start', { transactionId }),
	});
	if (started.error) throw started.error;
}

/** A processed transaction of the invoice skill holding one invoice, made through the node. */
export async function processedTransaction(f: SimulatorFixture, number = 'INV-9'): Promise<string> {
	f.sim.scriptNextTransaction({ processing: { polls: 0 } });
	const result = await runNode({
		credentials: f.store,
		items: [
			fileItem(
				binaryFile(`${number}.pdf`, invoiceText({ number, lines: [['Item', '1', '5,00']] })),
			),
		],
		parameters: processParams(),
	});
	if (result.error) throw result.error;
	return result.items[0].json.transactionId as string;
}

type Items = Array<IDataObject | INodeExecutionData>;

/**
 * Run one per-item operation twice, with Concurrency left at its default (Auto) and pinned to 1,
 * and report the most requests to `route` that were in flight at once in each run. `items` gives
 * each run its input (a function when a run uses up what it is given, e.g. transactions to
 * start). Each request takes `latencyMs` in the simulator, so requests sent together overlap.
 */
export async function concurrencyOf(
	f: SimulatorFixture,
	route: RouteId,
	parameters: (options: IDataObject) => INodeParameters,
	items: Items | (() => Items | Promise<Items>),
	latencyMs = 40,
): Promise<{ auto: number; pinned: number; runs: RunResult[] }> {
	const peaks: number[] = [];
	const runs: RunResult[] = [];
	for (const options of [{}, { concurrency: 1 }]) {
		const input = typeof items === 'function' ? await items() : items;
		f.sim.setLatency(latencyMs);
		f.sim.clearLog();
		const result = await runNode({
			credentials: f.store,
			items: input,
			parameters: parameters(options),
		});
		f.sim.setLatency(0);
		if (result.error) throw result.error;
		runs.push(result);
		peaks.push(maxInFlight(f.sim.requestsTo(route)));
	}
	return { auto: peaks[0], pinned: peaks[1], runs };
}
