import type { IDataObject } from 'n8n-workflow';

import { MAX_REMEMBERED } from '../constants';

/**
 * What a workflow's triggers have delivered, so that each transaction's state starts one
 * execution in total: the ABBYY Vantage Instant Trigger records each push it confirms, and the
 * ABBYY Vantage Trigger (as the instant trigger's safety net) emits only what is not recorded
 * here and records what it emits. A state is delivered under the key `<state>:<transactionId>`.
 *
 * Two copies, because of how n8n keeps a workflow's static data: n8n reads it from the database
 * when a webhook request arrives and writes the whole object back when the request is answered,
 * so two requests in flight each write what they read plus their own change, and the last write
 * wins. The registry of this n8n process (one per workflow) is therefore the truth while the
 * process runs: a key is checked and claimed in it synchronously, with no await in between, so
 * concurrent requests cannot both claim it. Its durable copy lives in the workflow's global static
 * data under one key (STATIC_DATA_KEY); every write puts the union of the stored copy and this
 * process's registry there, so the last write holds everything either knew, and a restarted
 * process starts from it. Claims in flight are never written: a crash forgets them, and what
 * they would have delivered is left to the safety net.
 *
 * Bounded: delivered keys are kept DELIVERIES_RETAINED_MS (the polling trigger's longest Look
 * Back, so the safety net never finds a delivered state forgotten) and at most MAX_REMEMBERED;
 * beyond, the oldest go and `floor` records the newest time dropped. Event ids (a push resent
 * with the same eventId) are kept EVENT_IDS_RETAINED_MS, longer than a signed request stays fresh.
 */

/** The states the triggers deliver: completed (Processed, Failed, Canceled) or waiting in Manual Review. */
export type DeliveryState = 'completed' | 'review';

/** The key of the workflow's global static data that holds the durable copy. */
export const STATIC_DATA_KEY = 'abbyyVantageDeliveries';

/** How long a delivered state is remembered: the polling trigger's longest Look Back (31 days). */
export const DELIVERIES_RETAINED_MS = 31 * 24 * 3600_000;

/**
 * How long an event id is remembered: a signed request is fresh for 5 minutes (plus a minute of
 * clock drift), after which a resent one is refused as stale anyway.
 */
export const EVENT_IDS_RETAINED_MS = 10 * 60_000;

/** Event ids remembered at most (a minute's burst of a busy tenant, several times over). */
export const MAX_EVENT_IDS = 10_000;

/** The key of `state` of transaction `transactionId` (ids compared without case). */
export function deliveryKey(state: DeliveryState, transactionId: string): string {
	return `${state}:${transactionId.toLowerCase()}`;
}

/** The durable copy as stored: times are milliseconds since the epoch. */
interface StoredDeliveries extends IDataObject {
	v: 1;
	delivered: Record<string, number>;
	events: Record<string, number>;
	/** The newest delivery time dropped at the MAX_REMEMBERED cap. */
	floor?: number;
}

/** What a key is in the registry: delivered, claimed by a push still confirming it, or unknown. */
export type KeyStatus = 'delivered' | 'pending' | undefined;

/** Why an event was not admitted (see Deliveries.admit). */
export type Refusal = 'replayed' | 'delivered' | 'pending';

function timesOf(value: unknown): Array<[string, number]> {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
	return Object.entries(value as IDataObject).filter(
		(entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]),
	);
}

/** Keep the entries of `map` newer than `since`, and the newest `max`; the newest time dropped at the cap. */
function prune(map: Map<string, number>, since: number, max: number): number | undefined {
	for (const [key, at] of map) if (at < since) map.delete(key);
	if (map.size <= max) return undefined;
	const byAge = [...map].sort((a, b) => a[1] - b[1]);
	const drop = byAge.slice(0, map.size - max);
	for (const [key] of drop) map.delete(key);
	return drop[drop.length - 1][1];
}

/** One workflow's registry in this n8n process. */
export class Deliveries {
	private readonly delivered = new Map<string, number>();
	private readonly pending = new Map<string, number>();
	private readonly events = new Map<string, number>();
	private floorMs?: number;
	/** The durable copy this registry wrote last: finding it again, `store` has nothing to merge. */
	private written?: StoredDeliveries;

