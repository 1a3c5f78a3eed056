import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { runNode, simulatorCredentials } from '../../harness/n8n';
import { binaryFile, fileItem } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { inviteParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const f = useSimulator();

describe('Tenant → Create Invite', () => {
	test('e-mail and tenant name: one invite, output says what was sent', async () => {
		const result = await runNode({ credentials: f.store, parameters: inviteParams() });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{
				json: {
					email: 'new.admin@example.com',
					tenantName: 'Acme Accounts Payable',
					useMySubscription: false,
					invited: true,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(f.sim.invites()).toEqual([
			expect.objectContaining({
				email: 'new.admin@example.com',
				tenantName: 'Acme Accounts Payable',
				validWithin: null,
				useMySubscription: false,
				tenantDescription: null,
				file: null,
			}),
		]);
		const [request] = f.sim.requestsTo('CreateInvite');
		expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		expect(request.body).toEqual({
			model: { email: 'new.admin@example.com', tenantName: 'Acme Accounts Payable' },
			files: [],
		});
	});

	test('every field of the Model, validity as a .NET TimeSpan, and a File part', async () => {
		const logo = Buffer.from('a logo');
		const result = await runNode({
			credentials: f.store,
			items: [fileItem({ logo: binaryFile('logo.png', logo, 'image/png') })],
			parameters: inviteParams({
				email: ' Jo.Doe+ap@sub.example.co.uk ',
				additionalFields: {
					validDays: 1.5,
					useMySubscription: true,
					tenantDescription: 'Accounts payable, EU',
					binaryPropertyName: 'logo',
				},
			}),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({
			email: 'Jo.Doe+ap@sub.example.co.uk',
			tenantName: 'Acme Accounts Payable',
			validWithin: '1.12:00:00',
			useMySubscription: true,
			tenantDescription: 'Accounts payable, EU',
			fileName: 'logo.png',
			invited: true,
		});
		expect(f.sim.invites()[0]).toMatchObject({
			validWithin: '1.12:00:00',
			useMySubscription: true,
			tenantDescription: 'Accounts payable, EU',
			file: {
				name: 'logo.png',
				size: logo.length,
				sha256: createHash('sha256').update(logo).digest('hex'),
			},
		});
	});

	test('bad input is refused before any request, for every item', async () => {
		const cases: Array<[IDataObject, RegExp]> = [
			[{ email: 'not an address' }, /^Email "not an address" is not an e-mail address/],
			[{ email: 'jo@localhost' }, /is not an e-mail address/],
			[{ email: 'Jo <jo@example.com>' }, /is not an e-mail address/],
			[{ email: 'a@b.c' }, /is not an e-mail address/],
			[{ email: `${'x'.repeat(65)}@example.com` }, /is not an e-mail address/],
			[{ email: '={{ "" }}' }, /^Email is empty/],
			[{ tenantName: '={{ "   " }}' }, /^Tenant Name is empty/],
			[{ additionalFields: { validDays: 0 } }, /^Valid For \(Days\) must be a number of days/],
			[{ additionalFields: { validDays: 400 } }, /^Valid For \(Days\) must be a number of days/],
			[
				{ additionalFields: { useMySubscription: '={{ "yes" }}' } },
				/^Use My Subscription must be true or false/,
			],
			[
				{ additionalFields: { binaryPropertyName: 'logo' } },
				/^The input item has no binary field "logo"/,
			],
		];
		for (const [fields, message] of cases) {
			const result = await runNode({ credentials: f.store, parameters: inviteParams(fields) });
			expect(result.error?.message).toMatch(message);
			expect(result.error?.message).toMatch(/\[item 0\]$/);
		}
		// A bad second item: the good first one is not sent either.
		const second = await runNode({
			credentials: f.store,
			items: [{ email: 'ok@example.com' }, { email: 'not-ok' }],
			parameters: inviteParams({ email: '={{ $json.email }}' }),
		});
		expect(second.error?.message).toBe('Email "not-ok" is not an e-mail address [item 1]');
		expect(f.sim.requestsTo('CreateInvite')).toHaveLength(0);
	});

	test('Vantage’s refusal: 403 with advice; a failure that may have reached Vantage is not sent again', async () => {
		const operator = await runNode({
			credentials: simulatorCredentials(f.sim, { username: FIXTURE.operatorUsername }),
			parameters: inviteParams(),
		});
		expect(operator.error?.message).toMatch(/^ABBYY Vantage denied access/);
		expect((operator.error as { description?: string }).description).toMatch(
			/ABBYY support enables invites/,
		);
		f.sim.clearLog();
		f.sim.injectFault('CreateInvite', { kind: 'reset', after: true });
		const lost = await runNode({ credentials: f.store, parameters: inviteParams() });
		expect(f.sim.requestsTo('CreateInvite')).toHaveLength(1);
		expect(f.sim.invites()).toHaveLength(1);
		expect((lost.error as { description?: string }).description).toMatch(
			/may have reached ABBYY Vantage and been applied; it was not sent again/,
		);
	});

	test('a second item’s failure names the invite the first one sent', async () => {
		f.sim.injectFault(
			'CreateInvite',
			{ kind: 'status', status: 400, body: { detail: 'Tenant name taken' } },
			1,
			1,
		);
		const result = await runNode({
			credentials: f.store,
			items: [{ tenant: 'One' }, { tenant: 'Two' }],
			parameters: inviteParams({
				tenantName: '={{ $json.tenant }}',
				options: { concurrency: 1 },
			}),
		});
		expect(result.error?.message).toBe(
			'ABBYY Vantage rejected the request: Tenant name taken [item 1]',
		);
		expect((result.error as { description?: string }).description).toMatch(
			/other items had created: invite for new.admin@example.com \(item 0\)/,
		);
	});
});
