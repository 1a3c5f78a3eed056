/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets --
 * End-to-end infrastructure, never shipped: signs events with node:crypto, talks to n8n over HTTP;
 * the secrets' names are the script's, not secrets. */
/**
 * What the push suites share (./../push.ts per release line, ../trigger.ts's restart proof,
 * ../queue.ts): the ABBYY Vantage Instant Trigger's workflows and its Event Secret credential as
 * n8n's public API creates them, transactions launched through Vantage's API so that the
 * simulator's Custom activity runs the shipped script (custom-activity/n8n-events.js) at its place
 * in their flow, events signed here with node:crypto (an implementation of its own, neither the
 * script's nor the node's) for the requests the script never sends, and the executions n8n stored,
 * keyed by the state of the transaction they delivered.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

import { token } from '../../test/helpers/http';
import { launched } from '../../test/simulator/uploadkit';
import { FIXTURE, type VantageSimulator } from '../../test/simulator/simulator';
import {
	createApiKey,
	nodeItems,
	publicApi,
	rest,
	signIn,
	storedExecutions,
	type StoredExecution,
} from './server';

type Json = Record<string, unknown>;

export const INSTANT_TYPE = 'n8n-nodes-abbyy-vantage.abbyyVantageInstantTrigger';
export const POLL_TYPE = 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger';
export const EVENT_SECRET_TYPE = 'abbyyVantageEventSecretApi';
/** The Instant Trigger's node in the suites' workflows. */
export const INSTANT_NODE = 'Vantage pushed';
/** The webhook path the node declares (AbbyyVantageInstantTrigger.node.ts `webhooks`). */
const WEBHOOK_PATH = 'events';
/** The secrets the shipped script reads (custom-activity/n8n-events.js, Settings). */
export const SECRET_NAME = 'n8n-events-secret';
export const URL_NAME = 'n8n-events-url';
/** Every 5 s: twelve Poll Times of one fixed second each (n8n refuses one cron firing more often). */
export const FAST_POLL_TIMES = {
	item: Array.from({ length: 12 }, (_, i) => ({
		mode: 'custom',
		cronExpression: `${i * 5} * * * * *`,
	})),
};

export interface CredentialRef {
	id: string;
	name: string;
}

/** A random secret of 48 characters, as `openssl rand -base64 48` gives one (docs/instant-trigger.md). */
export function randomSecret(): string {
	return randomBytes(48).toString('base64url').slice(0, 48);
}

// ------------------------------------------------------------------ n8n: credential and workflows

/** An n8n server the suites drive: its URL, the owner's session cookie and a public-API key. */
export interface Session {
	url: string;
	cookie: string;
	apiKey: string;
}

/** Sign in to the n8n at `url` as its owner and make a public-API key: a Session. */
export async function openSession(url: string): Promise<Session> {
	const cookie = await signIn(url);
	return { url, cookie, apiKey: await createApiKey(url, cookie) };
}

/** Create an ABBYY Vantage Event Secret API credential through n8n's public API. */
export async function createEventSecret(
	session: Session,
	name: string,
	secret: string,
): Promise<CredentialRef> {
	const created = await publicApi<Json>(session.url, session.apiKey, 'POST', '/credentials', {
		name,
		type: EVENT_SECRET_TYPE,
		data: { secret },
	});
	return { id: String(created.id), name };
}

/**
 * Edit the Event Secret credential as the editor saves it (n8n's REST API: the public API of n8n
 * 1.x cannot change a credential): a rotation puts the old secret in Previous Secret.
 */
export async function editEventSecret(
	session: Session,
	credential: CredentialRef,
	data: { secret: string; previousSecret?: string },
): Promise<void> {
	await rest(session.url, session.cookie, 'PATCH', `/credentials/${credential.id}`, {
		name: credential.name,
		type: EVENT_SECRET_TYPE,
		data: { secret: data.secret, previousSecret: data.previousSecret ?? '' },
	});
}

export interface InstantOptions {
	name: string;
	vantage: CredentialRef;
	eventSecret: CredentialRef;
	/** The Events parameter (default Transaction Completed). */
	events?: Array<'transactionCompleted' | 'manualReview'>;
	includeResults?: boolean;
	/** The webhook's id: its production URL is /webhook/<id>/events. */
	webhookId?: string;
	/** Nodes after the trigger, in a chain (their names and types as given). */
	then?: Json[];
}

