import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DEFAULT_POLL_INTERVAL_SECONDS } from '../../../constants';
import { apiError, operationError } from '../../../helpers/errors';
import { describeDuration } from '../../../helpers/time';
import { runPerItem } from '../../../helpers/items';
import { lastState, pollUntil } from '../../../helpers/polling';
import { isWaitHiccup, type VantageClient } from '../../../transport';
import { concurrencyOption, readRunConcurrency } from '../../../params/concurrency';
import { type PollDefaults, pollOptions, readPollSettings } from '../../../params/wait';
import { readCollection } from '../../../params/collections';
import {
	getExportStatus,
	TERMINAL_EXPORT_STATUSES,
	type ExportStatus,
} from '../../../vantage/exports';
import { readRequestId, requestIdProperty } from './requestId';

const CONCURRENCY = { max: 100, what: 'exports', autoTasks: 100 };

const POLL: PollDefaults = {
	intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS,
	maxIntervalSeconds: 60,
	timeoutSeconds: 1800,
	timeoutDescription: 'Give up if the export has not finished after this long',
};

const properties: INodeProperties[] = [
	requestIdProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [concurrencyOption(CONCURRENCY), ...pollOptions(POLL)],
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
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const poll = readPollSettings(
				this,
				itemIndex,
				readCollection(this, itemIndex, 'options'),
				POLL,
			);
			const requestId = readRequestId(this, itemIndex);

			// Cancelling the execution makes pollUntil throw at once; runPerItem reports it per item.
			const outcome = await pollUntil<ExportStatus>(
				async () => await getExportStatus(client, requestId, itemIndex),
				(status) => TERMINAL_EXPORT_STATUSES.includes(status.status),
				poll,
				client.signal,
				isWaitHiccup,
			);
			const polled = { polls: outcome.polls, failedPolls: outcome.failedPolls };
			const status = outcome.value;
			if (outcome.timedOut || !status) {
				throw operationError(
					this.getNode(),
					itemIndex,
					`Export ${requestId} did not finish within ${describeDuration(poll.timeoutMs)}; last status: ${lastState(status?.status, outcome)}`,
					{
						description: 'Raise Wait Timeout, or check the export later with Get Export Status.',
						output: { requestId, ...status, ...polled },
					},
				);
			}
			if (status.status !== 'Succeeded') {
				throw apiError(
					this.getNode(),
					itemIndex,
					{ ...status } as JsonObject,
					`Export ${requestId} ended with status ${status.status} (correlation ID ${status.correlationId ?? 'none'})`,
					{
						description:
							'Give the correlation ID to ABBYY support to find out why. Create a new export to try again.',
						output: { ...status, ...polled },
					},
				);
			}
			const count = status.totalFileCount ?? 0;
			return {
				json: {
					...status,
					fileIndexes: Array.from({ length: count }, (_, i) => i),
					...polled,
				},
			};
		},
		concurrency,
	);
}
