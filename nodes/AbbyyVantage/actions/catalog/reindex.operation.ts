import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { pollOptions, readOptions, readPollSettings } from '../common';
import {
	catalogProperty,
	readCatalogId,
	REINDEX_POLL,
	startReindex,
	waitForReindex,
} from './shared';

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
		options: pollOptions(REINDEX_POLL),
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
	// Every item is checked before the first reindex starts (see runPreparedPerItem).
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => {
			const wait = this.getNodeParameter('waitForCompletion', itemIndex, true) === true;
			return {
				catalogId: readCatalogId(this, itemIndex),
				wait,
				poll: readPollSettings(
					this,
					itemIndex,
					wait ? readOptions(this, itemIndex) : {},
					REINDEX_POLL,
				),
			};
		},
		async ({ catalogId, wait, poll }, itemIndex) => {
			const started = await startReindex(this, client, catalogId, itemIndex);
			if (!wait) return { json: started };
			return { json: await waitForReindex(this, client, started, poll, itemIndex) };
		},
	);
}
