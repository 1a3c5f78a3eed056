import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import {
	HAND_OVER_MS,
	MAX_EVENTS_PER_POLL,
	MAX_REMEMBERED,
	MAX_RUNNING,
	RUNNING_AT_MOST_MS,
} from '../AbbyyVantage/constants';
import { pause } from '../AbbyyVantage/helpers/time';

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
 * before that event is emitted. A failed poll changes nothing. Without n8n's durable poll cursors
 * n8n saves static data apart from executions, so a crash in the middle of a poll can lose the
 * events that poll emitted and n8n had not stored yet. With them, each execution is committed
 * together with the cursor as it was at its emit, but in a transaction of its own: commits that
 * race when n8n crashes can land out of order and lose or repeat those few events (README,
 * Trigger).
 *
 * In a burst, One Execution per Event starts at most MAX_RUNNING executions of a trigger at a
 * time: n8n's default (unlimited production concurrency) would otherwise run a poll's thousand
 * executions at once, which a small n8n does not survive. The poll hands over the next event as an
 * earlier execution finishes (n8n settles the done promise it is given with __emit), for at most
 * HAND_OVER_MS and within n8n's poll budget; the events not handed over stay unseen and follow at
 * the next poll. One Execution per Poll returns all of a poll's events as the items of one
 * execution, as n8n's own polling triggers do.
 */
interface StoredCursor extends IDataObject {
	event: string;
	/** The event's filters when the cursor began, as canonical JSON. */
	filters: string;
	/** Emitted ids and the creation time (ms) the window compares them by. */
	seen: Record<string, number>;
	/** Creation time (ms) below which nothing is emitted, set when ids were dropped at the cap. */
	floor?: number;
}

/** How a poll hands its events to n8n: an execution each, or one execution for all of them. */
export type Output = 'perEvent' | 'perPoll';

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

// ------------------------------------------------------------------ one poll at a time

/** Workflow id and node name: one trigger of one workflow. */
function triggerOf(ctx: IPollFunctions): string {
	return `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().name}`;
}

/** Triggers polling right now in this n8n instance. */
const polling = new Set<string>();

/** Executions each trigger started in this n8n instance that have not finished: when each began. */
const running = new Map<string, Map<Promise<void>, number>>();

/**
 * The cursor this n8n instance last wrote for each trigger. With n8n's durable poll cursors each poll
 * reads the cursor from the database, where the events of the previous poll are committed one
 * by one with their executions, some still on their way (or landed out of order) when the next
 * poll starts; what this instance has handed to n8n counts as emitted too. Without durable
 * cursors this is the very object in the workflow's static data, so it costs no memory.
 */
const handedOff = new Map<string, StoredCursor>();

/**
 * Run `poll` unless this trigger is polling already. n8n 2.41 starts a poll at every Poll Times
 * tick without waiting for the previous one (n8n-core ActiveWorkflowTriggers registers each cron
 * with `void executePollTrigger()`; the durable scheduler fires each task on its own), and two
 * polls reading one cursor would both emit its new events. The overlapping poll emits nothing and
 * leaves the cursor as it is: the running one takes care of everything. Poll Times crons run on
 * the leader main only (n8n-core ScheduledTaskManager), so a lock in this instance is enough; with
 * the durable scheduler in a multi-main setup, polls can run on other mains, which it cannot see.
 */
export async function oneAtATime(
	ctx: IPollFunctions,
	poll: () => Promise<INodeExecutionData[][] | null>,
): Promise<INodeExecutionData[][] | null> {
	const trigger = triggerOf(ctx);
	if (polling.has(trigger)) return null;
	polling.add(trigger);
	try {
		return await poll();
	} finally {
		polling.delete(trigger);
	}
}

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
	return {
		event: key.event,
		filters: stored.filters,
		seen: { ...stored.seen, ...mine.seen },
		...(Number.isFinite(floor) ? { floor } : {}),
	};
}

// ------------------------------------------------------------------ times

