import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { REQUEST_OPTIONS_MAX, SECOND_MS } from '../constants';
import { requireInteger, requireSeconds } from '../helpers/validation';
import { DEFAULT_RETRY_SETTINGS, type RetrySettings } from '../transport';
import { readCollection } from './collections';

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
			typeOptions: { minValue: 0, maxValue: REQUEST_OPTIONS_MAX.maxRetries },
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
	const options = readCollection(ctx, 0, 'requestOptions');
	const d = DEFAULT_RETRY_SETTINGS;
	return {
		maxRetries:
			options.maxRetries === undefined
				? d.maxRetries
				: requireInteger(
						ctx,
						0,
						'Max Retries',
						options.maxRetries,
						0,
						REQUEST_OPTIONS_MAX.maxRetries,
					),
		initialDelayMs:
			options.retryDelay === undefined
				? d.initialDelayMs
				: requireSeconds(
						ctx,
						0,
						'Retry Delay',
						options.retryDelay,
						0,
						REQUEST_OPTIONS_MAX.retryDelay,
					),
		maxDelayMs:
			options.maxRetryDelay === undefined
				? d.maxDelayMs
				: requireSeconds(
						ctx,
						0,
						'Max Retry Delay',
						options.maxRetryDelay,
						0,
						REQUEST_OPTIONS_MAX.maxRetryDelay,
					),
		timeoutMs:
			options.timeout === undefined
				? d.timeoutMs
				: requireSeconds(
						ctx,
						0,
						'Request Timeout',
						options.timeout,
						1,
						REQUEST_OPTIONS_MAX.timeout,
					),
	};
}