/** A workflow whose trigger is the ABBYY Vantage Instant Trigger, as the public API takes it. */
export function instantWorkflow(o: InstantOptions): { workflow: Json; webhookId: string } {
	const webhookId = o.webhookId ?? randomUUID();
	const nodes: Json[] = [
		{
			id: `${webhookId}-trigger`,
			name: INSTANT_NODE,
			type: INSTANT_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId,
			parameters: {
				events: o.events ?? ['transactionCompleted'],
				...(o.includeResults ? { includeResults: true } : {}),
				options: {},
			},
			credentials: {
				abbyyVantageApi: o.vantage,
				abbyyVantageEventSecretApi: o.eventSecret,
			},
		},
		...(o.then ?? []).map((node, i) => ({ position: [240 * (i + 1), 0], ...node })),
	];
	const connections: Json = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[String(nodes[i].name)] = {
			main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]],
		};
	}
	return {
		workflow: { name: o.name, nodes, connections, settings: { executionOrder: 'v1' } },
		webhookId,
	};
}

/** The production URL of an Instant Trigger with `webhookId` on the n8n at `baseUrl`. */
export function productionUrl(baseUrl: string, webhookId: string): string {
	return `${baseUrl}/webhook/${webhookId}/${WEBHOOK_PATH}`;
}

/** A polling ABBYY Vantage Trigger node (Poll Times every 5 s) with `parameters`. */
export function pollNode(
	name: string,
	vantage: CredentialRef,
	parameters: Json,
	position = 0,
): Json {
	return {
		id: `${name.replace(/\W/g, '')}-${position}`,
		name,
		type: POLL_TYPE,
		typeVersion: 1,
		position: [0, position * 200],
		parameters: { pollTimes: FAST_POLL_TIMES, ...parameters },
		credentials: { abbyyVantageApi: vantage },
	};
}

/** The registration-parameter filter of Transaction Completed: transactions of `batch`. */
export function batchFilter(batch: string): Json {
	return { transactionParameters: { parameter: [{ key: 'Batch', value: batch }] } };
}

/** Create and activate a workflow through the public API; its id. */
export async function activate(session: Session, workflow: Json): Promise<string> {
	const created = await publicApi<Json>(
		session.url,
		session.apiKey,
		'POST',
		'/workflows',
		workflow,
	);
	const id = String(created.id);
	await publicApi(session.url, session.apiKey, 'POST', `/workflows/${id}/activate`);
	return id;
}

export async function deactivate(session: Session, id: string): Promise<void> {
	await publicApi(session.url, session.apiKey, 'POST', `/workflows/${id}/deactivate`).catch(
		() => undefined,
	);
}

// ------------------------------------------------------------------ Vantage: the script and transactions

/**
 * Place the shipped script in every skill's flow (`placements`) and give the tenant the two
 * secrets it reads. Plain http:// to n8n on loopback is the simulator's one test-only deviation.
 */
export function placeScript(
	sim: VantageSimulator,
	placements: Array<'beforeReview' | 'afterReview'>,
	secrets: { secret: string; url: string },
	concurrency?: number,
): void {
	sim.configureCustomActivity({
		placements,
		allowPlainHttpOnLoopback: true,
		...(concurrency ? { concurrency } : {}),
	});
	sim.setSecrets({ [SECRET_NAME]: secrets.secret, [URL_NAME]: secrets.url });
}

/** Take the script out of the flow and the secrets out of the tenant (later suites run without). */
export function removeScript(sim: VantageSimulator): void {
	sim.configureCustomActivity({ placements: [] });
	sim.setSecrets({ [SECRET_NAME]: null, [URL_NAME]: null });
}

export interface Launch {
	/** Registration parameter Batch (the polling trigger's filter). */
	batch: string;
	/** Milliseconds from start to the end of processing (then the flow's Custom activities run). */
	processingMs?: number;
	/** Milliseconds in Manual Review (none by default). */
	reviewMs?: number;
	skillId?: string;
}

/**
 * Launch one transaction through Vantage's API (LaunchTransaction, one invoice file), following a
 * script paced in milliseconds: the flow moves on by itself, with nobody polling, and its Custom
 * activities push. Launched one after the other: each takes the next queued script.
 */
export async function launchTransaction(
	sim: VantageSimulator,
	bearer: string,
	label: string,
	o: Launch,
): Promise<string> {
	sim.scriptNextTransaction({
		processing: { ms: o.processingMs ?? 300 },
		...(o.reviewMs !== undefined ? { manualReview: { ms: o.reviewMs } } : {}),
	});
	return await launched(
		sim,
		bearer,
		o.skillId ?? FIXTURE.documentSkillId,
		[
			{
				name: `${label}.txt`,
				data: [
					`InvoiceNumber: ${label}`,
					'InvoiceDate: 03.11.2025',
					'Total: 1.250,00',
					'Vendor.Name: Push GmbH',
					'',
				].join('\n'),
			},
		],
		{ registrationParameters: [{ key: 'Batch', value: o.batch }] },
	);
}

/** A token of the fixture user, for launching. */
export async function bearer(sim: VantageSimulator): Promise<string> {
	return await token(sim);
}