/** Time (ms) of an API value such as `createTimeUtc`; NaN when missing or unreadable. */
export function timeOf(...values: unknown[]): number {
	for (const value of values) {
		if (typeof value === 'string' && value) {
			const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
			if (Number.isFinite(ms)) return ms;
		}
	}
	return NaN;
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

// ------------------------------------------------------------------ delivery

/**
 * When (ms) this poll should be done: its start plus n8n's poll budget (IPollFunctions
 * getPollBudgetMs: "a node draining a large backlog should stop fetching before the budget runs
 * out, return what it has, and leave the rest to the next poll"; n8n-workflow 1.x has none).
 */
function deadlineOf(ctx: IPollFunctions, startedAt: number): number {
	const budget = (ctx as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	const ms = typeof budget === 'function' ? Number(budget.call(ctx)) : NaN;
	return Number.isFinite(ms) ? startedAt + ms : Infinity;
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

/** The event Fetch Test Event shows: the latest to complete (or be created, lacking that). */
function mostRecent<E extends TriggerEvent>(events: E[]): E | undefined {
	const recency = (e: E) => (Number.isFinite(e.completedAt) ? e.completedAt! : e.time);
	return [...events].sort(
		(a, b) => recency(b) - recency(a) || b.time - a.time || b.id.localeCompare(a.id),
	)[0];
}

/** What __emit takes as its done promise (n8n-workflow does not export the type). */
type DonePromise = NonNullable<Parameters<IPollFunctions['__emit']>[2]>;

/** A done promise for __emit: n8n settles it when the execution it starts has finished. */
function donePromise(): DonePromise {
	let resolve!: DonePromise['resolve'];
	let reject!: DonePromise['reject'];
	const promise = new Promise<Awaited<DonePromise['promise']>>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

/**
 * Wait until fewer than MAX_RUNNING executions of `trigger` are running, or `deadline` (false).
 * One that n8n has not reported finished within RUNNING_AT_MOST_MS stops counting.
 */
async function room(trigger: string, deadline: number): Promise<boolean> {
	for (;;) {
		const mine = running.get(trigger);
		if (!mine) return true;
		const now = Date.now();
		for (const [finished, since] of mine) {
			if (now - since > RUNNING_AT_MOST_MS) mine.delete(finished);
		}
		if (mine.size < MAX_RUNNING) return true;
		if (now >= deadline) return false;
		// The first to finish makes room; the pause re-checks the deadline at least every second.
		await Promise.race([...mine.keys(), pause(Math.min(1000, deadline - now))]);
	}
}

/** Count `done`'s execution as running for `trigger` until n8n reports it finished (or failed). */
function track(trigger: string, done: DonePromise): void {
	let mine = running.get(trigger);
	if (!mine) running.set(trigger, (mine = new Map()));
	const forget = () => {
		mine.delete(finished);
	};
	const finished: Promise<void> = done.promise.then(forget, forget);
	mine.set(finished, Date.now());
}

/** Stop handing over this long before n8n's poll budget runs out. */
const BUDGET_MARGIN_MS = 1000;

/**
 * Hand the new events to n8n, oldest first. Every event's items are built before the first is
 * handed over, so a poll that fails while building emits nothing and leaves the cursor as it was.
 * A poll hands over at most MAX_EVENTS_PER_POLL events, and stops building when n8n's poll budget
 * would run out (after one event at least); the rest follow in the next poll.
 *
 * - `perEvent`: one execution per event, at most MAX_RUNNING of the trigger running at once: the
 *   next event is handed over as an earlier execution finishes, for at most HAND_OVER_MS and
 *   within the budget; each event is marked in the cursor right before its __emit.
 * - `perPoll`: all events of the poll marked and returned as one execution's items (n8n emits it,
 *   and with its durable poll cursors stores it in one transaction with the cursor).
 *
 * In manual mode ("Fetch Test Event") the most recent matching event is returned even if it was
 * emitted before, and the cursor is left alone.
 */
export async function deliver<E extends TriggerEvent>(
	ctx: IPollFunctions,
	poll: OpenPoll,
	listed: E[],
	build: (e: E) => Promise<INodeExecutionData[]>,
	output: Output = 'perEvent',
): Promise<INodeExecutionData[][] | null> {
	const events = inWindow(listed, poll);
	if (ctx.getMode() === 'manual') {
		const latest = mostRecent(events);
		return latest ? [await build(latest)] : null;
	}
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

	const deadline = deadlineOf(ctx, poll.startedAt);
	const built: Array<[E, INodeExecutionData[]]> = [];
	let slowest = 0;
	for (const e of fresh) {
		if (built.length >= MAX_EVENTS_PER_POLL) break;
		if (built.length && Date.now() + slowest >= deadline) break;
		const began = Date.now();
		built.push([e, await build(e)]);
		slowest = Math.max(slowest, Date.now() - began);
	}

	const floor = prune(seen, MAX_REMEMBERED - built.length, fresh.length ? fresh[0].time : Infinity);
	const floors = [poll.cursor?.floor, floor].filter((f): f is number => typeof f === 'number');
	const cursor: StoredCursor = {
		event: poll.key.event,
		filters: canonical(poll.key.filters),
		seen,
		...(floors.length ? { floor: Math.max(...floors) } : {}),
	};
	const stored = ctx.getWorkflowStaticData('node');
	stored.cursor = cursor;
	const trigger = triggerOf(ctx);
	handedOff.set(trigger, cursor);
	if (output === 'perPoll') {
		// `stored.cursor` was set above, with no await since: n8n already saves this cursor.
		for (const [e] of built) seen[e.id] = e.time;
		return built.length ? [built.flatMap(([, items]) => items)] : null;
	}
	const until = Math.min(deadline - BUDGET_MARGIN_MS, Date.now() + HAND_OVER_MS);
	for (const [e, items] of built) {
		if (!(await room(trigger, until))) break;
		// Marked right before its __emit: the copy of the cursor n8n saves or stages at each __emit
		// holds every event emitted so far, and an event never handed over stays unseen. Set again
		// through n8n's static data object, which then knows it changed (n8n saves static data at
		// an __emit only when it did; `seen` itself is a plain object).
		seen[e.id] = e.time;
		stored.cursor = cursor;
		const done = donePromise();
		track(trigger, done);
		ctx.__emit([items], undefined, done);
	}
	return null;
}
