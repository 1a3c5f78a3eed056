import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { safeFileName } from '../../helpers/fileNames';
import { runPerItem } from '../../helpers/items';
import { endpoints, type VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { fileItem, outputFieldProperty, readOutputField } from '../../params/download';
import {
	readTransactionId,
	transactionIdProperty,
	fileIdProperty,
	readFileId,
} from '../transaction/ids';
import { TRANSACTION_HINTS } from '../../vantage/transactions';
import { documentIdProperty, readDocument, readDocumentId } from './document';

const properties: INodeProperties[] = [
	transactionIdProperty,
	documentIdProperty,
	fileIdProperty('ID of the source file, from the document’s sourceFiles (Get)'),
	outputFieldProperty(),
	concurrencyOnlyOptions(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transactionDocument'], operation: ['downloadSourceFile'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const transactionId = readTransactionId(this, itemIndex);
			const documentId = readDocumentId(this, itemIndex);
			const fileId = readFileId(this, itemIndex);
			const field = readOutputField(this, itemIndex);
			const document = await readDocument(client, transactionId, documentId, itemIndex);
			const sourceFiles = Array.isArray(document.sourceFiles)
				? (document.sourceFiles as Array<{ id?: string; name?: string }>)
				: [];
			const fileName = safeFileName(sourceFiles.find((f) => f.id === fileId)?.name ?? fileId);
			const bytes = await client.request<Buffer>({
				...endpoints.downloadTransactionDocumentSourceFile(transactionId, documentId, fileId),
				binary: true,
				itemIndex,
				action: `downloading source file ${fileId} of document ${documentId}`,
				hints: TRANSACTION_HINTS,
			});
			return await fileItem(this, field, bytes, fileName, { transactionId, documentId, fileId });
		},
		concurrency,
	);
}
