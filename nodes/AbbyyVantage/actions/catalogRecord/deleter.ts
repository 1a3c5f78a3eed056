import { chunksOf, runBatches, type BatchRun } from '../../helpers/batches';
import { count } from '../../helpers/text';
import { endpoints, type VantageClient } from '../../transport';
import { CATALOG_HINTS } from '../catalog/shared';
import { endOfRunRetry } from './writer';

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
		async (batch, index) => {
			// Sent without the item: a batch's reason is reported once, in the item's summary.
			await client.request({
				...endpoints.deleteRecords(catalogId),
				body: batch,
				ignoreBody: true,
				action: `deleting batch ${index + 1} (${count(batch.length, 'ID')}) from catalog "${catalogId}"`,
				hints: CATALOG_HINTS,
			});
		},
		endOfRunRetry(client),
	);
}
