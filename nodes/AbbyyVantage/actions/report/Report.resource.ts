import type { INodeProperties } from 'n8n-workflow';

import { resourceDescription } from '../resourceDescription';
import * as createExport from './createExport.operation';
import * as downloadExportFiles from './downloadExportFiles.operation';
import * as getDocumentChanges from './getDocumentChanges.operation';
import * as getExportStatus from './getExportStatus.operation';
import * as getFieldChanges from './getFieldChanges.operation';
import * as getQualitySummary from './getQualitySummary.operation';
import * as waitForExport from './waitForExport.operation';

export const operations = {
	createExport,
	downloadExportFiles,
	getDocumentChanges,
	getExportStatus,
	getFieldChanges,
	getQualitySummary,
	waitForExport,
};

type Operation = keyof typeof operations;

/** The QA reports (qa/process-skills); the other operations work on exports. */
const QA_OPERATIONS: Operation[] = ['getDocumentChanges', 'getFieldChanges', 'getQualitySummary'];
const EXPORT_OPERATIONS = (Object.keys(operations) as Operation[]).filter(
	(operation) => !QA_OPERATIONS.includes(operation),
);

/** The notice above a Report operation's parameters: who may use reports, and what is kept. */
function rolesNotice(name: string, kept: string, operation: Operation[]): INodeProperties {
	return {
		displayName: `Only Tenant Administrators and Processing Supervisors can use reports. ${kept}`,
		name,
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['report'], operation } },
	};
}

export const description = resourceDescription(
	'report',
	operations,
	{
		createExport: {
			name: 'Create Export',
			description: 'Start a CSV export of transaction steps',
			action: 'Create a transaction steps export',
		},
		downloadExportFiles: {
			name: 'Download Export Files',
			description: 'Download the CSV files of a finished export as binary data',
			action: 'Download export files',
		},
		getDocumentChanges: {
			name: 'Get Document Changes',
			description:
				'Get the QA report of processed documents: whether Manual Review corrected their fields or changed their type',
			action: 'Get the document changes report',
		},
		getExportStatus: {
			name: 'Get Export Status',
			description: 'Get the status and file count of an export',
			action: 'Get export status',
		},
		getFieldChanges: {
			name: 'Get Field Changes',
			description:
				'Get the QA report of extracted fields: correct, recognition issue, located wrongly or not detected before Manual Review',
			action: 'Get the field changes report',
		},
		getQualitySummary: {
			name: 'Get Quality Summary',
			description:
				'Get the straight-through rate (documents without Manual Review) per document type and each field’s accuracy, from both QA reports',
			action: 'Get the extraction quality summary',
		},
		waitForExport: {
			name: 'Wait For Export',
			description: 'Wait until an export has succeeded, failed or been cancelled',
			action: 'Wait for an export to finish',
		},
	},
	'createExport',
	[
		rolesNotice('reportNotice', 'Export result files are kept for two weeks.', EXPORT_OPERATIONS),
		rolesNotice('qaReportNotice', 'Vantage keeps 12 months of reporting data.', QA_OPERATIONS),
	],
);
