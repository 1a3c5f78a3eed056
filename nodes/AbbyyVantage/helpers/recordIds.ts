import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { invalid } from './errors';
import { describeValue, requireOption, requireText } from './validation';

/** A value that is not a record id, kept for the output when Skip Invalid IDs is on. */
export interface InvalidId extends IDataObject {
	item: number;
	position: number;
	value: string;
	reason: string;
}

export interface RecordIds {
	ids: string[];
	invalidIds: InvalidId[];
}

function whyInvalid(value: unknown): string | undefined {
	if (Array.isArray(value)) return 'a nested array, not an ID';
	if (typeof value !== 'string') return `${value === null ? 'null' : typeof value}, not text`;
	if (value === '') return 'empty';
	if (value.trim() === '') return 'only whitespace';
	return undefined;
}

/** Follow a dotted path (`data.ids`) through objects; an exact key with dots wins. */
export function readField(json: IDataObject, path: string): unknown {
	if (path in json) return json[path];
	let current: unknown = json;
	for (const key of path.split('.')) {
		if (!current || typeof current !== 'object' || !(key in current)) return undefined;
		current = (current as IDataObject)[key];
	}
	return current;
}

/** The raw values of one item's Record IDs (typed list or input field), with their label. */
function readRawIds(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
): { raw: unknown[]; label: string } {
	const source = requireOption(
		ctx,
		itemIndex,
		'Record IDs Source',
		ctx.getNodeParameter('recordIdsSource', itemIndex),
		['list', 'field'] as const,
	);
	if (source === 'list') {
		const value = ctx.getNodeParameter('recordIds', itemIndex);
		if (typeof value === 'string') {
			// Typed text: separators and the spaces around them are formatting, not IDs.
			const raw = value
				.split(/[\r\n,]+/)
				.map((id) => id.trim())
				.filter((id) => id !== '');
			return { raw, label: 'Record IDs' };
		}
		if (Array.isArray(value)) return { raw: value, label: 'Record IDs' };
		throw invalid(
			ctx,
			itemIndex,
			`Record IDs must be text or an array, not ${describeValue(value)}`,
		);
	}
	const field = requireText(
		ctx,
		itemIndex,
		'Input Field',
		ctx.getNodeParameter('inputField', itemIndex),
	);
	const value = readField(items[itemIndex].json, field);
	if (value === undefined) {
		throw invalid(
			ctx,
			itemIndex,
			`Input Field "${field}" does not exist in the input item`,
			'Check the field name; use dots for nested fields, e.g. data.ids.',
		);
	}
	return { raw: Array.isArray(value) ? value : [value], label: `Input Field "${field}"` };
}

/**
 * One item's record ids, from the Record IDs Source parameters. A value that is not an id stops
 * the run before any request, or with `skipInvalid` is listed in `invalidIds` instead.
 */
export function readRecordIds(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
	skipInvalid: boolean,
): RecordIds {
	const { raw, label } = readRawIds(ctx, items, itemIndex);
	const ids: string[] = [];
	const invalidIds: InvalidId[] = [];
	raw.forEach((value, position) => {
		const reason = whyInvalid(value);
		if (reason === undefined) {
			ids.push(value as string);
			return;
		}
		if (!skipInvalid) {
			throw invalid(
				ctx,
				itemIndex,
				`${label}: the ID at position ${position} is ${reason} (${describeValue(value)})`,
				'Record IDs must be non-empty text. Turn on Skip Invalid IDs to skip such values and list them in the output.',
			);
		}
		invalidIds.push({ item: itemIndex, position, value: describeValue(value), reason });
	});
	return { ids, invalidIds };
}
