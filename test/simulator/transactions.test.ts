import { api } from '../helpers/http';
import { FIXTURE } from './simulator';
import { problemOf, TRANSACTIONS, useRawSimulator } from './testkit';

const s = useRawSimulator();

describe('transactions', () => {
	test('create a transaction with a known skill (201) and refuse an unknown skill (404)', async () => {
		const res = await api(s.sim, s.bearer, 'POST', TRANSACTIONS, {
			skillId: FIXTURE.processSkillId,
		});
		expect(res.status).toBe(201);
		expect(res.json).toEqual({ transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
		const unknown = await api(s.sim, s.bearer, 'POST', TRANSACTIONS, { skillId: 'nope' });
		expect(unknown.status).toBe(404);
		expect(problemOf(unknown).detail).toMatch(/not found or not published/);
	});

	test('create transaction enforces the request contract', async () => {
		const eleven = Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
		for (const body of [
			{},
			{ skillId: '' },
			{ skillId: 'x', extra: true },
			{ skillId: 'x', registrationParameters: eleven },
		]) {
			expect((await api(s.sim, s.bearer, 'POST', TRANSACTIONS, body)).status).toBe(400);
		}
	});

	test('add document: 201 with documentId; exact body stored', async () => {
		const tx = s.sim.createTransaction(FIXTURE.documentSkillId);
		const body = {
			index: 2,
			imageProcessingOptions: { autoCrop: 'Yes', autoOrientation: 'Default' },
		};
		const res = await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, body);
		expect(res.status).toBe(201);
		const { documentId } = res.json as { documentId: string };
		expect(s.sim.transaction(tx)?.documents).toEqual([{ id: documentId, ...body }]);
		const info = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}`);
		expect(info.json).toMatchObject({ id: tx, status: 'New', documents: [{ id: documentId }] });
	});

	test('an empty body is a valid add-document request', async () => {
		const tx = s.sim.createTransaction(FIXTURE.processSkillId);
		expect((await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, {})).status).toBe(
			201,
		);
	});

	test('a second document is refused unless the skill is a Process skill', async () => {
		const single = s.sim.createTransaction(FIXTURE.documentSkillId);
		expect(
			(await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${single}/documents`, {})).status,
		).toBe(201);
		const second = await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${single}/documents`, {});
		expect(second.status).toBe(400);
		expect(problemOf(second)).toMatchObject({
			status: 400,
			detail: 'Non-process skills allow only one document',
		});

		const multi = s.sim.createTransaction(FIXTURE.processSkillId);
		for (let i = 0; i < 3; i++) {
			expect(
				(await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${multi}/documents`, { index: i }))
					.status,
			).toBe(201);
		}
	});

	test.each([
		['unknown enum value', { imageProcessingOptions: { autoCrop: 'Maybe' } }],
		['fractional index', { index: 1.5 }],
		['index beyond int32', { index: 2 ** 31 }],
		['unknown property', { index: 1, name: 'x' }],
		['unknown option', { imageProcessingOptions: { deskew: 'Yes' } }],
	])('add document rejects %s with 400', async (_name, body) => {
		const tx = s.sim.createTransaction(FIXTURE.processSkillId);
		expect(
			(await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, body)).status,
		).toBe(400);
		expect(s.sim.transaction(tx)?.documents).toEqual([]);
	});

	test('unknown transaction → 404', async () => {
		const res = await api(
			s.sim,
			s.bearer,
			'POST',
			`${TRANSACTIONS}/00000000-0000-4000-8000-000000000000/documents`,
			{},
		);
		expect(res.status).toBe(404);
		expect(problemOf(res).detail).toBe('Transaction not found');
	});
});
