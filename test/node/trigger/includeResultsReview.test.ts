import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSimulator } from '../../helpers/fixture';
import { eventBody, signed } from '../../harness/webhook';
import { instantTrigger, secrets } from '../instantTrigger/instant';
import { ActiveTrigger, triggerParams } from './poll';

const f = useSimulator();
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

/** Include Results with Needs Review and Include Document Text, as both triggers offer them. */
const PARAMETERS: INodeParameters = {
	includeResults: true,
	includeDocumentText: true,
	needsReview: { minConfidence: 80, requiredFields: 'InvoiceNumber', ruleErrors: true },
};

describe('the triggers’ Include Results: Needs Review and Include Document Text', () => {
	test('the ABBYY Vantage Trigger marks each document and adds its text; a failed transaction needs review', async () => {
		const trigger = new ActiveTrigger(
			() => f.store,
			triggerParams('transactionCompleted', PARAMETERS),
		);
		await trigger.poll();
		const [clean] = f.sim.seedCompletedTransactions(1, {
			createdAt: minutesAgo(3),
			files: [{ name: 'a.pdf', text: 'InvoiceNumber: T-1\nTotal: 10,00\nExport: Text\n' }],
		});
		const [low] = f.sim.seedCompletedTransactions(1, {
			createdAt: minutesAgo(2),
			files: [{ name: 'b.pdf', text: 'InvoiceNumber: T-2\nTotal: 20,00\nConfidence.Total: 41\n' }],
		});
		const [failed] = f.sim.seedCompletedTransactions(1, {
			createdAt: minutesAgo(1),
			status: 'Failed',
		});
		const run = await trigger.poll();
		expect(run.error).toBeUndefined();
		const [a, b, c] = run.executions.map((items) => items[0].json);
		expect(a).toMatchObject({
			transactionId: clean,
			needsReview: false,
			reviewReasons: [],
			text: 'InvoiceNumber: T-1\nTotal: 10,00\nExport: Text\n',
		});
		expect(b).toMatchObject({
			transactionId: low,
			needsReview: true,
			reviewReasons: [{ reason: 'lowConfidence', field: 'Total', confidence: 41, threshold: 80 }],
			text: null,
		});
		expect(c).toMatchObject({ transactionId: failed, status: 'Failed', needsReview: true });
		expect((c.reviewReasons as IDataObject[]).map((r) => r.reason)).toEqual([
			'transactionFailed',
			'requiredFieldEmpty',
		]);
		expect(c.textNote).toBe('The transaction has no results, so no text');
	});

	test('a Needs Review the trigger cannot use stops the poll with its message, before any event is read', async () => {
		const trigger = new ActiveTrigger(
			() => f.store,
			triggerParams('transactionCompleted', { ...PARAMETERS, needsReview: { minConfidence: 101 } }),
		);
		const run = await trigger.poll();
		expect(run.error?.message).toBe(
			'Minimum Confidence (%) must be a percentage between 0 and 100, not 101',
		);
		expect(f.sim.requestsTo('GetCompletedTransactions')).toHaveLength(0);
	});

	test('the Instant Trigger gives the same items as the ABBYY Vantage Trigger', async () => {
		const polling = new ActiveTrigger(
			() => f.store,
			triggerParams('transactionCompleted', PARAMETERS),
		);
		await polling.poll();
		const trigger = await instantTrigger(f, PARAMETERS);
		const [id] = f.sim.seedCompletedTransactions(1, {
			files: [
				{
					name: 'c.pdf',
					text: 'Total: 30,00\nRuleError: No invoice number\nExport: Text\n',
				},
			],
		});
		const { execution } = await (await trigger.push(signed(eventBody(id), secrets.secret))).handled;
		expect(execution![0].json).toMatchObject({
			transactionId: id,
			needsReview: true,
			reviewReasons: [
				{
					reason: 'ruleError',
					message: 'Vantage reported a rule error on Total: No invoice number',
				},
				{ reason: 'requiredFieldEmpty', field: 'InvoiceNumber' },
			],
			text: 'Total: 30,00\nRuleError: No invoice number\nExport: Text\n',
		});
		const polled = (await polling.poll()).executions.find(
			(items) => items[0].json.transactionId === id,
		);
		expect(execution).toEqual(polled);
	});
});
