import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeCredentialDescription,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import { MAX_REMEMBERED } from '../AbbyyVantage/constants';
import { credentialDescriptions } from '../AbbyyVantage/params/authentication';
import { plainMessage } from '../AbbyyVantage/helpers/errors';
import { requireInteger } from '../AbbyyVantage/helpers/validation';
import { postToResumeUrl } from '../AbbyyVantage/transport/resumeUrl';
import { EVENT_SECRET, secretProblem, secretsOf } from '../AbbyyVantage/vantage/eventSecret';
import { resumeUrlOf, signedEvent } from '../AbbyyVantage/vantage/pushedEvents';
import {
	deliveriesOf,
	deliveryKey,
	knownDeliveriesOf,
	type Deliveries,
	type DeliveryState,
} from '../AbbyyVantage/vantage/deliveries';
import type { TriggerEvent } from './cursor';

/**
 * Safety Net for the Instant Trigger: this trigger, polling a transaction event in the workflow of
 * an ABBYY Vantage Instant Trigger, starts executions only for the transactions the push did not
 * deliver (n8n was unreachable, the confirmation failed), so each transaction's state starts one
 * execution in total. Both triggers share the workflow's record of deliveries
 * (../AbbyyVantage/vantage/deliveries.ts): a state delivered by a push is marked seen here without
 * an execution; one a push is confirming, or first found less than the grace period ago, waits
 * for the next poll; the rest are emitted and recorded as delivered, synchronously right before
 * their __emit (`admit`), so a push arriving later is answered 409.
 *
 * The grace period counts from the first poll that found the event (the cursor's `sightings`):
 * Vantage's lists carry no completion time, and a transaction's creation can lie days before it
 * completes.
 *
 * It also re-sends lost pushes to waiting executions: a completed transaction whose list entry
 * carries a resume URL (registration parameter n8nResumeUrl, set by Process Document or Wait For
 * Transaction with On Manual Review → Resume When Vantage Pushes) gets the script's event again,
 * signed with this trigger's Event Secret credential, when the safety net settles it (delivered by
 * a push, or due). Re-sending is harmless: a finished execution answers 409, one that waits for
 * other transactions too stays waiting. Only to this n8n's own address (no request to an address a
 * registration parameter names elsewhere), once per transaction in this n8n process.
 */

const graceOption = {
	displayName: 'Grace Period (Minutes)',
	name: 'gracePeriodMinutes',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 1440, numberPrecision: 0 },
	default: 10,
	description:
		'How long after a poll first finds a transaction this trigger leaves it to the Instant Trigger, whose push may still arrive, before starting an execution for it itself',
	displayOptions: { show: { safetyNet: [true] } },
} satisfies INodeProperties;

/** The options of Transaction Completed and Transaction Awaiting Manual Review that make the safety net. */
export const safetyNetOptions: INodeProperties[] = [
	graceOption,
	{
		displayName: 'Safety Net for the Instant Trigger',
		name: 'safetyNet',
		type: 'boolean',
		default: false,
		description:
			'Whether to start executions only for transactions the ABBYY Vantage Instant Trigger of this workflow did not deliver (pushes that could not reach n8n), each once in total; for Transaction Completed, also to re-send their push to executions waiting for them (Resume When Vantage Pushes; needs the Event Secret credential). Poll rarely, for example every 15 minutes.',
	},
];

/**
 * The Event Secret credential the re-sends are signed with: optional, shown for Transaction
 * Completed (the event whose safety net re-sends).
 */
const resendCredential: INodeCredentialDescription = {
	name: EVENT_SECRET,
	required: false,
	displayOptions: { show: { event: ['transactionCompleted'] } },
};

/** The trigger's credentials: the two sign-ins, and the Event Secret its re-sends are signed with. */
export const triggerCredentialDescriptions: INodeCredentialDescription[] = [
	...credentialDescriptions,
	resendCredential,
];

/** Transactions whose push this n8n process has re-sent: each once (bounded). */
const resent = new Map<string, number>();

/** Forget the oldest re-sends beyond the bound (insertion order is age order). */
function remember(transactionId: string, now: number): void {
	resent.set(transactionId, now);
	while (resent.size > MAX_REMEMBERED) resent.delete(resent.keys().next().value!);
}

