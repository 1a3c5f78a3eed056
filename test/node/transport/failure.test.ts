import { NodeApiError, type INode } from 'n8n-workflow';

import {
	isTransientError,
	isWaitHiccup,
	type Failure,
} from '../../../nodes/AbbyyVantage/transport/failure';
import { toNodeApiError } from '../../../nodes/AbbyyVantage/transport/nodeApiError';

const node: INode = {
	id: 'node',
	name: 'ABBYY Vantage',
	type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const thrown = (failure: Failure & { kind: 'http' | 'network' | 'timeout' }) =>
	toNodeApiError(node, failure, {
		itemIndex: 2,
		action: 'reading the export status',
		attempts: 4,
		creates: false,
	});

describe('the failure behind an error the transport threw', () => {
	test('waits and batch runs read it back from the error: passing, or a definite answer', () => {
		const cases: Array<[string, NodeApiError, boolean, boolean]> = [
			['503', thrown({ kind: 'http', status: 503 }), true, true],
			['a reset', thrown({ kind: 'network', code: 'ECONNRESET' }), true, true],
			['a timeout', thrown({ kind: 'timeout' }), true, true],
			[
				'500: waits poll again, batches are not resent',
				thrown({ kind: 'http', status: 500 }),
				false,
				true,
			],
			['404', thrown({ kind: 'http', status: 404 }), false, false],
			// The same status in an error the transport did not make tells nothing.
			['not the transport’s', new NodeApiError(node, { status: 503 }), false, false],
		];
		expect(
			cases.map(([name, error]) => [name, isTransientError(error), isWaitHiccup(error)]),
		).toEqual(cases.map(([name, , transient, hiccup]) => [name, transient, hiccup]));
	});

	test('n8n does not see it: not among the error’s own keys, nor in its JSON', () => {
		const error = thrown({ kind: 'http', status: 503, body: { detail: 'Try later' } });
		expect(error.message).toBe('ABBYY Vantage answered HTTP 503: Try later [item 2]');
		expect(Object.keys(error)).not.toContain('vantageFailure');
		expect(JSON.stringify(error)).not.toContain('vantageFailure');
		expect({ ...error }).not.toHaveProperty('vantageFailure');
	});
});
