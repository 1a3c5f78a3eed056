import { SECOND_MS } from '../constants';
import { invalid, type NodeContext } from './errors';
import { pathSegmentProblem } from './path';

/**
 * Input checks that run before any request. Each failure names the parameter as the user sees
 * it and ends with the item (see `invalid`), as n8n's UX guidelines ask.
 */

/** A value as it appears in a message: strings quoted, null/undefined spelled out. */
export function describeValue(value: unknown): string {
	if (value === undefined) return 'undefined';
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

/** A required text parameter, trimmed. Numbers are accepted (ids typed as expressions). */
export function requireText(
	ctx: NodeContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
): string {
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
	if (typeof text !== 'string') {
		throw invalid(ctx, itemIndex, `${displayName} must be text, not ${describeValue(value)}`);
	}
	if (text.trim() === '') throw invalid(ctx, itemIndex, `${displayName} is empty`);
	return text.trim();
}

/** An optional text parameter: undefined when empty, so it is left out of the request. */
export function optionalText(
	ctx: NodeContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
): string | undefined {
	return isBlank(value) ? undefined : requireText(ctx, itemIndex, displayName, value);
}

/** An optional parameter left empty: undefined, null, or text of only whitespace. */
export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** The value of a resource locator (`{ __rl, mode, value }`), or the value itself when it is plain. */
export function locatorValue(value: unknown): unknown {
	return value !== null && typeof value === 'object' && !Array.isArray(value) && '__rl' in value
		? (value as { value?: unknown }).value
		: value;
}

/**
 * A value that becomes one URL path segment. Ids are trimmed (pasted UUIDs often carry spaces);
 * names such as catalog ids are kept exactly as given with `trim: false`.
 */
export function requirePathParameter(
	ctx: NodeContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
	{ trim = true } = {},
): string {
	const trimmed = requireText(ctx, itemIndex, displayName, value);
	const text = trim ? trimmed : String(value);
	const problem = pathSegmentProblem(text);
	if (problem) throw invalid(ctx, itemIndex, `${displayName} ${problem}`);
	return text;
}

/** An integer within bounds; numeric text such as "3" is accepted. */
export function requireInteger(
	ctx: NodeContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
	min: number,
	max: number,
): number {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
				? Number(value)
				: NaN;
	if (!Number.isFinite(number)) {
		throw invalid(
			ctx,
			itemIndex,
			`${displayName} must be a whole number, not ${describeValue(value)}`,
		);
	}
	if (!Number.isInteger(number)) {
		throw invalid(ctx, itemIndex, `${displayName} must be a whole number, not ${number}`);
	}
	if (number < min || number > max) {
		throw invalid(
			ctx,
			itemIndex,
			`${displayName} must be between ${min} and ${max}, not ${number}`,
		);
	}
	return number;
}

/** A number of seconds within bounds (fractions allowed), as milliseconds. */
export function requireSeconds(
	ctx: NodeContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
	min: number,
	max: number,
): number {
	const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
		throw invalid(
			ctx,
			itemIndex,
			`${displayName} must be a number of seconds, not ${describeValue(value)}`,
		);
	}
	if (seconds < min || seconds > max) {
		throw invalid(
			ctx,
			itemIndex,
			`${displayName} must be between ${min} and ${max} seconds, not ${seconds}`,
		);
	}
	return Math.round(seconds * SECOND_MS);
}

/** One of the allowed option values (expressions can produce anything). */
export function requireOption<T extends string>(
	ctx: NodeContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
	allowed: readonly T[],
): T {
	if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
		return value as T;
	throw invalid(
		ctx,
		itemIndex,
		`${displayName} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, not ${describeValue(value)}`,
	);
}