/** What the safety net options say. */
export interface SafetyNetSettings {
	/** The state this event delivers. */
	state: DeliveryState;
	/** Grace Period in ms. */
	graceMs: number;
}

/** The safety net's settings from the Options collection, or undefined when it is off. */
export function readSafetyNet(
	ctx: IPollFunctions,
	options: IDataObject,
	state: DeliveryState,
): SafetyNetSettings | undefined {
	if (options.safetyNet !== true) return undefined;
	const minutes = requireInteger(
		ctx,
		undefined,
		graceOption.displayName,
		options.gracePeriodMinutes ?? graceOption.default,
		graceOption.typeOptions.minValue,
		graceOption.typeOptions.maxValue,
	);
	return { state, graceMs: minutes * 60_000 };
}

/** What the safety net does with an event right before its __emit. */
export type Admission = 'emit' | 'delivered' | 'pending';

/** A poll's fresh events, as the safety net sorts them. */
export interface Screened<E extends TriggerEvent> {
	/** Delivered by the Instant Trigger (or too old for the record to tell): marked seen, not emitted. */
	passed: E[];
	/** Not delivered, past the grace period: to build and emit, oldest first. */
	due: E[];
	/** When a poll first found each event left unseen (ms): the cursor keeps them. */
	sightings: Record<string, number>;
}

/** The workflow's id, which its registry of deliveries is kept under. */
function workflowOf(ctx: IPollFunctions): string {
	return String(ctx.getWorkflow().id ?? '');
}

/** The safety net of one poll in trigger mode (Fetch Test Event leaves the registry alone). */
export class SafetyNet {
	private readonly registry: Deliveries;

	constructor(
		private readonly ctx: IPollFunctions,
		private readonly settings: SafetyNetSettings,
	) {
		this.registry = deliveriesOf(workflowOf(ctx));
		// After a restart the registry starts from the durable copy.
		this.registry.load(ctx.getWorkflowStaticData('global'));
	}

	/**
	 * Whether the Instant Trigger delivered `e`'s state, or is confirming it. A review comes too
	 * late once the completion was delivered (the Instant Trigger refuses it the same way).
	 */
	private status(e: TriggerEvent): 'delivered' | 'pending' | undefined {
		const { state } = this.settings;
		const status = this.registry.status(deliveryKey(state, e.id));
		if (status || state !== 'review') return status;
		return this.registry.status(deliveryKey('completed', e.id)) === 'delivered'
			? 'delivered'
			: undefined;
	}

	/**
	 * Sort the poll's `fresh` events (oldest first): delivered by a push → passed; a push
	 * confirming it, or first found less than the grace period ago → left unseen; created before the
	 * record's floor (deliveries were forgotten at its cap: it cannot tell) → passed, and logged;
	 * the rest are due. `previous` are the cursor's sightings, `now` the poll's start.
	 */
	screen<E extends TriggerEvent>(
		fresh: E[],
		previous: Record<string, number> | undefined,
		now: number,
	): Screened<E> {
		const { graceMs } = this.settings;
		const floor = this.registry.floor;
		const screened: Screened<E> = { passed: [], due: [], sightings: {} };
		const untold: string[] = [];
		let sighted = 0;
		for (const e of fresh) {
			const status = this.status(e);
			if (status === 'delivered') {
				screened.passed.push(e);
				continue;
			}
			if (!status && floor !== undefined && e.time <= floor) {
				screened.passed.push(e);
				untold.push(e.id);
				continue;
			}
			const seenBefore = previous?.[e.id];
			// A sighting from the future (a clock set back) counts from now.
			const first =
				typeof seenBefore === 'number' && Number.isFinite(seenBefore)
					? Math.min(seenBefore, now)
					: now;
			if (!status && now - first >= graceMs) screened.due.push(e);
			// Bounded as the cursor's ids are; one beyond the bound starts its grace period again.
			if (graceMs > 0 && sighted++ < MAX_REMEMBERED) screened.sightings[e.id] = first;
		}
		if (untold.length) {
			this.ctx.logger.warn(
				`${this.ctx.getNode().name}: ${untold.length} transaction(s) created before ${new Date(floor!).toISOString()} are not emitted: the record of deliveries forgot what it delivered before then (${MAX_REMEMBERED} at most). ${untold.slice(0, 10).join(', ')}${untold.length > 10 ? ', …' : ''}`,
			);
		}
		return screened;
	}

