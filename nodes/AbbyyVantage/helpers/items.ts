import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { mapConcurrent } from './concurrency';
import { asNodeError, errorItem } from './errors';

export interface ItemOutput {
	json: IDataObject;
	binary?: IBinaryKeyData;
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
