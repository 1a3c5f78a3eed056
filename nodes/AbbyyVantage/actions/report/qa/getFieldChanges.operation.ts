import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { VantageClient } from '../../../transport';
import { changesProperties, runChangesReport } from './changesReport';
import {
	IMAGE_FILTERS,
	MANUAL_REVIEW_FILTERS,
	PERIOD,
	PROCESS_SKILL,
	type QaFilter,
} from './filters';
import { FIELDS_REPORT } from './reports';

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
	return await runChangesReport(this, items, client, FIELDS_REPORT, FILTERS);
}
