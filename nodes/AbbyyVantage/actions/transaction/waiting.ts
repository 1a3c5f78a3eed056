import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { DEFAULT_POLL_INTERVAL_SECONDS } from '../../constants';
import { choiceOptions, choiceValues } from '../../helpers/choices';
import { requireOption } from '../../helpers/validation';
import { type PollDefaults } from '../../params/wait';
import type { OnManualReview } from '../../vantage/transactions';

/**
 * How Process Document and Wait For Transaction wait for a transaction: the defaults of their wait
 * options (../../params/wait.ts), and On Manual Review.
 */

export const TRANSACTION_POLL: PollDefaults = {
	intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS,
	maxIntervalSeconds: 30,
	timeoutSeconds: 600,
	timeoutDescription:
		'Give up waiting after this long; the transaction keeps processing and can be picked up with Wait For Transaction',
};

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
] as const satisfies ReadonlyArray<INodePropertyOptions & { value: OnManualReview }>;

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
): OnManualReview {
	return requireOption(
		ctx,
		itemIndex,
		'On Manual Review',
		options.onManualReview ?? 'wait',
		choiceValues(ON_MANUAL_REVIEW),
	);
}
