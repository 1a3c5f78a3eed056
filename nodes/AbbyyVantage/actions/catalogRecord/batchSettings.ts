import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MAX_RECORDS_PER_REQUEST } from '../../constants';
import { requireInteger } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { readConcurrency } from '../../params/concurrency';
import { readCollection } from '../../params/collections';

/** How Add, Sync and Delete batch their requests: read once per execution, from item 0. */

/** The Batch Size option of every operation that writes records or deletes IDs. */
export function batchSizeOption(what: 'Records' | 'IDs'): INodeProperties {
	return {
		displayName: 'Batch Size',
		name: 'batchSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_RECORDS_PER_REQUEST },
		default: MAX_RECORDS_PER_REQUEST,
		description: `${what} per request (1–${MAX_RECORDS_PER_REQUEST}, the most Vantage accepts)`,
	};
}

/** Read once per execution (item 0). */
export function readBatchSize(ctx: IExecuteFunctions, options: IDataObject): number {
	return options.batchSize === undefined
		? MAX_RECORDS_PER_REQUEST
		: requireInteger(ctx, 0, 'Batch Size', options.batchSize, 1, MAX_RECORDS_PER_REQUEST);
}

/** Add and Sync: how many write requests are in flight at once. */
export const WRITE_CONCURRENCY = { max: 16, what: 'requests' };

/** Read once per execution (item 0): they shape the whole run. */
export function readWriteSettings(ctx: IExecuteFunctions, client: VantageClient) {
	const options = readCollection(ctx, 0, 'options');
	return {
		batchSize: readBatchSize(ctx, options),
		concurrency: readConcurrency(ctx, options, WRITE_CONCURRENCY, client),
		ignoreUnknownFields: options.ignoreUnknownFields === true,
		options,
	};
}
