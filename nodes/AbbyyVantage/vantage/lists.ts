import type { IDataObject } from 'n8n-workflow';

import { LIST_PAGE_SIZE } from '../constants';
import type { KeyValue } from './transactions';
import { endpoints, type VantageClient } from '../transport';

export type TransactionList = 'active' | 'completed';

export interface ListFilters {
	skillId?: string;
	skillVersion?: number;
	startDate?: string;
	endDate?: string;
	/** Completed list: Processed, Cancelled or Failed (the filter spells it "Cancelled"). */
	transactionStatus?: string;
	/** Active list: ManualReview, CustomActivity or Automatic. */
	stageType?: string;
	/** Active list: the stage's name in the skill. */
	stageName?: string;
	transactionParameters?: KeyValue[];
	documentParameters?: KeyValue[];
}

/** The query of a list request; lists of key/values in ASP.NET's binding form (inferred). */
export function listQuery(filters: ListFilters, offset: number, limit: number): IDataObject {
	const qs: IDataObject = { Offset: offset, Limit: limit };
	if (filters.skillId) qs.SkillId = filters.skillId;
	if (filters.skillVersion !== undefined) qs.SkillVersion = filters.skillVersion;
	if (filters.startDate) qs.StartDate = filters.startDate;
	if (filters.endDate) qs.EndDate = filters.endDate;
	if (filters.transactionStatus) qs.TransactionStatus = filters.transactionStatus;
	if (filters.stageType) qs.StageType = filters.stageType;
	if (filters.stageName) qs.StageName = filters.stageName;
	for (const [name, list] of [
		['TransactionParameters', filters.transactionParameters],
		['DocumentParameters', filters.documentParameters],
	] as const) {
		(list ?? []).forEach((p, i) => {
			qs[`${name}[${i}].Key`] = p.key;
			qs[`${name}[${i}].Value`] = p.value;
		});
	}
	return qs;
}

/** One list entry with its id under a stable name: `transactionId` (the shape is not declared). */
export function normalizeListItem(item: IDataObject): IDataObject {
	const id = item.transactionId ?? item.id;
	return { ...item, transactionId: typeof id === 'string' ? id : null };
}

/** One page of a transaction list: its entries (ids under `transactionId`) and the list's total. */
export interface ListPage {
	items: IDataObject[];
	/** `totalItemCount`, when Vantage gives it. */
	total: number | undefined;
}

/**
 * GetActiveTransactions or GetCompletedTransactions: the page of `list` from `offset`, at most
 * `limit` entries. `action` says what for, in errors.
 */
export async function readListPage(
	client: VantageClient,
	list: TransactionList,
	filters: ListFilters,
	offset: number,
	limit: number,
	itemIndex?: number,
	action = `listing ${list} transactions (from ${offset})`,
): Promise<ListPage> {
	const page = await client.request<IDataObject | undefined>({
		...(list === 'active'
			? endpoints.getActiveTransactions()
			: endpoints.getCompletedTransactions()),
		qs: listQuery(filters, offset, limit),
		itemIndex,
		action,
		hints: { 400: 'Check the filters: End Date must be after Start Date.' },
	});
	const items = Array.isArray(page?.items) ? (page.items as IDataObject[]) : [];
	return {
		items: items.map(normalizeListItem),
		total: typeof page?.totalItemCount === 'number' ? page.totalItemCount : undefined,
	};
}

/**
 * Transactions of a list, page by page (offset paging; the API has no cursor), until `limit`
 * entries, a short page, or `totalItemCount` is reached.
 */
export async function listTransactions(
	client: VantageClient,
	list: TransactionList,
	filters: ListFilters,
	limit: number | undefined,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	for (let offset = 0; ; ) {
		const pageSize = Math.min(
			LIST_PAGE_SIZE,
			limit === undefined ? LIST_PAGE_SIZE : limit - out.length,
		);
		if (pageSize <= 0) break;
		const { items, total } = await readListPage(client, list, filters, offset, pageSize, itemIndex);
		out.push(...items);
		offset += items.length;
		if (items.length < pageSize || (total !== undefined && offset >= total)) break;
	}
	return out;
}
