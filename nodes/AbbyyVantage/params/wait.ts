import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DAY_SECONDS, MAX_WAIT_SECONDS, POLL_GROWTH, SECOND_MS } from '../constants';
import type { PollSettings } from '../helpers/polling';
import { requireSeconds } from '../helpers/validation';

export interface PollDefaults {
	intervalSeconds: number;
	maxIntervalSeconds: number;
	timeoutSeconds: number;
	/** The Timeout option's description: what happens when the wait gives up. */
	timeoutDescription: string;
}

/** How the pauses between status checks grow, for the wait options' descriptions. */
export const POLL_GROWTH_TEXT = `later pauses grow to ${POLL_GROWTH * 100} % of the time waited so far`;

/**
 * The wait settings, for an options collection: named "Wait …" so that, sorted as n8n lists
 * options, they stand together, in the order they apply, and apart from Request Options' Request
 * Timeout. Only the display names changed; `pollInterval`, `maxPollInterval` and `timeout` are
 * what saved workflows hold.
 */
export const WAIT_OPTION_NAMES = {
	pollInterval: 'Wait Interval',
	maxPollInterval: 'Wait Interval Limit',
	timeout: 'Wait Timeout',
} as const;

/** Wait Interval, Wait Interval Limit and Wait Timeout, for an options collection. */
export function pollOptions(defaults: PollDefaults): INodeProperties[] {
	const { intervalSeconds, maxIntervalSeconds, timeoutSeconds, timeoutDescription } = defaults;
	return [
		{
			displayName: `${WAIT_OPTION_NAMES.maxPollInterval} (Seconds)`,
			name: 'maxPollInterval',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: maxIntervalSeconds,
			description: `The longest pause between two status checks: ${POLL_GROWTH_TEXT} up to this, so a long job is noticed at most that share of its duration late`,
		},
		{
			displayName: `${WAIT_OPTION_NAMES.pollInterval} (Seconds)`,
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: intervalSeconds,
			description: `The wait between the first status checks, and the shortest (Vantage asks for at most one check a second); ${POLL_GROWTH_TEXT}, up to ${WAIT_OPTION_NAMES.maxPollInterval}`,
		},
		{
			displayName: `${WAIT_OPTION_NAMES.timeout} (Seconds)`,
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: timeoutSeconds,
			description: timeoutDescription,
		},
	];
}

/** The poll options of one item, with the same defaults the parameters show. */
export function readPollSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	defaults: PollDefaults,
): PollSettings {
	const intervalMs = requireSeconds(
		ctx,
		itemIndex,
		WAIT_OPTION_NAMES.pollInterval,
		options.pollInterval ?? defaults.intervalSeconds,
		1,
		DAY_SECONDS,
	);
	const maxIntervalMs = requireSeconds(
		ctx,
		itemIndex,
		WAIT_OPTION_NAMES.maxPollInterval,
		options.maxPollInterval ?? defaults.maxIntervalSeconds,
		1,
		DAY_SECONDS,
	);
	const timeoutMs = requireSeconds(
		ctx,
		itemIndex,
		WAIT_OPTION_NAMES.timeout,
		options.timeout ?? defaults.timeoutSeconds,
		1,
		MAX_WAIT_SECONDS,
	);
	return { intervalMs, maxIntervalMs: Math.max(intervalMs, maxIntervalMs), timeoutMs };
}

/** Poll settings from the defaults alone (a wait that has no options of its own). */
export function defaultPollSettings(defaults: PollDefaults): PollSettings {
	return {
		intervalMs: defaults.intervalSeconds * SECOND_MS,
		maxIntervalMs: defaults.maxIntervalSeconds * SECOND_MS,
		timeoutMs: defaults.timeoutSeconds * SECOND_MS,
	};
}
