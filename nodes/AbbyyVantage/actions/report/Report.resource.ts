import type { INodeProperties } from 'n8n-workflow';

import * as createExport from './createExport.operation';
import * as downloadExportFiles from './downloadExportFiles.operation';
import * as getExportStatus from './getExportStatus.operation';
import * as waitForExport from './waitForExport.operation';

export { createExport, downloadExportFiles, getExportStatus, waitForExport };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['report'] } },
		options: [
			{
				name: 'Create Export',
				value: 'createExport',
				description: 'Start a CSV export of transaction steps',
				action: 'Create a transaction steps export',
			},
			{
				name: 'Download Export Files',
				value: 'downloadExportFiles',
				description: 'Download the CSV files of a finished export as binary data',
				action: 'Download export files',
			},
			{
				name: 'Get Export Status',
				value: 'getExportStatus',
				description: 'Get the status and file count of an export',
				action: 'Get export status',
			},
			{
				name: 'Wait For Export',
				value: 'waitForExport',
				description: 'Wait until an export has succeeded, failed or been cancelled',
				action: 'Wait for an export to finish',
			},
		],
		default: 'createExport',
	},
	{
		displayName:
			'Only Tenant Administrators and Processing Supervisors can use reports. Result files are kept for two weeks.',
		name: 'reportNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['report'] } },
	},
	...createExport.description,
	...downloadExportFiles.description,
	...getExportStatus.description,
	...waitForExport.description,
];
