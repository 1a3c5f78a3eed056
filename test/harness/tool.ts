/**
 * The ABBYY Vantage Tool inside n8n-core's real engine, called the two ways n8n's agents call a
 * tool (read in n8n 2.41's source, packages/core execution-engine and @n8n/nodes-langchain):
 *
 * - `engine`: as n8n's AI Agent v3 does. The agent asks n8n-core for its tools
 *   (getInputConnectionData → createNodeAsTool: name, description, $fromAI schema), returns an
 *   engine request naming the tool node and the model's arguments, and n8n-core's WorkflowExecute
 *   runs the tool node itself (ExecuteContext, `rewireOutputLogTo: ai_tool`, the arguments as its
 *   input item) and resumes the agent with the tool's run data; the model reads
 *   JSON.stringify of the items' json (@n8n/nodes-langchain buildSteps `buildObservation`, below).
 * - `supply`: as n8n's older agents and the MCP Server Trigger do: the DynamicStructuredTool
 *   n8n-core built is invoked, which runs the node in a SupplyDataContext
 *   (makeHandleToolInvocation) and returns JSON.stringify of the items' json, or throws.
 *
 * The only stand-ins are the agent node (a script of tool calls instead of a model) and the tool
 * variant of the node type, built here as n8n's CLI builds it at run time (n8n's NodeTypes for a
 * type ending in `Tool`: convertNodeToAiTool).
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	NodeConnectionTypes,
	Workflow,
	type EngineRequest,
	type EngineResponse,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
	type IRun,
	type IRunExecutionData,
	type ITaskData,
} from 'n8n-workflow';

import { AbbyyVantage } from '../../nodes/AbbyyVantage/AbbyyVantage.node';
import { initBinaryData, makeAdditionalData, NODE_TYPE, type CredentialStore } from './n8n';

export const TOOL_TYPE = `${NODE_TYPE}Tool`;
const base = new AbbyyVantage();

/** The tool variant as n8n derives it at run time (n8n's NodeTypes → convertNodeToAiTool). */
export function toolVariant(nodeType: INodeType = base): INodeType {
	const { usableAsTool, ...rest } = nodeType.description;
	if (!usableAsTool) throw new Error('the node is not usable as a tool');
	const description: INodeTypeDescription = {
		...rest,
		name: `${rest.name}Tool`,
		displayName: `${rest.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	};
	// n8n adds its own Tool Description only to a node without one; this node has one per operation.
	if (!description.properties.some((p) => p.name === 'toolDescription')) {
		throw new Error('expected the node to bring its own toolDescription');
	}
	return Object.create(nodeType, { description: { value: description } }) as INodeType;
}

/** One tool call as a model would make it: the tool's name and its arguments. */
export interface ToolCall {
	tool: string;
	args: IDataObject;
}

/** A tool as the agent was offered it, its schema read from the zod object n8n-core built. */
export interface OfferedTool {
	name: string;
	description: string;
	schema: Record<
		string,
		{ type: string; description?: string; optional: boolean; default?: unknown }
	>;
}

export interface ToolAnswer {
	tool: string;
	/** What the model reads. */
	answer?: string;
	/** Supply path: what the tool threw instead of answering. */
	thrown?: string;
}

export interface AgentRun {
	offered: OfferedTool[];
	answers: ToolAnswer[];
	run: IRun;
	/** The tool node's items as n8n recorded them (engine path: the `ai_tool` output). */
	toolItems(node: string): INodeExecutionData[];
}

interface ZodLike {
	shape?: Record<string, ZodLike>;
	description?: string;
	isOptional(): boolean;
	_def: { typeName: string; innerType?: ZodLike; defaultValue?: () => unknown };
}

interface ToolLike {
	name: string;
	description: string;
	schema: ZodLike;
	metadata?: { sourceNodeName?: string };
	invoke(args: IDataObject): Promise<unknown>;
}

function describeTool(tool: ToolLike): OfferedTool {
	const schema: OfferedTool['schema'] = {};
	for (const [key, field] of Object.entries(tool.schema.shape ?? {})) {
		let inner = field;
		let fallback: unknown;
		if (inner._def.typeName === 'ZodDefault' && inner._def.innerType) {
			fallback = inner._def.defaultValue?.();
			inner = inner._def.innerType;
		}
		schema[key] = {
			type: inner._def.typeName.replace(/^Zod/, '').toLowerCase(),
			...(field.description ? { description: field.description } : {}),
			optional: field.isOptional(),
			...(fallback !== undefined ? { default: fallback } : {}),
		};
	}
	return { name: tool.name, description: tool.description, schema };
}

/** @n8n/nodes-langchain buildSteps' `buildObservation`: what the v3 agent hands the model. */
function observation(task: ITaskData | undefined): string {
	const items = task?.data?.ai_tool?.[0]?.map((item) => item?.json);
	if (items && items.length > 0) return JSON.stringify(items);
	if (task?.error) return JSON.stringify({ error: task.error.message ?? 'Unknown error' });
	return JSON.stringify('');
}

function agentType(path: 'engine' | 'supply', calls: ToolCall[], record: AgentRecord): INodeType {
	const description: INodeTypeDescription = {
		displayName: 'Scripted Agent',
		name: 'test.agent',
		group: ['transform'],
		version: 1,
		description: 'Calls tools from a script, as a model would',
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};
	return {
		description,
		async execute(
			this: IExecuteFunctions,
			response?: EngineResponse,
		): Promise<INodeExecutionData[][] | EngineRequest> {
			const tools = ((await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) ??
				[]) as ToolLike[];
			record.offered = tools.map(describeTool);
			const byName = (name: string) => {
				const tool = tools.find((t) => t.name === name);
				if (!tool)
					throw new Error(`no tool ${name}; offered: ${tools.map((t) => t.name).join(', ')}`);
				return tool;
			};
			if (path === 'supply') {
				for (const call of calls) {
					try {
						const answer = await byName(call.tool).invoke(call.args);
						record.answers.push({ tool: call.tool, answer: String(answer) });
					} catch (error) {
						record.answers.push({ tool: call.tool, thrown: (error as Error).message });
					}
				}
				return [[{ json: {} }]];
			}
			if (!response?.actionResponses?.length) {
				return {
					actions: calls.map((call, index) => ({
						actionType: 'ExecutionNodeAction' as const,
						nodeName: byName(call.tool).metadata?.sourceNodeName ?? call.tool,
						input: call.args,
						type: NodeConnectionTypes.AiTool,
						id: `call_${index}`,
						metadata: { itemIndex: 0 },
					})),
					metadata: {},
				};
			}
			for (const result of response.actionResponses) {
				const tool = tools.find((t) => t.metadata?.sourceNodeName === result.action.nodeName);
				record.answers.push({
					tool: tool?.name ?? result.action.nodeName,
					answer: observation(result.data),
				});
			}
			return [[{ json: {} }]];
		},
	} as INodeType;
}

interface AgentRecord {
	offered: OfferedTool[];
	answers: ToolAnswer[];
}

const startType: INodeType = {
	description: {
		displayName: 'Start',
		name: 'test.start',
		group: ['trigger'],
		version: 1,
		description: 'Hands its input on',
		defaults: { name: 'Start' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	},
};

export interface ToolNode {
	/** The node's name; n8n makes the tool's name from it (nodeNameToToolName). */
	name: string;
	parameters: INodeParameters;
	/** Retry On Fail and friends, as n8n's node settings. */
	settings?: Partial<INode>;
}

/**
 * An agent workflow in n8n-core: Start → Agent, with `tools` connected as its tools; the agent
 * offers them and makes `calls`, the engine path (v3 agent) or the supply path (older agents,
 * MCP Server Trigger).
 */
export async function runAgent(options: {
	path: 'engine' | 'supply';
	tools: ToolNode[];
	calls: ToolCall[];
	credentials: CredentialStore;
	/** The agent's input item (the engine path merges it under the model's arguments). */
	input?: IDataObject;
}): Promise<AgentRun> {
	await initBinaryData();
	const record: AgentRecord = { offered: [], answers: [] };
	const agent = agentType(options.path, options.calls, record);
	const tool = toolVariant();
	const types: Record<string, INodeType> = {
		[TOOL_TYPE]: tool,
		[NODE_TYPE]: base,
		'test.agent': agent,
		'test.start': startType,
	};
	const nodeTypes = {
		getByName: (type: string) => types[type],
		getByNameAndVersion: (type: string) => types[type],
		getKnownTypes: () => ({}),
	} as INodeTypes;
	const start: INode = {
		id: 'start',
		name: 'Start',
		type: 'test.start',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const agentNode: INode = {
		id: 'agent',
		name: 'Agent',
		type: 'test.agent',
		typeVersion: 1,
		position: [200, 0],
		parameters: {},
	};
	const toolNodes: INode[] = options.tools.map((t, index) => ({
		id: `tool-${index}`,
		name: t.name,
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [200, 200],
		parameters: t.parameters,
		credentials: { abbyyVantageApi: { id: options.credentials.id, name: 'ABBYY Vantage account' } },
		...t.settings,
	}));
	const nodes = [start, agentNode, ...toolNodes];
	const connections = {
		Start: { main: [[{ node: 'Agent', type: NodeConnectionTypes.Main, index: 0 }]] },
		...Object.fromEntries(
			toolNodes.map((n) => [
				n.name,
				{ ai_tool: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]] },
			]),
		),
	};
	const workflow = new Workflow({
		id: 'wf-agent',
		name: 'agent test',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const executionId = `exec-agent-${Date.now()}-${Math.random()}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: 'wf-agent',
		name: 'agent test',
		nodes,
		connections,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	let resolveRun!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (resolveRun = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));
	const additionalData = makeAdditionalData(options.credentials, hooks, executionId);
	const runExecutionData: IRunExecutionData = {
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [
				{ node: start, data: { main: [[{ json: options.input ?? {} }]] }, source: null },
			],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
	const execution = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	const processing = execution.processRunExecutionData(workflow);
	processing.catch(() => undefined);
	const run = await finished;
	const error = run.data.resultData.error;
	if (error) throw new Error(`the agent workflow failed: ${error.message}`);
	return {
		...record,
		run,
		toolItems: (node) =>
			(run.data.resultData.runData[node] ?? []).flatMap(
				(task) => task.data?.[NodeConnectionTypes.AiTool]?.[0] ?? task.data?.main?.[0] ?? [],
			),
	};
}

/** A tool's answer parsed as the model reads it: the first item's json. */
export function parsedAnswer(answer: ToolAnswer): IDataObject {
	if (answer.answer === undefined) throw new Error(`the tool threw: ${answer.thrown}`);
	const parsed = JSON.parse(answer.answer) as unknown;
	// The supply path hands over JSON.stringify of the items' json (an array), as the engine path.
	const first = Array.isArray(parsed) ? parsed[0] : parsed;
	return first as IDataObject;
}
