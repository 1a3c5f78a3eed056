/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets --
 * Test infrastructure, never shipped: the fixture tenant's secrets are made up. */
/** The fixture tenant the tests, demo and benchmarks sign in to, and sample report data. */

export interface SimUser {
	username: string;
	password: string;
	tenants: string[];
	/** Reporting needs TenantAdministrator or ProcessingSupervisor. */
	roles: string[];
	/**
	 * The user signs in through the tenant's external identity provider (SAML/SSO): no Vantage
	 * password, so the password grant refuses them (invalid_grant); the sign-in page (the identity
	 * provider's, here) takes `password`.
	 */
	sso?: boolean;
}

export interface SimClient {
	clientId: string;
	clientSecret: string;
	/** OAuth2 grants the client may use (default: all three). */
	grants?: Array<'password' | 'client_credentials' | 'authorization_code'>;
	/** The user a client_credentials token acts as (its tenant and roles); default the fixture user. */
	serviceUser?: string;
	/**
	 * Redirect URIs the authorize endpoint accepts, compared exactly (ABBYY support whitelists
	 * them); default FIXTURE.redirectUri. `VantageSimulator.allowRedirectUri` adds one.
	 */
	redirectUris?: string[];
	/** A refresh token is issued only to clients allowed offline access (default true). */
	allowOfflineAccess?: boolean;
}

/** The default tenant the tests, demo and examples use. None of these are real secrets. */
export const FIXTURE = {
	clientId: 'sim-client',
	clientSecret: 'sim-client-secret-4f1c',
	username: 'admin@example.com',
	password: 'sim-password-9b7e',
	tenantId: '6b0b1c9e-1f1d-4a7e-9c38-1f2a3b4c5d6e',
	/** A user whose e-mail belongs to two tenants: needs the tenant-specific endpoint. */
	multiTenantUsername: 'shared@example.com',
	secondTenantId: 'c0a80101-0000-4000-8000-000000000002',
	/** A user without reporting roles. */
	operatorUsername: 'operator@example.com',
	/** A user who signs in through the tenant's identity provider (SSO): no password grant. */
	ssoUsername: 'sso.user@example.com',
	scope: 'openid permissions global.wildcard',
	/** The OAuth2 credential's default scope: ABBYY's, plus offline_access for a refresh token. */
	oauthScope: 'openid permissions global.wildcard offline_access',
	/** ABBYY's `productId` for the authorize request (the Vantage identifier). */
	productId: 'a8548c9b-cb90-4c66-8567-d7372bb9b963',
	/** n8n's OAuth callback on its default address: the fixture client's whitelisted redirect URI. */
	redirectUri: 'http://localhost:5678/rest/oauth2-credential/callback',
	/** Process skill 'Invoice Processing': classify-skill + invoice-skill, two documents per file. */
	processSkillId: 'process-skill',
	/**
	 * Process skill 'Invoice Splitting': the files are cut into documents at each InvoiceNumber
	 * line, a file with a `Continued: yes` line joins the document before it; the documents get
	 * ids other than those GetTransactionDocuments lists, and each Json names its own SourceFiles.
	 * Not a default skill: `sim.defineSkill(splittingSkill())` (./skills.ts) adds it.
	 */
	splittingSkillId: 'split-process-skill',
	/** Document skill 'Invoice' (see ./skills.ts for its fields). */
	documentSkillId: 'invoice-skill',
	/** Classification skill 'Document Classifier': classes Invoice, Receipt, Other. */
	classificationSkillId: 'classify-skill',
	/** Document skill 'Receipt'; skill ids are not always UUIDs, nor lower case. */
	receiptSkillId: 'Receipt',
	/** OCR skill 'OCR': OcrJson and Text result files, no fields. */
	ocrSkillId: 'ocr-skill',
	/** Catalog with the default columns Name (Text, notEmpty) and Country (Text); empty. */
	catalogId: 'Vendors',
	/**
	 * Catalog with one column of each type, empty: Code (Text, notEmpty), Name (Text, notEmpty),
	 * Price (Double), Stock (Integer), ValidFrom (Date).
	 */
	productCatalogId: 'Products',
} as const;

/** The ABBYY Vantage API credential's fields for the fixture tenant on a simulator at `baseUrl`. */
export function fixtureCredentialData(baseUrl: string): Record<string, string> {
	return {
		region: 'custom',
		baseUrl,
		tenantId: '',
		clientId: FIXTURE.clientId,
		clientSecret: FIXTURE.clientSecret,
		username: FIXTURE.username,
		password: FIXTURE.password,
		scope: FIXTURE.scope,
		accessToken: '',
	};
}

/**
 * The ABBYY Vantage OAuth2 API credential's fields for the fixture tenant on a simulator at
 * `baseUrl`, before Connect my account (no token yet).
 */
export function fixtureOAuth2CredentialData(baseUrl: string): Record<string, string> {
	return {
		region: 'custom',
		baseUrl,
		tenantId: '',
		clientId: FIXTURE.clientId,
		clientSecret: FIXTURE.clientSecret,
		vantageScope: FIXTURE.oauthScope,
		productId: FIXTURE.productId,
	};
}

export function defaultUsers(): SimUser[] {
	return [
		{
			username: FIXTURE.username,
			password: FIXTURE.password,
			tenants: [FIXTURE.tenantId],
			roles: ['TenantAdministrator'],
		},
		{
			username: FIXTURE.multiTenantUsername,
			password: FIXTURE.password,
			tenants: [FIXTURE.tenantId, FIXTURE.secondTenantId],
			roles: ['ProcessingSupervisor'],
		},
		{
			username: FIXTURE.operatorUsername,
			password: FIXTURE.password,
			tenants: [FIXTURE.tenantId],
			roles: ['Operator'],
		},
		{
			username: FIXTURE.ssoUsername,
			password: FIXTURE.password,
			tenants: [FIXTURE.tenantId],
			roles: ['TenantAdministrator'],
			sso: true,
		},
	];
}

const CSV_HEADER =
	'SkillId,SkillVersion,SkillName,TransactionId,StepName,StepType,ManualReviewOperatorName,ManualReviewOperatorEmail,StartedUtc,CompletedUtc,Status,Duration,DocumentsCount,PagesCount,document_SourceFileName,document_SourceType,transaction_App';

/** A transaction-steps report CSV with `rows` rows, CRLF line ends. */
export function sampleCsv(rows: number, seed = 'a'): string {
	const lines = [CSV_HEADER];
	for (let i = 0; i < rows; i++) {
		lines.push(
			`${FIXTURE.processSkillId},3,Invoices,${seed}-${i},Extract,Automatic,,,11/17/2025 10:00:0${i % 10},11/17/2025 10:00:1${i % 10},FinishedSuccessfully,${i + 1},1,${i + 2},invoice-${i}.pdf,Api,n8n`,
		);
	}
	return lines.join('\r\n') + '\r\n';
}
