import { token } from '../helpers/http';
import { FIXTURE } from './simulator';
import { problemOf, useRawSimulator } from './testkit';
import { postMultipart, type Part } from './uploadkit';

const s = useRawSimulator();
const INVITES = '/api/publicapi/v1/invites';

const model = (value: unknown): Part => ({
	name: 'Model',
	contentType: 'application/json',
	data: JSON.stringify(value),
});

describe('CreateInvite', () => {
	test('a Model with email and tenant name (and a File): 200 without a body, the invite kept', async () => {
		const res = await postMultipart(s.sim, s.bearer, INVITES, [
			model({
				email: 'new@example.com',
				tenantName: 'Acme AP',
				validWithin: '14.00:00:00',
				useMySubscription: true,
				tenantDescription: 'Accounts payable',
			}),
			{ name: 'File', filename: 'logo.png', contentType: 'image/png', data: 'png bytes' },
		]);
		expect([res.status, res.text]).toEqual([200, '']);
		expect(s.sim.invites()).toEqual([
			{
				email: 'new@example.com',
				tenantName: 'Acme AP',
				validWithin: '14.00:00:00',
				useMySubscription: true,
				tenantDescription: 'Accounts payable',
				file: { name: 'logo.png', size: 9, sha256: expect.any(String) },
				invitedBy: FIXTURE.username,
			},
		]);
		expect(s.sim.createdCounts().invites).toBe(1);
	});

	test('the Model as the OpenAPI document has it: required members, e-mail format, no others', async () => {
		const cases: Array<[unknown, string]> = [
			[{ tenantName: 'A' }, '$.email'],
			[{ email: 'a@example.com' }, '$.tenantName'],
			[{ email: 'not-an-address', tenantName: 'A' }, '$.email'],
			[{ email: 'a@example.com', tenantName: '' }, '$.tenantName'],
			[{ email: 'a@example.com', tenantName: 'A', roles: ['Admin'] }, '$'],
			[{ email: 'a@example.com', tenantName: 'A', validWithin: 'two weeks' }, '$.validWithin'],
		];
		for (const [value, key] of cases) {
			const res = await postMultipart(s.sim, s.bearer, INVITES, [model(value)]);
			expect(res.status).toBe(400);
			const errors = problemOf(res).errors as Record<string, string[]>;
			expect(Object.keys(errors).some((k) => k.replace(/^\$\.Model/, '$').startsWith(key))).toBe(
				true,
			);
		}
		const none = await postMultipart(s.sim, s.bearer, INVITES, []);
		expect(none.status).toBe(400);
		expect(s.sim.invites()).toEqual([]);
	});

	test('403 for a user who may not invite', async () => {
		const operator = await token(s.sim, FIXTURE.operatorUsername);
		const res = await postMultipart(s.sim, operator, INVITES, [
			model({ email: 'a@example.com', tenantName: 'A' }),
		]);
		expect(res.status).toBe(403);
		expect(s.sim.invites()).toEqual([]);
	});
});
