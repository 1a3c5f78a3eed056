import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import {
	HAND_OVER_MS,
	MAX_EVENTS_PER_POLL,
	MAX_RUNNING,
	RUNNING_AT_MOST_MS,
} from '../AbbyyVantage/constants';
import { pause } from '../AbbyyVantage/helpers/time';
import {
	inWindow,
	storeCursor,
	unseen,
	type CursorWriter,
	type OpenPoll,
	type TriggerEvent,
} from './cursor';
import { triggerOf } from './gate';
import { keepDeliveries, type SafetyNet } from './safetyNet';

/**
 * How a poll hands its events to n8n. In a burst, One Execution per Event starts at most
 * MAX_RUNNING executions of a trigger at a time: n8n's default (unlimited production concurrency)
 * would otherwise run a poll's thousand executions at once, which a small n8n does not survive. The
 * poll hands over the next event as an earlier execution finishes (n8n settles the done promise it
 * is given with __emit), for at most HAND_OVER_MS and within n8n's poll budget; the events not
 * handed over stay unseen and follow at the next poll. One Execution per Poll returns all of a
 * poll's events as the items of one execution, as n8n's own polling triggers do.
 */
export type Output = 'perEvent' | 'perPoll';

/** Executions each trigger started in this n8n instance that have not finished: when each began. */
const running = new Map<string, Map<Promise<void>, number>>();

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
 * The safety net's last word on `e`, right before its __emit: whether to emit it (now recorded as
 * delivered). One a push delivered meanwhile is marked seen; one a push is confirming stays unseen.
 */
function admitted(net: SafetyNet, cursor: CursorWriter, e: TriggerEvent): boolean {
	const admission = net.admit(e);
	if (admission === 'delivered') cursor.passed(e);
	return admission === 'emit';
}

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
 * With the Safety Net for the Instant Trigger (`net`, ./safetyNet.ts), only the events it finds
 * due are built; those the Instant Trigger delivered are marked seen, and each is admitted (and
 * recorded as delivered) with no await until its __emit. The push of those it settles (delivered
 * or due) is re-sent to the execution that waits for them, if any. Before each __emit the workflow's record
 * of deliveries is put in its static data, safety net or not (see keepDeliveries).
 *
 * In manual mode ("Fetch Test Event") the most recent matching event is returned even if it was
 * emitted before, and the cursor (and the record of deliveries) is left alone.
 */
export async function deliver<E extends TriggerEvent>(
	ctx: IPollFunctions,
	poll: OpenPoll,
	listed: E[],
	build: (e: E) => Promise<INodeExecutionData[]>,
	output: Output = 'perEvent',
	net?: SafetyNet,
): Promise<INodeExecutionData[][] | null> {
	const events = inWindow(listed, poll);
	if (ctx.getMode() === 'manual') {
		const latest = mostRecent(events);
		return latest ? [await build(latest)] : null;
	}
	const news = unseen(poll, events);
	const screened = net?.screen(news.fresh, poll.cursor?.sightings, poll.startedAt);
	if (screened) {
		for (const e of screened.passed) news.seen[e.id] = e.time;
		news.fresh = news.fresh.filter((e) => !(e.id in news.seen));
		// Lost pushes to executions waiting for these transactions go out again (./safetyNet.ts).
		await net!.resend([...screened.passed, ...screened.due]);
	}

	const deadline = deadlineOf(ctx, poll.startedAt);
	const built: Array<[E, INodeExecutionData[]]> = [];
	let slowest = 0;
	for (const e of screened ? screened.due : news.fresh) {
		if (built.length >= MAX_EVENTS_PER_POLL) break;
		if (built.length && Date.now() + slowest >= deadline) break;
		const began = Date.now();
		built.push([e, await build(e)]);
		slowest = Math.max(slowest, Date.now() - began);
	}

	const cursor = storeCursor(ctx, poll, news, built.length, screened?.sightings);
	if (output === 'perPoll') {
		const emitted = net ? built.filter(([e]) => admitted(net, cursor, e)) : built;
		if (!emitted.length) return null;
		cursor.allEmitting(emitted.map(([e]) => e));
		keepDeliveries(ctx);
		return [emitted.flatMap(([, items]) => items)];
	}
	const trigger = triggerOf(ctx);
	const until = Math.min(deadline - BUDGET_MARGIN_MS, Date.now() + HAND_OVER_MS);
	for (const [e, items] of built) {
		if (!(await room(trigger, until))) break;
		// From here to __emit nothing is awaited: a push cannot take the event in between.
		if (net && !admitted(net, cursor, e)) continue;
		cursor.emitting(e);
		keepDeliveries(ctx);
		const done = donePromise();
		track(trigger, done);
		ctx.__emit([items], undefined, done);
	}
	return null;
}
