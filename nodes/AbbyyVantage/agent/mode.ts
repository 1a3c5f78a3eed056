import type { IExecuteFunctions, INode } from 'n8n-workflow';

/**
 * Whether this run is a tool call of an AI Agent or an MCP client, not a step of a workflow.
 *
 * n8n gives a node no single signal for it (read in n8n's source, packages/core
 * execution-engine/node-execution-context and @n8n/nodes-langchain):
 * - The tool is the node type n8n derives from `usableAsTool` by appending `Tool` to the name
 *   (`abbyyVantageTool`), on every line: that type is only ever run as a tool, so its name is
 *   the one signal every n8n version and call path shares (n8n's own `isToolType` reads it).
 * - n8n 2.x's `isToolExecution()` is true in the SupplyDataContext of the older agents and of the
 *   MCP Server Trigger (createNodeAsTool → makeHandleToolInvocation), but the ExecuteContext the
 *   AI Agent v3 runs a tool in (an engine request) answers false; n8n 1.x has no such method.
 * - An engine request marks the workflow node `rewireOutputLogTo: 'ai_tool'` (n8n 1.1xx and 2.x).
 */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	const node = ctx.getNode() as INode & { rewireOutputLogTo?: string };
	if (isToolType(node.type)) return true;
	if (node.rewireOutputLogTo === 'ai_tool') return true;
	const context = ctx as Partial<{ isToolExecution: () => boolean }>;
	return typeof context.isToolExecution === 'function' && context.isToolExecution() === true;
}

/** `n8n-nodes-abbyy-vantage.abbyyVantageTool`: the tool n8n derives from the node. */
export function isToolType(type: string): boolean {
	return type.endsWith('Tool');
}
