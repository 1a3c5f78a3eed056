import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { DAY_SECONDS, MAX_WAIT_SECONDS, POLL_GROWTH, SECOND_MS } from '../constants';
import type { PollSettings } from '../helpers/polling';
import { requireInteger, requireSeconds, requireText } from '../helpers/validation';
import { AUTO_LIMITS } from '../transport/limiter';
import { DEFAULT_RETRY_SETTINGS, type RetrySettings, type VantageClient } from '../transport';
import type { OperationLabel, OperationMap } from './node.type';

/**
 * Parameters and readers shared by operations: each concept is described once here and read by
 * the same function wherever it appears.
 */

/**
 * The Operation picker of a resource and the fields of all its operations. `labels` must name
 * exactly the operations of `operations`, so an operation without a label, or a label without an
 * operation, does not compile.
 */
export function resourceDescription<T extends OperationMap>(
	resource: string,
	operations: T,
	labels: { [K in keyof T]: OperationLabel },
	defaultOperation: keyof T & string,
	notices: INodeProperties[] = [],
): INodeProperties[] {
	const options = (Object.keys(labels) as Array<keyof T & string>)
		.map((value) => ({ ...labels[value], value }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options,
			default: defaultOperation,
		},
		...notices,
		...Object.values(operations).flatMap((operation) => operation.description),
	];
}

/** An options collection's entries in alphabetical order, as n8n's UI guidelines ask. */
export function sortedOptions(options: INodeProperties[]): INodeProperties[] {
	return [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** A collection parameter as an object (expressions may produce anything). */
export function readOptions(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'options',
): IDataObject {
	const value = ctx.getNodeParameter(name, itemIndex, {});
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}

// ------------------------------------------------------------------ get many

/** Return All and Limit, worded as n8n's own Get Many operations word them. */
export function returnAllProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Undefined for Return All, else the Limit. */
export function readReturnLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) === true) return undefined;
	return requireInteger(
		ctx,
		itemIndex,
		'Limit',
		// n8n fills in the parameter's default when the workflow is loaded.
		ctx.getNodeParameter('limit', itemIndex),
		1,
		Number.MAX_SAFE_INTEGER,
	);
}

/**
 * A list Vantage returns whole (not paged), cut to Return All / Limit of item `itemIndex`. Read the
 * limit before sending, so a bad Limit fails before the request: pass it in.
 */
export function upToLimit<T>(list: T[] | undefined, limit: number | undefined): T[] {
	const all = Array.isArray(list) ? list : [];
	return limit === undefined ? all : all.slice(0, limit);
}

// ------------------------------------------------------------------ downloads

/** The output binary field of a download operation. */
export function outputFieldProperty(what = 'file'): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: `The name of the output binary field to put the ${what} in`,
	};
}

export function readOutputField(ctx: IExecuteFunctions, itemIndex: number): string {
	return requireText(
		ctx,
		itemIndex,
		'Put Output File in Field',
		ctx.getNodeParameter('binaryPropertyName', itemIndex),
	);
}

/** One downloaded file as an output item: `json` describes it, the bytes go in `field`. */
export async function fileItem(
	ctx: IExecuteFunctions,
	field: string,
	bytes: Buffer,
	fileName: string,
	json: IDataObject,
	mimeType?: string,
): Promise<INodeExecutionData> {
	return {
		json: { ...json, fileName, fileSize: bytes.length },
		binary: { [field]: await ctx.helpers.prepareBinaryData(bytes, fileName, mimeType) },
	};
}

// ------------------------------------------------------------------ concurrency

export interface ConcurrencyLimits {
	/** The highest number a user may pin. */
	max: number;
	/** What runs at the same time, plural ("exports", "delete requests"). */
	what: string;
	/**
	 * Under Auto, how many of them are handled at once (items waiting, batches queued); the
	 * adaptive limiter still bounds the requests in flight. Default: the limiter's ceiling.
	 */
	autoTasks?: number;
}

const PINNED = [1, 2, 4, 8, 16, 32, 64, 100];

/**
 * An operation's "Concurrency" option: Auto (default) adapts to how Vantage answers; a number
 * pins how many requests are in flight.
 */
