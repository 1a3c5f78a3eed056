import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import type { VantageClient } from '../../AbbyyVantage/transport';
import { readCursor, timeOf, type TriggerEvent } from '../cursor';

/** What each event of the trigger provides. */
export interface EventDefinition {
	/** The Event option's value. */
	value: string;
	properties: INodeProperties[];
	poll: (ctx: IPollFunctions, client: VantageClient) => Promise<INodeExecutionData[][] | null>;
}

/** Look Back and Start From, shared by the events. */
const windowOptions: INodeProperties[] = [
	{
		displayName: 'Look Back (Hours)',
		name: 'lookBackHours',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 24 * 31 },
		default: 48,
		description:
			'Vantage lists by creation time: events of things created this long before a poll are found. Set it longer than processing plus manual review take.',
	},
	{
		displayName: 'Start From',
		name: 'startFrom',
		type: 'dateTime',
		default: '',
		description:
			'On first activation, emit events of things created since this time instead of starting from now',
	},
];

export interface Window {
	/** Creation-time floor of the list request (ms). */
	start: number;
	/** First poll of this cursor: mark what is there as seen instead of emitting it. */
	baseline: boolean;
}

const HOUR_MS = 3600_000;

/** An event's Options collection (Look Back, Start From), shown for that event only. */
export function eventOptionsProperty(event: string): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: windowOptions,
		displayOptions: { show: { event: [event] } },
	};
}

/** The creation-time window of this poll of `event`. */
export function windowOf(ctx: IPollFunctions, event: string): Window {
	const hasCursor = !!readCursor(ctx, event);
	const value = ctx.getNodeParameter('options', {});
	const options = value && typeof value === 'object' ? (value as IDataObject) : {};
	const hours = Number(options.lookBackHours ?? 48);
	const lookBack = (Number.isFinite(hours) && hours >= 1 ? hours : 48) * HOUR_MS;
	const now = Date.now();
	const startFrom =
		typeof options.startFrom === 'string' && options.startFrom
			? Date.parse(options.startFrom)
			: NaN;
	if (!hasCursor && Number.isFinite(startFrom))
		return { start: Math.min(startFrom, now), baseline: false };
	return { start: now - lookBack, baseline: !hasCursor && ctx.getMode() !== 'manual' };
}

/** A listed item as an event: its id and creation time. */
export interface ListedEvent extends TriggerEvent {
	item: IDataObject;
}

/** Transactions from GetActiveTransactions or GetCompletedTransactions as events. */
export function transactionEvents(listed: IDataObject[]): ListedEvent[] {
	return listed
		.filter((item) => typeof item.transactionId === 'string')
		.map((item) => ({
			id: item.transactionId as string,
			time: timeOf(item.createTimeUtc, item.createdUtc),
			item,
		}));
}
