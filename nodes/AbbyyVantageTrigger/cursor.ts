import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { MAX_REMEMBERED } from '../AbbyyVantage/constants';
import { triggerOf } from './gate';

/**
 * Exactly once, across polls, restarts and overlapping windows. Vantage's lists filter by
 * creation time only (OpenAPI GetCompletedTransactions: "StartDate — minimum creation time") and
 * say nothing about when something finished, so a time watermark alone would miss what finishes
 * late. The cursor is therefore a creation-time window (Look Back) plus the ids already emitted
 * inside it: anything listed and not yet emitted is new. Ids older than the window are dropped,
 * since the list no longer returns them; at MAX_REMEMBERED ids the oldest go too and the window's
 * start (`floor`) moves up past them, so an id is never forgotten while it can still be listed.
 *
 * The cursor lives in the workflow's static data and belongs to one event with one set of
 * filters: after a change of either the trigger starts from now again. A poll first lists and
 * builds everything it will emit; only then does the cursor change, one event at a time right
 * before that event is emitted (./delivery.ts). A failed poll changes nothing. Without n8n's
 * durable poll cursors n8n saves static data apart from executions, so a crash in the middle of a
 * poll can lose the events that poll emitted and n8n had not stored yet. With them, each execution
 * is committed together with the cursor as it was at its emit, but in a transaction of its own:
 * commits that race when n8n crashes can land out of order and lose or repeat those few events
 * (README, Trigger).
 */
interface StoredCursor extends IDataObject {
	event: string;
	/** The event's filters when the cursor began, as canonical JSON. */
	filters: string;
	/** Emitted ids and the creation time (ms) the window compares them by. */
	seen: Record<string, number>;
	/** Creation time (ms) below which nothing is emitted, set when ids were dropped at the cap. */
	floor?: number;
	/**
	 * Safety Net for the Instant Trigger (./safetyNet.ts): when a poll first found each event not
	 * emitted yet (ms), which the grace period counts from. Only events a poll still finds unseen
	 * are kept, so they go with the window.
	 */
	sightings?: Record<string, number>;
}

/** What a cursor belongs to: an event and the filters it lists with. */
export interface CursorKey {
	event: string;
	filters: IDataObject;
}

/** One event: one execution with the items `build` makes for it. */
export interface TriggerEvent {
	id: string;
	/** Creation time (ms), which windows and orders events. */
	time: number;
	/** Completion time (ms) when the list gives one: Fetch Test Event shows the latest. */
	completedAt?: number;
}

export interface Window {
	/** Creation-time floor of the list request (ms). */
	start: number;
	/** First poll of this cursor: mark what is there as seen instead of emitting it. */
	baseline: boolean;
}

/** A poll under way: its event and filters, when it began, its cursor and window. */
export interface OpenPoll {
	key: CursorKey;
	startedAt: number;
	cursor?: StoredCursor;
	window: Window;
}

/** Filters as stable text: the same filters give the same text whatever their key order. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const object = value as IDataObject;
		return `{${Object.keys(object)
			.filter((key) => object[key] !== undefined)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

function matching(value: unknown, key: CursorKey): StoredCursor | undefined {
	const cursor = value as StoredCursor | undefined;
	return cursor &&
		cursor.event === key.event &&
		cursor.filters === canonical(key.filters) &&
		cursor.seen &&
		typeof cursor.seen === 'object'
		? cursor
		: undefined;
}

/**
 * The cursor this n8n instance last wrote for each trigger. With n8n's durable poll cursors each poll
 * reads the cursor from the database, where the events of the previous poll are committed one
 * by one with their executions, some still on their way (or landed out of order) when the next
 * poll starts; what this instance has handed to n8n counts as emitted too. Without durable
 * cursors this is the very object in the workflow's static data, so it costs no memory.
 */
const handedOff = new Map<string, StoredCursor>();

/**
 * The cursor of `key`, or undefined on first activation (or after the event or its filters were
 * changed). In trigger mode a stored cursor is completed with what this instance has handed to n8n
 * since (see handedOff).
 */
export function readCursor(ctx: IPollFunctions, key: CursorKey): StoredCursor | undefined {
	const stored = matching(ctx.getWorkflowStaticData('node').cursor, key);
	if (ctx.getMode() === 'manual') return stored;
	const mine = matching(handedOff.get(triggerOf(ctx)), key);
	if (!stored || !mine || mine === stored) return stored;
	const floor = Math.max(stored.floor ?? -Infinity, mine.floor ?? -Infinity);
	const sightings = earliest(stored.sightings, mine.sightings);
	return {
		event: key.event,
		filters: stored.filters,
		seen: { ...stored.seen, ...mine.seen },
		...(Number.isFinite(floor) ? { floor } : {}),
		...(sightings ? { sightings } : {}),
	};
}

/** The sightings of both, the earlier time of an id seen in both; undefined when neither has any. */
function earliest(a: unknown, b: unknown): Record<string, number> | undefined {
	const maps = [a, b].filter(
		(m): m is Record<string, unknown> => !!m && typeof m === 'object' && !Array.isArray(m),
	);
	if (!maps.length) return undefined;
	const both: Record<string, number> = {};
	for (const map of maps) {
		for (const [id, at] of Object.entries(map)) {
			if (typeof at === 'number' && Number.isFinite(at) && !(both[id] <= at)) both[id] = at;
		}
	}
	return both;
}

