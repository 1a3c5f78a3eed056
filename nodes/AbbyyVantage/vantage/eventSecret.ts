import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { plainMessage } from '../helpers/errors';
import { readWebhookCredential } from '../transport/webhookCredentials';
import { checkEvent, SIGNATURE_MISMATCH, type Verdict } from './pushedEvents';

/**
 * The ABBYY Vantage Event Secret API credential (credentials/AbbyyVantageEventSecretApi.credentials.ts):
 * its rules and test, shared by the Instant Trigger, the node's durable wait for Manual Review and
 * the polling trigger's re-sends.
 */

/** The Event Secret credential's type. */
export const EVENT_SECRET = 'abbyyVantageEventSecretApi';

/** The shortest secret accepted: 32 characters (256 bits when random, HMAC-SHA256's key strength). */
export const MIN_SECRET_LENGTH = 32;

/** The credential's secrets: the current one, then the previous one while a rotation is under way. */
export function secretsOf(credentials: ICredentialDataDecryptedObject | undefined): string[] {
	const secret = typeof credentials?.secret === 'string' ? credentials.secret : '';
	const previous =
		typeof credentials?.previousSecret === 'string' ? credentials.previousSecret : '';
	return [secret, previous].filter((s) => s !== '');
}

/** Why the credential cannot be used, or undefined when it can. Never quotes a secret. */
export function secretProblem(
	credentials: ICredentialDataDecryptedObject | undefined,
): string | undefined {
	const secret = typeof credentials?.secret === 'string' ? credentials.secret : '';
	const previous =
		typeof credentials?.previousSecret === 'string' ? credentials.previousSecret : '';
	if (secret.length < MIN_SECRET_LENGTH) {
		return `Secret must be at least ${MIN_SECRET_LENGTH} characters long (it has ${secret.length})`;
	}
	if (previous !== '' && previous.length < MIN_SECRET_LENGTH) {
		return `Previous Secret must be empty or at least ${MIN_SECRET_LENGTH} characters long (it has ${previous.length})`;
	}
	if (previous === secret) {
		return 'Previous Secret must differ from Secret: during a rotation it holds the old secret, otherwise leave it empty';
	}
	return undefined;
}

/** The credential's test (`testedBy`): the secret long enough, the previous one different. */
export async function testEventSecret(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const problem = secretProblem(credential.data);
	return problem
		? { status: 'Error', message: problem }
		: { status: 'OK', message: 'The secret can sign events' };
}

/**
 * Answer a pushed request through n8n's response object, as JSON; n8n then sends nothing of its
 * own (`noWebhookResponse`).
 */
export function answerPush(
	ctx: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/**
 * The request of this webhook call checked as a pushed event (./pushedEvents.ts), with the Event
 * Secret credential's secrets (read once every few seconds per node: ../transport/webhookCredentials.ts).
 * A signature the secrets read earlier refuse is checked again with the credential as stored now,
 * so a secret added for a rotation is taken at once. A credential that cannot be read gives no
 * secret: every signature is refused, and n8n's log says why.
 */
export async function checkPushedRequest(ctx: IWebhookFunctions): Promise<Verdict> {
	const req = ctx.getRequestObject();
	const request = { headers: req.headers, rawBody: req.rawBody, body: req.body };
	const read = async (fresh: boolean) => {
		try {
			return await readWebhookCredential(ctx, EVENT_SECRET, fresh);
		} catch (error) {
			ctx.logger.warn(
				`${ctx.getNode().name}: the Event Secret credential cannot be read (${plainMessage(error)})`,
			);
			return undefined;
		}
	};
	const credential = await read(false);
	const verdict = checkEvent(request, secretsOf(credential?.data), Date.now());
	if (verdict.ok || verdict.reason !== SIGNATURE_MISMATCH || !credential?.reused) return verdict;
	return checkEvent(request, secretsOf((await read(true))?.data), Date.now());
}
