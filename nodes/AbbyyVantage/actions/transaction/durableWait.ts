import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';

import { parseUrl } from '../../../../credentials/AbbyyVantageApi.endpoints';
import { MAX_PARAMETERS } from '../../constants';
import { invalid, plainMessage } from '../../helpers/errors';
import { namesOwnMachine } from '../../helpers/internalAddress';
import { runsAsTool } from '../../agent/mode';
import { EVENT_SECRET, secretProblem } from '../../vantage/eventSecret';
import { RESUME_URL_PARAMETER } from '../../vantage/pushedEvents';
import type { VantageClient } from '../../transport';
import type { ResultOptions } from '../../vantage/results';
import type { KeyValue, TransactionInfo, TransactionParameters } from '../../vantage/transactions';
import { readWaitLimitMs } from './waiting';

/**
 * On Manual Review → Resume When Vantage Pushes: the execution waits in n8n's database for the
 * review instead of in memory (docs/process-documents.md#waiting-for-manual-review-without-holding-a-worker).
 *
 * How n8n waits (read in n8n-core's workflow-execute.js and n8n's waiting-webhooks.js on 2.41, 1.123
 * and 1.85): `putExecutionToWait(date)` stores the execution with the node's execution-stack entry
 * (its input) pushed back; no worker holds it. A call of the execution's resume URL (`$execution
 * .resumeUrl`) runs the node's `webhook()` (./resume.ts); the items it returns become the node's
 * output. When the date comes first, n8n runs the node disabled: it outputs its input, unread.
 *
 * So the node, before it waits, replaces its stack entry's input with one entry per transaction
 * (or item that failed before the wait): JSON only, small, with what the resume needs under
 * `durableWait` (WaitRecord). At the Wait Limit those entries are the output, each saying
 * `waitLimitReached: true`, so the limit is never silent; on a push, `webhook()` reads them back as
 * its input (the one record of this wait n8n keeps) and answers with the results.
 */

/** The key of a waiting entry's json that holds what the resume needs. */
export const WAIT_KEY = 'durableWait';

/** What the node keeps about one transaction (or one failed item) while it waits. */
export interface WaitRecord extends IDataObject {
	v: 1;
	/** When the wait began (ms since the epoch): with the execution id, it names this wait. */
	since: number;
	/** When the Wait Limit ends it (ms). */
	until: number;
	/** The input items this entry answers. */
	items: number[];
	/** An item that failed before the wait: the entry is its error item's json. */
	failed?: boolean;
	/** Process Document: its item's result options. */
	results?: ResultOptions & IDataObject;
	/** Process Document, One for All Items: each file's stored name and input item, for pairing. */
	files?: Array<{ name: string; item: number }>;
	/** Process Document: what its output items carry besides the results (upload method, polls). */
	extra?: IDataObject;
}

/** A waiting entry: the item the Wait Limit outputs, with the record the resume reads. */
export interface WaitEntry extends INodeExecutionData {
	json: IDataObject & { [WAIT_KEY]: WaitRecord };
	pairedItem: IPairedItemData | IPairedItemData[];
}

/** The record of a waiting entry. */
export function recordOf(entry: WaitEntry): WaitRecord {
	return entry.json[WAIT_KEY];
}

/** An entry's json without its record: the item as it was. */
export function withoutRecord(json: IDataObject): IDataObject {
	const copy = { ...json };
	delete copy[WAIT_KEY];
	return copy;
}

/** What webhook() hands an operation to build its output once every transaction has ended. */
export interface ResumeContext {
	client: VantageClient;
	/** The wait's entries, in item order, as n8n kept them. */
	entries: WaitEntry[];
	/** A transaction of the wait as read at the resume (it has ended), or why it could not be read. */
	final(transactionId: string): TransactionInfo | Error;
}

/** The node's output after the wait, and what to do once the resume is sure (Delete After Reading). */
export interface Resumed {
	items: INodeExecutionData[];
	finish(): Promise<void>;
}

