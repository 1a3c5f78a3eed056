import type { INodeExecutionData } from 'n8n-workflow';

import { MIN_POLL_INTERVAL_MS } from '../constants';
import { plainMessage } from '../helpers/errors';
import { nextPollDelay, type PollSettings } from '../helpers/polling';
import { describeDuration, pause } from '../helpers/time';
import { isWaitHiccup, type VantageClient } from '../transport';
import type { DeliveryState } from './deliveries';
import type { EventHint, PushedEvent } from './pushedEvents';
import type { ResultOptions, ResultsContext } from './results';
import {
	completedItems,
	completedResultItems,
	deliveryStateOf,
	findListEntry,
	reviewItems,
} from './transactionEvents';
import { Transactions, type TransactionInfo } from './transactions';

/**
 * A push is answered at once (202), then confirmed through the Vantage API: the script posts from
 * inside the transaction's flow, while the API still shows it Processing (stage CustomActivity),
 * so the receiver reads it, bounded, until it shows the state the push announced. The ABBYY
 * Vantage Instant Trigger confirms a delivery here (`confirm`); a waiting Process Document or Wait
 * For Transaction confirms that its transaction has finished (`watchTransaction`,
 * ../actions/transaction/resume.ts).
 */

/** How a watch ended: `step`'s value, a definite failure, or Vantage not showing it in time. */
export type Watched<T> =
	| { value: T }
	| { failed: string }
	| { timedOut: true; lastStatus?: string; waitedMs: number };

/**
 * Read transaction `transactionId` at once, then every interval of `poll` (the pauses growing to
 * its limit), for at most its timeout, until `step` returns a value for what Vantage shows. A 429,
 * a 5xx or a network failure does not end the watch; anything else (the transaction not found, the
 * credential refused) ends it as `failed`.
 */
export async function watchTransaction<T>(
	transactions: Transactions,
	transactionId: string,
	poll: PollSettings,
	step: (info: TransactionInfo) => Promise<T | undefined> | T | undefined,
): Promise<Watched<T>> {
	const began = Date.now();
	const deadline = began + poll.timeoutMs;
	let last: string | undefined;
	for (;;) {
		const read = await transactions.get(transactionId).then(
			(value) => ({ value }),
			(error: unknown) => ({ error }),
		);
		if ('error' in read && !isWaitHiccup(read.error)) return { failed: plainMessage(read.error) };
		const info = 'value' in read ? read.value : undefined;
		if (info) {
			last = info.status;
			const value = await step(info);
			if (value !== undefined) return { value };
		}
		const now = Date.now();
		if (now >= deadline) return { timedOut: true, lastStatus: last, waitedMs: now - began };
		await pause(
			Math.min(nextPollDelay(now - began, poll), Math.max(MIN_POLL_INTERVAL_MS, deadline - now)),
		);
	}
}

/** What the trigger delivers, read from the node's parameters. */
export interface DeliverySettings {
	/** The states the chosen Events deliver. */
	states: DeliveryState[];
	/** Skill: only transactions of this skill; undefined for any. */
	skillId?: string;
	/** Include Results (Transaction Completed): the result options to shape them with, or false. */
	results: ResultOptions | false;
	/** The wait for Vantage to show a delivered state. */
	poll: PollSettings;
}

/**
 * The claim on a transaction's state while it is confirmed (./AbbyyVantageInstantTrigger.node.ts
 * holds it in the workflow's registry): `hold` moves it to `state`, false when that state was
 * delivered or claimed by someone else.
 */
export interface Claim {
	hold(state: DeliveryState): boolean;
}

export type Confirmation =
	| { delivered: true; state: DeliveryState; items: INodeExecutionData[] }
	| { delivered: false; reason: string };

/** Searches of the lists one confirmation makes at most (each a few requests; Vantage's lists may lag). */
const MAX_SEARCHES = 3;

