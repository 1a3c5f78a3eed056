import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	DEFAULT_SCOPE,
	jsonObjectOf,
	whereProperties,
	resolveBaseUrl,
	redact,
	signInFailed,
	TEST_BASE_URL_EXPRESSION,
	TEST_PATH,
	tokenUrl,
} from './AbbyyVantageApi.endpoints';

/** What a token endpoint's OAuth error means for the user, by RFC 6749 error code. */
const OAUTH_HINTS: Record<string, string> = {
	invalid_grant:
		'Check Username and Password (and Tenant ID if set). Accounts that sign in through an external identity provider (SSO) cannot use this credential',
	invalid_client: 'Check Client ID and Client Secret',
	unauthorized_client:
		'This API client may not use this grant type: ask your Vantage administrator to allow it, or choose the other Grant Type',
	unsupported_grant_type:
		'This API client may not use this grant type: ask your Vantage administrator to allow it, or choose the other Grant Type',
	invalid_scope: `The API client may not ask for this Scope: keep the default (${DEFAULT_SCOPE}) unless your Vantage administrator gave the client other scopes`,
	invalid_request: 'Check the Base URL: it may not point at ABBYY Vantage',
};

/** What n8n's HTTP helper returns with `returnFullResponse`. */
interface TokenAnswer {
	statusCode: number;
	body?: unknown;
}

/**
 * A readable sign-in failure, built from the token endpoint's status and OAuth error only (the
 * request holds the password and client secret), recorded for the node's transport.
 */
function refused(answer: TokenAnswer, credentials: ICredentialDataDecryptedObject): Error {
	const body = jsonObjectOf(answer.body);
	const code = typeof body?.error === 'string' ? body.error : undefined;
	const description =
		typeof body?.error_description === 'string' ? `: ${body.error_description}` : '';
	const message = code
		? `ABBYY Vantage refused the sign-in (${code}${description}). ${OAUTH_HINTS[code] ?? 'Check the credential'}`
		: `ABBYY Vantage refused the sign-in with HTTP ${answer.statusCode}. Check the Base URL, Client ID and Client Secret`;
	return signInFailed(credentials, redact(message, secretsOf(credentials)));
}

/** The token endpoint gave no answer; the socket's error code only where the error carries one. */
function unreachable(
	error: unknown,
	url: string,
	credentials: ICredentialDataDecryptedObject,
): Error {
	const code = (error as { code?: unknown } | undefined)?.code;
	const message = `Could not reach the ABBYY Vantage token endpoint ${url}${typeof code === 'string' ? ` (${code})` : ''}. Check Region or Base URL`;
	return signInFailed(credentials, redact(message, secretsOf(credentials)));
}

function secretsOf(credentials: ICredentialDataDecryptedObject): unknown[] {
	return [credentials.password, credentials.clientSecret, credentials.accessToken];
}

export class AbbyyVantageApi implements ICredentialType {
	name = 'abbyyVantageApi';

	displayName = 'ABBYY Vantage API';

	icon: Icon = {
		light: 'file:../icons/abbyyVantage.svg',
		dark: 'file:../icons/abbyyVantage.dark.svg',
	};

	documentationUrl = 'https://docs.abbyy.com/vantage/developer/authentication/authentication';

	properties: INodeProperties[] = [
		...whereProperties,
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'options',
			options: [
				{
					name: 'Client Credentials',
					value: 'clientCredentials',
					description:
						'Machine-to-machine sign-in with the API client alone; the only choice for tenants that sign in through an external identity provider (SSO)',
				},
				{
					name: 'Password',
					value: 'password',
					description: 'Sign in as a Vantage user with e-mail and password',
				},
			],
			default: 'password',
			description: 'How the credential signs in to Vantage (OAuth 2.0)',
		},
		{
			displayName: 'Tenant ID',
			name: 'tenantId',
			type: 'string',
			default: '',
			description:
				'Optional. Set it when your e-mail belongs to several tenants: sign-in then uses the tenant-specific token endpoint.',
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
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. name@example.com',
			description:
				'E-mail of a Vantage user. Users who sign in through an external identity provider (SSO) cannot use this password sign-in.',
			displayOptions: { show: { grantType: ['password'] } },
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { grantType: ['password'] } },
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: DEFAULT_SCOPE,
			description:
				'OAuth scopes the sign-in asks for, separated by spaces. ABBYY documents the default for both grant types.',
			hint: 'Keep the default unless your Vantage administrator limited the API client to other scopes (then sign-in fails with invalid_scope). What a user may do is set by their Vantage role, not by scope: a different scope does not fix a 403.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/**
	 * OAuth2 sign-in: the password grant, or the client credentials grant
	 * (docs.abbyy.com/vantage/developer/authentication/client-credentials). n8n calls this when the
	 * stored token is empty (the node empties it after a 401) and on the Test button; it stores the
	 * returned token.
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		let url: string;
		try {
			url = tokenUrl(resolveBaseUrl(credentials), credentials.tenantId);
		} catch (error) {
			throw signInFailed(credentials, `Credential: ${(error as Error).message}`);
		}
		const form = new URLSearchParams(
			credentials.grantType === 'clientCredentials'
				? {
						grant_type: 'client_credentials',
						scope: String(credentials.scope || DEFAULT_SCOPE),
						client_id: String(credentials.clientId ?? ''),
						client_secret: String(credentials.clientSecret ?? ''),
					}
				: {
						grant_type: 'password',
						scope: String(credentials.scope || DEFAULT_SCOPE),
						username: String(credentials.username ?? ''),
						password: String(credentials.password ?? ''),
						client_id: String(credentials.clientId ?? ''),
						client_secret: String(credentials.clientSecret ?? ''),
					},
		);
		let answer: TokenAnswer;
		try {
			// Every answer is returned, not thrown: its status and OAuth error are read here, the
			// same on every n8n (how n8n wraps a thrown HTTP error differs between versions).
			answer = (await this.helpers.httpRequest({
				method: 'POST',
				url,
				body: form.toString(),
				headers: {
					'Content-Type': 'application/x-www-form-urlencoded',
					Accept: 'application/json',
				},
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			})) as TokenAnswer;
		} catch (error) {
			throw unreachable(error, url, credentials);
		}
		if (answer.statusCode < 200 || answer.statusCode >= 300) throw refused(answer, credentials);
		const token = jsonObjectOf(answer.body)?.access_token;
		if (typeof token !== 'string' || token === '') {
			throw signInFailed(
				credentials,
				`The token endpoint ${url} answered without an access token. Check Region or Base URL`,
			);
		}
		return { accessToken: token };
	}

	/**
	 * Bearer header. A function rather than a generic `={{ }}` block: n8n runs it on every request,
	 * and a plain function skips the expression engine each time.
	 */
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: `Bearer ${String(credentials.accessToken ?? '')}`,
		},
	});

	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL_EXPRESSION,
			url: TEST_PATH,
			method: 'GET',
		},
	};
}