/** What an operation hands over to wait: per transaction or failed item, its item and record parts. */
export interface Waiting {
	/** The item as On Manual Review → Output the Link gives it (or the error item's json). */
	json: IDataObject;
	items: number[];
	failed?: boolean;
	results?: ResultOptions;
	files?: Array<{ name: string; item: number }>;
	extra?: IDataObject;
}

/** The registration parameter values Vantage stores: at most 256 characters (vantage-api.md §2). */
const MAX_PARAMETER_VALUE = 256;

/** What a durable wait needs, read and checked before any upload. */
export interface DurableWait {
	resumeUrl: string;
	limitMs: number;
}

/**
 * Read and check what a durable wait needs, from the first item, before anything is sent: not as
 * an AI agent's tool (a tool call cannot wait), the Event Secret credential set and usable (the
 * resume URL refuses what it does not sign), and a resume URL Vantage can store (at most 256
 * characters: n8n's is WEBHOOK_URL + /webhook-waiting/<execution id>, plus its token on n8n 2.x)
 * and reach (not n8n's own machine, unless Vantage's address names it too).
 */
export async function readDurableWait(
	ctx: IExecuteFunctions,
	options: IDataObject,
	client: VantageClient,
): Promise<DurableWait> {
	const what = 'On Manual Review → Resume When Vantage Pushes';
	if (runsAsTool(ctx)) {
		throw invalid(
			ctx,
			0,
			`${what} cannot be used when the node runs as an AI agent’s tool`,
			'A tool call must answer at once. Choose Output the Link and Stop Waiting instead.',
		);
	}
	let credentials: ICredentialDataDecryptedObject | undefined;
	try {
		credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(EVENT_SECRET);
	} catch (error) {
		throw invalid(
			ctx,
			0,
			`${what} needs the ABBYY Vantage Event Secret credential (${plainMessage(error)})`,
			'Select the Event Secret credential in the node: Vantage’s Custom-activity script signs its push with the same secret (n8n-events-secret), and the node refuses pushes it cannot verify.',
		);
	}
	const problem = secretProblem(credentials);
	if (problem) {
		throw invalid(
			ctx,
			0,
			`The Event Secret credential cannot be used: ${problem}`,
			'Edit the ABBYY Vantage Event Secret credential: its Secret is the value of n8n-events-secret in Vantage’s Configuration → Environment Variables.',
		);
	}
	const resumeUrl = ctx.evaluateExpression('{{ $execution.resumeUrl }}', 0);
	if (typeof resumeUrl !== 'string' || !/^https?:\/\/[^/]/i.test(resumeUrl)) {
		throw invalid(
			ctx,
			0,
			`${what}: n8n gave no resume URL for this execution (${JSON.stringify(resumeUrl)})`,
		);
	}
	if (resumeUrl.length > MAX_PARAMETER_VALUE) {
		throw invalid(
			ctx,
			0,
			`${what}: n8n’s resume URL for this execution has ${resumeUrl.length} characters; Vantage stores at most ${MAX_PARAMETER_VALUE} in a registration parameter`,
			'Shorten n8n’s public address: set WEBHOOK_URL to a shorter host name (the resume URL is WEBHOOK_URL + /webhook-waiting/<execution ID>, plus a token on n8n 2.x).',
		);
	}
	// n8n builds the URL from WEBHOOK_URL, http://localhost:5678/ when unset (on a queue worker
	// too): Vantage elsewhere would post to itself, and the wait would last until its limit.
	const resume = parseUrl(resumeUrl);
	const vantage = parseUrl(await client.baseUrl(0));
	if (resume && vantage && namesOwnMachine(resume.hostname) && !namesOwnMachine(vantage.hostname)) {
		throw invalid(
			ctx,
			0,
			`${what}: n8n’s resume URL for this execution (${resume.origin}/…) names n8n’s own machine, which ABBYY Vantage at ${vantage.host} cannot reach`,
			'Set WEBHOOK_URL to the public HTTPS address of n8n that Vantage reaches (in queue mode on the workers too: the one that runs the node builds the resume URL), or choose another On Manual Review.',
		);
	}
	return { resumeUrl, limitMs: readWaitLimitMs(ctx, 0, options) };
}

