import type { INodeProperties } from 'n8n-workflow';

import { MAX_PARAMETERS } from '../constants';
import { invalid, type NodeContext } from '../helpers/errors';
import { describeValue } from '../helpers/validation';
import type { KeyValue } from '../vantage/transactions';

/**
 * A list of keys and values, up to MAX_PARAMETERS (registration or skill parameters, or filters by
 * them).
 */
export function keyValuesOption(
	displayName: string,
	name: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Parameter',
		description,
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}

/**
 * A key/value list parameter (a fixedCollection `{ parameter: [{ key, value }] }`) as the API's
 * `[{ key, value }]`. Numbers and booleans typed through expressions become text.
 */
export function readKeyValues(
	ctx: NodeContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
): KeyValue[] {
	const entries = (value as { parameter?: unknown } | undefined)?.parameter;
	if (entries === undefined || entries === null) return [];
	if (!Array.isArray(entries)) {
		throw invalid(ctx, itemIndex, `${displayName} must be a list of keys and values`);
	}
	if (entries.length > MAX_PARAMETERS) {
		throw invalid(
			ctx,
			itemIndex,
			`${displayName} has ${entries.length} entries; Vantage accepts at most ${MAX_PARAMETERS}`,
		);
	}
	const text = (v: unknown) =>
		typeof v === 'string'
			? v.trim()
			: typeof v === 'number' || typeof v === 'boolean'
				? String(v)
				: undefined;
	return entries.map((entry: { key?: unknown; value?: unknown }, position) => {
		const key = text(entry?.key);
		const val = text(entry?.value);
		if (!key) {
			throw invalid(
				ctx,
				itemIndex,
				`${displayName}: the key of entry ${position + 1} is empty (${describeValue(entry?.key)})`,
			);
		}
		if (val === undefined || val === '') {
			throw invalid(ctx, itemIndex, `${displayName}: the value of "${key}" is empty`);
		}
		return { key, value: val };
	});
}
