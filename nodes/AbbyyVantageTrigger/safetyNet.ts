import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { MAX_REMEMBERED } from '../AbbyyVantage/constants';
import { requireInteger } from '../AbbyyVantage/helpers/validation';
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
			'Whether to start executions only for transactions the ABBYY Vantage Instant Trigger of this workflow did not deliver (pushes that could not reach n8n), each once in total. Poll rarely, for example every 15 minutes.',
	},
];

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
