import type {
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_POLL_INTERVAL_SECONDS } from '../AbbyyVantage/constants';
import { plainMessage } from '../AbbyyVantage/helpers/errors';
import { requireSeconds } from '../AbbyyVantage/helpers/validation';
import { readTriggerResultOptions } from '../AbbyyVantage/params/resultOptions';
import { readSkillFilter } from '../AbbyyVantage/params/skill';
import { readEventStates } from '../AbbyyVantage/params/transactionEvents';
import { pollOptions, WAIT_OPTION_NAMES, type PollDefaults } from '../AbbyyVantage/params/wait';
import { VantageClient } from '../AbbyyVantage/transport';
import { deliveriesOf, deliveryKey, type DeliveryState } from '../AbbyyVantage/vantage/deliveries';
import {
	confirm,
	type Claim,
	type Confirmation,
	type DeliverySettings,
} from '../AbbyyVantage/vantage/confirmation';
import { answerPush, checkPushedRequest } from '../AbbyyVantage/vantage/eventSecret';
import type { PushedEvent } from '../AbbyyVantage/vantage/pushedEvents';

/** The wait for Vantage to show the pushed transaction's state: a check at once, then backing off. */
const CONFIRMATION_POLL: PollDefaults = {
	intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS,
	maxIntervalSeconds: 30,
	timeoutSeconds: 600,
	timeoutDescription:
		'How long to wait, after a push, for Vantage to show the transaction completed or waiting for review (at most an hour). When it does not, no execution starts and n8n logs why.',
};

/** The longest Wait Timeout: n8n holds the request's work (not its answer) this long at most. */
const MAX_CONFIRMATION_SECONDS = 3600;

/** The Options collection: the confirmation's wait. */
export const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: pollOptions(CONFIRMATION_POLL).map((option) =>
		option.name === 'timeout'
			? { ...option, typeOptions: { ...option.typeOptions, maxValue: MAX_CONFIRMATION_SECONDS } }
			: option,
	),
};

/** What the node's parameters say to deliver. */
function readSettings(ctx: IWebhookFunctions): DeliverySettings {
	const states = readEventStates(ctx, ctx.getNodeParameter('events', ['transactionCompleted']));
	const skillId = readSkillFilter(
		ctx,
		undefined,
		ctx.getNodeParameter('skillId', '', { extractValue: true }),
	);
	const includeResults =
		states.includes('completed') && ctx.getNodeParameter('includeResults', false) === true;
	const value = ctx.getNodeParameter('options', {});
	const options = value && typeof value === 'object' ? (value as IDataObject) : {};
	const seconds = (name: keyof typeof WAIT_OPTION_NAMES, fallback: number, max: number) =>
		requireSeconds(ctx, undefined, WAIT_OPTION_NAMES[name], options[name] ?? fallback, 1, max);
	const intervalMs = seconds('pollInterval', CONFIRMATION_POLL.intervalSeconds, 3600);
	const maxIntervalMs = seconds('maxPollInterval', CONFIRMATION_POLL.maxIntervalSeconds, 3600);
	return {
		states,
		skillId,
		// Include Results shapes results as the ABBYY Vantage Trigger does (its Needs Review and text too).
		results: includeResults ? readTriggerResultOptions(ctx) : false,
		poll: {
			intervalMs,
			maxIntervalMs: Math.max(intervalMs, maxIntervalMs),
			timeoutMs: seconds('timeout', CONFIRMATION_POLL.timeoutSeconds, MAX_CONFIRMATION_SECONDS),
		},
	};
}

/** What a push answers and why, for n8n's log (never a secret or a signature). */
function describe(event: PushedEvent): string {
	return `event ${event.eventId} (transaction ${event.transactionId})`;
}

/**
 * Receive one pushed event (docs/instant-trigger.md): check it, answer at once (202, or the
 * refusal's status), then confirm it through the Vantage API (../AbbyyVantage/vantage/confirmation.ts) and start the execution. Every
 * answer is sent here through n8n's response object; n8n sends none of its own
 * (`noWebhookResponse`). Only a confirmed event returns `workflowData`: one execution, whose items
 * are the ABBYY Vantage Trigger's for that state. Nothing is thrown: n8n would start a failed
 * execution for a webhook that throws.
 */
export async function receive(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const answer = (status: number, body: IDataObject): IWebhookResponseData =>
		answerPush(ctx, status, body);
	const node = ctx.getNode().name;
	const verdict = await checkPushedRequest(ctx);
	if (!verdict.ok) {
		ctx.logger.info(`${node}: refused a push with ${verdict.status}: ${verdict.reason}`);
		return answer(verdict.status, { status: 'refused', message: verdict.reason });
	}
	const event = verdict.event;

	let settings: DeliverySettings;
	try {
		settings = readSettings(ctx);
	} catch (error) {
		ctx.logger.error(`${node}: cannot take ${describe(event)}: ${plainMessage(error)}`);
		return answer(500, {
			status: 'error',
			message: 'The trigger’s parameters are not valid; n8n’s log says which',
		});
	}

	// Exactly once: the state the push announces is checked and claimed in the workflow's
	// registry with no await in between (see ../AbbyyVantage/vantage/deliveries.ts). A test
	// event ("Listen for test event") is delivered without it, as Fetch Test Event leaves the
	// polling trigger's cursor alone.
	const workflowId = ctx.getWorkflow().id;
	const registry =
		ctx.getMode() !== 'manual' && workflowId ? deliveriesOf(String(workflowId)) : undefined;
	const global = registry ? ctx.getWorkflowStaticData('global') : undefined;
	const announced: DeliveryState =
		event.event === 'transaction.manualReview' ? 'review' : 'completed';
	let held = deliveryKey(announced, event.transactionId);
	if (registry && global) {
		registry.load(global);
		// A review announced after completion was delivered comes too late.
		const later = announced === 'review' ? [deliveryKey('completed', event.transactionId)] : [];
		const refusal = registry.admit(event.eventId, held, later, Date.now());
		if (refusal) {
			ctx.logger.info(`${node}: ${describe(event)} was delivered before (${refusal})`);
			return answer(409, {
				status: 'duplicate',
				message:
					refusal === 'replayed'
						? 'This event was received before'
						: 'This transaction’s state is delivered, or being delivered, by another event',
			});
		}
	}
	answer(202, { status: 'accepted', eventId: event.eventId });

	const claim: Claim = {
		hold(state) {
			const key = deliveryKey(state, event.transactionId);
			if (key === held) return true;
			if (registry && !registry.claim(key, Date.now())) return false;
			registry?.release(held);
			held = key;
			return true;
		},
	};
	let outcome: Confirmation;
	try {
		outcome = await confirm(ctx, new VantageClient(ctx), event, settings, claim);
	} catch (error) {
		// The transport's messages carry no credential secret (it redacts them).
		outcome = { delivered: false, reason: plainMessage(error) };
	}
	if (registry && global) {
		if (outcome.delivered) registry.deliver(held, Date.now());
		else registry.release(held);
		registry.store(global, Date.now());
	}
	if (!outcome.delivered) {
		ctx.logger.warn(`${node}: ${describe(event)} starts no execution: ${outcome.reason}`);
		return { noWebhookResponse: true };
	}
	return { noWebhookResponse: true, workflowData: [outcome.items] };
}
