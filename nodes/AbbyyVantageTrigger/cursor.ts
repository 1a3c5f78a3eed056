import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

/**
 * Exactly once, across polls, restarts and overlapping windows. Vantage's lists filter by
 * creation time only (OpenAPI GetCompletedTransactions: "StartDate — minimum creation time") and
 * say nothing about when something finished, so a time watermark alone would miss what finishes
 * late. The cursor is therefore a creation-time window (Look Back) plus the ids already emitted
 * inside it: anything listed and not yet emitted is new. Ids older than the window are dropped,
 * since the list no longer returns them, which keeps the cursor bounded.
 *
 * The cursor lives in the workflow's static data. It changes only after a poll has read
 * everything, one event at a time right before that event is emitted (with n8n's durable poll
 * cursors, the copy n8n commits with that event's execution includes it); a failed poll changes
 * nothing. Without durable cursors n8n saves static data apart from executions, so a crash in
 * the middle of a poll can lose that poll's events (README, Trigger).
 */
interface StoredCursor extends IDataObject {
	event: string;
	/** Emitted ids and the time (ms) the window compares them by. */
	seen: Record<string, number>;
}

/** One event: one execution with the items `build` makes for it. */
export interface TriggerEvent {
	id: string;
	/** Creation time (ms), which windows and orders events. */
	time: number;
}

/** The cursor of `event`, or undefined on first activation (or after the event was changed). */
export function readCursor(ctx: IPollFunctions, event: string): StoredCursor | undefined {
	const data = ctx.getWorkflowStaticData('node');
	const cursor = data.cursor as StoredCursor | undefined;
	return cursor && cursor.event === event && cursor.seen && typeof cursor.seen === 'object'
		? cursor
		: undefined;
}

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
 * Hand the new events to n8n: one execution per event, oldest first, each committed together
 * with the cursor that marks it emitted. An event's items are built only when it is emitted;
 * if building one fails, the events before it stay emitted and the rest wait for the next poll.
 * In manual mode ("Fetch Test Event") the most recent matching event is returned even if it was
 * emitted before, and the cursor is left alone.
 */
export async function deliver<E extends TriggerEvent>(
	ctx: IPollFunctions,
	event: string,
	listed: E[],
	window: { start: number; baseline: boolean },
	build: (e: E) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[][] | null> {
	const byTime = [...listed].sort((a, b) => a.time - b.time || a.id.localeCompare(b.id));
	if (ctx.getMode() === 'manual') {
		const latest = byTime[byTime.length - 1];
		return latest ? [await build(latest)] : null;
	}
	const data = ctx.getWorkflowStaticData('node');
	const previous = readCursor(ctx, event);
	const seen: Record<string, number> = {};
	// Keep what the window still covers: those ids can be listed again.
	for (const [id, time] of Object.entries(previous?.seen ?? {})) {
		if (!(time < window.start)) seen[id] = time;
	}
	const fresh = window.baseline ? [] : byTime.filter((e) => !(e.id in seen));
	// First activation: everything already there counts as seen, nothing floods in.
	if (window.baseline) for (const e of byTime) seen[e.id] = e.time;
	data.cursor = { event, seen } satisfies StoredCursor;
	for (const e of fresh) {
		const items = await build(e);
		seen[e.id] = Number.isFinite(e.time) ? e.time : Date.now();
		ctx.__emit([items]);
	}
	return null;
}
