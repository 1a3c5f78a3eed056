import { runNode } from '../../harness/n8n';
import { binaryFile, fileItem } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, processParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const f = useSimulator();

const getMany = (extra: Record<string, unknown> = {}) =>
	nodeParams('transaction', 'getMany', { list: 'completed', ...extra });

describe('Transaction → Get Many', () => {
	test('Return All pages through more than 1000 completed transactions, each once', async () => {
		const ids = f.sim.seedCompletedTransactions(2345, { skillId: FIXTURE.documentSkillId });
		const result = await runNode({
			credentials: f.store,
			parameters: getMany({ returnAll: true }),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2345);
		expect(new Set(result.items.map((i) => i.json.transactionId))).toEqual(new Set(ids));
		const pages = f.sim
			.requestsTo('GetCompletedTransactions')
			.map((r) => [r.query.Offset, r.query.Limit]);
		expect(pages).toEqual([
			['0', '1000'],
			['1000', '1000'],
			['2000', '1000'],
		]);
	});

	test('Limit stops early; filters travel in the query', async () => {
		f.sim.seedCompletedTransactions(30, { skillId: FIXTURE.documentSkillId, status: 'Failed' });
		f.sim.seedCompletedTransactions(5, { skillId: FIXTURE.receiptSkillId });
		const result = await runNode({
			credentials: f.store,
			parameters: getMany({
				limit: 3,
				filters: {
					// The Skill filter is a resource locator, as every Skill parameter.
					skillId: { __rl: true, mode: 'list', value: FIXTURE.documentSkillId },
					transactionStatus: 'Failed',
					startDate: '2020-01-01T00:00:00Z',
					transactionParameters: { parameter: [{ key: 'Source', value: 'n8n' }] },
				},
			}),
		});
		expect(result.error).toBeUndefined();
		const [request] = f.sim.requestsTo('GetCompletedTransactions');
		expect(request.query).toMatchObject({
			Limit: '3',
			Offset: '0',
			SkillId: FIXTURE.documentSkillId,
			TransactionStatus: 'Failed',
			StartDate: '2020-01-01T00:00:00.000Z',
			'TransactionParameters[0].Key': 'Source',
			'TransactionParameters[0].Value': 'n8n',
		});
	});

	test('an End Date before the Start Date is refused before any request', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: getMany({
				filters: { startDate: '2026-01-02T00:00:00Z', endDate: '2026-01-01T00:00:00Z' },
			}),
		});
		expect(result.error?.message).toMatch(
			/^End Date \(2026-01-01T00:00:00.000Z\) must be after Start Date/,
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('active transactions waiting for Manual Review', async () => {
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 1000 } });
		const launched = await runNode({
			credentials: f.store,
			items: [fileItem(binaryFile('a.pdf', 'InvoiceNumber: A'))],
			parameters: processParams({}, { onManualReview: 'output' }),
		});
		const transactionId = launched.items[0].json.transactionId;
		const result = await runNode({
			credentials: f.store,
			parameters: getMany({
				list: 'active',
				returnAll: true,
				filters: { stageType: 'ManualReview' },
			}),
		});
		expect(result.items.map((i) => i.json.transactionId)).toEqual([transactionId]);
		expect(f.sim.requestsTo('GetActiveTransactions')[0].query).toMatchObject({
			StageType: 'ManualReview',
		});

		const byName = await runNode({
			credentials: f.store,
			parameters: getMany({
				list: 'active',
				returnAll: true,
				filters: { stageName: 'Manual Review' },
			}),
		});
		expect(byName.items.map((i) => i.json.transactionId)).toEqual([transactionId]);
		const otherName = await runNode({
			credentials: f.store,
			parameters: getMany({
				list: 'active',
				returnAll: true,
				filters: { stageName: 'Extraction' },
			}),
		});
		expect(otherName.items).toEqual([]);
		expect(f.sim.requestsTo('GetActiveTransactions').map((r) => r.query.StageName)).toEqual([
			undefined,
			'Manual Review',
			'Extraction',
		]);
	});

	test('Skill Version filters by the version of the skill (the simulator’s skills are all version 1)', async () => {
		const ids = f.sim.seedCompletedTransactions(3, { skillId: FIXTURE.documentSkillId });
		const v1 = await runNode({
			credentials: f.store,
			parameters: getMany({ returnAll: true, filters: { skillVersion: 1 } }),
		});
		expect(v1.items.map((i) => i.json.transactionId).sort()).toEqual([...ids].sort());
		const v2 = await runNode({
			credentials: f.store,
			parameters: getMany({ returnAll: true, filters: { skillVersion: 2 } }),
		});
		expect(v2.items).toEqual([]);
		expect(f.sim.requestsTo('GetCompletedTransactions').map((r) => r.query.SkillVersion)).toEqual([
			'1',
			'2',
		]);

		const bad = await runNode({
			credentials: f.store,
			parameters: getMany({ filters: { skillVersion: 1.5 } }),
		});
		expect(bad.error?.message).toBe('Skill Version must be a whole number, not 1.5 [item 0]');
	});

	test('an End Date equal to the Start Date is refused as the API refuses it', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: getMany({
				filters: { startDate: '2026-01-02T00:00:00Z', endDate: '2026-01-02T00:00:00Z' },
			}),
		});
		expect(result.error?.message).toBe(
			'End Date (2026-01-02T00:00:00.000Z) must be after Start Date (2026-01-02T00:00:00.000Z) [item 0]',
		);
		expect(f.sim.requests).toHaveLength(0);
	});
});
