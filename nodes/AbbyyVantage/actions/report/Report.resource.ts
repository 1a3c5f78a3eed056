import type { INodeProperties } from 'n8n-workflow';

import type { OperationTable } from '../node.type';
import { resourceOf } from '../resourceDescription';
import * as createExport from './exports/createExport.operation';
import * as downloadExportFiles from './exports/downloadExportFiles.operation';
import * as getExportStatus from './exports/getExportStatus.operation';
import * as getManyExports from './exports/getManyExports.operation';
import * as waitForExport from './exports/waitForExport.operation';
import * as getDocumentChanges from './qa/getDocumentChanges.operation';
import * as getFieldChanges from './qa/getFieldChanges.operation';
import * as getQualitySummary from './qa/getQualitySummary.operation';

/**
 * Two families: export requests of transaction steps (./exports/, Reporting API exports) and the
 * QA reports with the quality summary made from them (./qa/, qa/process-skills).
 */

/** The report operations: each one's module and label. */
export const table = {
	createExport: {
		module: createExport,
		name: 'Create Export',
		description: 'Start a CSV export of transaction steps',
		action: 'Create a transaction steps export',
		toolDescription: 'generic',
	},
	downloadExportFiles: {
		module: downloadExportFiles,
		name: 'Download Export Files',
		description: 'Download the CSV files of a finished export as binary data',
		action: 'Download export files',
		toolDescription: 'generic',
	},
	getDocumentChanges: {
		module: getDocumentChanges,
		name: 'Get Document Changes',
		description:
			'Get the QA report of processed documents: whether Manual Review corrected their fields or changed their type',
		action: 'Get the document changes report',
		toolDescription: 'generic',
	},
	getExportStatus: {
		module: getExportStatus,
		name: 'Get Export Status',
		description: 'Get the status and file count of an export',
		action: 'Get export status',
	},
	getFieldChanges: {
		module: getFieldChanges,
		name: 'Get Field Changes',
		description:
			'Get the QA report of extracted fields: correct, recognition issue, located wrongly or not detected before Manual Review',
		action: 'Get the field changes report',
		toolDescription: 'generic',
	},
	getManyExports: {
		module: getManyExports,
		name: 'Get Many Exports',
		description: 'List your export requests with their status and file count',
		action: 'Get many exports',
	},
	getQualitySummary: {
		module: getQualitySummary,
		name: 'Get Quality Summary',
		description:
			'Get the straight-through rate (documents without Manual Review) per document type and each field’s accuracy, from both QA reports',
		action: 'Get the extraction quality summary',
	},
	waitForExport: {
		module: waitForExport,
		name: 'Wait For Export',
		description: 'Wait until an export has succeeded, failed or been cancelled',
		action: 'Wait for an export to finish',
		toolDescription: 'generic',
	},
} satisfies OperationTable;

type Operation = keyof typeof table;

/** The QA family (./qa/); the other operations work on export requests (./exports/). */
const QA_OPERATIONS: Operation[] = ['getDocumentChanges', 'getFieldChanges', 'getQualitySummary'];
const EXPORT_OPERATIONS = (Object.keys(table) as Operation[]).filter(
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

export const { operations, description } = resourceOf('report', table, 'createExport', [
	rolesNotice('reportNotice', 'Export result files are kept for two weeks.', EXPORT_OPERATIONS),
	rolesNotice('qaReportNotice', 'Vantage keeps 12 months of reporting data.', QA_OPERATIONS),
]);
