import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { withErrorOutput } from '../../helpers/items';
import { pollUntil, type PollSettings } from '../../helpers/polling';
import { requirePathParameter } from '../../helpers/validation';
import { apiPath, type VantageClient } from '../../transport';

export const catalogProperty: INodeProperties = {
	displayName: 'Catalog',
	name: 'catalogId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The data catalog. Its ID is its name, which may contain spaces or slashes.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a catalog...',
			typeOptions: { searchListMethod: 'searchCatalogs', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. Vendors',
		},
	],
};

export function readCatalogId(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('catalogId', itemIndex, '', { extractValue: true });
	// A catalog id is a name and is sent exactly as given, spaces included.
	return requirePathParameter(ctx, itemIndex, 'Catalog', value, { trim: false });
}

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
		method: 'POST',
		path: apiPath`/api/publicapi/v1/catalogs/${catalogId}/reindex`,
		idempotent: false,
		itemIndex,
		action: `starting a reindex of catalog "${catalogId}"`,
		hints: { 404: 'Check the Catalog: its ID is the catalog’s name.' },
	});
	const operation = toReindexOperation(catalogId, body);
	if (!operation.operationId) {
		throw new NodeApiError(ctx.getNode(), { ...(body ?? {}) } as JsonObject, {
			message: `ABBYY Vantage started no reindex operation for catalog "${catalogId}" [item ${itemIndex}]`,
			itemIndex,
		});
	}
	return operation;
}

export const DEFAULT_REINDEX_POLL: PollSettings = {
	intervalMs: 5000,
	maxIntervalMs: 30000,
	timeoutMs: 1800000,
};

/** Poll a reindex until Completed (returned) or Failed / timeout (thrown, with the record). */
export async function waitForReindex(
	ctx: IExecuteFunctions,
	client: VantageClient,
	started: ReindexOperation,
	settings: PollSettings,
	itemIndex: number,
): Promise<ReindexOperation & { polls: number }> {
	const { catalogId, operationId } = started;
	const outcome = await pollUntil(
		async () =>
			toReindexOperation(
				catalogId,
				await client.request<IDataObject | undefined>({
					method: 'GET',
					path: apiPath`/api/publicapi/v1/catalogs/${catalogId}/reindex/${operationId}`,
					idempotent: true,
					itemIndex,
					action: `reading reindex ${operationId} of catalog "${catalogId}"`,
				}),
			),
		(op) => op.currentState === 'Completed' || op.currentState === 'Failed',
		settings,
		client.signal,
	);
	const result = { ...outcome.value, polls: outcome.polls };
	if (outcome.timedOut) {
		throw withErrorOutput(
			new NodeOperationError(
				ctx.getNode(),
				`Reindex of catalog "${catalogId}" did not finish within ${settings.timeoutMs / 1000} seconds; last state: ${result.currentState} [item ${itemIndex}]`,
				{
					itemIndex,
					description: 'Skills keep using the previous index until the reindex completes.',
				},
			),
			result,
		);
	}
	if (result.currentState === 'Failed') {
		throw withErrorOutput(
			new NodeApiError(ctx.getNode(), { ...result } as JsonObject, {
				message: `Reindex of catalog "${catalogId}" failed (operation ${operationId}) [item ${itemIndex}]`,
				description:
					'Skills keep searching the previous index. Start a new reindex, or contact ABBYY support with the operation ID.',
				itemIndex,
			}),
			result,
		);
	}
	return result;
}
