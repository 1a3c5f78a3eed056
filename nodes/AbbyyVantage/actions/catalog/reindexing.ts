import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';

import { DEFAULT_POLL_INTERVAL_SECONDS } from '../../constants';
import { apiError, operationError } from '../../helpers/errors';
import { lastState, pollUntil, type PollSettings } from '../../helpers/polling';
import { describeDuration } from '../../helpers/time';
import { endpoints, isWaitHiccup, type VantageClient } from '../../transport';
import { defaultPollSettings, type PollDefaults } from '../../params/wait';
import { CATALOG_HINTS } from '../../vantage/catalogs';

/**
 * A catalog's reindex (StartCatalogReindex, GetReindexOperation): started and waited for by
 * Catalog → Reindex, and after Catalog Record → Add, Sync and Delete.
 */

export const REINDEX_POLL: PollDefaults = {
	intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS,
	maxIntervalSeconds: 30,
	timeoutSeconds: 1800,
	timeoutDescription: 'Give up waiting after this long; the reindex itself keeps running',
};

export interface ReindexOperation extends IDataObject {
	catalogId: string;
	operationId: string;
	currentState: string;
}

function toReindexOperation(catalogId: string, body: IDataObject | undefined): ReindexOperation {
	const { id, currentState, ...rest } = body ?? {};
	return {
		catalogId,
		operationId: typeof id === 'string' ? id : '',
		currentState: typeof currentState === 'string' ? currentState : 'Unknown',
		...rest,
	};
}

export async function startReindex(
	ctx: IExecuteFunctions,
	client: VantageClient,
	catalogId: string,
	itemIndex: number,
): Promise<ReindexOperation> {
	const body = await client.request<IDataObject | undefined>({
		...endpoints.startCatalogReindex(catalogId),
		itemIndex,
		action: `starting a reindex of catalog "${catalogId}"`,
		hints: CATALOG_HINTS,
	});
	const operation = toReindexOperation(catalogId, body);
	if (!operation.operationId) {
		throw apiError(
			ctx.getNode(),
			itemIndex,
			{ ...(body ?? {}) } as JsonObject,
			`ABBYY Vantage started no reindex operation for catalog "${catalogId}"`,
		);
	}
	return operation;
}

/** Poll a reindex until Completed (returned) or Failed / timeout (thrown, with the record). */
export async function waitForReindex(
	ctx: IExecuteFunctions,
	client: VantageClient,
	started: ReindexOperation,
	settings: PollSettings,
	itemIndex: number,
): Promise<ReindexOperation & { polls: number; failedPolls: number }> {
	const { catalogId, operationId } = started;
	const outcome = await pollUntil(
		async () =>
			toReindexOperation(
				catalogId,
				await client.request<IDataObject | undefined>({
					...endpoints.getReindexOperation(catalogId, operationId),
					itemIndex,
					action: `reading reindex ${operationId} of catalog "${catalogId}"`,
				}),
			),
		(op) => op.currentState === 'Completed' || op.currentState === 'Failed',
		settings,
		client.signal,
		isWaitHiccup,
	);
	const result = {
		...(outcome.value ?? started),
		polls: outcome.polls,
		failedPolls: outcome.failedPolls,
	};
	if (outcome.timedOut) {
		throw operationError(
			ctx.getNode(),
			itemIndex,
			`Reindex of catalog "${catalogId}" did not finish within ${describeDuration(settings.timeoutMs)}; last state: ${lastState(outcome.value?.currentState, outcome)}`,
			{
				description: 'Skills keep using the previous index until the reindex completes.',
				output: result,
			},
		);
	}
	if (result.currentState === 'Failed') {
		throw apiError(
			ctx.getNode(),
			itemIndex,
			{ ...result } as JsonObject,
			`Reindex of catalog "${catalogId}" failed (operation ${operationId})`,
			{
				description:
					'Skills keep searching the previous index. Start a new reindex, or contact ABBYY support with the operation ID.',
				output: result,
			},
		);
	}
	return result;
}

/**
 * Start a reindex of `catalogId` and wait until it has completed (Failed or a timeout is thrown
 * with the operation record); with `poll: false`, only start it. After records are added or
 * deleted, skills see the change once a reindex has completed (StartCatalogReindex).
 */
export async function reindexAndWait(
	ctx: IExecuteFunctions,
	client: VantageClient,
	catalogId: string,
	itemIndex: number,
	poll: PollSettings | false = defaultPollSettings(REINDEX_POLL),
): Promise<ReindexOperation> {
	const started = await startReindex(ctx, client, catalogId, itemIndex);
	return poll === false ? started : await waitForReindex(ctx, client, started, poll, itemIndex);
}
