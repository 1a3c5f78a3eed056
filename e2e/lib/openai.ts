/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * End-to-end infrastructure, never shipped: a scripted model on loopback. */
/**
 * An OpenAI-compatible server whose "model" is a script, for n8n's OpenAI Chat Model node with its
 * Base URL option pointed here: `POST /v1/chat/completions` (plain JSON, or server-sent events
 * when the request asks to stream) and `GET /v1/models` (what the node's model list loads). Each
 * conversation names its scenario in its messages (`[scenario:NAME]`); the scenario's steps decide,
 * from the conversation so far (the tool results n8n sent back), the next tool calls or the final
 * answer. Every request is kept: what n8n offered the model (the tools' names, descriptions and
 * JSON schemas) and every tool result it passed on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface OfferedFunction {
	name: string;
	description: string;
	parameters: Json;
}

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

/** A tool result the model got back, with the call it answered. */
export interface ToolResult {
	name: string;
	arguments: Json;
	content: string;
}

export interface StepContext {
	/** The first user message (the agent's prompt). */
	prompt: string;
	/** Every tool result so far, in order. */
	results: ToolResult[];
}

export type Reply = { calls: Array<{ name: string; arguments: Json }> } | { content: string };

/** Step n answers the request that follows n rounds of tool calls. */
export type Scenario = Array<(context: StepContext) => Reply>;

export interface ChatRequest {
	scenario: string;
	body: Json;
	tools: OfferedFunction[];
	results: ToolResult[];
	reply: Reply;
}

function text(content: ChatMessage['content']): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => part.text ?? '').join('');
	return '';
}

export class ScriptedModel {
	readonly requests: ChatRequest[] = [];
	readonly modelListRequests: number[] = [];
	private server?: Server;
	private base = '';
	private callCounter = 0;

	/**
	 * `defaultScenario` answers a conversation that names none (the shipped example's, whose
	 * prompts are the ones a user would write).
	 */
	constructor(
		private readonly scenarios: Record<string, Scenario>,
		private readonly defaultScenario?: string,
	) {}

	/** More scenarios, for a suite of its own. */
	addScenarios(scenarios: Record<string, Scenario>): void {
		Object.assign(this.scenarios, scenarios);
	}

	/** The Base URL for n8n's OpenAI node: `http://127.0.0.1:PORT/v1`. */
	get baseUrl(): string {
		return `${this.base}/v1`;
	}

	async start(): Promise<string> {
		this.server = createServer((req, res) => {
			this.handle(req, res).catch((error: Error) => {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: error.message, type: 'scripted_model' } }));
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this.baseUrl;
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections?.();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
	}

	/** The requests of one scenario, in order. */
	of(scenario: string): ChatRequest[] {
		return this.requests.filter((r) => r.scenario === scenario);
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const path = new URL(req.url ?? '/', this.base).pathname;
		if (req.method === 'GET' && path === '/v1/models') {
			this.modelListRequests.push(Date.now());
			return json(res, 200, {
				object: 'list',
				data: [{ id: 'gpt-4o-mini', object: 'model', created: 1700000000, owned_by: 'e2e' }],
			});
		}
		if (req.method !== 'POST' || path !== '/v1/chat/completions') {
			return json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
		}
		const body = JSON.parse(await readBody(req)) as Json;
		const messages = (body.messages ?? []) as ChatMessage[];
		const all = messages.map((m) => text(m.content)).join('\n');
		const scenario = /\[scenario:([\w-]+)\]/.exec(all)?.[1] ?? this.defaultScenario ?? '';
		const steps = this.scenarios[scenario];
		if (!steps)
			return json(res, 400, {
				error: { message: `no scenario in the messages: ${all.slice(0, 300)}` },
			});
		const results = toolResults(messages);
		const rounds = messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
		const step = steps[Math.min(rounds, steps.length - 1)];
		const prompt = text(messages.find((m) => m.role === 'user')?.content);
		const reply = step({ prompt, results });
		const tools = ((body.tools ?? []) as Array<{ function: OfferedFunction }>).map(
			(t) => t.function,
		);
		this.requests.push({ scenario, body, tools, results, reply });
		const message =
			'calls' in reply
				? {
						role: 'assistant',
						content: null,
						tool_calls: reply.calls.map((call) => ({
							id: `call_${++this.callCounter}`,
							type: 'function',
							function: { name: call.name, arguments: JSON.stringify(call.arguments) },
						})),
					}
				: { role: 'assistant', content: reply.content };
		const finish = 'calls' in reply ? 'tool_calls' : 'stop';
		const id = `chatcmpl-${this.requests.length}`;
		const usage = {
			prompt_tokens: Math.ceil(all.length / 4),
			completion_tokens: 20,
			total_tokens: 0,
		};
		usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
		if (body.stream === true) {
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			const chunk = (delta: Json, finishReason: string | null, extra: Json = {}) =>
				res.write(
					`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1700000000, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
				);
			if ('calls' in reply) {
				chunk(
					{
						role: 'assistant',
						content: null,
						tool_calls: (message.tool_calls ?? []).map((c, index) => ({ index, ...c })),
					},
					null,
				);
			} else {
				chunk({ role: 'assistant', content: reply.content }, null);
			}
			chunk({}, finish);
			if ((body.stream_options as Json | undefined)?.include_usage) {
				res.write(
					`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1700000000, model: body.model, choices: [], usage })}\n\n`,
				);
			}
			res.end('data: [DONE]\n\n');
			return;
		}
		return json(res, 200, {
			id,
			object: 'chat.completion',
			created: 1700000000,
			model: body.model,
			choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
			usage,
		});
	}
}

/** The tool results in a conversation, each with the call (name, arguments) it answers. */
function toolResults(messages: ChatMessage[]): ToolResult[] {
	const calls = new Map<string, { name: string; arguments: Json }>();
	for (const message of messages) {
		for (const call of message.tool_calls ?? []) {
			let args: Json = {};
			try {
				args = JSON.parse(call.function.arguments) as Json;
			} catch {
				// kept empty
			}
			calls.set(call.id, { name: call.function.name, arguments: args });
		}
	}
	return messages
		.filter((m) => m.role === 'tool')
		.map((m) => {
			const call = calls.get(m.tool_call_id ?? '') ?? { name: '?', arguments: {} };
			return { ...call, content: text(m.content) };
		});
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}
