/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- runs each n8n-workflow line in a child process */
/**
 * The ABBYY Vantage node's outputs, an expression of its parameters (params/needsReview.ts
 * REVIEW_OUTPUTS: Ready and Needs Review when Get Results sends documents needing review to a
 * second output; Process Document as well), resolved as n8n resolves them (NodeHelpers.getNodeOutputs) by every n8n-workflow
 * line README names: 2.41 (n8n 2.x), 1.120.31 (n8n 1.123) and 1.83.0 (n8n 1.85). Each line must
 * give the same outputs, and the same as `hasReviewOutput`, which the node's execute routes by.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';

import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import {
	hasReviewOutput,
	needsReviewProperty,
	REVIEW_OUTPUT_NAMES,
	REVIEW_OUTPUTS,
} from '../../nodes/AbbyyVantage/params/needsReview';

const LINES = ['n8n-workflow', 'n8n-workflow-1.120.31', 'n8n-workflow-1.83.0'];

/** The node's description as far as its outputs depend on it. */
const description = {
	name: 'abbyyVantage',
	displayName: 'ABBYY Vantage',
	group: ['transform'],
	version: 1,
	description: '',
	defaults: { name: 'ABBYY Vantage' },
	inputs: ['main'],
	outputs: REVIEW_OUTPUTS,
	properties: [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			options: [
				{ name: 'Catalog', value: 'catalog' },
				{ name: 'Transaction', value: 'transaction' },
			],
			default: 'transaction',
		},
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			options: [
				{ name: 'Get Results', value: 'getResults' },
				{ name: 'Process Document', value: 'processDocument' },
				{ name: 'Wait For Transaction', value: 'waitForTransaction' },
			],
			default: 'processDocument',
		},
		{
			...needsReviewProperty({ secondOutput: true }),
			displayOptions: {
				show: { resource: ['transaction'], operation: ['getResults', 'processDocument'] },
			},
		},
	],
} as unknown as INodeTypeDescription;

const getResults = { resource: 'transaction', operation: 'getResults' };
const processDocument = { resource: 'transaction', operation: 'processDocument' };
const CASES: Array<{ parameters: INodeParameters; onError?: string }> = [
	{ parameters: {} },
	{ parameters: getResults },
	{ parameters: { ...getResults, needsReview: { minConfidence: 80 } } },
	{ parameters: { ...getResults, needsReview: { minConfidence: 80, secondOutput: false } } },
	{ parameters: { ...getResults, needsReview: { minConfidence: 80, secondOutput: true } } },
	{
		parameters: { ...getResults, needsReview: { secondOutput: true } },
		onError: 'continueErrorOutput',
	},
	// Process Document, as Get Results.
	{ parameters: { ...processDocument, needsReview: { minConfidence: 80 } } },
	{ parameters: { ...processDocument, needsReview: { minConfidence: 80, secondOutput: true } } },
	{
		parameters: { ...processDocument, needsReview: { secondOutput: true } },
		onError: 'continueErrorOutput',
	},
	// Another operation keeps one output, whatever Needs Review held before the switch.
	{
		parameters: {
			...getResults,
			operation: 'waitForTransaction',
			needsReview: { secondOutput: true },
		},
	},
	{
		parameters: {
			resource: 'catalog',
			operation: 'getResults',
			needsReview: { secondOutput: true },
		},
	},
];

function resolve(line: string): { version: string; results: unknown[] } {
	const folder = dirname(require.resolve(`${line}/package.json`));
	const stdout = execFileSync(
		process.execPath,
		[join(__dirname, 'reviewOutputsProbe.js'), folder],
		{
			encoding: 'utf8',
			input: JSON.stringify({ description, cases: CASES }),
			env: { PATH: process.env.PATH ?? '' },
		},
	);
	return JSON.parse(stdout) as { version: string; results: unknown[] };
}

describe('the node’s outputs as every n8n line resolves them', () => {
	const resolved = LINES.map(resolve);

	test('probes the three lines', () => {
		expect(resolved.map((r) => r.version)).toEqual([
			expect.stringMatching(/^2\./),
			'1.120.31',
			'1.83.0',
		]);
	});

	test('two outputs, Ready and Needs Review, exactly when hasReviewOutput says so; the same on every line', () => {
		const two = [
			{ type: 'main', displayName: REVIEW_OUTPUT_NAMES[0] },
			{ type: 'main', displayName: REVIEW_OUTPUT_NAMES[1] },
		];
		const error = { category: 'error', type: 'main', displayName: 'Error' };
		const expected = CASES.map(({ parameters, onError }) => {
			const outputs = hasReviewOutput(parameters) ? two : ['main'];
			if (onError !== 'continueErrorOutput') return outputs;
			return outputs.length === 1
				? [{ type: 'main', displayName: 'Success' }, error]
				: [...outputs, error];
		});
		expect(CASES.map((c) => hasReviewOutput(c.parameters))).toEqual([
			false,
			false,
			false,
			false,
			true,
			true,
			false,
			true,
			true,
			false,
			false,
		]);
		for (const line of resolved) expect(line.results).toEqual(expected);
	});
});
