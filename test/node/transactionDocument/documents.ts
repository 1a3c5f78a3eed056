import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { binaryFile, fileItem } from '../../helpers/binary';
import type { SimulatorFixture } from '../../helpers/fixture';
import { addFilesParams, nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { createdTransaction } from '../transaction/flow';

/** The bytes of the page `documentWithFile` uploads. */
export const PAGE_BYTES = 'the bytes of a page';

/**
 * A transaction of the Process skill with one document (Transaction Document → Add) holding one
 * source file, `page.png` (Transaction → Add Files with its Document ID), made through the node.
 */
export async function documentWithFile(
	f: SimulatorFixture,
): Promise<{ transactionId: string; documentId: string; fileId: string }> {
	const transactionId = await createdTransaction(f, FIXTURE.processSkillId);
	const added = await runNode({
		credentials: f.store,
		parameters: nodeParams('transactionDocument', 'add', { transactionId }),
	});
	if (added.error) throw added.error;
	const documentId = added.items[0].json.documentId as string;
	const uploaded = await runNode({
		credentials: f.store,
		items: [fileItem(binaryFile('page.png', PAGE_BYTES, 'image/png'))],
		parameters: addFilesParams(transactionId, { options: { documentId } }),
	});
	if (uploaded.error) throw uploaded.error;
	const fileId = f.sim.transaction(transactionId)!.files[0].id;
	return { transactionId, documentId, fileId };
}

/** `count` documents of one new Process-skill transaction, created directly in the simulator's API. */
export async function documents(
	f: SimulatorFixture,
	count: number,
): Promise<{ transactionId: string; documentIds: string[] }> {
	const transactionId = f.sim.createTransaction(FIXTURE.processSkillId);
	const added = await runNode({
		credentials: f.store,
		items: Array.from({ length: count }, () => ({})),
		parameters: nodeParams('transactionDocument', 'add', { transactionId }),
	});
	if (added.error) throw added.error;
	return {
		transactionId,
		documentIds: added.items.map((item) => (item.json as IDataObject).documentId as string),
	};
}
