import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { safeFileName } from '../../helpers/fileNames';
import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { fileItem, outputFieldProperty, readOutputField } from '../../params/download';
import { readTransactionId, transactionIdProperty, fileIdProperty, readFileId } from './ids';
import { downloadTransactionFile, Transactions } from '../../vantage/transactions';

const properties: INodeProperties[] = [
	transactionIdProperty,
	fileIdProperty(
		'ID of a result file (documents → resultFiles → fileId in Get) or of a source file (sourceFiles → ID)',
	),
	outputFieldProperty(),
	concurrencyOnlyOptions(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['downloadFile'] } },
	properties,
);

/** The name Vantage gave the file, from the transaction's result and source files. */
function fileNameOf(
	info: Awaited<ReturnType<Transactions['get']>>,
	fileId: string,
): string | undefined {
	for (const document of info.documents ?? []) {
		for (const file of (document.resultFiles as Array<{ fileId?: string; fileName?: string }>) ??
			[]) {
			if (file.fileId === fileId) return file.fileName;
		}
	}
	return info.sourceFiles?.find((file) => file.id === fileId)?.name;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	const transactions = new Transactions(this, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const transactionId = readTransactionId(this, itemIndex);
			const fileId = readFileId(this, itemIndex);
			const field = readOutputField(this, itemIndex);
			const info = await transactions.get(transactionId, itemIndex);
			const fileName = safeFileName(fileNameOf(info, fileId) ?? fileId);
			const bytes = await downloadTransactionFile(client, transactionId, fileId, itemIndex);
			return await fileItem(this, field, bytes, fileName, { transactionId, fileId });
		},
		concurrency,
	);
}
