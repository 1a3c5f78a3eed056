import { chunksOf, runBatches, type BatchRun } from '../../helpers/batches';
import { count } from '../../helpers/text';
import { endpoints, type VantageClient } from '../../transport';
import { CATALOG_HINTS } from '../catalog/shared';
import { endOfRunRetry } from './writer';

/** Delete ids in batches of `batchSize` (idempotent: Vantage ignores ids that do not exist). */
export async function deleteIds(
	client: VantageClient,
	catalogId: string,
	ids: Iterable<string>,
	batchSize: number,
	concurrency: number,
): Promise<BatchRun> {
	return await deleteBatches(client, catalogId, chunksOf(ids, batchSize), concurrency);
}

/**
 * Delete batches of ids as they come: each batch is taken from `batches` only when it can be
 * sent, so producing them (e.g. removing duplicates from a million ids) runs while earlier
 * batches wait for their answers.
 */
export async function deleteBatches(
	client: VantageClient,
	catalogId: string,
	batches: Iterable<string[]>,
	concurrency: number,
): Promise<BatchRun> {
	return await runBatches(
		batches,
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
