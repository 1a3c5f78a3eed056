import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import { requireSeconds } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { readOptions } from '../common';
import {
	catalogProperty,
	DEFAULT_REINDEX_POLL,
	readCatalogId,
	startReindex,
	waitForReindex,
} from './shared';

const DAY_SECONDS = 86400;

const properties: INodeProperties[] = [
	catalogProperty,
	{
		displayName: 'Wait For Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait until the reindex has completed or failed. Skills search the new data only once it has completed.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { waitForCompletion: [true] } },
		options: [
			{
				displayName: 'Poll Interval (Seconds)',
				name: 'pollInterval',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 5,
				description:
					'Wait between the first status checks; it grows by half each check up to 30 seconds',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1800,
				description: 'Give up waiting after this long; the reindex itself keeps running',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalog'], operation: ['reindex'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, items, async (itemIndex) => {
		const catalogId = readCatalogId(this, itemIndex);
		const wait = this.getNodeParameter('waitForCompletion', itemIndex, true) === true;
		const options = wait ? readOptions(this, itemIndex) : {};
		const intervalMs = requireSeconds(
			this,
			itemIndex,
			'Poll Interval',
			options.pollInterval ?? DEFAULT_REINDEX_POLL.intervalMs / 1000,
			1,
			DAY_SECONDS,
		);
		const timeoutMs = requireSeconds(
			this,
			itemIndex,
			'Timeout',
			options.timeout ?? DEFAULT_REINDEX_POLL.timeoutMs / 1000,
			1,
			7 * DAY_SECONDS,
		);
		const started = await startReindex(this, client, catalogId, itemIndex);
		if (!wait) return { json: started };
		const settings = {
			intervalMs,
			maxIntervalMs: Math.max(intervalMs, DEFAULT_REINDEX_POLL.maxIntervalMs),
			timeoutMs,
		};
		return { json: await waitForReindex(this, client, started, settings, itemIndex) };
	});
}
