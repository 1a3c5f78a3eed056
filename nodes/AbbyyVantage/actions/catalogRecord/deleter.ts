import { chunk, runBatches, type BatchRun } from '../../helpers/batches';
import { endpoints, type VantageClient } from '../../transport';
import { CATALOG_HINTS } from '../catalog/shared';
import { endOfRunRetry } from './writer';

/** Delete ids in batches (idempotent: Vantage ignores ids that do not exist). */
export async function deleteIds(
	client: VantageClient,
	catalogId: string,
	ids: Iterable<string>,
	batchSize: number,
	concurrency: number,
): Promise<BatchRun & { batches: number }> {
	const batches = chunk(ids, batchSize);
	const run = await runBatches(
		batches,
		concurrency,
		async (batch, index) => {
			// Sent without the item: a batch's reason is reported once, in the item's summary.
			await client.request({
				...endpoints.deleteRecords(catalogId),
				body: batch,
				ignoreBody: true,
				action: `deleting batch ${index + 1} of ${batches.length} (${batch.length} IDs) from catalog "${catalogId}"`,
				hints: CATALOG_HINTS,
			});
		},
		endOfRunRetry(client),
	);
	return { ...run, batches: batches.length };
}
