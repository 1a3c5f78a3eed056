import { api } from '../helpers/http';
import { FIXTURE } from './simulator';
import { problemOf, TRANSACTIONS, useRawSimulator } from './testkit';
import { info, launched } from './uploadkit';

const s = useRawSimulator();
const ACTIVE = `${TRANSACTIONS}/active`;
const COMPLETED = `${TRANSACTIONS}/completed`;
const BASE = Date.parse('2025-11-01T00:00:00Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000);

interface ListJson {
	items: Array<Record<string, unknown> & { transactionId: string }>;
	totalItemCount: number;
}

async function list(path: string, query: Record<string, string | number>) {
	const qs = new URLSearchParams(
		Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
	);
	return await api(s.sim, s.bearer, 'GET', `${path}?${qs}`);
}

async function ids(path: string, query: Record<string, string | number>): Promise<string[]> {
	const res = await list(path, query);
	expect(res.status).toBe(200);
	return (res.json as ListJson).items.map((i) => i.transactionId);
}

describe('transaction lists', () => {
	test('Limit is required and 1..1000; Offset ≥ 0; values must be integers', async () => {
		const queries: Array<Record<string, string | number>> = [
			{},
			{ Limit: 0 },
			{ Limit: 1001 },
			{ Limit: 'ten' },
			{ Limit: 1.5 },
		];
		for (const query of queries) {
			const res = await list(COMPLETED, query);
			expect(res.status).toBe(400);
			expect(problemOf(res).errors).toHaveProperty('Limit');
		}
		const offset = await list(ACTIVE, { Limit: 10, Offset: -1 });
		expect(offset.status).toBe(400);
		expect(problemOf(offset).errors).toHaveProperty('Offset');
		// ASP.NET binds query names in any case.
		expect((await list(COMPLETED, { limit: 10, offset: 0 })).status).toBe(200);
	});

	test('completed: ordered by completion time, paged by Offset/Limit, with the total', async () => {
		const seeded = s.sim.seedCompletedTransactions(25, { completedAt: (i) => at(25 - i) });
		const ordered = [...seeded].reverse();
		const page1 = await list(COMPLETED, { Limit: 10 });
		expect((page1.json as ListJson).totalItemCount).toBe(25);
		expect(await ids(COMPLETED, { Limit: 10 })).toEqual(ordered.slice(0, 10));
		expect(await ids(COMPLETED, { Limit: 10, Offset: 20 })).toEqual(ordered.slice(20));
		expect(await ids(COMPLETED, { Limit: 10, Offset: 30 })).toEqual([]);
	});

	test('a completed item has the brief names and the vendor-observed ones', async () => {
		const [tx] = s.sim.seedCompletedTransactions(1, {
			completedAt: at(5),
			registrationParameters: [{ key: 'Customer', value: 'ACME' }],
		});
		const res = await list(COMPLETED, { Limit: 1 });
		expect(res.json).toEqual({
			items: [
				{
					transactionId: tx,
					skillId: 'invoice-skill',
					skillName: 'Invoice',
					skillVersion: 1,
					status: 'Processed',
					createdUtc: '2025-11-01T00:04:59.000Z',
					createTimeUtc: '2025-11-01T00:04:59.000Z',
					completedUtc: '2025-11-01T00:05:00.000Z',
					registrationParameters: [{ key: 'Customer', value: 'ACME' }],
					transactionParameters: [{ isReadOnly: false, key: 'Customer', value: 'ACME' }],
					fileParameters: [
						{ isReadOnly: true, key: 'Index', value: '0' },
						{ isReadOnly: true, key: 'SourceFileName', value: 'seed-1.txt' },
						{ isReadOnly: true, key: 'SourceType', value: 'PublicAPI' },
					],
					documentCount: 1,
					pageCount: 1,
				},
			],
			totalItemCount: 1,
		});
	});

	test('StartDate ≤ creation time < EndDate (the vendor filters by creation); EndDate after StartDate', async () => {
		const seeded = s.sim.seedCompletedTransactions(5, {
			createdAt: (i) => at(i * 10),
			completedAt: (i) => at(i * 10 + 100),
		});
		const window = { Limit: 100, StartDate: at(10).toISOString(), EndDate: at(30).toISOString() };
		expect(await ids(COMPLETED, window)).toEqual([seeded[1], seeded[2]]);
		// Without an offset a date-time is UTC.
		expect(await ids(COMPLETED, { Limit: 100, StartDate: '2025-11-01T00:40:00' })).toEqual([
			seeded[4],
		]);
		const backwards = await list(COMPLETED, { ...window, EndDate: at(10).toISOString() });
		expect(backwards.status).toBe(400);
		expect(problemOf(backwards).detail).toBe('EndDate must be greater than start date');
		const bad = await list(COMPLETED, { Limit: 1, StartDate: 'yesterday' });
		expect(bad.status).toBe(400);
		expect(problemOf(bad).errors).toHaveProperty('StartDate');
	});

	test('completed filters: TransactionStatus (Cancelled), SkillId, SkillVersion', async () => {
		const processed = s.sim.seedCompletedTransactions(2, { completedAt: at(1) });
		const [canceled] = s.sim.seedCompletedTransactions(1, {
			status: 'Canceled',
			completedAt: at(2),
		});
		const [failed] = s.sim.seedCompletedTransactions(1, {
			status: 'Failed',
			skillId: FIXTURE.receiptSkillId,
			completedAt: at(3),
		});
		const cancelled = await list(COMPLETED, { Limit: 10, TransactionStatus: 'Cancelled' });
		expect((cancelled.json as ListJson).items.map((i) => [i.transactionId, i.status])).toEqual([
			[canceled, 'Canceled'],
		]);
		expect(await ids(COMPLETED, { Limit: 10, TransactionStatus: 'failed' })).toEqual([failed]);
		expect((await list(COMPLETED, { Limit: 10, TransactionStatus: 'Canceled' })).status).toBe(400);
		expect(await ids(COMPLETED, { Limit: 10, SkillId: 'RECEIPT' })).toEqual([failed]);
		expect((await ids(COMPLETED, { Limit: 10, SkillVersion: 1 })).length).toBe(4);
		expect(await ids(COMPLETED, { Limit: 10, SkillVersion: 2 })).toEqual([]);
		expect(processed).toHaveLength(2);
	});

	test('TransactionParameters and DocumentParameters: list binding and the JSON form', async () => {
		const [acme] = s.sim.seedCompletedTransactions(1, {
			completedAt: at(1),
			registrationParameters: [{ key: 'Customer', value: 'ACME' }],
		});
		s.sim.seedCompletedTransactions(1, {
			completedAt: at(2),
			registrationParameters: [{ key: 'Customer', value: 'Other' }],
		});
		const bound = {
			Limit: 10,
			'TransactionParameters[0].Key': 'Customer',
			'TransactionParameters[0].Value': 'ACME',
		};
		expect(await ids(COMPLETED, bound)).toEqual([acme]);
		const lower = {
			Limit: 10,
			'transactionParameters[0].key': 'customer',
			'transactionParameters[0].value': 'ACME',
		};
		expect(await ids(COMPLETED, lower)).toEqual([acme]);
		const json = { Limit: 10, TransactionParameters: '{"key":"Customer","value":"ACME"}' };
		expect(await ids(COMPLETED, json)).toEqual([acme]);
		expect(
			(await ids(COMPLETED, { Limit: 10, 'TransactionParameters[0].Key': 'Customer' })).length,
		).toBe(2);
		const byFile = {
			Limit: 10,
			'DocumentParameters[0].Key': 'SourceFileName',
			'DocumentParameters[0].Value': 'seed-1.txt',
		};
		expect((await ids(COMPLETED, byFile)).length).toBe(2);
		expect(await ids(COMPLETED, { ...byFile, 'DocumentParameters[0].Value': 'x.pdf' })).toEqual([]);
		expect((await list(COMPLETED, { Limit: 10, TransactionParameters: 'not json' })).status).toBe(
			400,
		);
	});

	test('active: Processing transactions by creation time, with their stage', async () => {
		s.sim.setDefaultTransactionScript({ outcome: 'Never' });
		s.sim.scriptNextTransaction({ outcome: 'Never', manualReview: { polls: 1 } });
		const review = await launched(s.sim, s.bearer, FIXTURE.processSkillId, [{ name: 'a' }]);
		const automatic = await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'b' }]);
		s.sim.createTransaction(FIXTURE.documentSkillId); // New: not active
		s.sim.seedCompletedTransactions(1); // completed: not active
		await info(s.sim, s.bearer, review);
		const link = (await info(s.sim, s.bearer, review)).manualReviewLink;
		expect(link).toBeDefined();

		const res = await list(ACTIVE, { Limit: 10 });
		const items = (res.json as ListJson).items;
		expect(items.map((i) => i.transactionId)).toEqual([review, automatic]);
		expect(items[0]).toMatchObject({
			status: 'Processing',
			stageType: 'ManualReview',
			stage: 'ManualReview',
			stageName: 'Manual Review',
			manualReviewLink: link,
			skillName: 'Invoice Processing',
			documentCount: 2,
		});
		expect(items[0]).not.toHaveProperty('completedUtc');
		expect(items[1]).toMatchObject({ stageType: 'Automatic', stageName: 'Extraction' });
		expect(items[1]).not.toHaveProperty('manualReviewLink');
		expect(await ids(ACTIVE, { Limit: 10, StageType: 'ManualReview' })).toEqual([review]);
		expect(await ids(ACTIVE, { Limit: 10, StageType: 'automatic' })).toEqual([automatic]);
		expect(await ids(ACTIVE, { Limit: 10, StageType: 'CustomActivity' })).toEqual([]);
		expect(await ids(ACTIVE, { Limit: 10, StageName: 'manual review' })).toEqual([review]);
		expect((await list(ACTIVE, { Limit: 10, StageType: 'Review' })).status).toBe(400);
		const future = new Date(Date.now() + 60_000).toISOString();
		expect(await ids(ACTIVE, { Limit: 10, StartDate: future })).toEqual([]);
	});

	test('completeTransaction moves a transaction from active to completed now', async () => {
		s.sim.scriptNextTransaction({ outcome: 'Never' });
		const before = new Date(Date.now() - 1).toISOString();
		const tx = await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a' }]);
		expect(await ids(ACTIVE, { Limit: 10 })).toEqual([tx]);
		s.sim.completeTransaction(tx, 'Failed');
		expect(await ids(ACTIVE, { Limit: 10 })).toEqual([]);
		expect(await ids(COMPLETED, { Limit: 10, StartDate: before })).toEqual([tx]);
		expect((await info(s.sim, s.bearer, tx)).status).toBe('Failed');
	});

	test('10 000 seeded transactions are fast to create and to page through', async () => {
		const started = Date.now();
		const seeded = s.sim.seedCompletedTransactions(10_000, { completedAt: (i) => at(i) });
		expect(Date.now() - started).toBeLessThan(5_000);
		const seen: string[] = [];
		for (let offset = 0; offset < 10_000; offset += 1000) {
			seen.push(...(await ids(COMPLETED, { Limit: 1000, Offset: offset })));
		}
		expect(seen).toEqual(seeded);
	}, 30_000);
});