/**
 * The events inside the window. One whose creation time cannot be read counts as created at this
 * poll: the list returned it, so it was created inside the window, and it is remembered until
 * Look Back has passed. One created before the window's start is left out: it would be forgotten
 * at the next poll and emitted again.
 */
export function inWindow<E extends TriggerEvent>(events: E[], poll: OpenPoll): E[] {
	return events
		.map((e) => (Number.isFinite(e.time) ? e : { ...e, time: poll.startedAt }))
		.filter((e) => e.time >= poll.window.start);
}

/** The ids this poll's cursor keeps, and the events of the window not emitted yet. */
export interface Unseen<E extends TriggerEvent> {
	/** Emitted ids the window still covers (they can be listed again), and on a baseline all listed. */
	seen: Record<string, number>;
	/** Not emitted yet, oldest first (none on a baseline). */
	fresh: E[];
}

/** Which of the window's `events` are new to this poll's cursor. */
export function unseen<E extends TriggerEvent>(poll: OpenPoll, events: E[]): Unseen<E> {
	const { window } = poll;
	const seen: Record<string, number> = {};
	// Keep what the window still covers: those ids can be listed again.
	for (const [id, time] of Object.entries(poll.cursor?.seen ?? {})) {
		if (typeof time === 'number' && time >= window.start) seen[id] = time;
	}
	const byTime = [...events].sort((a, b) => a.time - b.time || a.id.localeCompare(b.id));
	// First activation: everything already there counts as seen, nothing floods in.
	if (window.baseline) for (const e of byTime) seen[e.id] = e.time;
	const fresh = window.baseline ? [] : byTime.filter((e) => !(e.id in seen));
	return { seen, fresh };
}

/**
 * Drop the oldest ids until `seen` holds at most `limit`, never one as old as `keep` or newer,
 * and never only some of the ids of one time. Returns the new floor when ids were dropped.
 */
function prune(seen: Record<string, number>, limit: number, keep: number): number | undefined {
	const entries = Object.entries(seen);
	if (entries.length <= limit) return undefined;
	entries.sort((a, b) => a[1] - b[1]);
	const firstKept = entries[entries.length - Math.max(limit, 0)];
	const floor = Math.min(firstKept ? firstKept[1] : entries[entries.length - 1][1] + 1, keep);
	let dropped = 0;
	for (const [id, time] of entries) {
		if (time >= floor) break;
		delete seen[id];
		dropped++;
	}
	return dropped ? floor : undefined;
}

/** The stored cursor of a poll whose events are built, marked as they are emitted. */
export interface CursorWriter {
	/**
	 * One Execution per Event: `e` marked right before its __emit. The copy of the cursor n8n
	 * saves or stages at each __emit holds every event emitted so far, and an event never handed
	 * over stays unseen. Set again through n8n's static data object, which then knows it changed
	 * (n8n saves static data at an __emit only when it did; `seen` itself is a plain object).
	 */
	emitting(e: TriggerEvent): void;
	/**
	 * One Execution per Poll: every event marked at once. The cursor was stored by `storeCursor`
	 * with no await since: n8n already saves this cursor.
	 */
	allEmitting(events: TriggerEvent[]): void;
	/** `e` marked without an execution: the Instant Trigger delivered it (./safetyNet.ts). */
	passed(e: TriggerEvent): void;
}

/**
 * Store the cursor of a poll that will emit `emitting` of its `fresh` events: the ids `seen` keeps
 * (pruned to leave room for them under MAX_REMEMBERED, never dropping one as old as the oldest
 * fresh event), the floor and the safety net's `sightings`, in the workflow's static data and in
 * what this instance handed off.
 */
export function storeCursor<E extends TriggerEvent>(
	ctx: IPollFunctions,
	poll: OpenPoll,
	{ seen, fresh }: Unseen<E>,
	emitting: number,
	sightings?: Record<string, number>,
): CursorWriter {
	const floor = prune(seen, MAX_REMEMBERED - emitting, fresh.length ? fresh[0].time : Infinity);
	const floors = [poll.cursor?.floor, floor].filter((f): f is number => typeof f === 'number');
	const cursor: StoredCursor = {
		event: poll.key.event,
		filters: canonical(poll.key.filters),
		seen,
		...(floors.length ? { floor: Math.max(...floors) } : {}),
		...(sightings && Object.keys(sightings).length ? { sightings } : {}),
	};
	const stored = ctx.getWorkflowStaticData('node');
	stored.cursor = cursor;
	handedOff.set(triggerOf(ctx), cursor);
	const mark = (e: TriggerEvent) => {
		seen[e.id] = e.time;
		if (cursor.sightings) delete cursor.sightings[e.id];
	};
	return {
		emitting(e) {
			mark(e);
			stored.cursor = cursor;
		},
		allEmitting(events) {
			for (const e of events) mark(e);
		},
		passed(e) {
			mark(e);
			stored.cursor = cursor;
		},
	};
}
