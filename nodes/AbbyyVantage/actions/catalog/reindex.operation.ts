import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem, type CreatedBy } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { concurrencyOption, readRunConcurrency } from '../../params/concurrency';
import { pollOptions, readPollSettings } from '../../params/wait';
import { readCollection, sortedOptions } from '../../params/collections';
import { catalogProperty, readCatalogId } from './catalogId';
import { REINDEX_POLL, reindexAndWait } from './reindexing';

/** Under Auto every item's wait runs at once; the limiter still bounds the requests in flight. */
const CONCURRENCY = { max: 100, what: 'reindexes', autoTasks: 100 };

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
		options: sortedOptions([
			concurrencyOption(CONCURRENCY),
			...pollOptions(REINDEX_POLL).map((option) => ({
				...option,
				displayOptions: { show: { '/waitForCompletion': [true] } },
			})),
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['catalog'], operation: ['reindex'] } },
	properties,
);

/** What a finished item started, named in the error when a later item stops the run. */
const started: CreatedBy = ({ json }) =>
	`reindex ${String(json.operationId)} of catalog "${String(json.catalogId)}"`;

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	// Every item is checked before the first reindex starts (see runPreparedPerItem).
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => {
			const wait = this.getNodeParameter('waitForCompletion', itemIndex, true) === true;
			return {
				catalogId: readCatalogId(this, itemIndex),
				poll: wait
					? readPollSettings(
							this,
							itemIndex,
							readCollection(this, itemIndex, 'options'),
							REINDEX_POLL,
						)
					: (false as const),
			};
		},
		async ({ catalogId, poll }, itemIndex) => ({
			json: await reindexAndWait(this, client, catalogId, itemIndex, poll),
		}),
		concurrency,
		started,
	);
}
