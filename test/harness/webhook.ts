/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test harness: a loopback HTTP server and node:crypto to sign events */
/**
 * The ABBYY Vantage Instant Trigger behind a real HTTP endpoint, run as n8n runs a production
 * webhook (n8n 2.41 LiveWebhooks.executeWebhook and WebhookHelpers.executeWebhook): the request's
 * raw body read (`rawBody`, at most n8n's default 16 MiB), an `application/json` body parsed before
 * the node runs (unparseable: n8n answers 422 itself), a Workflow built for each request from the
 * static data "in the database", the node's `webhook()` called in n8n-core's own WebhookContext,
 * and the static data written back after it returned when anything in it was set (n8n's
 * WorkflowStaticDataService.saveStaticData): two requests in flight each write what they read plus
 * their own changes. Credentials come from the unit harness (./n8n.ts) plus the Event Secret.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeTypes,
	type IWebhookData,
	type IWebhookResponseData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { AbbyyVantageInstantTrigger } from '../../nodes/AbbyyVantageInstantTrigger/AbbyyVantageInstantTrigger.node';
import { EVENT_SECRET } from '../../nodes/AbbyyVantage/vantage/eventSecret';
import { makeAdditionalData, type CredentialStore } from './n8n';

export const INSTANT_TYPE = 'n8n-nodes-abbyy-vantage.abbyyVantageInstantTrigger';
export const INSTANT_NAME = 'ABBYY Vantage Instant Trigger';

/** The header that pairs a test's push with its webhook() run. */
const PUSH_ID = 'x-test-push-id';

/** n8n's default N8N_PAYLOAD_SIZE_MAX (16 MiB): larger bodies n8n refuses before any node runs. */
const N8N_PAYLOAD_MAX = 16 * 1024 * 1024;

