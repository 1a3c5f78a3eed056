import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { requireInteger, requireSeconds } from '../helpers/validation';
import { DEFAULT_RETRY_SETTINGS, VantageClient, type RetrySettings } from '../transport';
import * as catalog from './catalog/Catalog.resource';
import { readOptions } from './common';
import * as report from './report/Report.resource';
import * as transactionDocument from './transactionDocument/TransactionDocument.resource';

type Operation = {
	execute: (
		this: IExecuteFunctions,
		items: INodeExecutionData[],
		client: VantageClient,
	) => Promise<INodeExecutionData[]>;
};

const resources: Record<string, Record<string, Operation>> = {
	catalog: { deleteRecords: catalog.deleteRecords, reindex: catalog.reindex },
	report: {
		createExport: report.createExport,
		downloadExportFiles: report.downloadExportFiles,
		getExportStatus: report.getExportStatus,
		waitForExport: report.waitForExport,
	},
	transactionDocument: { add: transactionDocument.add },
};

/** Retry and timeout settings from the node's Request Options (read once, from the first item). */
function readRetrySettings(ctx: IExecuteFunctions): RetrySettings {
	const options = readOptions(ctx, 0, 'requestOptions');
	const d = DEFAULT_RETRY_SETTINGS;
	return {
		maxRetries:
			options.maxRetries === undefined
				? d.maxRetries
				: requireInteger(ctx, 0, 'Max Retries', options.maxRetries, 0, 10),
		initialDelayMs:
			options.retryDelay === undefined
				? d.initialDelayMs
				: requireSeconds(ctx, 0, 'Retry Delay', options.retryDelay, 0, 600),
		maxDelayMs:
			options.maxRetryDelay === undefined
				? d.maxDelayMs
				: requireSeconds(ctx, 0, 'Max Retry Delay', options.maxRetryDelay, 0, 3600),
		timeoutMs:
			options.timeout === undefined
				? d.timeoutMs
				: requireSeconds(ctx, 0, 'Timeout', options.timeout, 1, 3600),
	};
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not known for the resource "${resource}"`,
		);
	}
	const client = new VantageClient(this, readRetrySettings(this));
	return [await handler.execute.call(this, items, client)];
}
