import { resourceDescription } from '../common';
import * as createExport from './createExport.operation';
import * as downloadExportFiles from './downloadExportFiles.operation';
import * as getExportStatus from './getExportStatus.operation';
import * as waitForExport from './waitForExport.operation';

export const operations = { createExport, downloadExportFiles, getExportStatus, waitForExport };

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
		getExportStatus: {
			name: 'Get Export Status',
			description: 'Get the status and file count of an export',
			action: 'Get export status',
		},
		waitForExport: {
			name: 'Wait For Export',
			description: 'Wait until an export has succeeded, failed or been cancelled',
			action: 'Wait for an export to finish',
		},
	},
	'createExport',
	[
		{
			displayName:
				'Only Tenant Administrators and Processing Supervisors can use reports. Result files are kept for two weeks.',
			name: 'reportNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { resource: ['report'] } },
		},
	],
);
