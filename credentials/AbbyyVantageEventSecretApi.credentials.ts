import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * The secret the Custom-activity script (custom-activity/n8n-events.js) signs its events with
 * and the ABBYY Vantage Instant Trigger checks them with: the same value as the tenant's
 * environment variable n8n-events-secret (Vantage: Configuration → Environment Variables). The
 * credential signs no request, so it has no request test: the Instant Trigger tests it
 * (`testedBy`, nodes/AbbyyVantageInstantTrigger/secret.ts).
 */
export class AbbyyVantageEventSecretApi implements ICredentialType {
	name = 'abbyyVantageEventSecretApi';

	displayName = 'ABBYY Vantage Event Secret API';

	icon: Icon = {
		light: 'file:../icons/abbyyVantage.svg',
		dark: 'file:../icons/abbyyVantage.dark.svg',
	};

	documentationUrl =
		'https://github.com/abbyy-vantage-n8n/n8n-nodes-abbyy-vantage/blob/main/docs/instant-trigger.md';

	properties: INodeProperties[] = [
		{
			displayName:
				'Use the value of the environment variable n8n-events-secret of your Vantage tenant (Configuration → Environment Variables): a random text of at least 32 characters that only Vantage and n8n know.',
			name: 'whereNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The secret Vantage signs its events with (at least 32 characters)',
		},
		{
			displayName: 'Previous Secret',
			name: 'previousSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'While you rotate the secret: the old one, still accepted until Vantage signs with the new one (once cleared, refused within 5 seconds). Empty otherwise.',
		},
	];
}
