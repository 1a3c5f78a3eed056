import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import { MAX_EVENTS_PER_POLL, MAX_RUNNING } from '../../AbbyyVantage/constants';
import { toUtcDateTime } from '../../AbbyyVantage/helpers/dates';
import { isBlank, requireInteger, requireOption } from '../../AbbyyVantage/helpers/validation';
import type { VantageClient } from '../../AbbyyVantage/transport';
import { readCursor, type OpenPoll, type TriggerEvent } from '../cursor';
import type { Output } from '../delivery';
import { safetyNetOptions } from '../safetyNet';

/** What a poll of an event is given besides n8n's context and the client. */
export interface PollStart {
	/** The event's name in the registry, which its cursor is stored under. */
	event: string;
	/** When the poll began (ms), which n8n's poll budget counts from. */
	startedAt: number;
}

/** One event of the trigger: the Event option it is, its parameters, and its poll. */
export interface EventDefinition {
	/** The Event option's name (Title Case). */
	name: string;
	/** The Event option's description. */
	description: string;
	/** This event's parameters; the registry shows them only while this event is chosen. */
	properties: INodeProperties[];
	poll: (
		ctx: IPollFunctions,
		client: VantageClient,
		start: PollStart,
	) => Promise<INodeExecutionData[][] | null>;
}

const OUTPUTS: Output[] = ['perEvent', 'perPoll'];

/**
 * The Output parameter of an event whose things are `noun` ("transaction"): an execution for each,
 * or one execution per poll with all of them as its items.
 */
export function outputProperty(noun: string, plural: string): INodeProperties {
	const title = `${noun[0].toUpperCase()}${noun.slice(1)}`;
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: `One Execution per ${title}`,
				value: 'perEvent',
				description: `Each ${noun} starts its own execution. In a burst at most ${MAX_RUNNING} of them run at a time; the next starts as one finishes.`,
			},
			{
				name: 'One Execution per Poll',
				value: 'perPoll',
				description: `The ${plural} a poll finds (up to ${MAX_EVENTS_PER_POLL}) start one execution together, as its items, as n8n's own polling triggers do: fewer executions, less memory, but one failure concerns all of them`,
			},
		].sort((a, b) => a.name.localeCompare(b.name)),
		default: 'perEvent',
	};
}

/** The Output of this trigger. */
export function readOutput(ctx: IPollFunctions): Output {
	return requireOption(
		ctx,
		undefined,
		'Output',
		ctx.getNodeParameter('output', 'perEvent'),
		OUTPUTS,
	);
}

/** Look Back: its default and bounds are read from here by `openPoll`. */
const lookBackOption = {
	displayName: 'Look Back (Hours)',
	name: 'lookBackHours',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 24 * 31, numberPrecision: 0 },
	default: 48,
	description:
		'Vantage lists by creation time: events of things created this long before a poll are found. Set it longer than processing plus manual review take.',
} satisfies INodeProperties;

const HOUR_MS = 3600_000;

const startFromOption: INodeProperties = {
	displayName: 'Start From',
	name: 'startFrom',
	type: 'dateTime',
	default: '',
	description:
		'On first activation, emit events of things created since this time instead of starting from now. Nothing created before it is emitted later either.',
};

/** The Options collection of every event: Look Back and Start From. */
export const windowOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [lookBackOption, startFromOption],
};

/**
 * The Options collection of the transaction events the ABBYY Vantage Instant Trigger delivers too:
 * Look Back, Start From and the Safety Net for the Instant Trigger (../safetyNet.ts).
 */
export const transactionOptionsProperty: INodeProperties = {
	...windowOptionsProperty,
	options: [lookBackOption, startFromOption, ...safetyNetOptions].sort((a, b) =>
		a.displayName.localeCompare(b.displayName),
	),
};

/** The Options collection's value (the poll context reads parameters without an item index). */
export function readOptions(ctx: IPollFunctions): IDataObject {
	const value = ctx.getNodeParameter('options', {});
	return value && typeof value === 'object' ? (value as IDataObject) : {};
}

/**
 * Open a poll of `start.event` listing with `filters`: its cursor and creation-time window. A
 * cursor of other filters does not count (after a filter change the trigger starts from now).
 */
export function openPoll(ctx: IPollFunctions, start: PollStart, filters: IDataObject): OpenPoll {
	const key = { event: start.event, filters };
	const cursor = readCursor(ctx, key);
	// readCollection of the action node takes an execute context.
	const options = readOptions(ctx);
	const hours = requireInteger(
		ctx,
		undefined,
		lookBackOption.displayName,
		options.lookBackHours ?? lookBackOption.default,
		lookBackOption.typeOptions.minValue,
		lookBackOption.typeOptions.maxValue,
	);
	const now = start.startedAt;
	// The date picker's wall-clock text is read in the workflow's time zone, as every date
	// parameter of the package is.
	const from = isBlank(options.startFrom)
		? -Infinity
		: Date.parse(toUtcDateTime(ctx, undefined, 'Start From', options.startFrom));
	// Start From stays the lower bound until Look Back has moved past it; the window never starts
	// after now (a list from a future time would be refused).
	const window = (): OpenPoll['window'] => {
		if (cursor) {
			const bound = Math.max(now - hours * HOUR_MS, cursor.floor ?? -Infinity, from);
			return { start: Math.min(bound, now), baseline: false };
		}
		if (Number.isFinite(from)) return { start: Math.min(from, now), baseline: false };
		return { start: now - hours * HOUR_MS, baseline: ctx.getMode() !== 'manual' };
	};
	return { key, startedAt: now, cursor, window: window() };
}

/** Time (ms) of an API value such as `createTimeUtc`; NaN when missing or unreadable. */
export function timeOf(...values: unknown[]): number {
	for (const value of values) {
		if (typeof value === 'string' && value) {
			const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
			if (Number.isFinite(ms)) return ms;
		}
	}
	return NaN;
}

/** A listed item as an event: its id, times and the item itself. */
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
			completedAt: timeOf(item.completedUtc),
			item,
		}));
}
