import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { NAMED_IN_ERROR } from '../constants';
import { mapConcurrent } from './concurrency';
import { asNodeError, errorItem } from './errors';

export interface ItemOutput {
	json: IDataObject;
	binary?: IBinaryKeyData;
}

/**
 * What an item's output says it created in Vantage (`export req-1`), for operations that create
 * something: when the run stops at a failure, the error names what the other items had already
 * created, since their outputs are lost with the run.
 */
export type CreatedBy = (output: ItemOutput) => string | undefined;

/**
 * One or more output items per input item, each paired with it, in input order. Up to
 * `concurrency` items are handled at once. A failure becomes an error item when
 * "Continue On Fail" is on; otherwise the first failure (in item order) is thrown once every
 * started item has finished, naming (with `created`) what the finished items had created.
 */
export async function runPerItem(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	handler: (itemIndex: number) => Promise<ItemOutput | ItemOutput[]>,
	concurrency = 1,
	created?: CreatedBy,
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
			if (!continueOnFail) throw created ? namingCreated(error, settled, created) : error;
			out.push(errorItem(error, itemIndex));
			continue;
		}
		for (const output of result.value) {
			out.push({ ...output, pairedItem: { item: itemIndex } });
		}
	}
	return out;
}

/** The error of a stopped run, its description extended with what other items created. */
function namingCreated(
	error: NodeApiError | NodeOperationError,
	settled: Array<PromiseSettledResult<ItemOutput[]>>,
	created: CreatedBy,
): NodeApiError | NodeOperationError {
	const done: string[] = [];
	settled.forEach((result, itemIndex) => {
		if (result.status !== 'fulfilled') return;
		for (const output of result.value) {
			const what = created(output);
			if (what) done.push(`${what} (item ${itemIndex})`);
		}
	});
	if (!done.length) return error;
	const shown = done.slice(0, NAMED_IN_ERROR).join(', ');
	const more = done.length > NAMED_IN_ERROR ? `, and ${done.length - NAMED_IN_ERROR} more` : '';
	const note = `Before the run stopped, other items had created: ${shown}${more}. They are not in the output; turn on Continue On Fail to get every item's result.`;
	error.description = error.description ? `${error.description} ${note}` : note;
	return error;
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
	created?: CreatedBy,
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
		created,
	);
}