/**
 * The transaction's parameters with the resume URL added as registration parameter
 * RESUME_URL_PARAMETER, where the Custom-activity script finds it. Refused when the user's own
 * registration parameters leave no room for it or already name it.
 */
export function withResumeUrl(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameters: TransactionParameters,
	resumeUrl: string,
): TransactionParameters {
	const own = parameters.registrationParameters;
	if (own.some((p) => p.key === RESUME_URL_PARAMETER)) {
		throw invalid(
			ctx,
			itemIndex,
			`Registration Parameters name ${RESUME_URL_PARAMETER}, which Resume When Vantage Pushes sets itself`,
			'Remove it from Registration Parameters.',
		);
	}
	if (own.length >= MAX_PARAMETERS) {
		throw invalid(
			ctx,
			itemIndex,
			`Registration Parameters hold ${own.length}; Resume When Vantage Pushes needs one more (${RESUME_URL_PARAMETER}) and Vantage takes at most ${MAX_PARAMETERS}`,
			`Remove one, or choose another On Manual Review.`,
		);
	}
	const added: KeyValue = { key: RESUME_URL_PARAMETER, value: resumeUrl };
	return { ...parameters, registrationParameters: [...own, added] };
}

function pairedItemOf(items: number[]): IPairedItemData | IPairedItemData[] {
	return items.length === 1 ? { item: items[0] } : items.map((item) => ({ item }));
}

/** The wait's entries: the items the Wait Limit outputs, each with its record. */
export function waitEntries(waiting: Waiting[], since: number, limitMs: number): WaitEntry[] {
	const until = since + limitMs;
	return waiting.map((w) => {
		const record: WaitRecord = { v: 1, since, until, items: w.items };
		if (w.failed) record.failed = true;
		if (w.results) record.results = { ...w.results } as ResultOptions & IDataObject;
		if (w.files) record.files = w.files;
		if (w.extra) record.extra = w.extra;
		return {
			json: {
				...w.json,
				...(w.failed
					? {}
					: {
							waitLimitReached: true,
							waitStartedAt: new Date(since).toISOString(),
							waitLimitAt: new Date(until).toISOString(),
						}),
				[WAIT_KEY]: record,
			},
			pairedItem: pairedItemOf(w.items),
		};
	});
}

/**
 * Put the execution to waiting for `waiting` (some transaction in review): the stack entry's input
 * becomes the wait's entries (see above), the execution waits until the Wait Limit, and the node's
 * output while it waits is each entry as it stands, `waitingSince` and `waitLimitAt` added.
 */
export async function waitDurably(
	ctx: IExecuteFunctions,
	waiting: Waiting[],
	wait: DurableWait,
): Promise<INodeExecutionData[]> {
	const since = Date.now();
	const entries = waitEntries(waiting, since, wait.limitMs);
	// n8n pushes this very entry back onto the execution stack and stores it with the execution:
	// what a resume reads and what the Wait Limit outputs.
	ctx.getExecuteData().data = { main: [entries] };
	await ctx.putExecutionToWait(new Date(since + wait.limitMs));
	return waiting.map((w) => ({
		json: w.failed
			? w.json
			: {
					...w.json,
					waitingSince: new Date(since).toISOString(),
					waitLimitAt: new Date(since + wait.limitMs).toISOString(),
				},
		pairedItem: pairedItemOf(w.items),
	}));
}

/** A failed item (Continue On Fail) as a waiting entry: it comes out again as it is. */
export function failedEntry(output: INodeExecutionData): Waiting {
	const paired = output.pairedItem;
	const items = (Array.isArray(paired) ? paired : paired ? [paired] : [])
		.map((p) => (typeof p === 'number' ? p : p.item))
		.filter((item): item is number => typeof item === 'number');
	return { json: output.json, items, failed: true };
}
