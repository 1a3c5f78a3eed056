import type { IDataObject } from 'n8n-workflow';

import { LISTED_IDS } from '../../constants';

/** An item whose record ID was dropped as a duplicate, and the item whose occurrence was kept. */
export interface Duplicate extends IDataObject {
	item: number;
	id: string;
	keptItem: number | null;
}

/**
 * `duplicatesRemoved` of Add, Sync and Delete, one shape: `count`, the occurrences dropped (each
 * ID still goes to Vantage once); `ids`, the IDs that came more than once; `items`, the items whose
 * occurrence was dropped, each with the item whose occurrence was kept. Lists hold the first
 * LISTED_IDS, by ID and by item; the count is complete.
 */
export function duplicatesRemoved(
	count: number,
	ids: Iterable<string>,
	items: Duplicate[],
): IDataObject {
	return {
		count,
		ids: [...new Set(ids)].sort().slice(0, LISTED_IDS),
		items: [...items].sort((a, b) => a.item - b.item).slice(0, LISTED_IDS),
	};
}
