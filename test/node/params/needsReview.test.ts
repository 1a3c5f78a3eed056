import type { INode, INodeExecutionData, INodeParameters, INodeProperties } from 'n8n-workflow';

import {
	needsReviewProperty,
	readNeedsReview,
	routeForReview,
} from '../../../nodes/AbbyyVantage/params/needsReview';

const node = (parameters: INodeParameters = {}): INode => ({
	id: 'node-1',
	name: 'ABBYY Vantage',
	type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
	typeVersion: 1,
	position: [0, 0],
	parameters,
});
const ctx = (parameters: INodeParameters = {}) => ({ getNode: () => node(parameters) });

const read = (value: unknown, itemIndex: number | undefined = 0) =>
	readNeedsReview(ctx(), itemIndex, value);

const failure = (value: unknown) => {
	try {
		read(value);
	} catch (error) {
		return (error as Error).message;
	}
	return 'no error';
};

describe('the Needs Review parameter', () => {
	test('empty: no decision at all; each rule as given', () => {
		expect(read({})).toBeUndefined();
		expect(read(undefined)).toBeUndefined();
		expect(
			read({
				minConfidence: '85',
				fieldThresholds: {
					fields: [
						{ field: ' Total ', minConfidence: 95 },
						{ field: 'LineItems', minConfidence: 0 },
					],
				},
				requiredFields: 'InvoiceNumber, ,Vendor.VatId ',
				ruleErrors: true,
				uncertainDocumentType: false,
				needsVerification: true,
				secondOutput: true,
			}),
		).toEqual({
			rules: {
				minConfidence: 85,
				fieldThresholds: [
					{ field: 'Total', minConfidence: 95 },
					{ field: 'LineItems', minConfidence: 0 },
				],
				requiredFields: ['InvoiceNumber', 'Vendor.VatId'],
				ruleErrors: true,
				needsVerification: true,
			},
			secondOutput: true,
		});
		// A switch turned off is a rule that is not checked: still a decision (every document false).
		expect(read({ ruleErrors: false })).toEqual({ rules: {}, secondOutput: false });
		// Required Fields from an expression may be a list.
		expect(read({ requiredFields: ['Total', ' Date'] })?.rules.requiredFields).toEqual([
			'Total',
			'Date',
		]);
	});

	test.each([
		[
			{ minConfidence: 120 },
			'Minimum Confidence (%) must be a percentage between 0 and 100, not 120 [item 0]',
		],
		[
			{ minConfidence: 'high' },
			'Minimum Confidence (%) must be a percentage between 0 and 100, not "high" [item 0]',
		],
		[
			{ fieldThresholds: { fields: [{ field: 'Total', minConfidence: -1 }] } },
			'Field Thresholds: Minimum Confidence (%) of Total must be a percentage between 0 and 100, not -1 [item 0]',
		],
		[
			{ fieldThresholds: { fields: [{ field: '  ', minConfidence: 90 }] } },
			'Field Thresholds: the field of entry 1 is empty [item 0]',
		],
		[
			{ requiredFields: 42 },
			'Required Fields must be field names separated by commas, not 42 [item 0]',
		],
		[
			{ secondOutput: true },
			'Needs Review sends documents to a second output but has no rule [item 0]',
		],
	])('refused before any request, naming the parameter and the item: %j', (value, message) => {
		expect(failure(value)).toBe(message);
	});

	test('the triggers’ variant has no Send to Second Output; the node’s does, as a fixed value', () => {
		const names = (secondOutput: boolean) =>
			(needsReviewProperty({ secondOutput }).options ?? []).map(
				(o) => (o as INodeProperties).displayName,
			);
		expect(names(false)).toEqual([
			'Field Thresholds',
			'Flag Rule Errors',
			'Flag Uncertain Document Type',
			'Flag Values Marked for Verification',
			'Minimum Confidence (%)',
			'Required Fields',
		]);
		const output = (needsReviewProperty({ secondOutput: true }).options ?? []).find(
			(o) => 'name' in o && o.name === 'secondOutput',
		);
		expect(output).toMatchObject({ type: 'boolean', noDataExpression: true });
	});
});

describe('the Needs Review output', () => {
	const item = (json: INodeExecutionData['json'], index: number): INodeExecutionData => ({
		json,
		pairedItem: { item: index },
	});
	const items = [
		item({ documentId: 'a', needsReview: false }, 0),
		item({ documentId: 'b', needsReview: true }, 0),
		item({ error: 'Transaction x ended with status Failed' }, 1),
		item({ documentId: 'c', needsReview: false, error: null }, 2),
		item({ documentId: 'd', needsReview: true, error: 'The file is damaged' }, 3),
	];
	const routed = {
		resource: 'transaction',
		operation: 'getResults',
		needsReview: { minConfidence: 80, secondOutput: true },
	};

	test('documents needing review, and error items (as If sends them to false), to Needs Review; the rest, in order, to Ready', () => {
		const [ready, review] = routeForReview(ctx(routed), [items]);
		expect(ready.map((i) => i.json.documentId)).toEqual(['a', 'c']);
		expect(review.map((i) => i.json.documentId ?? i.json.error)).toEqual([
			'b',
			'Transaction x ended with status Failed',
			'd',
		]);
		// The items themselves, pairing included, are not changed.
		expect(review[0]).toBe(items[1]);
	});

	test.each([
		['Send to Second Output off', { ...routed, needsReview: { minConfidence: 80 } }],
		['another operation', { ...routed, operation: 'get' }],
	])('%s: one output, as it was', (_name, parameters) => {
		const outputs = [items];
		expect(routeForReview(ctx(parameters), outputs)).toBe(outputs);
	});
});
