import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { VantageClient } from '../../../transport';
import { changesProperties, runChangesReport } from './changesReport';
import { IMAGE_FILTERS, MANUAL_REVIEW_FILTERS, PERIOD, type QaFilter } from './filters';
import { DOCUMENTS_REPORT } from './reports';

/**
 * Report → Get Document Changes: GetDocumentsAsCsv, one row per document of a Process skill's
 * transactions, as items or as the CSV file (./changesReport.ts).
 */

/** GetDocumentsAsCsv's query: the Process skill is a filter (every Process skill if empty). */
const FILTERS: QaFilter[] = [
	...PERIOD,
	{
		name: 'Process Skill',
		query: 'processSkillId',
		parameter: 'filters.processSkillId',
		type: { kind: 'skill', description: 'Only documents of this Process skill’s transactions' },
	},
	...IMAGE_FILTERS,
	...MANUAL_REVIEW_FILTERS,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['getDocumentChanges'] } },
	changesProperties(DOCUMENTS_REPORT, FILTERS),
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	return await runChangesReport(this, items, client, DOCUMENTS_REPORT, FILTERS);
}
