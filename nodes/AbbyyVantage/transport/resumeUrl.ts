import type { IHttpRequestOptions, IPollFunctions } from 'n8n-workflow';

/**
 * The one request the package sends to n8n itself: a signed event re-sent to a waiting execution's
 * resume URL (the polling trigger's safety net, nodes/AbbyyVantageTrigger/safetyNet.ts), through
 * n8n's HTTP helper and with no credential (the event carries its own signature). n8n answers at
 * once (202 taken, 409 finished or received before, 404 not waiting for it); the status is all
 * the caller reads, and no answer counts as 0.
 */

/** How long a re-send may take: the waiting webhook answers before it does any work. */
const RESEND_TIMEOUT_MS = 15_000;

export async function postToResumeUrl(
	ctx: Pick<IPollFunctions, 'helpers'>,
	url: string,
	body: string,
	headers: Record<string, string>,
): Promise<number> {
	const options: IHttpRequestOptions = {
		method: 'POST',
		url,
		body,
		headers,
		timeout: RESEND_TIMEOUT_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		json: false,
	};
	try {
		const response = (await ctx.helpers.httpRequest(options)) as { statusCode?: unknown };
		return typeof response?.statusCode === 'number' ? response.statusCode : 0;
	} catch {
		return 0;
	}
}