	/**
	 * Re-send the push of each completed transaction of `settled` (delivered or due this poll)
	 * that waits to resume an execution (see above). Each re-send's outcome is logged.
	 */
	async resend(settled: Array<TriggerEvent & { item?: IDataObject }>): Promise<void> {
		if (this.settings.state !== 'completed') return;
		const now = Date.now();
		const targets = settled
			.map((e) => ({ id: e.id, url: resumeUrlOf(e.item) }))
			.filter((t): t is { id: string; url: string } => !!t.url && !resent.has(t.id.toLowerCase()));
		if (!targets.length) return;
		const node = this.ctx.getNode().name;
		let credentials: ICredentialDataDecryptedObject | undefined;
		try {
			credentials = await this.ctx.getCredentials<ICredentialDataDecryptedObject>(EVENT_SECRET);
		} catch {
			credentials = undefined;
		}
		const problem = credentials
			? secretProblem(credentials)
			: 'no Event Secret credential is selected';
		if (problem) {
			this.ctx.logger.warn(
				`${node}: ${targets.length} completed transaction(s) wait to resume an execution, but their push cannot be re-sent: ${problem}`,
			);
			return;
		}
		const [secret] = secretsOf(credentials);
		const own = originOf(this.ctx.getInstanceBaseUrl());
		for (const { id, url } of targets) {
			remember(id.toLowerCase(), now);
			if (!own || originOf(url) !== own) {
				this.ctx.logger.warn(
					`${node}: the push of transaction ${id} is not re-sent: its resume URL is not on this n8n’s address (${own ?? 'unknown'})`,
				);
				continue;
			}
			const event = signedEvent(secret, id, Date.now());
			const status = await postToResumeUrl(this.ctx, url, event.body, event.headers).catch(
				(error: unknown) => {
					this.ctx.logger.warn(
						`${node}: re-sending the push of transaction ${id} failed: ${plainMessage(error)}`,
					);
					return 0;
				},
			);
			// Never the URL itself: on n8n 2.x it carries the execution's token.
			this.ctx.logger.info(
				`${node}: re-sent the push of transaction ${id} to its waiting execution: ${status || 'no answer'}`,
			);
		}
	}

	/**
	 * Right before `e`'s __emit, with no await until it: 'emit' when no push delivered or claimed
	 * it meanwhile, and it is recorded as delivered; 'delivered' (mark it seen, skip it) or
	 * 'pending' (leave it unseen) otherwise.
	 */
	admit(e: TriggerEvent): Admission {
		const status = this.status(e);
		if (status) return status;
		this.registry.deliver(deliveryKey(this.settings.state, e.id), Date.now());
		return 'emit';
	}
}

/** The origin (scheme, host, port) of `url`, or undefined when it is not an http(s) URL. */
function originOf(url: string): string | undefined {
	const match = /^(https?):\/\/([^/?#@]+)/i.exec(url.trim());
	return match ? `${match[1].toLowerCase()}://${match[2].toLowerCase()}` : undefined;
}

/** The safety net of this poll, or undefined when it is off or the poll is Fetch Test Event. */
export function openSafetyNet(
	ctx: IPollFunctions,
	settings: SafetyNetSettings | undefined,
): SafetyNet | undefined {
	return settings && ctx.getMode() !== 'manual' ? new SafetyNet(ctx, settings) : undefined;
}

/**
 * Right before this trigger hands executions to n8n: put the workflow's record of deliveries,
 * merged with what this n8n process knows, in the workflow's static data. n8n saves a polling
 * trigger's whole static data with its executions, as read when the workflow was activated (or,
 * with durable poll cursors, when the poll began): without this, that save would roll back what
 * the Instant Trigger recorded since. Nothing to do in a workflow whose triggers have kept no
 * record in this process (safety net or not).
 */
export function keepDeliveries(ctx: IPollFunctions): void {
	const registry = knownDeliveriesOf(workflowOf(ctx));
	if (registry) registry.store(ctx.getWorkflowStaticData('global'), Date.now());
}
