import type {
	IDisplayOptions,
	INodeProperties,
	INodePropertyOptions,
	NodeParameterValueType,
} from 'n8n-workflow';

import { ANSWER_MAX_CHARS, ANSWER_MAX_RESULTS } from '../constants';
import { ALLOW_AS_TOOL, DESTRUCTIVE, TOOLS } from './tools';

/**
 * The parameters only the tool variant (`ABBYY Vantage Tool`) shows, added to the node's own.
 *
 * n8n derives the tool from the node's description at run time (n8n's NodeTypes, for a type
 * ending in `Tool`): `usableAsTool.replacements` reach only the editor's copy, so parameters a
 * tool needs must be in the node's own description, shown with `@tool` (n8n-workflow's
 * displayOptions key that is true in a node type whose name ends in `Tool`; n8n-workflow 1.120
 * and 2.x know it, 1.83 (n8n 1.85) does not: there these parameters are hidden and n8n describes
 * the tool by itself, "<action> in ABBYY Vantage").
 *
 * - Tool Description, one per operation, holding the text written for a model (./tools.ts). A
 *   node with a `toolDescription` parameter gets none of n8n's own (n8n's convertNodeToAiTool adds
 *   its Tool Description only when the node has none), and n8n hands the parameter's value to the
 *   agent and to MCP clients (NodeHelpers.getToolDescriptionForNode).
 * - Output (Simplified / Raw / Selected Fields) for the operations a model reads with.
 * - Allow When Used as a Tool for the destructive operations (./guard.ts).
 * - For the parameters a model fills, a tool copy with a `$fromAI()` default beside the node's
 *   own (hidden in the tool): duplicate names with exclusive displayOptions are how n8n shows one
 *   parameter two ways.
 */
export function withToolProperties(properties: INodeProperties[]): INodeProperties[] {
	const out: INodeProperties[] = [];
	for (const property of properties) {
		const resource = single(property.displayOptions?.show?.resource);
		if (property.name === 'operation' && resource) {
			out.push(property, ...toolOnly(resource, operationOptions(property)));
			continue;
		}
		const operation = single(property.displayOptions?.show?.operation);
		const override =
			resource && operation
				? TOOLS[`${resource}.${operation}`]?.parameters?.find((p) => p.name === property.name)
				: undefined;
		if (override) out.push(...twoWays(property, override.default));
		else out.push(property);
	}
	return out;
}

function single(values: unknown): string | undefined {
	return Array.isArray(values) && values.length === 1 && typeof values[0] === 'string'
		? values[0]
		: undefined;
}

function operationOptions(property: INodeProperties): INodePropertyOptions[] {
	return (property.options ?? []).filter(
		(option): option is INodePropertyOptions => 'value' in option,
	);
}

/** Shown only in the tool, for one operation. */
function inTool(resource: string, operation: string, extra: IDisplayOptions['show'] = {}) {
	return { show: { resource: [resource], operation: [operation], '@tool': [true], ...extra } };
}

function toolOnly(resource: string, operations: INodePropertyOptions[]): INodeProperties[] {
	const out: INodeProperties[] = [];
	for (const option of operations) {
		const operation = String(option.value);
		const key = `${resource}.${operation}`;
		const destructive = DESTRUCTIVE[key];
		const text =
			TOOLS[key]?.description ??
			`${option.description ?? option.name} (ABBYY Vantage).` +
				(destructive ? ' It runs only when the user allowed it in the node.' : '');
		out.push({
			displayName: 'Tool Description',
			name: 'toolDescription',
			type: 'string',
			typeOptions: { rows: 4 },
			noDataExpression: true,
			default: text,
			description:
				'What the AI agent or MCP client reads about this tool. The default says what it returns and where its IDs come from.',
			displayOptions: inTool(resource, operation),
		});
		if (destructive) {
			out.push({
				displayName: 'Allow When Used as a Tool',
				name: ALLOW_AS_TOOL,
				type: 'boolean',
				noDataExpression: true,
				default: false,
				description: `Whether an AI agent or MCP client may ${destructive.what}. A document's text can carry instructions to a model (prompt injection), so this is your decision, never the model's: only a fixed on counts, an expression does not. Off, the tool answers that it may not.`,
				displayOptions: inTool(resource, operation),
			});
		}
		if (TOOLS[key]) {
			out.push(
				{
					displayName: 'Output',
					name: 'toolOutput',
					type: 'options',
					noDataExpression: true,
					options: [
						{
							name: 'Simplified',
							value: 'simplified',
							description: 'What a model needs, without empty values and bookkeeping fields',
						},
						{
							name: 'Raw',
							value: 'raw',
							description: 'The output items as the node gives them in a workflow',
						},
						{
							name: 'Selected Fields',
							value: 'selected',
							description: 'Only the fields named below',
						},
					],
					default: 'simplified',
					description: `What the model gets back. An answer is cut to ${ANSWER_MAX_CHARS.toLocaleString('en-US')} characters and ${ANSWER_MAX_RESULTS} results, saying how to narrow the question.`,
					displayOptions: inTool(resource, operation),
				},
				{
					displayName: 'Fields',
					name: 'toolFields',
					type: 'string',
					default: '',
					placeholder: 'e.g. fields.VatId, fields.Name',
					description:
						'The fields of the output items to give the model, separated by commas; dots reach nested fields',
					displayOptions: inTool(resource, operation, { toolOutput: ['selected'] }),
				},
			);
		}
	}
	return out;
}

/** The node's parameter, hidden in the tool, and a copy for the tool with another default. */
function twoWays(
	property: INodeProperties,
	toolDefault: NodeParameterValueType,
): INodeProperties[] {
	const displayOptions = property.displayOptions ?? {};
	return [
		{
			...property,
			displayOptions: { ...displayOptions, hide: { ...displayOptions.hide, '@tool': [true] } },
		},
		{
			...property,
			default: toolDefault,
			displayOptions: { ...displayOptions, show: { ...displayOptions.show, '@tool': [true] } },
		},
	];
}
