import type {
	IDataObject,
	INodeExecutionData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { DEFAULT_POLL_INTERVAL_SECONDS, SECOND_MS } from '../../constants';
import { plainMessage } from '../../helpers/errors';
import type { PollSettings } from '../../helpers/polling';
import { VantageClient, isWaitHiccup } from '../../transport';
import { watchTransaction } from '../../vantage/confirmation';
import { answerPush, checkPushedRequest } from '../../vantage/eventSecret';
import type { PushedEvent } from '../../vantage/pushedEvents';
import { FINAL_STATUSES, Transactions, type TransactionInfo } from '../../vantage/transactions';
import {
	recordOf,
	WAIT_KEY,
	type Resumed,
	type ResumeContext,
	type WaitEntry,
} from './durableWait';
import * as processDocument from './processDocument.operation';
import * as waitForTransaction from './waitForTransaction.operation';

/**
 * The node's `webhook()`: a call of a waiting execution's resume URL (./durableWait.ts), which the
 * Custom-activity script posts its signed event to (the transaction's n8nResumeUrl), and the
 * polling trigger's safety net re-sends to. n8n checks its own token first where the line has one
 * (2.x); then, in the push contract's order (docs/instant-trigger.md): the signature with the
 * Event Secret credential, fresh; the execution waits for this very transaction (read from what
 * n8n stored, never from the request); the event was not received before. It answers 202 at once,
 * confirms through the Vantage API that the transaction has ended (the script posts from inside
 * its flow), reads every other transaction of the wait, and resumes only when all have ended:
 * then it returns the node's output. Anything less answers and leaves the execution waiting (no
 * `workflowData`). Nothing is thrown: n8n would resume a webhook that throws with an error.
 */

/**
 * The node's webhook: a waiting execution's resume URL, declared as n8n's Wait node declares its
 * own. A restart webhook is registered by no activation (n8n skips them), so there is nothing to
 * create or delete in Vantage: n8n calls it only for an execution that waits at this node.
 */
export const RESUME_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
		isFullPath: true,
	},
];

/** The wait for Vantage to show the pushed transaction ended: a check at once, then backing off. */
const CONFIRMATION: PollSettings = {
	intervalMs: DEFAULT_POLL_INTERVAL_SECONDS * SECOND_MS,
	maxIntervalMs: 30 * SECOND_MS,
	timeoutMs: 600 * SECOND_MS,
};

/**
 * A push this close to the Wait Limit does not resume: n8n's own resume at the limit may already
 * have begun, and n8n 1.x would then run the rest of the workflow twice.
 */
export const LIMIT_MARGIN_MS = 5 * SECOND_MS;

/** How long this n8n process remembers an event id (a signed request is fresh for 5 minutes). */
const EVENT_MEMORY_MS = 10 * 60_000;
/** How long it remembers that a transaction ended, and that a wait was resumed. */
const FACT_MEMORY_MS = 24 * 3600_000;
const MAX_REMEMBERED = 10_000;

/** Facts this n8n process remembers for a while, by key: each with when it was learnt. */
class Memory<V> {
	private readonly map = new Map<string, { at: number; value: V }>();

	constructor(private readonly ttlMs: number) {}

	get(key: string, now = Date.now()): V | undefined {
		const found = this.map.get(key);
		if (!found) return undefined;
		if (now - found.at > this.ttlMs) {
			this.map.delete(key);
			return undefined;
		}
		return found.value;
	}

	set(key: string, value: V, now = Date.now()): void {
		this.map.delete(key);
		this.map.set(key, { at: now, value });
		// Insertion order is age order: the oldest go first.
		while (this.map.size > MAX_REMEMBERED) this.map.delete(this.map.keys().next().value!);
	}

	delete(key: string): void {
		this.map.delete(key);
	}
}

/** Event ids received (replays are refused). */
const events = new Memory<true>(EVENT_MEMORY_MS);
/** Transactions seen ended, with their status: they do not change any more. */
const ended = new Memory<string>(FACT_MEMORY_MS);
/** Waits resumed or being resumed, by `<execution id>:<wait start>`: each resumes once. */
const resumed = new Memory<true>(FACT_MEMORY_MS);

function hasEnded(info: TransactionInfo): boolean {
	return FINAL_STATUSES.includes(info.status);
}

function inReview(info: TransactionInfo): boolean {
	return (
		info.status === 'Processing' &&
		typeof info.manualReviewLink === 'string' &&
		info.manualReviewLink !== ''
	);
}

