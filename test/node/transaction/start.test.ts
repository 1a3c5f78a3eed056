import { runNode } from '../../harness/n8n';
import { binaryFile, fileItem } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { addFilesParams, nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf, createdTransaction } from './flow';

const f = useSimulator();

const start = (transactionId: string, options = {}) =>
	nodeParams('transaction', 'start', { transactionId, options });

/** New transactions holding one file each, created and filled directly in the simulator's API. */
async function filledTransactions(count: number): Promise<string[]> {
	const ids = Array.from({ length: count }, () => f.sim.createTransaction(FIXTURE.documentSkillId));
	const added = await runNode({
		credentials: f.store,
		items: ids.map((id) => fileItem(binaryFile('page.pdf', 'InvoiceNumber: 1'), { id })),
		parameters: addFilesParams('={{ $json.id }}'),
	});
	if (added.error) throw added.error;
	return ids;
}

describe('Transaction → Start', () => {
	test('a transaction holding files is started', async () => {
		const [transactionId] = await filledTransactions(1);
		const started = await runNode({ credentials: f.store, parameters: start(transactionId) });
		expect(started.items[0].json).toEqual({ transactionId, started: true });
		expect(f.sim.transaction(transactionId)?.status).toBe('Processing');
	});

	test('starting a transaction without files is refused by Vantage with a readable reason', async () => {
		const transactionId = await createdTransaction(f);
		const result = await runNode({ credentials: f.store, parameters: start(transactionId) });
		expect(result.error?.message).toMatch(
			/^ABBYY Vantage rejected the request: Transaction cannot be started \[item 0\]$/,
		);
		expect(f.sim.requestsTo('StartTransaction')).toHaveLength(1);
	});

	test('transactions are started several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'StartTransaction',
			(options) => start('={{ $json.id }}', options),
			async () => (await filledTransactions(10)).map((id) => ({ id })),
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs) expect(run.items.every((item) => item.json.started)).toBe(true);
	});

	test('bad input in item 1 of 3 starts nothing: every item is checked first', async () => {
		const ids = await filledTransactions(3);
		f.sim.clearLog();
		const result = await runNode({
			credentials: f.store,
			items: [{ id: ids[0] }, { id: '' }, { id: ids[2] }],
			parameters: start('={{ $json.id }}'),
		});
		expect(result.error?.message).toBe('Transaction ID is empty [item 1]');
		expect(f.sim.requests).toHaveLength(0);
		expect(ids.map((id) => f.sim.transaction(id)?.status)).toEqual(['New', 'New', 'New']);
	});

	test('Vantage refusing item 2 stops the run; the error names the transactions items 0 and 1 started', async () => {
		const ids = await filledTransactions(3);
		f.sim.injectFault(
			'StartTransaction',
			{ kind: 'status', status: 400, body: { title: 'Bad Request', status: 400, detail: 'No' } },
			1,
			2,
		);
		const result = await runNode({
			credentials: f.store,
			items: ids.map((id) => ({ id })),
			parameters: start('={{ $json.id }}', { concurrency: 1 }),
		});
		expect(result.error?.message).toBe('ABBYY Vantage rejected the request: No [item 2]');
		expect((result.error as { description?: string }).description).toContain(
			`Before the run stopped, other items had created: started transaction ${ids[0]} (item 0), started transaction ${ids[1]} (item 1).`,
		);
	});
});
