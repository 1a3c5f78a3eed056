import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
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
	return await runPerItem(this, items, async (itemIndex) => {
		const catalogId = readCatalogId(this, itemIndex);
		const wait = this.getNodeParameter('waitForCompletion', itemIndex, true) === true;
		// Checked before the reindex starts: a bad option must not leave an unwatched reindex.
		const poll = readPollSettings(
			this,
			itemIndex,
			wait ? readOptions(this, itemIndex) : {},
			REINDEX_POLL,
		);
		const started = await startReindex(this, client, catalogId, itemIndex);
		if (!wait) return { json: started };
		return { json: await waitForReindex(this, client, started, poll, itemIndex) };
	});
}
