import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { runPerItem, withErrorOutput } from '../../helpers/items';
import { pollUntil } from '../../helpers/polling';
import { requireSeconds } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { concurrencyOption, readConcurrency, readOptions } from '../common';
import {
	getExportStatus,
	readRequestId,
	requestIdProperty,
	TERMINAL_EXPORT_STATUSES,
	type ExportStatus,
} from './shared';

const MAX_CONCURRENCY = 100;
const DAY_SECONDS = 86400;

const properties: INodeProperties[] = [
	requestIdProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			concurrencyOption(10, MAX_CONCURRENCY, 'exports'),
			{
				displayName: 'Max Poll Interval (Seconds)',
				name: 'maxPollInterval',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 60,
				description: 'The wait between polls grows by half each time, up to this',
			},
			{
				displayName: 'Poll Interval (Seconds)',
				name: 'pollInterval',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 10,
				description:
					'Wait between the first status checks. Vantage asks for at most one per second.',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1800,
				description: 'Give up if the export has not finished after this long',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['waitForExport'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const options = readOptions(this, 0);
	const concurrency = readConcurrency(this, options, 10, MAX_CONCURRENCY);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const itemOptions = readOptions(this, itemIndex);
			const intervalMs = requireSeconds(
				this,
				itemIndex,
				'Poll Interval',
				itemOptions.pollInterval ?? 10,
				1,
				DAY_SECONDS,
			);
			const maxIntervalMs = requireSeconds(
				this,
				itemIndex,
				'Max Poll Interval',
				itemOptions.maxPollInterval ?? 60,
				1,
				DAY_SECONDS,
			);
			const timeoutMs = requireSeconds(
				this,
				itemIndex,
				'Timeout',
				itemOptions.timeout ?? 1800,
				1,
				7 * DAY_SECONDS,
			);
			const requestId = readRequestId(this, itemIndex);

			// Cancelling the execution makes pollUntil throw at once; runPerItem reports it per item.
			const outcome = await pollUntil<ExportStatus>(
				async () => await getExportStatus(client, requestId, itemIndex),
				(status) => TERMINAL_EXPORT_STATUSES.includes(status.status),
				{ intervalMs, maxIntervalMs, timeoutMs },
				client.signal,
			);
			const status = outcome.value;
			if (outcome.timedOut) {
				throw withErrorOutput(
					new NodeOperationError(
						this.getNode(),
						`Export ${requestId} did not finish within ${timeoutMs / 1000} seconds; last status: ${status.status} [item ${itemIndex}]`,
						{
							itemIndex,
							description: 'Raise Timeout, or check the export later with Get Export Status.',
						},
					),
					{ ...status, polls: outcome.polls },
				);
			}
			if (status.status !== 'Succeeded') {
				throw withErrorOutput(
					new NodeApiError(this.getNode(), { ...status } as JsonObject, {
						message: `Export ${requestId} ended with status ${status.status} (correlation ID ${status.correlationId ?? 'none'}) [item ${itemIndex}]`,
						description:
							'Give the correlation ID to ABBYY support to find out why. Create a new export to try again.',
						itemIndex,
					}),
					{ ...status, polls: outcome.polls },
				);
			}
			const count = status.totalFileCount ?? 0;
			return {
				json: {
					...status,
					fileIndexes: Array.from({ length: count }, (_, i) => i),
					polls: outcome.polls,
				},
			};
		},
		concurrency,
	);
}