/** Wait until none of `ids` is still Processing in the simulator and no script runs any more. */
export async function finished(
	sim: VantageSimulator,
	ids: string[],
	timeoutMs = 60_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (ids.some((id) => sim.transaction(id)?.status === 'Processing')) {
		if (Date.now() > deadline) {
			const left = ids.filter((id) => sim.transaction(id)?.status === 'Processing');
			throw new Error(`${left.length} transactions still Processing after ${timeoutMs} ms`);
		}
		await sleep(50);
	}
	await sim.customActivitiesSettled();
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

// ------------------------------------------------------------------ events the script never sends

export type EventName = 'transaction.processed' | 'transaction.manualReview';

/** An event body as the script builds it (specVersion 1), `overrides` on top. */
export function eventBody(
	transactionId: string,
	event: EventName = 'transaction.processed',
	overrides: Json = {},
): Json {
	return {
		specVersion: 1,
		event,
		eventId: `${transactionId}.${event}.${randomBytes(9).toString('base64url').slice(0, 12).toLowerCase()}`,
		transactionId,
		documentIds: [],
		documentCount: 0,
		sentAt: new Date().toISOString(),
		...overrides,
	};
}

/** The headers the script sets for `body`, signed with `secret` at `atMs` (default now). */
export function signedHeaders(
	body: Json,
	secret: string,
	atMs = Date.now(),
): Record<string, string> {
	const timestamp = String(Math.floor(atMs / 1000));
	const signature = createHmac('sha256', secret)
		.update(`v1:${timestamp}:${String(body.eventId)}:${String(body.transactionId)}`)
		.digest('hex');
	return {
		'content-type': 'application/json',
		'x-vantage-timestamp': timestamp,
		'x-vantage-signature': `v1=${signature}`,
	};
}

export interface Answer {
	status: number;
	text: string;
}

/** POST a body with headers to `url`; n8n's answer. */
export async function post(
	url: string,
	body: string,
	headers: Record<string, string>,
): Promise<Answer> {
	const res = await fetch(url, {
		method: 'POST',
		headers,
		body,
		signal: AbortSignal.timeout(30_000),
	});
	return { status: res.status, text: await res.text() };
}

// ------------------------------------------------------------------ what n8n stored

/** The state an item of the Instant Trigger (or the polling trigger) delivers. */
export function stateOf(json: Json): 'completed' | 'review' {
	return json.status === 'Processing' && typeof json.manualReviewLink === 'string'
		? 'review'
		: 'completed';
}

export interface Delivered {
	executions: StoredExecution[];
	/** Executions per `<state>:<transactionId>`. */
	byKey: Map<string, number>;
	/** The trigger items of each key's first execution. */
	items: Map<string, Json[]>;
}

/** The executions of `workflowId` and what each delivered (the items `node` output). */
export async function delivered(
	session: Session,
	workflowId: string,
	node: string | string[] = INSTANT_NODE,
): Promise<Delivered> {
	const executions = await storedExecutions(session.url, session.apiKey, workflowId, true);
	const byKey = new Map<string, number>();
	const items = new Map<string, Json[]>();
	for (const execution of executions) {
		for (const name of ([] as string[]).concat(node)) {
			const out = triggerItems(execution, name);
			if (!out.length) continue;
			const key = `${stateOf(out[0])}:${String(out[0].transactionId)}`;
			byKey.set(key, (byKey.get(key) ?? 0) + 1);
			if (!items.has(key)) items.set(key, out);
		}
	}
	return { executions, byKey, items };
}

/**
 * The items `node` (a trigger) started `execution` with: its output once it ran, or, for an
 * execution n8n stored and never ran (queued, or cut off by a crash), the items waiting for it on
 * the execution stack.
 */
export function triggerItems(execution: StoredExecution, node: string): Json[] {
	const ran = nodeItems(execution, node).map((i) => i.json);
	return ran.length ? ran : waitingItems(execution, node);
}

/** The items waiting for `node` on the execution stack of an execution that never ran. */
function waitingItems(execution: StoredExecution, node: string): Json[] {
	const stack = (((execution.data as Json | undefined)?.executionData as Json | undefined)
		?.nodeExecutionStack ?? []) as Array<{
		node?: { name?: string };
		data?: { main?: Array<Array<{ json: Json }> | null> };
	}>;
	const entry = stack.find((e) => e.node?.name === node);
	return (entry?.data?.main?.[0] ?? []).map((i) => i.json);
}

/** Poll `read` every 500 ms until `done` says so (or time out); the last value read. */
export async function until<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs: number,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let value = await read();
	while (!done(value) && Date.now() < deadline) {
		await sleep(500);
		value = await read();
	}
	return value;
}
