import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, serialize } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf } from '../transaction/flow';

const f = useSimulator();

describe('Transaction Document → Add', () => {
	const add = (transactionId: string, additionalFields: IDataObject = {}): INodeParameters =>
		nodeParams('transactionDocument', 'add', { transactionId, additionalFields });

	test.each([
		['nothing set', {}, {}],
		['only Index', { index: 0 }, { index: 0 }],
		['only Auto Crop', { autoCrop: 'Yes' }, { imageProcessingOptions: { autoCrop: 'Yes' } }],
		[
			'everything',
			{ index: 3, autoCrop: 'No', autoOrientation: 'Default' },
			{ index: 3, imageProcessingOptions: { autoCrop: 'No', autoOrientation: 'Default' } },
		],
	])('sends exactly the vendor fields that are set: %s', async (_name, fields, body) => {
		const transactionId = f.sim.createTransaction(FIXTURE.processSkillId);
		const result = await runNode({ credentials: f.store, parameters: add(transactionId, fields) });
		expect(f.sim.requestsTo('CreateTransactionDocument')[0].body).toEqual(body);
		expect(result.items).toEqual([
			{
				json: { documentId: f.sim.transaction(transactionId)!.documents[0].id, transactionId },
				pairedItem: { item: 0 },
			},
		]);
	});

	test('a second document on a non-Process skill gets the service detail and the rule', async () => {
		const transactionId = f.sim.createTransaction(FIXTURE.documentSkillId);
		const result = await runNode({
			credentials: f.store,
			items: [{}, {}],
			parameters: add(transactionId),
			continueOnFail: true,
		});
		expect(result.items[0].json).toHaveProperty('documentId');
		expect(result.items[1]).toEqual({
			json: expect.objectContaining({
				error:
					'ABBYY Vantage rejected the request: Non-process skills allow only one document [item 1]',
				errorDescription: expect.stringContaining(
					'Only transactions of a Process skill accept more than one document',
				),
				httpCode: '400',
			}),
			pairedItem: { item: 1 },
		});
		expect(f.sim.requestsTo('CreateTransactionDocument')).toHaveLength(2);
	});

	test('an unknown transaction gives the service detail', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: add('00000000-0000-4000-8000-000000000000'),
		});
		expect(result.error?.message).toBe(
			'ABBYY Vantage could not find it: Transaction not found [item 0]',
		);
	});

	test.each([
		['a negative Index', { index: -1 }, 'Index must be between 0 and 2147483647, not -1'],
		['a fractional Index', { index: 1.5 }, 'Index must be a whole number, not 1.5'],
		['a text Index', { index: 'first' }, 'Index must be a whole number, not "first"'],
		[
			'an unknown Auto Crop value',
			{ autoCrop: '={{ "Maybe" }}' },
			'Auto Crop must be one of "Default", "Yes", "No", not "Maybe"',
		],
		[
			'an unknown Auto Orientation value',
			{ autoOrientation: '={{ true }}' },
			'Auto Orientation must be one of "Default", "Yes", "No", not true',
		],
	])('rejects %s before any request', async (_name, fields, message) => {
		const transactionId = f.sim.createTransaction(FIXTURE.processSkillId);
		f.sim.clearLog();
		const result = await runNode({ credentials: f.store, parameters: add(transactionId, fields) });
		expect(result.error?.message).toBe(`${message} [item 0]`);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('an empty Transaction ID from an expression is refused before any request', async () => {
		const result = await runNode({ credentials: f.store, parameters: add('={{ $json.missing }}') });
		expect(result.error?.message).toBe('Transaction ID must be text, not undefined [item 0]');
		expect(f.sim.requests).toHaveLength(0);
		expect(serialize(result)).not.toContain(FIXTURE.password);
	});

	test('documents are added several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const transactionId = f.sim.createTransaction(FIXTURE.processSkillId);
		const { auto, pinned } = await concurrencyOf(
			f,
			'CreateTransactionDocument',
			(options) => nodeParams('transactionDocument', 'add', { transactionId, options }),
			Array.from({ length: 10 }, () => ({})),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		expect(f.sim.transaction(transactionId)!.documents).toHaveLength(20);
	});

	test('bad input in item 1 of 3 adds no document at all: every item is checked first', async () => {
		const transactionId = f.sim.createTransaction(FIXTURE.processSkillId);
		f.sim.clearLog();
		const result = await runNode({
			credentials: f.store,
			items: [{ index: 0 }, { index: -1 }, { index: 2 }],
			parameters: add(transactionId, { index: '={{ $json.index }}' }),
		});
		expect(result.error?.message).toBe('Index must be between 0 and 2147483647, not -1 [item 1]');
		expect(f.sim.requests).toHaveLength(0);
		expect(f.sim.transaction(transactionId)!.documents).toEqual([]);
	});

	test('Vantage refusing item 2 stops the run; the error names the documents items 0 and 1 added', async () => {
		const transactionId = f.sim.createTransaction(FIXTURE.processSkillId);
		f.sim.injectFault(
			'CreateTransactionDocument',
			{ kind: 'status', status: 400, body: { title: 'Bad Request', status: 400, detail: 'No' } },
			1,
			2,
		);
		const result = await runNode({
			credentials: f.store,
			items: [{}, {}, {}],
			parameters: nodeParams('transactionDocument', 'add', {
				transactionId,
				options: { concurrency: 1 },
			}),
		});
		expect(result.error?.message).toBe('ABBYY Vantage rejected the request: No [item 2]');
		const [first, second] = f.sim.transaction(transactionId)!.documents.map((d) => d.id);
		expect((result.error as { description?: string }).description).toContain(
			`other items had created: document ${first} in transaction ${transactionId} (item 0), document ${second} in transaction ${transactionId} (item 1).`,
		);
	});
});
