import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { createdTransaction } from './flow';

const f = useSimulator();

describe('Transaction → Get Registration Parameters, Get Skill Parameters, Generate Mobile Input Link', () => {
	test('parameters come back as the list and as a key → value object', async () => {
		const transactionId = await createdTransaction(f, FIXTURE.documentSkillId, {
			registrationParameters: { parameter: [{ key: 'Source', value: 'mail' }] },
			skillParameters: { parameter: [{ key: 'Strict', value: 'true' }] },
		});
		const registration = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'getRegistrationParameters', { transactionId }),
		});
		expect(registration.items[0].json).toEqual({
			transactionId,
			parameters: [{ key: 'Source', value: 'mail' }],
			values: { Source: 'mail' },
		});
		const skill = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'getSkillParameters', { transactionId }),
		});
		expect(skill.items[0].json).toEqual({
			transactionId,
			parameters: [{ key: 'Strict', value: 'true', type: 'Bool' }],
			values: { Strict: 'true' },
		});
	});

	test('a mobile input link is generated for a new transaction', async () => {
		const transactionId = await createdTransaction(f);
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('transaction', 'generateMobileInputLink', { transactionId }),
		});
		expect(result.items[0].json).toEqual({ transactionId, mobileInputLink: expect.any(String) });
	});
});
