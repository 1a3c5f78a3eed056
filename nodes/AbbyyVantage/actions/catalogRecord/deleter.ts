import { chunksOf, runBatches, type BatchRun } from '../../helpers/batches';
import { count } from '../../helpers/text';
import type { VantageClient } from '../../transport';
import { deleteRecordBatch, endOfRunRetry } from './writer';

/**
 * Delete ids in batches of `batchSize` (idempotent: Vantage ignores ids that do not exist), cut
 * from `ids` as they can be sent.
 */
export async function deleteIds(
	client: VantageClient,
	catalogId: string,
	ids: Iterable<string>,
	batchSize: number,
	concurrency: number,
): Promise<BatchRun> {
	return await runBatches(
		chunksOf(ids, batchSize),
		concurrency,
		async (batch, index) =>
			await deleteRecordBatch(
				client,
				catalogId,
				batch,
				`deleting batch ${index + 1} (${count(batch.length, 'ID')}) from catalog "${catalogId}"`,
			),
		endOfRunRetry(client),
	);
}
