import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	apiError,
	asNodeError,
	errorItem,
	operationError,
	plainMessage,
	withErrorOutput,
} from '../../../nodes/AbbyyVantage/helpers/errors';

const node: INode = {
	id: 'node',
	name: 'ABBYY Vantage',
	type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const ctx = { getNode: () => node } as never;

describe('what the node reads back from its own errors', () => {
	test('the message before the item was named, for another item’s message to quote', () => {
		const error = operationError(node, 3, 'The export failed');
		expect(error.message).toBe('The export failed [item 3]');
		expect(plainMessage(error)).toBe('The export failed');
		const api = apiError(node, 1, { status: 404 }, 'ABBYY Vantage could not find it');
		expect([api.message, plainMessage(api)]).toEqual([
			'ABBYY Vantage could not find it [item 1]',
			'ABBYY Vantage could not find it',
		]);
		// An error the node did not build is quoted as it is.
		expect(plainMessage(new Error('socket hang up [item 2]'))).toBe('socket hang up [item 2]');
	});

	test('the error item’s fields: added later, defaults kept out, carried over when wrapped', () => {
		const error = operationError(node, 0, 'The export failed', { output: { status: 'Failed' } });
		withErrorOutput(error, { requestId: 'r1', status: 'Unknown' }, { keepExisting: true });
		expect(errorItem(error, 0).json).toEqual({
			status: 'Failed',
			requestId: 'r1',
			error: 'The export failed [item 0]',
		});
		const plain = withErrorOutput(new Error('Upload broke off'), { transactionId: 't1' });
		const wrapped = asNodeError(ctx, plain, 4);
		expect(wrapped).toBeInstanceOf(NodeOperationError);
		expect(errorItem(wrapped, 4).json).toMatchObject({ transactionId: 't1' });
	});

	test('n8n does not see them: not among the error’s own keys, nor in its JSON', () => {
		const error = operationError(node, 0, 'The export failed', { output: { status: 'Failed' } });
		const shown = [Object.keys(error), Object.keys(JSON.parse(JSON.stringify(error)))].flat();
		expect(shown).not.toContain('plainMessage');
		expect(shown).not.toContain('errorOutput');
	});
});
