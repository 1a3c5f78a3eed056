import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import type { VantageClient } from '../../AbbyyVantage/transport';

/** What each event of the trigger provides. */
export interface EventDefinition {
	/** The Event option's value. */
	value: string;
	properties: INodeProperties[];
	poll: (ctx: IPollFunctions, client: VantageClient) => Promise<INodeExecutionData[][] | null>;
}

/** Look Back and Start From, shared by the events. */
export const windowOptions: INodeProperties[] = [
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

/** The creation-time window of this poll. */
export function windowOf(ctx: IPollFunctions, hasCursor: boolean, options: IDataObject): Window {
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
