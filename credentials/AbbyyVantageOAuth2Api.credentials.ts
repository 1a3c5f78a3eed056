import type { ICredentialTestRequest, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_OAUTH2_SCOPE,
	oauthEndpointExpression,
	whereProperties,
	TEST_BASE_URL_EXPRESSION,
	TEST_PATH,
	VANTAGE_PRODUCT_ID,
} from './AbbyyVantageApi.endpoints';

/**
 * Sign in as yourself: the OAuth 2.0 authorization code flow with PKCE
 * (docs.abbyy.com/vantage/developer/authentication/authorization-code-flow), on n8n's own OAuth2
 * machinery: n8n shows "Connect my account", opens Vantage's sign-in page (SSO included), exchanges
 * the code with its PKCE verifier, stores the tokens and refreshes them.
 *
 * n8n reads the authorize and token URLs, the scope and the authorize query from hidden fields
 * (n8n 1.x drops a stored `scope` of any OAuth2 type but its generic ones, and 2.x pins hidden
 * URLs to their defaults), so each is an expression over the visible fields (`$self`).
 */
export class AbbyyVantageOAuth2Api implements ICredentialType {
	name = 'abbyyVantageOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'ABBYY Vantage OAuth2 API';

	icon: Icon = {
		light: 'file:../icons/abbyyVantage.svg',
		dark: 'file:../icons/abbyyVantage.dark.svg',
	};

	documentationUrl =
		'https://docs.abbyy.com/vantage/developer/authentication/authorization-code-flow';

	properties: INodeProperties[] = [
		{
			displayName:
				'Connecting signs you in on Vantage’s own page (single sign-on included): every transaction, review link and report is then yours. Vantage accepts it only once n8n’s OAuth Redirect URL is among the API client’s redirect URLs: ask ABBYY support or your tenant administrator to add it.',
			name: 'redirectNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'pkce',
		},
		...whereProperties,
		{
			displayName: 'Tenant ID',
			name: 'tenantId',
			type: 'string',
			default: '',
			description:
				'Optional. Set it when your e-mail belongs to several tenants: sign-in then uses the tenant’s own endpoints (/auth2/{tenantId}/connect/authorize and /token).',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description: 'ID of the API client your Vantage administrator registered for the tenant',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Scope',
			name: 'vantageScope',
			type: 'string',
			default: DEFAULT_OAUTH2_SCOPE,
			description:
				'OAuth scopes the sign-in asks for, separated by spaces: ABBYY’s documented scope plus offline_access, which lets n8n renew the sign-in without you',
			hint: 'ABBYY says these values may change: change them only when ABBYY or your administrator says so. Without offline_access, Vantage issues no refresh token and you must reconnect whenever the access token expires.',
		},
		{
			displayName: 'Product ID',
			name: 'productId',
			type: 'string',
			default: VANTAGE_PRODUCT_ID,
			description:
				'The Vantage identifier the sign-in page asks for (productId). Keep ABBYY’s default unless ABBYY gives you another.',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: oauthEndpointExpression('authorize'),
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: oauthEndpointExpression('token'),
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: `={{ String($self.vantageScope ?? "").trim() || ${JSON.stringify(DEFAULT_OAUTH2_SCOPE)} }}`,
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: `={{ "productId=" + encodeURIComponent(String($self.productId ?? "").trim() || ${JSON.stringify(VANTAGE_PRODUCT_ID)}) }}`,
		},
		{
			// client_id and client_secret in the form, as ABBYY's token requests list them: every n8n
			// line refreshes so, and n8n 2.x exchanges the code so too; n8n 1.x ignores this for a
			// PKCE code exchange and sends the client as HTTP Basic, which RFC 6749 §2.3.1 says a token
			// endpoint must accept (docs/credentials.md, "What n8n sends").
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
	];

	// n8n's editor offers no Test for an OAuth2 credential with the code or PKCE grant (it shows
	// Connect instead): users check the connection with a Catalog → Get Many step.
	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL_EXPRESSION,
			url: TEST_PATH,
			method: 'GET',
		},
	};
}
