import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { INT32_MAX } from '../../../constants';
import { safeFileName } from '../../../helpers/fileNames';
import { count as countOf } from '../../../helpers/text';
import { mapConcurrent } from '../../../helpers/concurrency';
import { invalid, operationError } from '../../../helpers/errors';
import { runPerItem, type ItemOutput } from '../../../helpers/items';
import { requireInteger, requireOption } from '../../../helpers/validation';
import { endpoints, type VantageClient } from '../../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../../params/concurrency';
import { fileItem, outputFieldProperty, readOutputField } from '../../../params/download';
import { getExportStatus, REPORT_ACCESS_HINTS } from '../../../vantage/exports';
import { readRequestId, requestIdProperty } from './requestId';

const CONCURRENCY = { max: 16, what: 'downloads' };

const properties: INodeProperties[] = [
	requestIdProperty,
	{
		displayName: 'Files',
		name: 'files',
		type: 'options',
		options: [
			{ name: 'All Files', value: 'all', description: 'One output item per result file' },
			{ name: 'One File', value: 'one', description: 'Only the file at File Index' },
		],
		default: 'all',
	},
	{
		displayName: 'File Index',
		name: 'fileIndex',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Zero-based index of the result file, from 0 to the export’s file count minus one',
		displayOptions: { show: { files: ['one'] } },
	},
	outputFieldProperty('CSV file'),
	concurrencyOnlyOptions(CONCURRENCY),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['downloadExportFiles'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const requestId = readRequestId(this, itemIndex);
			const files = requireOption(
				this,
				itemIndex,
				'Files',
				this.getNodeParameter('files', itemIndex),
				['all', 'one'] as const,
			);
			const wanted =
				files === 'one'
					? requireInteger(
							this,
							itemIndex,
							'File Index',
							this.getNodeParameter('fileIndex', itemIndex),
							0,
							INT32_MAX,
						)
					: undefined;
			const binaryProperty = readOutputField(this, itemIndex);

			// Only a succeeded export has files; asking first gives a clear error instead of an empty file.
			const status = await getExportStatus(client, requestId, itemIndex);
			if (status.status !== 'Succeeded') {
				throw operationError(
					this.getNode(),
					itemIndex,
					`Export ${requestId} has no files to download: its status is ${status.status}`,
					{
						description:
							status.status === 'Failed' || status.status === 'Cancelled'
								? `Create a new export. Correlation ID for ABBYY support: ${status.correlationId ?? 'none'}.`
								: 'Use Wait For Export before downloading.',
						output: { ...status },
					},
				);
			}
			const count = status.totalFileCount ?? 0;
			if (wanted !== undefined && wanted >= count) {
				throw invalid(
					this,
					itemIndex,
					`File Index ${wanted} is out of range: export ${requestId} has ${countOf(count, 'file')}${count ? ` (0–${count - 1})` : ''}`,
				);
			}
			const indexes = wanted !== undefined ? [wanted] : Array.from({ length: count }, (_, i) => i);
			const settled = await mapConcurrent(
				indexes,
				concurrency,
				async (fileIndex): Promise<ItemOutput> => {
					const bytes = await client.request<Buffer>({
						...endpoints.getExportResult(requestId, fileIndex),
						binary: true,
						itemIndex,
						action: `downloading file ${fileIndex} of export ${requestId}`,
						hints: REPORT_ACCESS_HINTS,
					});
					const fileName = safeFileName(`export-${requestId}-${fileIndex}.csv`);
					const json = { requestId, fileIndex, totalFileCount: count };
					return await fileItem(this, binaryProperty, bytes, fileName, json, 'text/csv');
				},
			);
			const outputs: ItemOutput[] = [];
			for (const result of settled) {
				if (result.status === 'rejected') throw result.reason;
				outputs.push(result.value);
			}
			return outputs;
			// Items run concurrently too; the limiter bounds the downloads in flight across them.
		},
		concurrency,
	);
}
