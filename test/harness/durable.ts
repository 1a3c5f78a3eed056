/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test harness: a loopback HTTP server stands in for n8n's waiting-webhook endpoint */
/**
 * Executions that wait, run as n8n runs them (n8n 2.41: WorkflowExecute, WaitingWebhooks,
 * WebhookHelpers.executeWebhook; 1.123 and 1.85 differ where marked): the ABBYY Vantage node runs in
 * n8n-core's WorkflowExecute until it puts the execution to waiting; the execution is then "stored"
 * as JSON (the run data, the execution stack and `waitTill`, as n8n's database keeps them, nothing
 * of the node's memory), and a loopback HTTP server answers its resume URL
 * (`<base>/webhook-waiting/<execution id>`) as n8n does: its token checked on the 2.x line
 * (`?signature=`, the execution's resumeToken, constant time), 404 for an unknown execution, 409 for
 * one running or finished; then the waiting node disabled, `waitTill` cleared, its run popped, the
 * node's `webhook()` called in n8n-core's WebhookContext with the stored execution as run data;
 * when it returns `workflowData`, the stack entry's input becomes it and WorkflowExecute runs the
 * execution on. `resumeByTime` is n8n's WaitTracker at the Wait Limit: WorkflowExecute on the stored
 * execution as it is (the node runs disabled and passes its input through).
 *
 * The simulator's Custom activity runs the shipped script, which posts to this server's resume URL
 * (the registration parameter n8nResumeUrl): the tests exercise the whole path.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ExecutionLifecycleHooks, WebhookContext, WorkflowExecute } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeTypes,
	type IRun,
	type IRunExecutionData,
	type IWebhookData,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { AbbyyVantage } from '../../nodes/AbbyyVantage/AbbyyVantage.node';
import { EVENT_SECRET } from '../../nodes/AbbyyVantage/vantage/eventSecret';
import {
	initBinaryData,
	makeAdditionalData,
	NODE_NAME,
	NODE_TYPE,
	type CredentialStore,
} from './n8n';
import type { EventSecrets } from './webhook';

const nodeType = new AbbyyVantage();
const nodeTypes = {
	getByName: () => nodeType,
	getByNameAndVersion: () => nodeType,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/** 2.x: resume URLs carry the execution's token; 1.x: none (n8n 1.123, 1.85). */
export type Line = '2' | '1';

/** An execution as "n8n's database" holds it. */
export interface StoredExecution {
	id: string;
	status: 'running' | 'waiting' | 'success' | 'error' | 'canceled';
	/** The run data as JSON: what survives a restart. */
	data: string;
	/** When n8n's WaitTracker resumes it (the Wait Limit). */
	waitTill?: Date;
}

/** One execution's history: what it output, run by run. */
export interface Execution {
	id: string;
	status: StoredExecution['status'];
	/** The node's output of its last run: while it waits, what it showed; after, what it resumed with. */
	items: INodeExecutionData[];
	/** The node's error, when it failed. */
	error?: Error;
	/** The resume URL the node read (`$execution.resumeUrl`). */
	resumeUrl: string;
	run: IRun;
}

/** What a call of the resume URL did. */
export interface ResumeCall {
	status: number;
	body: unknown;
	/** Settles when `webhook()` returned and, when it resumed the execution, that run ended. */
	handled: Promise<{ result?: IWebhookResponseData; error?: unknown; resumed?: Execution }>;
}

export interface WaitingN8nOptions {
	credentials: () => CredentialStore;
	/** The Event Secret credential's data; undefined: the node has none selected. */
	secrets: () => EventSecrets | undefined;
	line?: Line;
	/** The base n8n builds resume URLs from (default: this server's). */
	webhookWaitingBaseUrl?: string;
}

let executions = 0;

