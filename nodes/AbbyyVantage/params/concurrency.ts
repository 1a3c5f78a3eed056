import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireInteger } from '../helpers/validation';
import { AUTO_LIMITS } from '../transport/limiter';
import type { VantageClient } from '../transport';
import { readCollection } from './collections';

export interface ConcurrencyLimits {
	/** The highest number a user may pin. */
	max: number;
	/** What runs at the same time, plural ("exports", "delete requests"). */
	what: string;
	/**
	 * Under Auto, how many of them are handled at once (items waiting, batches queued); the
	 * adaptive limiter still bounds the requests in flight. Default: the limiter's ceiling.
	 */
	autoTasks?: number;
}

const PINNED = [1, 2, 4, 8, 16, 32, 64, 100];

/**
 * An operation's "Concurrency" option: Auto (default) adapts to how Vantage answers; a number
 * pins how many requests are in flight.
 */
export function concurrencyOption(limits: ConcurrencyLimits): INodeProperties {
	const { max, what } = limits;
	return {
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'options',
		options: [
			{
				name: 'Auto',
				value: 'auto',
				description: `Start with ${AUTO_LIMITS.initial} at a time, grow to ${AUTO_LIMITS.max} while Vantage answers promptly, back off when it limits the rate`,
			},
			...PINNED.filter((n) => n <= max).map((n) => ({ name: String(n), value: n })),
		],
		default: 'auto',
		description: `How many ${what} to handle at the same time. An expression may give any number from 1 to ${max}.`,
	};
}

/**
 * Read once per execution, from the first item (it shapes the whole run), and applied to the
 * client: returns how many tasks the operation runs at once.
 */
export function readConcurrency(
	ctx: IExecuteFunctions,
	options: IDataObject,
	limits: ConcurrencyLimits,
	client: VantageClient,
): number {
	const value = options.concurrency ?? 'auto';
	if (value === 'auto') {
		client.useConcurrency('auto');
		return limits.autoTasks ?? AUTO_LIMITS.max;
	}
	const pinned = requireInteger(ctx, 0, 'Concurrency', value, 1, limits.max);
	client.useConcurrency(pinned);
	return pinned;
}

/** Per-item operations: one or two requests per input item. */
export const ITEM_CONCURRENCY: ConcurrencyLimits = { max: 32, what: 'items' };

/** An Options collection holding only Concurrency, for operations without other options. */
export function concurrencyOnlyOptions(
	limits: ConcurrencyLimits = ITEM_CONCURRENCY,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [concurrencyOption(limits)],
	};
}

/**
 * The Concurrency of this run, from the first item's Options (it shapes the whole run), applied
 * to the client: how many tasks the operation runs at once.
 */
export function readRunConcurrency(
	ctx: IExecuteFunctions,
	limits: ConcurrencyLimits,
	client: VantageClient,
): number {
	return readConcurrency(ctx, readCollection(ctx, 0, 'options'), limits, client);
}