/**
 * The state `info` shows that a push with `hint` may deliver. A push sent after the Review step
 * (`transaction.processed`) waits for completion only: a review link the transaction still
 * carries then belongs to the review that is over.
 */
function stateFor(info: TransactionInfo, hint: EventHint): DeliveryState | undefined {
	const state = deliveryStateOf(info);
	return state === 'review' && hint === 'transaction.processed' ? undefined : state;
}

const STATE_NAMES: Record<DeliveryState, string> = {
	completed: 'completed',
	review: 'waiting for Manual Review',
};

/**
 * Confirm a pushed event through the Vantage API: read the transaction (at once, then every
 * Wait Interval, the pauses growing to Wait Interval Limit, for at most Wait Timeout) until it
 * shows a state the push may deliver; then find its list entry and build the item the ABBYY
 * Vantage Trigger would emit for that state. The body of the push is not read: only its
 * transaction id, and its event as a hint of which state to wait for.
 *
 * Not delivered (no execution): the state is not among Events, the transaction is of another
 * skill, the state was delivered already, or Vantage did not show it in time. A failure that is
 * not passing (the transaction not found, the credential refused) ends it too.
 */
export async function confirm(
	ctx: ResultsContext,
	client: VantageClient,
	event: PushedEvent,
	settings: DeliverySettings,
	claim: Claim,
): Promise<Confirmation> {
	const { transactionId } = event;
	let searches = 0;
	const watched = await watchTransaction<Confirmation>(
		new Transactions(ctx, client),
		transactionId,
		settings.poll,
		async (info) => {
			const state = stateFor(info, event.event);
			if (!state) return undefined;
			if (!settings.states.includes(state)) {
				return { delivered: false, reason: `it is ${STATE_NAMES[state]}, which Events leaves out` };
			}
			if (!claim.hold(state)) {
				return {
					delivered: false,
					reason: `it was delivered ${STATE_NAMES[state]} already, or another push is delivering it`,
				};
			}
			if (searches === MAX_SEARCHES) {
				return {
					delivered: false,
					reason: `Vantage showed it ${STATE_NAMES[state]}, but its list of ${state === 'review' ? 'transactions in Manual Review' : 'completed transactions'} did not, ${MAX_SEARCHES} times`,
				};
			}
			// The list entry makes the item. A list that lags the transaction is searched again at the
			// next check.
			searches++;
			const found = await entryOf(client, state, transactionId, settings.skillId);
			if (found === 'other skill') {
				return { delivered: false, reason: `it belongs to another skill than ${settings.skillId}` };
			}
			if (!found) return undefined;
			const items =
				state === 'review'
					? reviewItems(found, transactionId, info)
					: settings.results
						? await completedResultItems(ctx, client, info, found, settings.results)
						: completedItems(found);
			return { delivered: true, state, items };
		},
	);
	if ('value' in watched) return watched.value;
	if ('failed' in watched) return { delivered: false, reason: watched.failed };
	return {
		delivered: false,
		reason: `Vantage did not show it ${event.event === 'transaction.processed' ? STATE_NAMES.completed : `${STATE_NAMES.review} or ${STATE_NAMES.completed}`} within ${describeDuration(settings.poll.timeoutMs)} (last status: ${watched.lastStatus ?? 'unknown'})`,
	};
}

/**
 * The list entry of the transaction in `state`, 'other skill' when the Skill filter leaves it
 * out, or undefined when the list does not show it yet. The entry's `skillId` decides; an entry
 * without one is looked for again with the list's own SkillId filter.
 */
async function entryOf(
	client: VantageClient,
	state: DeliveryState,
	transactionId: string,
	skillId: string | undefined,
) {
	const now = Date.now();
	const entry = await findListEntry(client, state, transactionId, now);
	if (!entry || !skillId) return entry;
	if (typeof entry.skillId === 'string') {
		return entry.skillId.toLowerCase() === skillId.toLowerCase() ? entry : 'other skill';
	}
	return (await findListEntry(client, state, transactionId, now, { skillId })) ?? 'other skill';
}
