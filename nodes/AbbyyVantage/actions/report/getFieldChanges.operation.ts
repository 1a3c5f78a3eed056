import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPreparedPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { readRunConcurrency } from '../../params/concurrency';
import {
	CHANGES_CONCURRENCY,
	changesOutput,
	changesProperties,
	readChangesPlan,
} from './changesReport';
import {
	IMAGE_FILTERS,
	MANUAL_REVIEW_FILTERS,
	PERIOD,
	PROCESS_SKILL,
	type QaFilter,
} from './qaFilters';
import { FIELDS_REPORT } from './qaReports';

/**
 * Report → Get Field Changes: GetFieldsAsCsv, one row per extracted field, as items or as the
 * CSV file (./changesReport.ts).
 */

/** GetFieldsAsCsv's query: the Process skill is required; a Document skill narrows it. */
const FILTERS: QaFilter[] = [
	...PERIOD,
	PROCESS_SKILL,
	{
		name: 'Document Skill',
		query: 'documentSkillId',
		parameter: 'filters.documentSkillId',
		type: {
			kind: 'skill',
			description:
				'Only fields extracted by this Document skill (a document type of the Process skill)',
		},
	},
	...IMAGE_FILTERS,
	...MANUAL_REVIEW_FILTERS,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getFieldChanges'] } },
	changesProperties(FIELDS_REPORT, FILTERS),
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CHANGES_CONCURRENCY, client);
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => readChangesPlan(this, itemIndex, FILTERS),
		async (plan, itemIndex) => await changesOutput(this, client, FIELDS_REPORT, plan, itemIndex),
		concurrency,
	);
}