export function concurrencyOption(limits: ConcurrencyLimits): INodeProperties {
	const { max, what } = limits;
	return {
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'options',
		options: [
			{
				name: 'Auto',
				value: 'auto',
				description: `Start with ${AUTO_LIMITS.initial} at a time, grow to ${AUTO_LIMITS.max} while Vantage answers promptly, back off when it limits the rate`,
			},
			...PINNED.filter((n) => n <= max).map((n) => ({ name: String(n), value: n })),
		],
		default: 'auto',
		description: `How many ${what} to handle at the same time. An expression may give any number from 1 to ${max}.`,
	};
}

/**
 * Read once per execution, from the first item (it shapes the whole run), and applied to the
 * client: returns how many tasks the operation runs at once.
 */
export function readConcurrency(
	ctx: IExecuteFunctions,
	options: IDataObject,
	limits: ConcurrencyLimits,
	client: VantageClient,
): number {
	const value = options.concurrency ?? 'auto';
	if (value === 'auto') {
		client.useConcurrency('auto');
		return limits.autoTasks ?? AUTO_LIMITS.max;
	}
	const pinned = requireInteger(ctx, 0, 'Concurrency', value, 1, limits.max);
	client.useConcurrency(pinned);
	return pinned;
}

// ------------------------------------------------------------------ concurrency

/** Per-item operations: one or two requests per input item. */
export const ITEM_CONCURRENCY: ConcurrencyLimits = { max: 32, what: 'items' };

/** An Options collection holding only Concurrency, for operations without other options. */
export function concurrencyOnlyOptions(
	limits: ConcurrencyLimits = ITEM_CONCURRENCY,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [concurrencyOption(limits)],
	};
}

/**
 * The Concurrency of this run, from the first item's Options (it shapes the whole run), applied
 * to the client: how many tasks the operation runs at once.
 */
export function readRunConcurrency(
	ctx: IExecuteFunctions,
	limits: ConcurrencyLimits,
	client: VantageClient,
): number {
	return readConcurrency(ctx, readOptions(ctx, 0), limits, client);
}

// ------------------------------------------------------------------ polling

export interface PollDefaults {
	intervalSeconds: number;
	maxIntervalSeconds: number;
	timeoutSeconds: number;
	/** The Timeout option's description: what happens when the wait gives up. */
	timeoutDescription: string;
}

/** How the pauses between status checks grow, for the wait options' descriptions. */
export const POLL_GROWTH_TEXT = `later pauses grow to ${POLL_GROWTH * 100} % of the time waited so far`;

/**
 * The wait settings, for an options collection: named "Wait …" so that, sorted as n8n lists
 * options, they stand together, in the order they apply, and apart from Request Options' Request
 * Timeout. Only the display names changed; `pollInterval`, `maxPollInterval` and `timeout` are
 * what saved workflows hold.
 */
export const WAIT_OPTION_NAMES = {
	pollInterval: 'Wait Interval',
	maxPollInterval: 'Wait Interval Limit',
	timeout: 'Wait Timeout',
} as const;

/** Wait Interval, Wait Interval Limit and Wait Timeout, for an options collection. */
export function pollOptions(defaults: PollDefaults): INodeProperties[] {
	const { intervalSeconds, maxIntervalSeconds, timeoutSeconds, timeoutDescription } = defaults;
	return [
		{
			displayName: `${WAIT_OPTION_NAMES.maxPollInterval} (Seconds)`,
			name: 'maxPollInterval',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: maxIntervalSeconds,
			description: `The longest pause between two status checks: ${POLL_GROWTH_TEXT} up to this, so a long job is noticed at most that share of its duration late`,
		},
		{
			displayName: `${WAIT_OPTION_NAMES.pollInterval} (Seconds)`,
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: intervalSeconds,
			description: `The wait between the first status checks, and the shortest (Vantage asks for at most one check a second); ${POLL_GROWTH_TEXT}, up to ${WAIT_OPTION_NAMES.maxPollInterval}`,
		},
		{
			displayName: `${WAIT_OPTION_NAMES.timeout} (Seconds)`,
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: timeoutSeconds,
			description: timeoutDescription,
		},
	];
}