	/**
	 * Merge the durable copy from `global` (the workflow's global static data as n8n read it for
	 * this request or poll) into the registry. Nothing in it is dropped from the registry.
	 */
	load(global: IDataObject): void {
		const stored = global[STATIC_DATA_KEY] as Partial<StoredDeliveries> | undefined;
		if (!stored || typeof stored !== 'object') return;
		for (const [key, at] of timesOf(stored.delivered)) {
			if (!this.delivered.has(key)) this.delivered.set(key, at);
		}
		for (const [id, at] of timesOf(stored.events)) {
			if (!this.events.has(id)) this.events.set(id, at);
		}
		if (typeof stored.floor === 'number' && Number.isFinite(stored.floor)) {
			this.floorMs = Math.max(this.floorMs ?? -Infinity, stored.floor);
		}
	}

	/** Whether `key` is delivered, being confirmed by a push, or unknown. */
	status(key: string): KeyStatus {
		if (this.delivered.has(key)) return 'delivered';
		if (this.pending.has(key)) return 'pending';
		return undefined;
	}

	/**
	 * Admit a pushed event, synchronously: refused when its `eventId` was seen before, or when a
	 * key of `blocking` is delivered or claimed; otherwise its event id is remembered and `claim`
	 * is claimed (pending) until `confirm` or `release`.
	 */
	admit(eventId: string, claim: string, blocking: string[], now: number): Refusal | undefined {
		const seen = this.events.get(eventId);
		if (seen !== undefined && seen >= now - EVENT_IDS_RETAINED_MS) return 'replayed';
		this.events.set(eventId, now);
		for (const key of [claim, ...blocking]) {
			const status = this.status(key);
			if (status) return status;
		}
		this.pending.set(claim, now);
		return undefined;
	}

	/** Claim `key` for a push still confirming it; false when it is delivered or claimed already. */
	claim(key: string, now: number): boolean {
		if (this.status(key)) return false;
		this.pending.set(key, now);
		return true;
	}

	/** Give up a claim: the state was not delivered (the confirmation failed, timed out or filtered it). */
	release(key: string): void {
		this.pending.delete(key);
	}

	/** Record `key` as delivered (a confirmed claim, or what the safety net emits). */
	deliver(key: string, now: number): void {
		this.pending.delete(key);
		this.delivered.set(key, now);
	}

	/** The newest delivery time forgotten at the cap: states delivered before it may be unknown here. */
	get floor(): number | undefined {
		return this.floorMs;
	}

	/**
	 * Write the registry's delivered keys and event ids, merged with the durable copy already in
	 * `global`, pruned by age and count, into `global` (which n8n saves when the request is
	 * answered, or after the poll).
	 */
	store(global: IDataObject, now: number): void {
		// The polling trigger stores at each execution it starts, into the same object each time.
		if (global[STATIC_DATA_KEY] !== this.written) this.load(global);
		const dropped = prune(this.delivered, now - DELIVERIES_RETAINED_MS, MAX_REMEMBERED);
		if (dropped !== undefined) this.floorMs = Math.max(this.floorMs ?? -Infinity, dropped);
		prune(this.events, now - EVENT_IDS_RETAINED_MS, MAX_EVENT_IDS);
		const record: StoredDeliveries = {
			v: 1,
			delivered: Object.fromEntries(this.delivered),
			events: Object.fromEntries(this.events),
			...(this.floorMs !== undefined ? { floor: this.floorMs } : {}),
		};
		// Set again as a whole: n8n saves static data only when a property of it was set.
		global[STATIC_DATA_KEY] = record;
		this.written = global[STATIC_DATA_KEY] as StoredDeliveries;
	}
}

/** The registries of this n8n process, by workflow id. */
const registries = new Map<string, Deliveries>();

/** The registry of workflow `workflowId` in this n8n process. */
export function deliveriesOf(workflowId: string): Deliveries {
	let registry = registries.get(workflowId);
	if (!registry) registries.set(workflowId, (registry = new Deliveries()));
	return registry;
}

/**
 * The registry of workflow `workflowId` when a trigger of it has used one in this n8n process
 * (since n8n started): then the workflow's static data holds a durable copy, or soon will.
 */
export function knownDeliveriesOf(workflowId: string): Deliveries | undefined {
	return registries.get(workflowId);
}