const instantType = new AbbyyVantageInstantTrigger();
const nodeTypes = {
	getByName: () => instantType,
	getByNameAndVersion: () => instantType,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/** The Event Secret credential's data. */
export interface EventSecrets {
	secret: string;
	previousSecret?: string;
}

/** A new transaction or document id. */
export const newId = (): string => randomUUID();

/** A secret of `length` random characters. */
export function randomSecret(length = 48): string {
	return randomBytes(length).toString('base64url').slice(0, length);
}

// ------------------------------------------------------------------ events, signed as the script signs them

/** An event body as custom-activity/n8n-events.js sends it (specVersion 1). */
export function eventBody(
	transactionId: string,
	event: 'transaction.processed' | 'transaction.manualReview' = 'transaction.processed',
	overrides: IDataObject = {},
): IDataObject {
	return {
		specVersion: 1,
		event,
		eventId: `${transactionId}.${event}.${randomBytes(8).toString('hex').slice(0, 12)}`,
		transactionId,
		documentIds: [],
		documentCount: 0,
		sentAt: new Date().toISOString(),
		...overrides,
	};
}

/** HMAC-SHA256 with node:crypto (the tests' reference; the node computes it in plain TypeScript). */
export function referenceSignature(
	secret: string,
	timestamp: string,
	eventId: string,
	transactionId: string,
): string {
	return createHmac('sha256', secret)
		.update(`v1:${timestamp}:${eventId}:${transactionId}`)
		.digest('hex');
}

export interface PushRequest {
	body: string | Buffer;
	headers: Record<string, string>;
}

/**
 * A signed request for `body` (an object, sent as JSON): the headers the script sets, the
 * timestamp `at` (default now) in unix seconds.
 */
export function signed(body: IDataObject, secret: string, at = Date.now()): PushRequest {
	const timestamp = String(Math.floor(at / 1000));
	return {
		body: JSON.stringify(body),
		headers: {
			'content-type': 'application/json',
			'x-vantage-timestamp': timestamp,
			'x-vantage-signature': `v1=${referenceSignature(secret, timestamp, String(body.eventId), String(body.transactionId))}`,
		},
	};
}

// ------------------------------------------------------------------ the trigger behind HTTP

/** What webhook() did with one request. */
export interface Handled {
	/** What webhook() returned; undefined when n8n refused the request before the node ran. */
	result?: IWebhookResponseData;
	/** What webhook() threw (it should never throw). */
	error?: unknown;
	/** The items of the execution n8n would start, when webhook() returned some. */
	execution?: INodeExecutionData[];
}

/** One push: the HTTP answer, and when webhook() finished. */
export interface Push {
	status: number;
	/** The answer's JSON body (or text). */
	body: unknown;
	/** Settles when the node's webhook() returned (the answer comes long before, on a 202). */
	handled: Promise<Handled>;
}

export interface InstantTriggerOptions {
	credentials: () => CredentialStore;
	secrets: () => EventSecrets;
	/** The node's parameters (Authentication is set from the credential unless given). */
	parameters?: INodeParameters;
	workflowId?: string;
	/** 'webhook' (production URL) or 'manual' (test URL, "Listen for test event"). */
	mode?: WorkflowExecuteMode;
}

/**
 * An active workflow holding the Instant Trigger, listening on loopback. `staticData` is what
 * n8n's database holds for the workflow (JSON), read at each request and written after it.
 */
export class InstantTrigger {
	staticData = '{}';
	/** The executions webhook() started, in the order they were returned. */
	readonly executions: INodeExecutionData[][] = [];
	/** What the node logged through n8n's logger, one line per call. */
	readonly logs: string[] = [];
	/** How often n8n decrypted each credential type for this trigger (each read costs n8n 2.x an isolate). */
	readonly credentialReads: Record<string, number> = {};
	private server?: Server;
	private readonly pending = new Set<Promise<Handled>>();

	constructor(private readonly options: InstantTriggerOptions) {}

	get url(): string {
		const address = this.server?.address() as AddressInfo | undefined;
		if (!address) throw new Error('the trigger is not listening');
		return `http://127.0.0.1:${address.port}/webhook/instant/events`;
	}

	async start(): Promise<this> {
		const server = createServer((req, res) => this.serve(req, res));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		this.server = server;
		return this;
	}

	/** Wait for every webhook() under way, then close. */
	async stop(): Promise<void> {
		await Promise.all([...this.pending]);
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
		this.server = undefined;
	}

	/** POST `request` to the trigger. */
	async push(request: PushRequest): Promise<Push> {
		const id = String(++this.pushes);
		const handled = new Promise<Handled>((resolve) => this.waiting.set(id, resolve));
		const response = await fetch(this.url, {
			method: 'POST',
			headers: { ...request.headers, [PUSH_ID]: id },
			body: request.body,
		});
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// Not JSON: kept as text.
		}
		return { status: response.status, body, handled };
	}

	private pushes = 0;
	/** Each push's wait for its webhook() to finish, by the id the test sent it with. */
	private readonly waiting = new Map<string, (handled: Handled) => void>();

	private serve(req: IncomingMessage, res: ServerResponse): void {
		const id = String(req.headers[PUSH_ID]);
		const handled = this.handle(req, res);
		this.pending.add(handled);
		void handled.then((outcome) => {
			this.pending.delete(handled);
			this.waiting.get(id)?.(outcome);
			this.waiting.delete(id);
		});
	}

	/** n8n's part of one request, then the node's. */
	private async handle(req: IncomingMessage, res: ServerResponse): Promise<Handled> {
		const chunks: Buffer[] = [];
		let size = 0;
		for await (const chunk of req) {
			size += (chunk as Buffer).length;
			if (size > N8N_PAYLOAD_MAX) {
				res.writeHead(413).end();
				return {};
			}
			chunks.push(chunk as Buffer);
		}
		const rawBody = Buffer.concat(chunks);
		const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		let body: unknown = {};
		if (contentType === 'application/json' && rawBody.length) {
			try {
				body = JSON.parse(rawBody.toString('utf8'));
			} catch {
				res.writeHead(422, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ code: 422, message: 'Failed to parse request body' }));
				return {};
			}
		}
		Object.assign(req, { rawBody, body, contentType, params: {}, query: {} });

		const node = this.node();
		const workflow = new Workflow({
			id: this.options.workflowId ?? 'wf-instant',
			name: 'instant trigger test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(this.staticData) as IDataObject,
			settings: { timezone: 'UTC' },
		});
		const additionalData = this.additionalData();
		additionalData.httpRequest = req as never;
		additionalData.httpResponse = res as never;
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			this.options.mode ?? 'webhook',
			this.webhookData(node, additionalData),
			[],
			null,
		);
		// n8n's logger, recorded: what the node logs is checked for secrets.
		const record = (level: string) => (message: string, meta?: unknown) =>
			this.logs.push(`${level}: ${message}${meta === undefined ? '' : ` ${JSON.stringify(meta)}`}`);
		Object.defineProperty(context, 'logger', {
			value: {
				error: record('error'),
				warn: record('warn'),
				info: record('info'),
				debug: record('debug'),
			},
		});
		let handled: Handled;
		try {
			const result = await instantType.webhook.call(context);
			handled = { result, ...(result.workflowData ? { execution: result.workflowData[0] } : {}) };
		} catch (error) {
			handled = { error };
		}
		// n8n answers for the node unless it said it did (responseMode onReceived: 200).
		if (!handled.result?.noWebhookResponse && !res.headersSent) {
			res.writeHead(handled.error ? 500 : 200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: handled.error ? 'Error' : 'Workflow was started' }));
		}
		const stored = workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (stored.__dataChanged) this.staticData = JSON.stringify(stored);
		if (handled.execution) this.executions.push(handled.execution);
		return handled;
	}

	node(): INode {
		const store = this.options.credentials();
		return {
			id: 'instant-1',
			name: INSTANT_NAME,
			type: INSTANT_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId: 'instant',
			parameters: {
				authentication: store.authentication,
				...(this.options.parameters ?? {}),
			},
			credentials: {
				[store.type]: { id: store.id, name: 'ABBYY Vantage account' },
				[EVENT_SECRET]: { id: 'event-secret-1', name: 'ABBYY Vantage event secret' },
			},
		};
	}

	/** The unit harness's additional data, its credentials helper also serving the Event Secret. */
	additionalData(): IWorkflowExecuteAdditionalData {
		const data = makeAdditionalData(this.options.credentials());
		const inner = data.credentialsHelper;
		const helper = Object.create(inner) as typeof inner;
		const secrets = this.options.secrets;
		helper.getDecrypted = async (...args: Parameters<typeof inner.getDecrypted>) => {
			this.credentialReads[args[2]] = (this.credentialReads[args[2]] ?? 0) + 1;
			return args[2] === EVENT_SECRET
				? ({ ...secrets() } as unknown as ICredentialDataDecryptedObject)
				: await inner.getDecrypted(...args);
		};
		data.credentialsHelper = helper;
		return data;
	}

	webhookData(node: INode, additionalData: IWorkflowExecuteAdditionalData): IWebhookData {
		return {
			httpMethod: 'POST',
			node: node.name,
			path: 'instant/events',
			webhookDescription: instantType.description.webhooks![0],
			workflowId: this.options.workflowId ?? 'wf-instant',
			workflowExecuteAdditionalData: additionalData,
		};
	}

	/** Activate the workflow as n8n does: the webhook's checkExists, then create. */
	async activate(): Promise<void> {
		const node = this.node();
		const workflow = new Workflow({
			id: this.options.workflowId ?? 'wf-instant',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
		});
		const additionalData = this.additionalData();
		const webhookData = this.webhookData(node, additionalData);
		const context = new HookContext(
			workflow,
			node,
			additionalData,
			'webhook',
			'activate',
			webhookData,
		);
		const methods = instantType.webhookMethods.default;
		if (!(await methods.checkExists.call(context))) await methods.create.call(context);
	}
}
