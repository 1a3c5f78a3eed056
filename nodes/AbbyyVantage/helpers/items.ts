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

/**
 * Like `runPerItem`, but every item's input is checked (`prepare`) before the first request of
 * any item: bad input in item 5 must not leave items 0–4 having created things that then appear
 * in no output. Without Continue On Fail the first bad item stops the run before anything is
 * sent; with it, bad items become error items and the others run.
 */
export async function runPreparedPerItem<P>(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => Promise<P> | P,
	run: (plan: P, itemIndex: number) => Promise<ItemOutput | ItemOutput[]>,
	concurrency = 1,
): Promise<INodeExecutionData[]> {
	const continueOnFail = ctx.continueOnFail();
	const plans: Array<{ plan: P } | { error: NodeApiError | NodeOperationError }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			plans.push({ plan: await prepare(itemIndex) });
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			plans.push({ error: nodeError });
		}
	}
	return await runPerItem(
		ctx,
		items,
		async (itemIndex) => {
			const prepared = plans[itemIndex];
			if ('error' in prepared) throw prepared.error;
			return await run(prepared.plan, itemIndex);
		},
		concurrency,
	);
}
