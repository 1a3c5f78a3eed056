import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../../helpers/binary';
import type { SimulatorFixture } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

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
		parameters: nodeParams('transaction', 'addFiles', { transactionId }),
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
		parameters: nodeParams('transaction', 'processDocument', {
			skillId: rl(FIXTURE.documentSkillId),
			options: { pollInterval: 1 },
		}),
	});
	if (result.error) throw result.error;
	return result.items[0].json.transactionId as string;
}
