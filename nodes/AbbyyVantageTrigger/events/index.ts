import type { INodeProperties } from 'n8n-workflow';

import type { EventDefinition } from './common';
import { exportFinished } from './exportFinished';
import { manualReview } from './manualReview';
import { transactionCompleted } from './transactionCompleted';

/** Every event of the trigger, by the Event option's value: the one list the node is built from. */
export const EVENTS = {
	exportFinished,
	manualReview,
	transactionCompleted,
} satisfies Record<string, EventDefinition>;

export type EventName = keyof typeof EVENTS;

const DEFAULT_EVENT: EventName = 'transactionCompleted';

export function isEventName(value: unknown): value is EventName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(EVENTS, value);
}

const entries = Object.entries(EVENTS) as Array<[EventName, EventDefinition]>;

/** The Event parameter, then each event's parameters, shown only while that event is chosen. */
export const eventProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: entries
			.map(([value, { name, description }]) => ({ name, value, description }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: DEFAULT_EVENT,
	},
	...entries.flatMap(([value, event]) =>
		event.properties.map((property) => ({
			...property,
			displayOptions: {
				...property.displayOptions,
				show: { ...property.displayOptions?.show, event: [value] },
			},
		})),
	),
];