/**
 * The wait's entries as n8n stored them: the node's input while it waits (./durableWait.ts). In
 * `webhook()` n8n gives the node the waiting stack entry's input as its input data; `$input.all()`
 * reads it (as JSON alone when the workflow keeps binary data in its JSON: the entries have none).
 */
function readEntries(ctx: IWebhookFunctions): WaitEntry[] {
	let value: unknown;
	try {
		value = ctx.evaluateExpression('{{ $input.all() }}', 0);
	} catch {
		return [];
	}
	if (!Array.isArray(value)) return [];
	const entries: WaitEntry[] = [];
	for (const item of value as unknown[]) {
		if (!item || typeof item !== 'object') return [];
		const candidate = item as { json?: unknown; pairedItem?: unknown };
		const json = (
			candidate.json && typeof candidate.json === 'object' ? candidate.json : item
		) as IDataObject;
		const record = json[WAIT_KEY] as IDataObject | undefined;
		if (
			!record ||
			record.v !== 1 ||
			typeof record.since !== 'number' ||
			typeof record.until !== 'number' ||
			!Array.isArray(record.items) ||
			(record.failed !== true && typeof json.transactionId !== 'string')
		) {
			return [];
		}
		const items = record.items as number[];
		entries.push({
			json: json as WaitEntry['json'],
			pairedItem: items.length === 1 ? { item: items[0] } : items.map((i) => ({ item: i })),
		});
	}
	return entries;
}

/** What a push answers and why, for n8n's log (never the resume URL: it carries n8n's token). */
function describe(event: PushedEvent, executionId: string): string {
	return `event ${event.eventId} (transaction ${event.transactionId}) for execution ${executionId}`;
}

export async function resume(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const answer = (status: number, body: IDataObject): IWebhookResponseData =>
		answerPush(ctx, status, body);
	const node = ctx.getNode().name;
	const executionId = String(ctx.getExecutionId() ?? '');
	const verdict = await checkPushedRequest(ctx);
	if (!verdict.ok) {
		ctx.logger.info(
			`${node}: refused a push to execution ${executionId} with ${verdict.status}: ${verdict.reason}`,
		);
		return answer(verdict.status, { status: 'refused', message: verdict.reason });
	}
	const event = verdict.event;

	// Which transactions this execution waits for: what n8n stored, not what the request says.
	const entries = readEntries(ctx);
	if (!entries.length) {
		ctx.logger.info(`${node}: refused ${describe(event, executionId)}: it waits for no push`);
		return answer(404, { status: 'refused', message: 'This execution does not wait for a push' });
	}
	const wanted = event.transactionId.toLowerCase();
	const own = entries.find(
		(e) => !recordOf(e).failed && String(e.json.transactionId).toLowerCase() === wanted,
	);
	if (!own) {
		ctx.logger.info(
			`${node}: refused ${describe(event, executionId)}: not one of its transactions`,
		);
		return answer(404, {
			status: 'refused',
			message: `This execution does not wait for transaction ${event.transactionId}`,
		});
	}
	const { since, until } = recordOf(own);
	const waitKey = `${executionId}:${since}`;
	if (events.get(event.eventId)) {
		ctx.logger.info(`${node}: ${describe(event, executionId)} was received before`);
		return answer(409, { status: 'duplicate', message: 'This event was received before' });
	}
	events.set(event.eventId, true);
	if (resumed.get(waitKey)) {
		return answer(409, { status: 'duplicate', message: 'This execution is resuming already' });
	}
	answer(202, { status: 'accepted', eventId: event.eventId });

	let outcome: { resumed: INodeExecutionData[] } | { declined: string };
	try {
		outcome = await decide(ctx, event, entries, waitKey, until);
	} catch (error) {
		// The transport's messages carry no credential secret (it redacts them).
		outcome = { declined: plainMessage(error) };
	}
	if ('declined' in outcome) {
		ctx.logger.info(
			`${node}: ${describe(event, executionId)} resumes nothing yet: ${outcome.declined}`,
		);
		return { noWebhookResponse: true };
	}
	ctx.logger.info(`${node}: ${describe(event, executionId)} resumes it`);
	// One output: Process Document refuses Send to Second Output with this wait, since n8n 1.x
	// passes on only a resumed node's first output (docs/needs-review.md).
	return { noWebhookResponse: true, workflowData: [outcome.resumed] };
}

