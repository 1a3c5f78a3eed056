import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { LIST_PAGE_SIZE } from '../constants';
import type { VantageClient } from '../transport';
import type { DeliveryState } from './deliveries';
import { readListPage, type ListFilters } from './lists';
import { documentItems, type ResultOptions, type ResultsContext } from './results';
import { FINAL_STATUSES, type TransactionInfo } from './transactions';

/**
 * The transaction events both triggers start workflows with, and the items they start them with:
 * the ABBYY Vantage Trigger finds them in Vantage's lists, the ABBYY Vantage Instant Trigger hears
 * of them from a Process skill's Custom activity; an event is the same item either way.
 */

/**
 * The state of a transaction that a trigger delivers, from GetTransactionInfo: completed
 * (Processed, Failed or Canceled) or waiting in Manual Review (Processing with a review link:
 * the status stays Processing while it waits); undefined while it is on its way.
 */
export function deliveryStateOf(info: TransactionInfo): DeliveryState | undefined {
	if (FINAL_STATUSES.includes(info.status)) return 'completed';
	if (
		info.status === 'Processing' &&
		typeof info.manualReviewLink === 'string' &&
		info.manualReviewLink !== ''
	) {
		return 'review';
	}
	return undefined;
}

/**
 * Transaction Completed's item: the entry of GetCompletedTransactions. Vantage's list entry and
 * TransactionDto document no completion time: `completedUtc` is the list's when it has one, else null.
 */
export function completedItems(entry: IDataObject): INodeExecutionData[] {
	return [{ json: { ...entry, completedUtc: entry.completedUtc ?? null } }];
}

/**
 * Transaction Completed with Include Results: shaped as Process Document and Get Results shape
 * it (with `options`: the trigger's Include Document Text and Needs Review among them), plus the
 * list entry under `completed` and `error`. A Failed or Canceled transaction has no results: one
 * item with the same keys, `fields` empty and Vantage's error text; with Needs Review it needs
 * review (`transactionFailed`), whatever the rules, since there is nothing to pass on.
 */
export async function completedResultItems(
	ctx: ResultsContext,
	client: VantageClient,
	info: TransactionInfo,
	entry: IDataObject,
	options: ResultOptions,
): Promise<INodeExecutionData[]> {
	const error =
		info.status === 'Processed'
			? null
			: typeof info.error === 'string' && info.error
				? info.error
				: `Transaction ${info.id} ended with status ${info.status}`;
	const outputs = await documentItems(ctx, client, info, options, undefined, {
		completed: entry,
		error,
	});
	return outputs.map((output) => ({ ...output }));
}

/**
 * Transaction Awaiting Manual Review's item: the entry of GetActiveTransactions (stage
 * ManualReview) with the status and the one-time review link, which only the transaction carries.
 */
export function reviewItems(
	entry: IDataObject,
	transactionId: string,
	info: TransactionInfo,
): INodeExecutionData[] {
	return [
		{
			json: {
				...entry,
				transactionId,
				status: info.status,
				manualReviewLink: info.manualReviewLink ?? (entry.manualReviewLink as string) ?? null,
			},
		},
	];
}

/**
 * Creation-time slices searched for one transaction's list entry, newest first (ms back from
 * now): Vantage's lists filter by creation time only, and when a pushed transaction was created is
 * not known. Most are found in the first slice; one reviewed days after its creation, further back.
 * The last reaches the polling trigger's longest Look Back.
 */
const SLICES_MS = [10 * 60_000, 3600_000, 6 * 3600_000, 2 * 24 * 3600_000, 31 * 24 * 3600_000];

/** Pages read at most in one slice (a busy tenant's 10 minutes can hold thousands of transactions). */
const MAX_PAGES_PER_SLICE = 5;

/**
 * Entries read first at each end of a slice: a transaction that has just completed (or entered
 * Manual Review) is at one end of a list ordered by time, whichever way Vantage orders it (not
 * documented). A busy tenant's slice then costs two small pages, not thousands of entries.
 */
const END_PAGE_SIZE = 50;

/**
 * The list entry of `transactionId` in `state`'s list (completed: GetCompletedTransactions;
 * review: GetActiveTransactions at stage ManualReview), or undefined when the list does not show
 * it (yet). `filters` narrow the search further (a skill). Each slice: its two ends, then the
 * entries between in pages of LIST_PAGE_SIZE (at most MAX_PAGES_PER_SLICE); one request when the
 * transaction is recent and the slice holds few.
 */
export async function findListEntry(
	client: VantageClient,
	state: DeliveryState,
	transactionId: string,
	now: number,
	filters: ListFilters = {},
): Promise<IDataObject | undefined> {
	const wanted = transactionId.toLowerCase();
	const list = state === 'review' ? 'active' : 'completed';
	const base: ListFilters =
		state === 'review' ? { ...filters, stageType: 'ManualReview' } : filters;
	const action = `looking for transaction ${transactionId} in the ${list} transactions`;
	const find = (items: IDataObject[]) =>
		items.find((item) => String(item.transactionId).toLowerCase() === wanted);
	let end: number | undefined;
	for (const span of SLICES_MS) {
		const start = now - span;
		const slice: ListFilters = {
			...base,
			startDate: new Date(start).toISOString(),
			...(end !== undefined ? { endDate: new Date(end).toISOString() } : {}),
		};
		end = start;
		const read = async (offset: number, limit: number) =>
			await readListPage(client, list, slice, offset, limit, undefined, action);
		const head = await read(0, END_PAGE_SIZE);
		const inHead = find(head.items);
		if (inHead) return inHead;
		if (head.items.length < END_PAGE_SIZE) continue;
		// The other end, when Vantage gives the total; then what lies between.
		let stop = Infinity;
		if (head.total !== undefined) {
			if (head.total <= head.items.length) continue;
			stop = Math.max(head.items.length, head.total - END_PAGE_SIZE);
			const inTail = find((await read(stop, END_PAGE_SIZE)).items);
			if (inTail) return inTail;
		}
		for (
			let page = 0, offset = head.items.length;
			offset < stop && page < MAX_PAGES_PER_SLICE;
			page++
		) {
			const limit = Math.min(LIST_PAGE_SIZE, stop - offset);
			const { items } = await read(offset, limit);
			const found = find(items);
			if (found) return found;
			offset += items.length;
			if (items.length < limit) break;
		}
	}
	return undefined;
}
