import type { ICredentialDataDecryptedObject, IWebhookFunctions } from 'n8n-workflow';

/**
 * Credential reads of webhook requests (the Instant Trigger's pushes, a waiting execution's
 * resume), shared for a few seconds by the requests of one node. n8n 2.x reads a credential
 * outside an execution with an expression isolate of its own (a V8 isolate created for the read
 * and disposed after it, about 10 MB): in a burst of pushes those reads doubled the isolates each
 * push costs (BENCHMARKS.md, section 15d). Requests at the same moment wait for one read; later
 * ones within CREDENTIAL_REUSE_MS take its result, each as a copy of its own (n8n writes a new
 * access token into the object it is given). A credential edited in n8n applies to pushes within
 * that time (docs/instant-trigger.md, "How often the trigger reads its credentials").
 */
export const CREDENTIAL_REUSE_MS = 5_000;

/** Reads kept at most: one per node and credential receiving requests now. */
const MAX_KEPT = 256;

interface Kept {
	readAt: number;
	read: Promise<ICredentialDataDecryptedObject>;
}

const kept = new Map<string, Kept>();

export interface WebhookCredential {
	data: ICredentialDataDecryptedObject;
	/** Read by an earlier request (within CREDENTIAL_REUSE_MS), not for this one. */
	reused: boolean;
	/**
	 * Hand `fields` to the requests that take this read later: an access token n8n signed in for,
	 * which it stored in the credential after this read (else each of them would sign in again).
	 */
	share(fields: ICredentialDataDecryptedObject): void;
}

/** Whether `ctx` serves a webhook request (its credential reads cost an isolate each on n8n 2.x). */
export function servesWebhook(ctx: object): ctx is IWebhookFunctions {
	return typeof (ctx as Partial<IWebhookFunctions>).getRequestObject === 'function';
}

/**
 * The node's credential of `type` for this webhook request: read by a request of the same node
 * less than CREDENTIAL_REUSE_MS ago, or read now (`fresh` always reads now). A failed read is not
 * kept.
 */
export async function readWebhookCredential(
	ctx: IWebhookFunctions,
	type: string,
	fresh = false,
): Promise<WebhookCredential> {
	const node = ctx.getNode();
	const credentialId = node.credentials?.[type]?.id;
	const workflowId = ctx.getWorkflow().id;
	if (!credentialId || !workflowId) {
		const data = await ctx.getCredentials<ICredentialDataDecryptedObject>(type);
		return { data, reused: false, share: () => {} };
	}
	const key = JSON.stringify([String(workflowId), node.name, type, credentialId]);
	const now = Date.now();
	const earlier = kept.get(key);
	if (!fresh && earlier && now - earlier.readAt < CREDENTIAL_REUSE_MS) {
		const data = await earlier.read.catch(() => undefined);
		if (data) return { data: { ...data }, reused: true, share: sharing(earlier) };
	}
	const mine: Kept = {
		readAt: now,
		read: ctx.getCredentials<ICredentialDataDecryptedObject>(type),
	};
	forgetOld(now);
	kept.delete(key);
	kept.set(key, mine);
	// A failed read is forgotten; its error reaches this request as n8n gave it.
	mine.read.catch(() => {
		if (kept.get(key) === mine) kept.delete(key);
	});
	return { data: { ...(await mine.read) }, reused: false, share: sharing(mine) };
}

/** Write fields into a kept read, for the copies taken from it later. */
function sharing(entry: Kept): (fields: ICredentialDataDecryptedObject) => void {
	return (fields) => {
		void entry.read.then(
			(data) => Object.assign(data, fields),
			() => undefined,
		);
	};
}

/** Drop reads too old to share, then the oldest beyond MAX_KEPT (a Map keeps insertion order). */
function forgetOld(now: number): void {
	for (const [key, entry] of kept) {
		if (now - entry.readAt >= CREDENTIAL_REUSE_MS || kept.size >= MAX_KEPT) kept.delete(key);
		else break;
	}
}