/**
 * After the 202: confirm the pushed transaction, check the others, and, when all have ended,
 * claim the resume and build the output.
 */
async function decide(
	ctx: IWebhookFunctions,
	event: PushedEvent,
	entries: WaitEntry[],
	waitKey: string,
	until: number,
): Promise<{ resumed: INodeExecutionData[] } | { declined: string }> {
	const client = new VantageClient(ctx);
	const transactions = new Transactions(ctx, client);
	// The script posts from inside the transaction's flow: wait for Vantage to show where it went.
	// Placed before Review, the push ends at Manual Review; a skill without review ends instead.
	const watched = await watchTransaction(transactions, event.transactionId, CONFIRMATION, (info) =>
		hasEnded(info) || (event.event === 'transaction.manualReview' && inReview(info))
			? info
			: undefined,
	);
	if ('failed' in watched) return { declined: `reading it failed: ${watched.failed}` };
	if ('timedOut' in watched) {
		return {
			declined: `Vantage did not show it ended within ${CONFIRMATION.timeoutMs / 1000} s (last status: ${watched.lastStatus ?? 'unknown'})`,
		};
	}
	if (!hasEnded(watched.value)) return { declined: 'it waits in Manual Review' };

	// Every transaction of the wait must have ended. Each is read (an ended one is remembered).
	const finals = new Map<string, TransactionInfo | Error>();
	finals.set(event.transactionId.toLowerCase(), watched.value);
	ended.set(event.transactionId.toLowerCase(), watched.value.status);
	const pending: string[] = [];
	for (const entry of entries) {
		if (recordOf(entry).failed) continue;
		const id = String(entry.json.transactionId).toLowerCase();
		if (finals.has(id) || ended.get(id)) continue;
		const read = await transactions.get(id).then(
			(info) => ({ info }),
			(error: unknown) => ({ error }),
		);
		if ('error' in read) {
			// A passing failure cannot tell; a definite one (deleted, another tenant) is its outcome.
			if (isWaitHiccup(read.error)) return { declined: `reading ${id} failed for now` };
			finals.set(
				id,
				read.error instanceof Error ? read.error : new Error(plainMessage(read.error)),
			);
			continue;
		}
		if (!hasEnded(read.info)) {
			pending.push(id);
			break;
		}
		ended.set(id, read.info.status);
		finals.set(id, read.info);
	}
	if (pending.length) return { declined: `transaction ${pending[0]} has not ended` };
	// One resume per wait, claimed with no await since the last check.
	if (resumed.get(waitKey)) return { declined: 'another push is resuming it' };
	resumed.set(waitKey, true);
	try {
		return await build(ctx, client, transactions, entries, finals, until);
	} catch (error) {
		// Nothing was resumed: a later push (or the safety net's re-send) tries again.
		resumed.delete(waitKey);
		return { declined: plainMessage(error) };
	}
}

/** The node's output once every transaction of the wait has ended. */
async function build(
	ctx: IWebhookFunctions,
	client: VantageClient,
	transactions: Transactions,
	entries: WaitEntry[],
	finals: Map<string, TransactionInfo | Error>,
	until: number,
): Promise<{ resumed: INodeExecutionData[] } | { declined: string }> {
	// Those remembered as ended are read once more for the output.
	for (const entry of entries) {
		if (recordOf(entry).failed) continue;
		const id = String(entry.json.transactionId).toLowerCase();
		if (finals.has(id)) continue;
		finals.set(
			id,
			await transactions.get(id).then(
				(info) => info,
				(error: unknown) => (error instanceof Error ? error : new Error(plainMessage(error))),
			),
		);
	}
	const r: ResumeContext = {
		client,
		entries,
		final: (transactionId) =>
			finals.get(transactionId.toLowerCase()) ??
			new Error(`Transaction ${transactionId} was not read`),
	};
	const operation = ctx.getNodeParameter('operation', '');
	const built: Resumed =
		operation === 'processDocument'
			? await processDocument.resume(ctx, r)
			: await waitForTransaction.resume(ctx, r);
	if (Date.now() >= until - LIMIT_MARGIN_MS) {
		// n8n's own resume at the Wait Limit outputs the entries; this one must not run as well.
		return { declined: 'the Wait Limit ends this wait now' };
	}
	await built.finish();
	return { resumed: built.items };
}
