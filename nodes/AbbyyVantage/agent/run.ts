import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asNodeError, plainMessage } from '../helpers/errors';
import { linkRefusalOf, type LinkRefusal } from '../helpers/fileUrl';
import { ANSWER_MAX_CHARS } from '../constants';
import { buildAnswer, fit, type OutputMode } from './answer';
import { ALLOW_AS_TOOL, DESTRUCTIVE, TOOLS } from './tools';

/**
 * One tool call: the operation runs as in a workflow, and its outcome becomes one answer for the
 * model. A failure is an answer too, with what to do next: n8n would hand the agent only the
 * error's message ("… [item 0]"), without the description that says how to fix it (n8n 2.x
 * WorkflowExecute turns a tool's error into `{ error: message }`; MCP clients get
 * "message\n\nDetails: description"), and the agent could not act on it.
 */
export async function runAsTool(
	ctx: IExecuteFunctions,
	run: () => Promise<INodeExecutionData[][]>,
): Promise<INodeExecutionData[][]> {
	const resource = String(ctx.getNodeParameter('resource', 0));
	const operation = String(ctx.getNodeParameter('operation', 0));
	const key = `${resource}.${operation}`;
	const refused = refusal(ctx, key);
	if (refused) return answer(refused);
	let items: INodeExecutionData[];
	try {
		items = (await run())[0] ?? [];
	} catch (error) {
		// A cancelled execution is not an answer: n8n stops the agent too.
		if (ctx.getExecutionCancelSignal()?.aborted) throw asNodeError(ctx, error, 0);
		return answer(errorAnswer(error));
	}
	const spec = TOOLS[key];
	return answer(
		buildAnswer(items, {
			kind: spec?.answer ?? 'status',
			mode: readMode(ctx),
			fields: String(ctx.getNodeParameter('toolFields', 0, ''))
				.split(',')
				.map((f) => f.trim())
				.filter(Boolean),
			narrow: spec?.narrow,
			limit: readLimit(ctx),
		}),
	);
}

function answer(json: IDataObject): INodeExecutionData[][] {
	return [[{ json: fit(json, ANSWER_MAX_CHARS), pairedItem: { item: 0 } }]];
}

function readMode(ctx: IExecuteFunctions): OutputMode {
	const mode = ctx.getNodeParameter('toolOutput', 0, 'simplified');
	return mode === 'raw' || mode === 'selected' ? mode : 'simplified';
}

/** The Limit a list operation read with (none with Return All), for the answer's note. */
function readLimit(ctx: IExecuteFunctions): number | undefined {
	try {
		if (ctx.getNodeParameter('returnAll', 0, false) === true) return undefined;
		const limit = Number(ctx.getNodeParameter('limit', 0, NaN));
		return Number.isFinite(limit) ? limit : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Destructive operations refuse to run as a tool unless the user allowed them in the node with a
 * fixed value. The raw parameters are read (`getNode().parameters`), not their resolved values:
 * an expression, `$fromAI()` included, could be filled by the model, and a document's text may
 * carry instructions the model follows (prompt injection). The operation's own confirmations
 * (Clear's Delete All Records) must be fixed on too, for the same reason.
 */
export function refusal(ctx: IExecuteFunctions, key: string): IDataObject | undefined {
	const rule = DESTRUCTIVE[key];
	if (!rule) return undefined;
	const raw = ctx.getNode().parameters;
	const switches: Array<[string, string]> = [
		[ALLOW_AS_TOOL, 'Allow When Used as a Tool'],
		...(rule.confirm ?? []).map((name): [string, string] => [name, confirmLabel(name)]),
	];
	const off = switches.filter(([name]) => raw[name] !== true);
	if (!off.length) return undefined;
	const byExpression = off.filter(([name]) => typeof raw[name] === 'string');
	const labels = off.map(([, label]) => label).join(' and ');
	return {
		error: `Refused: this tool may not ${rule.what}; the user has not allowed it.`,
		refused: true,
		whatToDo: `Do not try again, and do not try to reach the same result another way. Tell the user that a person must switch on ${labels} in the ABBYY Vantage node, as a fixed setting${byExpression.length ? ' (it is set by an expression now, which does not count: the model could fill it)' : ''}, if this should be allowed.`,
	};
}

function confirmLabel(name: string): string {
	return name === 'confirm' ? 'Delete All Records' : name;
}

/** What a model is told to do after each kind of refusal by Vantage. */
const ADVICE: Record<string, string> = {
	'400':
		'Vantage refused the values this tool sent: correct the arguments the error names and call the tool once more.',
	'401':
		'Signing in to ABBYY Vantage failed: do not retry; tell the user to check the ABBYY Vantage credential.',
	'403':
		'The Vantage user this tool signs in as may not do this: do not retry; tell the user which role is needed.',
	'404':
		'Vantage knows no such ID: check the ID (look it up with a list or search tool rather than guessing) and try again with the right one.',
	'409':
		'Vantage reported a conflict with the current state: read the current state first, then decide.',
	'429': 'Vantage is busy: wait a little before trying again, or tell the user.',
	server:
		'Vantage could not answer now: try again once a little later, or tell the user that ABBYY Vantage is not reachable.',
	input: 'Correct the arguments the error names and call the tool again.',
};

/**
 * What a model is told after File URL refused a link (helpers/fileUrl.ts). Not "correct the
 * arguments": another spelling of the same address is the attack, so the model must stop and
 * hand the decision to a person.
 */
const LINK_ADVICE: Record<LinkRefusal, string> = {
	internal:
		'Do not call the tool again with this link, another spelling of its address or another internal address. Ask the user for a link to the document on a public server (e.g. a presigned storage link), or ask them to have a person list the host in Allowed Internal Hosts of the ABBYY Vantage node, as a fixed value.',
	n8n: 'Do not call the tool again with this link or another spelling of its address. Tell the user that n8n’s SSRF protection refused it: an n8n administrator decides which internal hosts n8n may reach.',
	setting:
		'Do not retry: this is a setting of the node, not an argument. Tell the user that Allowed Internal Hosts in the ABBYY Vantage node must be corrected.',
};

/** A failure as the tool's answer: what happened, the node's advice and the next step. */
export function errorAnswer(error: unknown): IDataObject {
	const message = withoutItem(plainMessage(error));
	const description = (error as { description?: unknown })?.description;
	const status =
		error instanceof NodeApiError && typeof error.httpCode === 'string'
			? error.httpCode
			: undefined;
	const refusal = linkRefusalOf(error);
	const advice = refusal
		? LINK_ADVICE[refusal]
		: status
			? (ADVICE[status] ?? (Number(status) >= 500 ? ADVICE.server : ADVICE['400']))
			: error instanceof NodeApiError
				? ADVICE.server
				: ADVICE.input;
	const answer: IDataObject = { error: message };
	if (status) answer.httpStatus = Number(status);
	if (refusal === 'internal' || refusal === 'n8n') answer.refused = true;
	answer.whatToDo = [typeof description === 'string' ? withoutItem(description) : '', advice]
		.filter(Boolean)
		.join(' ');
	return answer;
}

/** "… [item 0]" names the workflow item: noise to a model, which sent one call. */
function withoutItem(text: string): string {
	return text.replace(/\s*\[item \d+\]/g, '');
}
