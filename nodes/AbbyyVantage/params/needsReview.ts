import type {
	IDataObject,
	IDisplayOptions,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';

import { invalid, type NodeContext } from '../helpers/errors';
import type { ReviewRules } from '../helpers/reviewDecision';
import { describeValue } from '../helpers/validation';
import { sortedOptions } from './collections';

/**
 * The Needs Review parameter: rules after which each document is marked `needsReview`, with
 * `reviewReasons` (../helpers/reviewDecision.ts), and, in the ABBYY Vantage node, the second
 * output such documents may leave the node on, the way n8n's If and Filter nodes separate items
 * (If V2: two outputs, `true` and `false`; Filter V2: `Kept` and `Discarded`).
 */

/** The operations whose documents can leave on the second output (`resource.operation`). */
export const REVIEW_OUTPUT_OPERATIONS = [
	'transaction.getResults',
	'transaction.processDocument',
] as const;

/** The outputs' names, as the canvas shows them. */
export const REVIEW_OUTPUT_NAMES = ['Ready', 'Needs Review'] as const;

const MIN_CONFIDENCE = 'Minimum Confidence (%)';

/**
 * The ABBYY Vantage node's `outputs`: two (Ready, Needs Review) when the operation is one of
 * REVIEW_OUTPUT_OPERATIONS and its Needs Review has Send to Second Output on, else one. n8n
 * resolves it from the node's parameters wherever it needs the node's outputs (the canvas, the
 * engine; NodeHelpers.getNodeOutputs, n8n-workflow 1.83 on). No optional chaining or arrow
 * functions: plain expression syntax every n8n line evaluates. `hasReviewOutput` says the same in
 * code, and a test holds them equal on every n8n-workflow line.
 */
export const REVIEW_OUTPUTS = `={{ ${REVIEW_OUTPUT_OPERATIONS.map((key) => {
	const [resource, operation] = key.split('.');
	return `($parameter.resource === "${resource}" && $parameter.operation === "${operation}")`;
}).join(
	' || ',
)} ? (($parameter.needsReview || {}).secondOutput === true ? [{ "type": "main", "displayName": "${REVIEW_OUTPUT_NAMES[0]}" }, { "type": "main", "displayName": "${REVIEW_OUTPUT_NAMES[1]}" }] : ["main"]) : ["main"] }}` as const;

/** Whether the node with these (stored) parameters has the Needs Review output: REVIEW_OUTPUTS in code. */
export function hasReviewOutput(parameters: INodeParameters): boolean {
	const key = `${String(parameters.resource)}.${String(parameters.operation)}`;
	if (!(REVIEW_OUTPUT_OPERATIONS as readonly string[]).includes(key)) return false;
	const value = parameters.needsReview;
	return (
		!!value &&
		typeof value === 'object' &&
		!Array.isArray(value) &&
		(value as IDataObject).secondOutput === true
	);
}

/**
 * The node's outputs for a run whose first output is `outputs[0]`: unchanged without the review
 * output; with it, [Ready, Needs Review]: documents marked `needsReview`, and error items of
 * Continue On Fail (the If node sends those to `false`: a person looks at what could not be read),
 * to Needs Review; the rest, in order, to Ready. The items themselves are not changed. Both
 * `execute()` and the resume webhook of Process Document's durable wait route through it.
 */
export function routeForReview(
	ctx: NodeContext,
	outputs: INodeExecutionData[][],
): INodeExecutionData[][] {
	if (!hasReviewOutput(ctx.getNode().parameters)) return outputs;
	const ready: INodeExecutionData[] = [];
	const review: INodeExecutionData[] = [];
	for (const item of outputs[0] ?? []) {
		const marked = item.json.needsReview;
		const failed =
			marked === undefined && item.json.error !== undefined && item.json.error !== null;
		(marked === true || failed ? review : ready).push(item);
	}
	return [ready, review];
}

interface Variant {
	/** Whether to offer Send to Second Output (the ABBYY Vantage node), or mark only (the triggers). */
	secondOutput: boolean;
	displayOptions?: IDisplayOptions;
}

/** The Needs Review collection, for an operation or a trigger's Include Results. */
export function needsReviewProperty({ secondOutput, displayOptions }: Variant): INodeProperties {
	const percent = { minValue: 0, maxValue: 100, numberPrecision: 0 };
	return {
		displayName: 'Needs Review',
		name: 'needsReview',
		type: 'collection',
		placeholder: 'Add Rule',
		default: {},
		description:
			'Rules that mark each document "needsReview", with "reviewReasons" saying which field, confidence, threshold or rule error made it so; empty, no document is marked',
		...(displayOptions ? { displayOptions } : {}),
		options: sortedOptions([
			{
				displayName: 'Field Thresholds',
				name: 'fieldThresholds',
				type: 'fixedCollection',
				placeholder: 'Add Field',
				typeOptions: { multipleValues: true },
				default: {},
				description:
					'Thresholds of their own for some fields, instead of Minimum Confidence: a group’s applies to its fields, a table’s to its columns',
				options: [
					{
						displayName: 'Field',
						name: 'fields',
						values: [
							{
								displayName: 'Field',
								name: 'field',
								type: 'string',
								default: '',
								placeholder: 'e.g. Total or Vendor.VatId',
								description:
									'The field’s name; dots reach into groups and tables (Vendor/VatId, as the quality summary writes it, works too)',
							},
							{
								displayName: MIN_CONFIDENCE,
								name: 'minConfidence',
								type: 'number',
								typeOptions: percent,
								default: 90,
								description:
									'A value of this field read with a lower confidence makes the document need review; 0 never does',
							},
						],
					},
				],
			},
			{
				displayName: 'Flag Rule Errors',
				name: 'ruleErrors',
				type: 'boolean',
				default: true,
				description: 'Whether a document with a business rule error Vantage reported needs review',
			},
			{
				displayName: 'Flag Uncertain Document Type',
				name: 'uncertainDocumentType',
				type: 'boolean',
				default: true,
				description:
					'Whether a document whose type Vantage did not classify confidently needs review (skills that classify documents)',
			},
			{
				displayName: 'Flag Values Marked for Verification',
				name: 'needsVerification',
				type: 'boolean',
				default: true,
				description:
					'Whether a value Vantage marked for verification, and no person verified, makes the document need review',
			},
			{
				displayName: MIN_CONFIDENCE,
				name: 'minConfidence',
				type: 'number',
				typeOptions: percent,
				default: 80,
				description:
					'A value read with a lower confidence (0–100) makes the document need review; values a person verified are not checked',
			},
			{
				displayName: 'Required Fields',
				name: 'requiredFields',
				type: 'string',
				default: '',
				placeholder: 'e.g. InvoiceNumber, Total, Vendor.VatId',
				description:
					'Fields that must have a value, separated by commas; dots reach into groups and tables (LineItems.Amount: in every row)',
			},
			...(secondOutput
				? [
						{
							displayName: 'Send to Second Output',
							name: 'secondOutput',
							type: 'boolean' as const,
							default: true,
							noDataExpression: true,
							description:
								'Whether documents needing review leave the node on a second output, Needs Review, and the others on Ready, as the If node separates items',
						},
					]
				: []),
		]),
	};
}

/** What the Needs Review parameter says: the rules, or undefined when it holds none. */
export interface NeedsReviewSettings {
	rules: ReviewRules;
	secondOutput: boolean;
}

function percentOf(
	ctx: NodeContext,
	itemIndex: number | undefined,
	displayName: string,
	value: unknown,
): number {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: NaN;
	if (!Number.isFinite(number) || number < 0 || number > 100) {
		throw invalid(
			ctx,
			itemIndex,
			`${displayName} must be a percentage between 0 and 100, not ${describeValue(value)}`,
			'Vantage reports confidence from 0 to 100.',
		);
	}
	return number;
}

function fieldNamesOf(ctx: NodeContext, itemIndex: number | undefined, value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const list =
		typeof value === 'string'
			? value.split(',')
			: Array.isArray(value) && value.every((v) => typeof v === 'string')
				? (value as string[])
				: undefined;
	if (!list) {
		throw invalid(
			ctx,
			itemIndex,
			`Required Fields must be field names separated by commas, not ${describeValue(value)}`,
		);
	}
	return list.map((name) => name.trim()).filter(Boolean);
}

/** The Needs Review collection's value (`value`), checked; undefined when it holds no rule. */
export function readNeedsReview(
	ctx: NodeContext,
	itemIndex: number | undefined,
	value: unknown,
): NeedsReviewSettings | undefined {
	const options =
		value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
	const secondOutput = options.secondOutput === true;
	const rules: ReviewRules = {};
	if (options.minConfidence !== undefined) {
		rules.minConfidence = percentOf(ctx, itemIndex, MIN_CONFIDENCE, options.minConfidence);
	}
	const thresholds = (options.fieldThresholds as IDataObject | undefined)?.fields;
	if (thresholds !== undefined) {
		rules.fieldThresholds = (Array.isArray(thresholds) ? thresholds : [thresholds]).map(
			(entry, n) => {
				const row = (entry ?? {}) as IDataObject;
				const field = typeof row.field === 'string' ? row.field.trim() : '';
				if (!field) {
					throw invalid(ctx, itemIndex, `Field Thresholds: the field of entry ${n + 1} is empty`);
				}
				return {
					field,
					minConfidence: percentOf(
						ctx,
						itemIndex,
						`Field Thresholds: ${MIN_CONFIDENCE} of ${field}`,
						row.minConfidence ?? 90,
					),
				};
			},
		);
	}
	const required = fieldNamesOf(ctx, itemIndex, options.requiredFields);
	if (required.length) rules.requiredFields = required;
	if (options.ruleErrors === true) rules.ruleErrors = true;
	if (options.uncertainDocumentType === true) rules.uncertainDocumentType = true;
	if (options.needsVerification === true) rules.needsVerification = true;
	const named = Object.keys(options).filter((key) => key !== 'secondOutput');
	if (!named.length) {
		if (!secondOutput) return undefined;
		throw invalid(
			ctx,
			itemIndex,
			'Needs Review sends documents to a second output but has no rule',
			`Add ${MIN_CONFIDENCE}, Field Thresholds, Required Fields or a Flag option to Needs Review, or remove Send to Second Output.`,
		);
	}
	return { rules, secondOutput };
}
