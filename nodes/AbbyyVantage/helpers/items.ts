import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapConcurrent } from './concurrency';

export interface ItemOutput {
	json: IDataObject;
	binary?: IBinaryKeyData;
}

/** Facts an error item should carry under "Continue On Fail" (e.g. the export's status). */
const errorOutputs = new WeakMap<object, IDataObject>();

export function withErrorOutput<E extends Error>(error: E, json: IDataObject): E {
	errorOutputs.set(error, json);
	return error;
}

/** Any error as an n8n error naming the item; n8n errors pass through unchanged. */
export function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const wrapped = new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	const extra = error && typeof error === 'object' ? errorOutputs.get(error) : undefined;
	if (extra) errorOutputs.set(wrapped, extra);
	return wrapped;
}

/** The item n8n shows for a failed input under "Continue On Fail". */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number | number[]) {
	const json: IDataObject = {
		...(errorOutputs.get(error) ?? {}),
		error: error.message,
	};
	if (error.description) json.errorDescription = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	const pairedItem = Array.isArray(itemIndex)
		? itemIndex.map((item) => ({ item }))
		: { item: itemIndex };
	return { json, pairedItem };
}

/**
 * One or more output items per input item, each paired with it, in input order. Up to
 * `concurrency` items are handled at once. A failure becomes an error item when
 * "Continue On Fail" is on; otherwise the first failure (in item order) is thrown once every
 * started item has finished.
 */
export async function runPerItem(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	handler: (itemIndex: number) => Promise<ItemOutput | ItemOutput[]>,
	concurrency = 1,
): Promise<INodeExecutionData[]> {
	const continueOnFail = ctx.continueOnFail();
	let stop = false;
	const settled = await mapConcurrent(items, concurrency, async (_item, itemIndex) => {
		if (stop) return [];
		try {
			const output = await handler(itemIndex);
			return Array.isArray(output) ? output : [output];
		} catch (error) {
			if (!continueOnFail) stop = true;
			throw asNodeError(ctx, error, itemIndex);
		}
	});
	const out: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < settled.length; itemIndex++) {
		const result = settled[itemIndex];
		if (result.status === 'rejected') {
			const error = result.reason as NodeApiError | NodeOperationError;
			if (!continueOnFail) throw error;
			out.push(errorItem(error, itemIndex));
			continue;
		}
		for (const output of result.value) {
			out.push({ ...output, pairedItem: { item: itemIndex } });
		}
	}
	return out;
}