/** The poll options of one item, with the same defaults the parameters show. */
export function readPollSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
	defaults: PollDefaults,
): PollSettings {
	const intervalMs = requireSeconds(
		ctx,
		itemIndex,
		WAIT_OPTION_NAMES.pollInterval,
		options.pollInterval ?? defaults.intervalSeconds,
		1,
		DAY_SECONDS,
	);
	const maxIntervalMs = requireSeconds(
		ctx,
		itemIndex,
		WAIT_OPTION_NAMES.maxPollInterval,
		options.maxPollInterval ?? defaults.maxIntervalSeconds,
		1,
		DAY_SECONDS,
	);
	const timeoutMs = requireSeconds(
		ctx,
		itemIndex,
		WAIT_OPTION_NAMES.timeout,
		options.timeout ?? defaults.timeoutSeconds,
		1,
		MAX_WAIT_SECONDS,
	);
	return { intervalMs, maxIntervalMs: Math.max(intervalMs, maxIntervalMs), timeoutMs };
}

/** Poll settings from the defaults alone (a wait that has no options of its own). */
export function defaultPollSettings(defaults: PollDefaults): PollSettings {
	return {
		intervalMs: defaults.intervalSeconds * SECOND_MS,
		maxIntervalMs: defaults.maxIntervalSeconds * SECOND_MS,
		timeoutMs: defaults.timeoutSeconds * SECOND_MS,
	};
}

// ------------------------------------------------------------------ request options

const DEFAULT_MAX_RETRIES = DEFAULT_RETRY_SETTINGS.maxRetries;
const DEFAULT_MAX_RETRY_DELAY = DEFAULT_RETRY_SETTINGS.maxDelayMs / SECOND_MS;
const DEFAULT_RETRY_DELAY = DEFAULT_RETRY_SETTINGS.initialDelayMs / SECOND_MS;
const DEFAULT_TIMEOUT = DEFAULT_RETRY_SETTINGS.timeoutMs / SECOND_MS;

/** Request Options: how each HTTP request is sent. `timeout` keeps its name for saved workflows. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: DEFAULT_MAX_RETRIES,
			description:
				'How often to resend a request that is safe to repeat after a rate limit (429), a gateway failure (502–504), a timeout or a network failure; reads (reports, lists, status checks) also after a server error (500). Requests that create something are resent only when Vantage cannot have processed them (429, refused connection).',
			hint: 'Resends one request inside the node, and only when that is safe. n8n’s Settings → Retry On Fail instead runs the whole node again after it failed, which repeats what it had already created (transactions, exports).',
		},
		{
			displayName: 'Max Retry Delay (Seconds)',
			name: 'maxRetryDelay',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: DEFAULT_MAX_RETRY_DELAY,
			description: 'Longest wait before a retry. A Retry-After asking for longer ends the retries.',
		},
		{
			displayName: 'Request Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT,
			description:
				'How long to wait for each response. How long a wait for a transaction, export or reindex may take is the Wait Timeout option.',
		},
		{
			displayName: 'Retry Delay (Seconds)',
			name: 'retryDelay',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: DEFAULT_RETRY_DELAY,
			description: 'Wait before the first retry; it doubles for each further retry',
		},
	],
};

/** Retry and timeout settings from Request Options, read once per execution from the first item. */
export function readRetrySettings(ctx: IExecuteFunctions): RetrySettings {
	const options = readOptions(ctx, 0, 'requestOptions');
	const d = DEFAULT_RETRY_SETTINGS;
	return {
		maxRetries:
			options.maxRetries === undefined
				? d.maxRetries
				: requireInteger(ctx, 0, 'Max Retries', options.maxRetries, 0, 10),
		initialDelayMs:
			options.retryDelay === undefined
				? d.initialDelayMs
				: requireSeconds(ctx, 0, 'Retry Delay', options.retryDelay, 0, 600),
		maxDelayMs:
			options.maxRetryDelay === undefined
				? d.maxDelayMs
				: requireSeconds(ctx, 0, 'Max Retry Delay', options.maxRetryDelay, 0, 3600),
		timeoutMs:
			options.timeout === undefined
				? d.timeoutMs
				: requireSeconds(ctx, 0, 'Request Timeout', options.timeout, 1, 3600),
	};
}
