import type { INodeProperties } from 'n8n-workflow';

import type { NodeContext } from '../helpers/errors';
import { invalid } from '../helpers/errors';
import { describeValue } from '../helpers/validation';
import type { DeliveryState } from '../vantage/deliveries';

/**
 * The two transaction events both triggers start workflows with: their names and descriptions
 * (the ABBYY Vantage Trigger's Event option, the Instant Trigger's Events), and the state each
 * delivers (./vantage/deliveries.ts).
 */
export const TRANSACTION_EVENTS = {
	manualReview: {
		name: 'Transaction Awaiting Manual Review',
		description: 'A transaction entered Manual Review; the item carries its review link',
		state: 'review',
	},
	transactionCompleted: {
		name: 'Transaction Completed',
		description: 'A transaction was processed, failed or was cancelled',
		state: 'completed',
	},
} as const satisfies Record<string, { name: string; description: string; state: DeliveryState }>;

export type TransactionEventName = keyof typeof TRANSACTION_EVENTS;

const NAMES = Object.keys(TRANSACTION_EVENTS) as TransactionEventName[];

/** The Events parameter: which transaction events start the workflow. */
export const transactionEventsProperty: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	options: NAMES.map((value) => ({
		name: TRANSACTION_EVENTS[value].name,
		value,
		description: TRANSACTION_EVENTS[value].description,
	})).sort((a, b) => a.name.localeCompare(b.name)),
	default: ['transactionCompleted'],
};

/** The states the chosen Events deliver; at least one. */
export function readEventStates(ctx: NodeContext, value: unknown): DeliveryState[] {
	const chosen = Array.isArray(value) ? value : [];
	const states: DeliveryState[] = [];
	for (const name of chosen) {
		if (typeof name !== 'string' || !(NAMES as string[]).includes(name)) {
			throw invalid(
				ctx,
				undefined,
				`Events must hold only ${NAMES.map((n) => `"${TRANSACTION_EVENTS[n].name}"`).join(' and ')}, not ${describeValue(name)}`,
			);
		}
		states.push(TRANSACTION_EVENTS[name as TransactionEventName].state);
	}
	if (!states.length) throw invalid(ctx, undefined, 'Events must hold at least one event');
	return states;
}
