import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { VANTAGE_API, VANTAGE_PKCE } from '../transport/auth';
import { EVENT_SECRET } from '../vantage/eventSecret';

/** The node's and the trigger's Authentication parameter, as n8n's own nodes offer it. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'OAuth2 (Sign In as Yourself)',
			value: 'oAuth2',
			description:
				'ABBYY Vantage OAuth2 API credential: Connect my account signs you in on Vantage’s own page, single sign-on included; transactions and reports are then yours',
		},
		{
			name: 'Password or Client Credentials',
			value: 'vantageApi',
			description:
				'ABBYY Vantage API credential: a Vantage user’s e-mail and password, or the API client alone acting as its service user',
		},
	],
	default: 'vantageApi',
};

/** The two credentials, each shown for its Authentication choice. */
export const credentialDescriptions: INodeCredentialDescription[] = [
	{
		name: VANTAGE_API,
		required: true,
		displayOptions: { show: { authentication: ['vantageApi'] } },
	},
	{
		name: VANTAGE_PKCE,
		required: true,
		displayOptions: { show: { authentication: ['oAuth2'] } },
	},
];

/**
 * The ABBYY Vantage Event Secret API credential, for the operations that can wait for Vantage to
 * push (Process Document, Wait For Transaction: On Manual Review → Resume When Vantage Pushes):
 * the resume URL accepts only events signed with it. Optional: the operation asks for it when that
 * choice is made. Shown for the Transaction resource, not per operation: n8n's editor hides every
 * parameter that a credential's displayOptions reach through another parameter (its
 * isAuthRelatedParameter), and `operation` is shown by `resource`, so naming it here would hide
 * the Resource picker.
 */
const durableWaitCredential: INodeCredentialDescription = {
	name: EVENT_SECRET,
	required: false,
	displayOptions: { show: { resource: ['transaction'] } },
};

/** The ABBYY Vantage node's credentials: the two sign-ins, and the Event Secret for durable waits. */
export const actionCredentialDescriptions: INodeCredentialDescription[] = [
	...credentialDescriptions,
	durableWaitCredential,
];
