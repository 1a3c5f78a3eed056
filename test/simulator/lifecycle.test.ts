/* eslint-disable @n8n/community-nodes/no-restricted-globals -- timing checks of scripts and the delete grace period */
import { api, raw, requestToken } from '../helpers/http';
import { FIXTURE } from './simulator';
import { problemOf, randomId, TRANSACTIONS, useRawSimulator } from './testkit';
import { addFiles, info, launch, launched, settle } from './uploadkit';

const s = useRawSimulator();
const LAUNCH_INVALID = 'Some files are invalid or skillId is not specified';

async function created(body: Record<string, unknown> = { skillId: FIXTURE.documentSkillId }) {
	const res = await api(s.sim, s.bearer, 'POST', TRANSACTIONS, body);
	expect(res.status).toBe(201);
	return (res.json as { transactionId: string }).transactionId;
}

const start = async (tx: string) =>
	await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/start`);

describe('transaction lifecycle', () => {
	test('create → files → start: New, then Processing for one poll, then Processed', async () => {
		const tx = await created();
		expect(await info(s.sim, s.bearer, tx)).toEqual({
			id: tx,
			status: 'New',
			documents: [],
			sourceFiles: [],
		});
		await addFiles(s.sim, s.bearer, tx, [{ name: 'a.pdf' }]);
		const started = await start(tx);
		expect(started.status).toBe(200);
		expect(started.text).toBe('');
		const first = await info(s.sim, s.bearer, tx);
		expect(first).toEqual({ id: tx, status: 'Processing', sourceFiles: [expect.any(Object)] });
		const done = await info(s.sim, s.bearer, tx);
		expect(done.status).toBe('Processed');
		expect(done.documents).toHaveLength(1);
		expect(done.sourceFiles).toEqual([{ id: s.sim.transaction(tx)!.files[0].id, name: 'a.pdf' }]);
		expect(done).not.toHaveProperty('error');
		expect(done).not.toHaveProperty('manualReviewLink');
	});

	test('launch creates, uploads and starts in one request: 201 {transactionId}', async () => {
		const res = await launch(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a.pdf' }], {
			registrationParameters: [{ key: 'Customer', value: 'ACME' }],
			skillParameters: [{ key: 'Strict', value: 'true' }],
		});
		expect(res.status).toBe(201);
		expect(res.json).toEqual({ transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
		const tx = (res.json as { transactionId: string }).transactionId;
		expect(s.sim.transaction(tx)).toMatchObject({ status: 'Processing', skillId: 'invoice-skill' });
		expect((await settle(s.sim, s.bearer, tx)).status).toBe('Processed');
		expect(s.sim.createdCounts()).toMatchObject({
			transactions: 1,
			launches: 1,
			uploads: 1,
			filesUploaded: 1,
		});
	});

	test('launch: no skillId or no files → 400; an unknown skill → 404', async () => {
		const noSkill = await launch(s.sim, s.bearer, '', [{ name: 'a' }]);
		expect(noSkill.status).toBe(400);
		expect(problemOf(noSkill).detail).toBe(LAUNCH_INVALID);
		const noFiles = await launch(s.sim, s.bearer, FIXTURE.documentSkillId, [], {});
		expect(noFiles.status).toBe(400);
		expect(problemOf(noFiles).detail).toBe(LAUNCH_INVALID);
		expect((await launch(s.sim, s.bearer, 'nope', [{ name: 'a' }])).status).toBe(404);
		expect(s.sim.createdCounts().transactions).toBe(0);
	});

	test('start: 400 "Transaction cannot be started" without files or when not New', async () => {
		const tx = await created();
		const empty = await start(tx);
		expect(empty.status).toBe(400);
		expect(problemOf(empty)).toMatchObject({ detail: 'Transaction cannot be started' });
		await addFiles(s.sim, s.bearer, tx, [{ name: 'a' }]);
		expect((await start(tx)).status).toBe(200);
		expect(problemOf(await start(tx)).detail).toBe('Transaction cannot be started');
	});

	test('scripts: Failed with its error, Canceled, and FIFO before the default', async () => {
		s.sim.setDefaultTransactionScript({ outcome: 'Canceled' });
		s.sim.scriptNextTransaction({ outcome: 'Failed' });
		s.sim.scriptNextTransaction({ outcome: 'Failed', error: 'Password-protected PDF' });
		const ids = [];
		for (let i = 0; i < 3; i++)
			ids.push(await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a' }]));
		const [a, b, c] = await Promise.all(ids.map(async (id) => await settle(s.sim, s.bearer, id)));
		expect(a).toEqual({
			id: ids[0],
			status: 'Failed',
			error: 'The document could not be processed: the file is damaged',
			sourceFiles: [expect.any(Object)],
		});
		expect(b).toMatchObject({ status: 'Failed', error: 'Password-protected PDF' });
		expect(c).toEqual({ id: ids[2], status: 'Canceled', sourceFiles: [expect.any(Object)] });
	});

	test('scripts: processing for N polls, for some milliseconds, or never', async () => {
		s.sim.scriptNextTransaction({ processing: { polls: 3 } });
		const polls = await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a' }]);
		const seen = [];
		for (let i = 0; i < 4; i++) seen.push((await info(s.sim, s.bearer, polls)).status);
		expect(seen).toEqual(['Processing', 'Processing', 'Processing', 'Processed']);

		s.sim.scriptNextTransaction({ processing: { ms: 60 } });
		const timed = await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a' }]);
		expect((await info(s.sim, s.bearer, timed)).status).toBe('Processing');
		await new Promise((resolve) => setTimeout(resolve, 80));
		expect((await info(s.sim, s.bearer, timed)).status).toBe('Processed');

		s.sim.scriptNextTransaction({ outcome: 'Never' });
		const never = await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a' }]);
		for (let i = 0; i < 5; i++)
			expect((await info(s.sim, s.bearer, never)).status).toBe('Processing');
	});

	test('manual review: Processing with a review link for a while, then the outcome', async () => {
		s.sim.scriptNextTransaction({ manualReview: { polls: 2 } });
		const tx = await launched(s.sim, s.bearer, FIXTURE.processSkillId, [{ name: 'a' }]);
		expect(await info(s.sim, s.bearer, tx)).not.toHaveProperty('manualReviewLink');
		const review = await info(s.sim, s.bearer, tx);
		expect(review.status).toBe('Processing');
		expect(review.manualReviewLink).toMatch(
			new RegExp(`^${s.sim.url}/review/${tx}\\?token=[0-9a-f]{32}$`),
		);
		expect(review).not.toHaveProperty('documents');
		expect((await info(s.sim, s.bearer, tx)).manualReviewLink).toBe(review.manualReviewLink);
		const done = await info(s.sim, s.bearer, tx);
		expect(done.status).toBe('Processed');
		expect(done).not.toHaveProperty('manualReviewLink');
	});

	test('registration and skill parameters come back; "true"/"false" values are Bool', async () => {
		const tx = await created({
			skillId: FIXTURE.processSkillId,
			registrationParameters: [{ key: 'Customer', value: 'ACME' }],
			skillParameters: [
				{ key: 'Language', value: 'German' },
				{ key: 'Verify', value: 'False' },
			],
		});
		const reg = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}/registrationParameters`);
		expect(reg.json).toEqual([{ key: 'Customer', value: 'ACME' }]);
		const skill = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}/skillParameters`);
		expect(skill.json).toEqual([
			{ key: 'Language', value: 'German', type: 'String' },
			{ key: 'Verify', value: 'False', type: 'Bool' },
		]);
		const bare = await created();
		expect(
			(await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${bare}/skillParameters`)).json,
		).toEqual([]);
	});

	test('mobile input links: on create, and generated while New only', async () => {
		const res = await api(s.sim, s.bearer, 'POST', TRANSACTIONS, {
			skillId: FIXTURE.documentSkillId,
			generateMobileInputLink: true,
		});
		const { transactionId: tx, mobileInputLink } = res.json as Record<string, string>;
		expect(mobileInputLink).toBe(`${s.sim.url}/mobile/${tx}`);
		const link = await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/mobileInputLink`);
		expect(link.status).toBe(200);
		expect(link.json).toEqual({
			transactionId: tx,
			mobileInputLink: expect.stringMatching(new RegExp(`^${s.sim.url}/mobile/${tx}\\?token=`)),
		});
		await addFiles(s.sim, s.bearer, tx, [{ name: 'a' }]);
		await start(tx);
		expect(
			(await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/mobileInputLink`)).status,
		).toBe(400);
	});

	test('delete: 200 empty, readable for the grace period, then 404', async () => {
		const tx = await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a' }]);
		const res = await api(s.sim, s.bearer, 'DELETE', `${TRANSACTIONS}/${tx}`);
		expect(res.status).toBe(200);
		expect(res.text).toBe('');
		expect(s.sim.deletedTransactionIds()).toEqual([tx]);
		expect((await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}`)).status).toBe(200);
		expect((await api(s.sim, s.bearer, 'DELETE', `${TRANSACTIONS}/${tx}`)).status).toBe(200);
		expect(s.sim.transaction(tx)?.deleted).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, s.sim.options.deleteGraceMs + 20));
		const gone = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}`);
		expect(gone.status).toBe(404);
		expect(problemOf(gone).detail).toBe('Transaction not found');
		expect((await api(s.sim, s.bearer, 'DELETE', `${TRANSACTIONS}/${tx}`)).status).toBe(404);
		expect(s.sim.deletedTransactionIds()).toEqual([tx]);
	});

	test('ids: any case and the N and B forms work; a malformed id is a 400', async () => {
		const tx = await created();
		for (const form of [tx.toUpperCase(), tx.replace(/-/g, ''), `{${tx}}`]) {
			expect((await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${form}`)).status).toBe(200);
		}
		const bad = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/not-a-guid`);
		expect(bad.status).toBe(400);
		expect(problemOf(bad).errors).toEqual({
			transactionId: ["The value 'not-a-guid' is not valid."],
		});
	});

	test.each([
		['GET', ''],
		['DELETE', ''],
		['POST', '/start'],
		['POST', '/mobileInputLink'],
		['GET', '/registrationParameters'],
		['GET', '/skillParameters'],
		['GET', '/documents'],
		['POST', '/documents'],
		['GET', `/documents/${randomId()}`],
		['DELETE', `/documents/${randomId()}`],
	])('%s …/{unknown id}%s → 404 Transaction not found', async (method, suffix) => {
		const res = await api(
			s.sim,
			s.bearer,
			method,
			`${TRANSACTIONS}/${randomId()}${suffix}`,
			method === 'POST' ? {} : undefined,
		);
		expect(res.status).toBe(404);
		expect(problemOf(res).detail).toBe('Transaction not found');
	});

	test("another tenant's transaction → 403", async () => {
		const tx = await created();
		const other = await requestToken(
			s.sim,
			{ username: FIXTURE.multiTenantUsername },
			FIXTURE.secondTenantId,
		);
		const bearer = (other.json as { access_token: string }).access_token;
		const res = await api(s.sim, bearer, 'GET', `${TRANSACTIONS}/${tx}`);
		expect(res.status).toBe(403);
		expect(problemOf(res).detail).toBe('Transaction belongs to another tenant');
	});

	test('HTTP control: scripts, completed transactions and state', async () => {
		const post = async (path: string, body: unknown) =>
			await raw(`${s.sim.url}/__simulator/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		await post('default-transaction-script', { outcome: 'Canceled' });
		await post('transaction-script', { outcome: 'Failed', error: 'boom' });
		const failed = await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a' }]);
		const canceled = await launched(s.sim, s.bearer, FIXTURE.documentSkillId, [{ name: 'a' }]);
		expect((await settle(s.sim, s.bearer, failed)).error).toBe('boom');
		expect((await settle(s.sim, s.bearer, canceled)).status).toBe('Canceled');
		const seeded = await post('completed-transactions', { count: 3, status: 'Failed' });
		const { transactionIds } = seeded.json as { transactionIds: string[] };
		expect(transactionIds).toHaveLength(3);
		expect(s.sim.transaction(transactionIds[0])?.status).toBe('Failed');
		const state = (await raw(`${s.sim.url}/__simulator/state`)).json as {
			transactions: Array<Record<string, unknown>>;
		};
		expect(state.transactions).toHaveLength(5);
		expect(state.transactions[0]).toEqual({
			id: failed,
			skillId: 'invoice-skill',
			status: 'Failed',
			files: [{ id: expect.any(String), name: 'a', size: expect.any(Number) }],
			documents: [{ id: expect.any(String), sourceFiles: [expect.any(String)] }],
		});
	});
});
