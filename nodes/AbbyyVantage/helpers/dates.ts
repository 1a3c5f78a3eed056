import type { IExecuteFunctions } from 'n8n-workflow';

import { invalid } from './errors';
import { isBlank } from './validation';

const LOCAL_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;
// An offset only follows a time: the "-01" of a date-only "2026-11-01" is its day.
const HAS_OFFSET = /[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

type WallClockPart = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

/** One formatter per time zone: building one costs far more than formatting with it. */
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `timeZone` at `utcMs`: year, month (1–12), day, hour (0–23), minute, second. */
export function wallClock(utcMs: number, timeZone: string): Record<WallClockPart, number> {
	let format = wallClockFormats.get(timeZone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		wallClockFormats.set(timeZone, format);
	}
	const parts = format.formatToParts(new Date(utcMs));
	const get = (type: WallClockPart) => Number(parts.find((p) => p.type === type)?.value);
	return {
		year: get('year'),
		month: get('month'),
		day: get('day'),
		hour: get('hour'),
		minute: get('minute'),
		second: get('second'),
	};
}

/** Offset of `timeZone` from UTC at `utcMs`, in milliseconds. */
function zoneOffset(utcMs: number, timeZone: string): number {
	const { year, month, day, hour, minute, second } = wallClock(utcMs, timeZone);
	const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
	return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** A wall-clock time in `timeZone` as a UTC instant (DST-safe for all but the skipped hour). */
function zonedToUtc(fields: number[], timeZone: string): number {
	const [y, mo, d, h, mi, s, ms] = fields;
	const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
	let utc = wall - zoneOffset(wall, timeZone);
	utc = wall - zoneOffset(utc, timeZone);
	return utc;
}

/** What reading a date needs from n8n: the node (for errors) and the workflow's time zone. */
export type DateContext = Pick<IExecuteFunctions, 'getNode' | 'getTimezone'>;

/**
 * A date parameter as an ISO 8601 UTC date-time. Accepts what n8n hands over: the date picker's
 * wall-clock text (read in the workflow's time zone), ISO text with an offset, a JS Date, a Luxon
 * DateTime from an expression, or epoch milliseconds.
 */
export function toUtcDateTime(
	ctx: DateContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
): string {
	let ms: number = NaN;
	if (value instanceof Date) {
		ms = value.getTime();
	} else if (typeof value === 'number') {
		ms = value;
	} else if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	) {
		ms = (value as { toMillis: () => number }).toMillis();
	} else if (typeof value === 'string') {
		const text = value.trim();
		const local = LOCAL_DATE_TIME.exec(text);
		if (local && !HAS_OFFSET.test(text)) {
			const fields = local
				.slice(1)
				.map((part, i) =>
					i === 6 ? Number((part ?? '0').padEnd(3, '0').slice(0, 3)) : Number(part ?? 0),
				);
			const check = new Date(Date.UTC(fields[0], fields[1] - 1, fields[2]));
			const realDate =
				check.getUTCFullYear() === fields[0] &&
				check.getUTCMonth() === fields[1] - 1 &&
				check.getUTCDate() === fields[2] &&
				fields[3] < 24 &&
				fields[4] < 60 &&
				fields[5] < 60;
			if (realDate) ms = zonedToUtc(fields, ctx.getTimezone());
		} else if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
			ms = Date.parse(text);
		}
	}
	if (!Number.isFinite(ms)) {
		throw invalid(
			ctx,
			itemIndex,
			`${displayName} is not a valid date: ${JSON.stringify(value) ?? String(value)}`,
			'Use the date picker, an ISO 8601 date such as 2025-11-03T17:00:00Z, or a date from an expression.',
		);
	}
	return new Date(ms).toISOString();
}

/** An optional date parameter: undefined when empty, else as `toUtcDateTime` reads it. */
export function optionalUtcDateTime(
	ctx: IExecuteFunctions,
	itemIndex: number,
	displayName: string,
	value: unknown,
): string | undefined {
	return isBlank(value) ? undefined : toUtcDateTime(ctx, itemIndex, displayName, value);
}

/**
 * A start and end date (ISO UTC, from `toUtcDateTime`) in order, refused before any request
 * otherwise. `allowEqual`: whether the end may equal the start (the transaction lists refuse it:
 * "EndDate must be greater than start date", GetCompletedTransactions in the OpenAPI document).
 */
export function checkDateOrder(
	ctx: IExecuteFunctions,
	itemIndex: number,
	start: { displayName: string; value: string | undefined },
	end: { displayName: string; value: string | undefined },
	{ allowEqual = false } = {},
): void {
	if (start.value === undefined || end.value === undefined) return;
	const gap = Date.parse(end.value) - Date.parse(start.value);
	if (gap > 0 || (allowEqual && gap === 0)) return;
	throw invalid(
		ctx,
		itemIndex,
		`${end.displayName} (${end.value}) must be ${allowEqual ? 'at or after' : 'after'} ${start.displayName} (${start.value})`,
	);
}