export class WaitingN8n {
	readonly stored = new Map<string, StoredExecution>();
	/** Every execution's runs' outputs, in order. */
	readonly history = new Map<string, Execution[]>();
	/** What the node logged through n8n's logger. */
	readonly logs: string[] = [];
	private server?: Server;
	private readonly pending = new Set<Promise<unknown>>();
	private readonly waiting = new Map<string, (value: Awaited<ResumeCall['handled']>) => void>();
	private calls = 0;

	constructor(private readonly options: WaitingN8nOptions) {}

	get line(): Line {
		return this.options.line ?? '2';
	}

	get url(): string {
		const address = this.server?.address() as AddressInfo | undefined;
		if (!address) throw new Error('not listening');
		return `http://127.0.0.1:${address.port}`;
	}

	async start(): Promise<this> {
		const server = createServer((req, res) => this.serve(req, res));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		this.server = server;
		return this;
	}

	/** Wait for the webhook calls under way, then close. */
	async stop(): Promise<void> {
		await this.settled();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
		this.server = undefined;
	}

	/** Resolves once no webhook call is being handled (those started meanwhile included). */
	async settled(): Promise<void> {
		while (this.pending.size) await Promise.all([...this.pending]);
	}

	node(parameters: INodeParameters, continueOnFail = false): INode {
		const store = this.options.credentials();
		return {
			id: 'node-1',
			name: NODE_NAME,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				...(store.type === 'abbyyVantageApi' ? {} : { authentication: store.authentication }),
				...parameters,
			},
			credentials: {
				[store.type]: { id: store.id, name: 'ABBYY Vantage account' },
				...(this.options.secrets()
					? { [EVENT_SECRET]: { id: 'event-secret-1', name: 'ABBYY Vantage event secret' } }
					: {}),
			},
			...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		};
	}

	private workflow(node: INode): Workflow {
		return new Workflow({
			id: 'wf-durable',
			name: 'durable wait test',
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes,
			settings: { timezone: 'UTC', executionOrder: 'v1' },
		});
	}

	/** The unit harness's additional data, serving the Event Secret too, with this server's URLs. */
	private additionalData(executionId: string, hooks?: ExecutionLifecycleHooks) {
		const data = makeAdditionalData(this.options.credentials(), hooks, executionId);
		const inner = data.credentialsHelper;
		const helper = Object.create(inner) as typeof inner;
		helper.getDecrypted = async (...args: Parameters<typeof inner.getDecrypted>) => {
			if (args[2] !== EVENT_SECRET) return await inner.getDecrypted(...args);
			const secrets = this.options.secrets();
			if (!secrets)
				throw new Error('Node does not have any credentials set for "abbyyVantageEventSecretApi"');
			return { ...secrets } as unknown as ICredentialDataDecryptedObject;
		};
		data.credentialsHelper = helper;
		data.webhookWaitingBaseUrl =
			this.options.webhookWaitingBaseUrl ?? `${this.url}/webhook-waiting`;
		data.formWaitingBaseUrl = `${this.url}/form-waiting`;
		return data;
	}

	private hooks(executionId: string, node: INode) {
		const hooks = new ExecutionLifecycleHooks('trigger', executionId, {
			id: 'wf-durable',
			name: 'durable wait test',
			nodes: [node],
			connections: {},
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		} as never);
		let resolveRun!: (run: IRun) => void;
		const finished = new Promise<IRun>((resolve) => (resolveRun = resolve));
		hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));
		return { hooks, finished };
	}

	/** Start an execution of the node with `items`: it runs until it ends or waits. */
	async run(options: {
		parameters: INodeParameters;
		items?: Array<IDataObject | INodeExecutionData>;
		continueOnFail?: boolean;
	}): Promise<Execution> {
		await initBinaryData();
		const id = String(++executions + 1000);
		const node = this.node(options.parameters, options.continueOnFail);
		const items = (options.items ?? [{}]).map((item) =>
			'json' in item && typeof item.json === 'object'
				? (item as INodeExecutionData)
				: { json: item as IDataObject },
		);
		const runExecutionData = {
			resultData: { runData: {} },
			executionData: {
				contextData: {},
				metadata: {},
				nodeExecutionStack: [{ node, data: { main: [items] }, source: null }],
				waitingExecution: {},
				waitingExecutionSource: {},
			},
			// n8n 2.x gives every execution a resume token (n8n-workflow createRunExecutionData).
			...(this.line === '2' ? { resumeToken: randomBytes(32).toString('hex') } : {}),
		} as unknown as IRunExecutionData;
		const resumeUrl = `${this.options.webhookWaitingBaseUrl ?? `${this.url}/webhook-waiting`}/${id}${
			this.line === '2'
				? `?signature=${(runExecutionData as { resumeToken?: string }).resumeToken}`
				: ''
		}`;
		return await this.execute(id, node, runExecutionData, resumeUrl);
	}

	private async execute(
		id: string,
		node: INode,
		runExecutionData: IRunExecutionData,
		resumeUrl: string,
	): Promise<Execution> {
		const { hooks, finished } = this.hooks(id, node);
		const additionalData = this.additionalData(id, hooks);
		this.stored.set(id, { id, status: 'running', data: '' });
		const processing = new WorkflowExecute(
			additionalData,
			'trigger',
			runExecutionData,
		).processRunExecutionData(this.workflow(node));
		processing.catch(() => undefined);
		const run = await finished;
		return this.record(id, run, resumeUrl);
	}

	/** Store the run as n8n would (JSON), and note what the node output. */
	private record(id: string, run: IRun, resumeUrl: string): Execution {
		const status = (run.status === 'waiting' ? 'waiting' : run.status) as Execution['status'];
		this.stored.set(id, {
			id,
			status,
			data: JSON.stringify(run.data),
			...(run.waitTill ? { waitTill: new Date(run.waitTill) } : {}),
		});
		const runs = run.data.resultData.runData[NODE_NAME] ?? [];
		const task = runs[runs.length - 1];
		const execution: Execution = {
			id,
			status,
			items: task?.data?.main?.[0] ?? [],
			error: (task?.error ?? run.data.resultData.error) as Error | undefined,
			resumeUrl,
			run,
		};
		const history = this.history.get(id) ?? [];
		history.push(execution);
		this.history.set(id, history);
		return execution;
	}

	/** The stored execution's data, parsed afresh (as n8n reads it from the database). */
	storedData(id: string): IRunExecutionData {
		const stored = this.stored.get(id);
		if (!stored) throw new Error(`no execution ${id}`);
		return JSON.parse(stored.data) as IRunExecutionData;
	}

	/** The wait's entries as stored: the waiting node's input on the execution stack. */
	waitingInput(id: string): INodeExecutionData[] {
		const data = this.storedData(id);
		return (data.executionData?.nodeExecutionStack[0]?.data.main[0] ?? []) as INodeExecutionData[];
	}

	/** n8n's WaitTracker at the Wait Limit: the execution runs on, the node disabled. */
	async resumeByTime(id: string): Promise<Execution> {
		const stored = this.stored.get(id);
		if (stored?.status !== 'waiting') throw new Error(`execution ${id} is ${stored?.status}`);
		const data = this.storedData(id);
		data.waitTill = stored.waitTill;
		const node = data.executionData!.nodeExecutionStack[0].node;
		return await this.execute(id, node, data, '');
	}

	/** POST `body` with `headers` to `url` (a resume URL of this server, or a forged one). */
	async post(url: string, body: string, headers: Record<string, string>): Promise<ResumeCall> {
		const callId = String(++this.calls);
		const handled = new Promise<Awaited<ResumeCall['handled']>>((resolve) =>
			this.waiting.set(callId, resolve),
		);
		const response = await fetch(url, {
			method: 'POST',
			headers: { ...headers, 'x-test-call': callId },
			body,
		});
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// kept as text
		}
		return { status: response.status, body: parsed, handled };
	}

	private serve(req: IncomingMessage, res: ServerResponse): void {
		const callId = String(req.headers['x-test-call']);
		const handled = this.handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500).end(String(error));
			return { error };
		});
		this.pending.add(handled);
		void handled.then((outcome) => {
			this.pending.delete(handled);
			this.waiting.get(callId)?.(outcome);
			this.waiting.delete(callId);
		});
	}

	/** n8n's WaitingWebhooks.executeWebhook and WebhookHelpers.executeWebhook, for one request. */
	private async handle(
		req: IncomingMessage,
		res: ServerResponse,
	): Promise<Awaited<ResumeCall['handled']>> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		const url = new URL(req.url ?? '/', this.url);
		const match = /^\/webhook-waiting\/([^/]+)$/.exec(url.pathname);
		const stored = match ? this.stored.get(match[1]) : undefined;
		const fail = (status: number, message: string) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ code: status, message }));
			return {};
		};
		if (!stored) return fail(404, `The execution "${match?.[1]}" does not exist.`);
		const data = JSON.parse(stored.data) as IRunExecutionData & { resumeToken?: string };
		if (this.line === '2' && data.resumeToken) {
			const token = url.searchParams.get('signature') ?? '';
			if (token.length !== data.resumeToken.length || token !== data.resumeToken) {
				return fail(401, 'Invalid token');
			}
		}
		if (stored.status === 'running')
			return fail(409, `The execution "${stored.id}" is running already.`);
		if (stored.status !== 'waiting')
			return fail(409, `The execution "${stored.id} has finished already.`);

		const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		let body: unknown = {};
		if (contentType === 'application/json' && rawBody.length) {
			try {
				body = JSON.parse(rawBody.toString('utf8'));
			} catch {
				return fail(422, 'Failed to parse request body');
			}
		}
		Object.assign(req, {
			rawBody,
			body,
			contentType,
			params: {},
			query: Object.fromEntries(url.searchParams),
		});

		// WaitingWebhooks.getWebhookExecutionData: the node disabled, the wait over, its run popped.
		const entry = data.executionData!.nodeExecutionStack[0];
		entry.node.disabled = true;
		data.waitTill = undefined;
		const lastNode = data.resultData.lastNodeExecuted!;
		data.resultData.runData[lastNode].pop();
		const node = { ...entry.node, disabled: false };
		const workflow = this.workflow(node);
		const additionalData = this.additionalData(stored.id);
		additionalData.httpRequest = req as never;
		additionalData.httpResponse = res as never;
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: '',
			webhookDescription: nodeType.description.webhooks![0],
			workflowId: 'wf-durable',
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			'webhook',
			webhookData,
			[],
			data,
		);
		const record = (level: string) => (message: string) => this.logs.push(`${level}: ${message}`);
		Object.defineProperty(context, 'logger', {
			value: {
				error: record('error'),
				warn: record('warn'),
				info: record('info'),
				debug: record('debug'),
			},
		});
		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook.call(context);
		} catch (error) {
			// n8n would resume the execution with the error; the node must never throw here.
			if (!res.headersSent) res.writeHead(500).end();
			return { error };
		}
		if (!result.noWebhookResponse && !res.headersSent) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: 'Webhook call received' }));
		}
		if (!result.workflowData) return { result };
		// Another call resumed it meanwhile: n8n 2.x refuses a second resume (its status is checked
		// when the run is saved); the harness counts it as the double resume it would be on 1.x.
		const now = this.stored.get(stored.id)!;
		if (now.status !== 'waiting') {
			throw new Error(`execution ${stored.id} resumed twice (it was ${now.status})`);
		}
		entry.data.main = result.workflowData;
		const resumed = await this.execute(stored.id, entry.node, data, '');
		return { result, resumed };
	}
}
