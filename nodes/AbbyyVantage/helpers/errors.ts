import type { IDataObject, IExecuteFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * One home for how the node words and builds errors. n8n's UX guidelines: the message says what
 * happened and ends with the item (`[item N]`); the description says how to fix it.
 */
/** What building an error needs from n8n's node context (execute, poll or load-options). */
export type NodeContext = Pick<IExecuteFunctions, 'getNode'>;

export function forItem(message: string, itemIndex?: number): string {
	return itemIndex === undefined ? message : `${message} [item ${itemIndex}]`;
}

/**
 * What the node's own code reads back from an error it built or tagged, beside n8n's fields. Kept
 * on the error itself as properties that are not enumerable, so n8n's view of the error (its
 * JSON, its copies) stays as n8n built it.
 */
interface ErrorNotes {
	/** The message before `forItem` named the item, for texts that quote it. */
	plainMessage?: string;
	/** Facts the error item carries under Continue On Fail (e.g. the export's status). */
	errorOutput?: IDataObject;
}

/** `error` with `notes` kept on it, not enumerable (see ErrorNotes). */
export function noted<E extends object, N extends object>(error: E, notes: N): E & N {
	for (const [key, value] of Object.entries(notes)) {
		Object.defineProperty(error, key, { value, writable: true, configurable: true });
	}
	return error as E & N;
}

function notesOf(error: unknown): ErrorNotes {
	return error !== null && typeof error === 'object' ? (error as ErrorNotes) : {};
}

function withItem<E extends Error>(error: E, message: string): E {
	return noted(error, { plainMessage: message });
}

/** An error's message without the item it names (e.g. inside another item's message). */
export function plainMessage(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	return notesOf(error).plainMessage ?? error.message;
}

/** Add fields to the error item; with `keepExisting`, fields already set win (defaults). */
export function withErrorOutput<E extends Error>(
	error: E,
	json: IDataObject,
	{ keepExisting = false } = {},
): E {
	const existing = notesOf(error).errorOutput ?? {};
	return noted(error, {
		errorOutput: keepExisting ? { ...json, ...existing } : { ...existing, ...json },
	});
}

interface ErrorOptions {
	description?: string;
	/** Fields the error item carries under Continue On Fail. */
	output?: IDataObject;
}

/** Bad input, refused before any request. */
export function invalid(
	ctx: NodeContext,
	itemIndex: number | undefined,
	message: string,
	description?: string,
): NodeOperationError {
	const error = new NodeOperationError(ctx.getNode(), forItem(message, itemIndex), {
		itemIndex,
		description,
	});
	return withItem(error, message);
}

/** Something the node decided is a failure (a timeout, nothing to download). */
export function operationError(
	node: INode,
	itemIndex: number | undefined,
	message: string,
	options: ErrorOptions = {},
): NodeOperationError {
	const error = withItem(
		new NodeOperationError(node, forItem(message, itemIndex), {
			itemIndex,
			description: options.description,
		}),
		message,
	);
	return options.output ? withErrorOutput(error, options.output) : error;
}

/** Something ABBYY Vantage answered or reported (a failed export, a missing id). */
export function apiError(
	node: INode,
	itemIndex: number | undefined,
	response: JsonObject,
	message: string,
	options: ErrorOptions & { httpCode?: string } = {},
): NodeApiError {
	const text = forItem(message, itemIndex);
	const error = new NodeApiError(node, response, {
		message: text,
		description: options.description,
		httpCode: options.httpCode,
		itemIndex,
	});
	// NodeApiError swaps a message that mentions a network code (ECONNRESET…) for a generic text
	// without the item; ours already says what happened.
	error.message = text;
	// Without an httpCode, NodeApiError takes one from the response's `status` or `code`, which in
	// Vantage's answers may be a transaction's status ("Failed"): httpCode is an HTTP status only.
	if (!isHttpStatus(error.httpCode)) error.httpCode = null;
	withItem(error, message);
	return options.output ? withErrorOutput(error, options.output) : error;
}

/** Whether `code` is an HTTP status ("404"), the only thing an error's httpCode may hold. */
function isHttpStatus(code: unknown): code is string {
	return typeof code === 'string' && /^[1-5]\d\d$/.test(code);
}

/** Any error as an n8n error naming the item; n8n errors pass through unchanged. */
export function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const wrapped = new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	const extra = notesOf(error).errorOutput;
	return extra ? noted(wrapped, { errorOutput: extra }) : wrapped;
}

/** The item n8n shows for a failed input under "Continue On Fail". */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number | number[]) {
	const json: IDataObject = {
		...(notesOf(error).errorOutput ?? {}),
		error: error.message,
	};
	if (error.description) json.errorDescription = error.description;
	if (error instanceof NodeApiError && isHttpStatus(error.httpCode)) json.httpCode = error.httpCode;
	const pairedItem = Array.isArray(itemIndex)
		? itemIndex.map((item) => ({ item }))
		: { item: itemIndex };
	return { json, pairedItem };
}
