import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { DEFAULT_POLL_INTERVAL_SECONDS } from '../../constants';
import { choiceOptions, choiceValues } from '../../helpers/choices';
import { invalid } from '../../helpers/errors';
import { requireOption } from '../../helpers/validation';
import { type PollDefaults } from '../../params/wait';
import type { OnManualReview } from '../../vantage/transactions';

/**
 * How Process Document and Wait For Transaction wait for a transaction: the defaults of their wait
 * options (../../params/wait.ts), On Manual Review, and the Wait Limit of its durable choice
 * (./durableWait.ts, docs/process-documents.md#waiting-for-manual-review-without-holding-a-worker).
 */

export const TRANSACTION_POLL: PollDefaults = {
	intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS,
	maxIntervalSeconds: 30,
	timeoutSeconds: 600,
	timeoutDescription:
		'Give up waiting after this long; the transaction keeps processing and can be picked up with Wait For Transaction',
};

/**
 * On Manual Review: wait in memory, stop and output the link, or put the execution to waiting in
 * n8n's database until the Custom-activity script reports the review done (`resume`).
 */
export type ManualReviewChoice = OnManualReview | 'resume';

const ON_MANUAL_REVIEW = [
	{
		name: 'Keep Waiting',
		value: 'wait',
		description: 'Wait until an operator has reviewed the transaction (within Wait Timeout)',
	},
	{
		name: 'Output the Link and Stop Waiting',
		value: 'output',
		description:
			'Output the manual review link and the transaction ID; pick the transaction up later with Wait For Transaction',
	},
	{
		name: 'Resume When Vantage Pushes (No Worker Held)',
		value: 'resume',
		description:
			'The execution waits in n8n’s database, holding no worker and surviving restarts, until the Custom-activity script reports the review done; then the node outputs what Keep Waiting would. Needs the script in the skill and the ABBYY Vantage Event Secret credential.',
	},
] as const satisfies ReadonlyArray<INodePropertyOptions & { value: ManualReviewChoice }>;

export const onManualReviewOption: INodeProperties = {
	displayName: 'On Manual Review',
	name: 'onManualReview',
	type: 'options',
	options: choiceOptions(ON_MANUAL_REVIEW),
	default: 'wait',
	description: 'What to do when a transaction waits for an operator in Manual Review',
};

export function readOnManualReview(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): ManualReviewChoice {
	return requireOption(
		ctx,
		itemIndex,
		'On Manual Review',
		options.onManualReview ?? 'wait',
		choiceValues(ON_MANUAL_REVIEW),
	);
}

/** The Wait Limit's bounds, in hours: 36 s at least; a year at most. */
const WAIT_LIMIT = { defaultHours: 168, minHours: 0.01, maxHours: 8760 };

const HOUR_MS = 3600_000;

/**
 * Wait Limit: how long a durable wait lasts at most. The default is how long Vantage's review link
 * is valid (168 h, TransactionDto `manualReviewLink`).
 */
export const waitLimitOption: INodeProperties = {
	displayName: 'Wait Limit (Hours)',
	name: 'waitLimitHours',
	type: 'number',
	typeOptions: {
		minValue: WAIT_LIMIT.minHours,
		maxValue: WAIT_LIMIT.maxHours,
		numberPrecision: 2,
	},
	default: 168,
	description:
		'How long the execution waits for Vantage at most (168 h: as long as a review link is valid). When it ends first, n8n continues without reading anything: each transaction comes out as it was when the wait began, with "waitLimitReached": true; send those to Wait For Transaction to read them again or wait longer.',
	displayOptions: { show: { onManualReview: ['resume'] } },
};

/** Wait Limit of item `itemIndex`, in milliseconds. */
export function readWaitLimitMs(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): number {
	const value = options.waitLimitHours ?? WAIT_LIMIT.defaultHours;
	const hours = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (
		typeof hours !== 'number' ||
		!Number.isFinite(hours) ||
		hours < WAIT_LIMIT.minHours ||
		hours > WAIT_LIMIT.maxHours
	) {
		throw invalid(
			ctx,
			itemIndex,
			`Wait Limit must be a number of hours between ${WAIT_LIMIT.minHours} and ${WAIT_LIMIT.maxHours}, not ${JSON.stringify(value)}`,
		);
	}
	return Math.round(hours * HOUR_MS);
}
