import type { ICredentialsDecrypted, ICredentialTestFunctions } from 'n8n-workflow';

import { AbbyyVantageEventSecretApi } from '../../../credentials/AbbyyVantageEventSecretApi.credentials';
import { AbbyyVantageInstantTrigger } from '../../../nodes/AbbyyVantageInstantTrigger/AbbyyVantageInstantTrigger.node';
import { useSimulator } from '../../helpers/fixture';
import { InstantTrigger, randomSecret } from '../../harness/webhook';

const f = useSimulator();
const node = new AbbyyVantageInstantTrigger();
const credential = new AbbyyVantageEventSecretApi();

async function testCredential(data: Record<string, string>) {
	const test = node.methods.credentialTest.abbyyVantageEventSecretTest;
	return await test.call(
		{} as ICredentialTestFunctions,
		{
			id: 'c1',
			name: 'secret',
			type: credential.name,
			data,
		} as ICredentialsDecrypted,
	);
}

describe('the ABBYY Vantage Event Secret credential', () => {
	test('two password fields, tested by the Instant Trigger', () => {
		expect(
			credential.properties
				.filter((p) => p.type === 'string')
				.map((p) => [p.name, p.typeOptions?.password]),
		).toEqual([
			['secret', true],
			['previousSecret', true],
		]);
		const description = node.description.credentials?.find((c) => c.name === credential.name);
		expect(description).toMatchObject({ required: true, testedBy: 'abbyyVantageEventSecretTest' });
		expect(credential.documentationUrl).toMatch(/^https:\/\//);
	});

	test.each<[string, Record<string, string>, 'OK' | 'Error', RegExp]>([
		['a long secret', { secret: 'x'.repeat(32) }, 'OK', /can sign/],
		['a rotation', { secret: 'n'.repeat(40), previousSecret: 'o'.repeat(40) }, 'OK', /can sign/],
		[
			'a short secret',
			{ secret: 'x'.repeat(31) },
			'Error',
			/at least 32 characters long \(it has 31\)/,
		],
		['no secret', {}, 'Error', /at least 32/],
		[
			'the previous secret equal to the secret',
			{ secret: 'x'.repeat(40), previousSecret: 'x'.repeat(40) },
			'Error',
			/must differ/,
		],
		[
			'a short previous secret',
			{ secret: 'x'.repeat(40), previousSecret: 'short' },
			'Error',
			/Previous Secret must be empty or at least 32/,
		],
	])('test: %s → %s', async (_case, data, status, message) => {
		const result = await testCredential(data);
		expect(result).toEqual({ status, message: expect.stringMatching(message) });
		for (const value of Object.values(data))
			if (value.length > 3) expect(result.message).not.toContain(value);
	});

	test('activation refuses a secret that cannot sign events safely, and accepts a good one', async () => {
		const weak = new InstantTrigger({
			credentials: () => f.store,
			secrets: () => ({ secret: 'short' }),
		});
		await expect(weak.activate()).rejects.toThrow(
			'The Event Secret credential cannot be used: Secret must be at least 32 characters long (it has 5)',
		);
		const good = new InstantTrigger({
			credentials: () => f.store,
			secrets: () => ({ secret: randomSecret() }),
		});
		await expect(good.activate()).resolves.toBeUndefined();
	});
});
