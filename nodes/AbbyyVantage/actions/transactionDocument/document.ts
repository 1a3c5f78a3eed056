import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requirePathParameter } from '../../helpers/validation';
import { endpoints, type VantageClient } from '../../transport';
import { TRANSACTION_HINTS } from '../../vantage/transactions';

/** The Document ID parameter, and reading one document of a transaction. */

export const documentIdProperty: INodeProperties = {
	displayName: 'Document ID',
	name: 'documentId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 6b29fc40-ca47-1067-b31d-00dd010662da',
	description: 'ID of the document in the transaction, as returned by Add or Get Many',
};

export function readDocumentId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name = 'documentId',
): string {
	return requirePathParameter(ctx, itemIndex, 'Document ID', ctx.getNodeParameter(name, itemIndex));
}

/** One document of a transaction (GetTransactionDocument): its fields and sourceFiles. */
export async function readDocument(
	client: VantageClient,
	transactionId: string,
	documentId: string,
	itemIndex: number,
): Promise<IDataObject> {
	const document = await client.request<IDataObject | undefined>({
		...endpoints.getTransactionDocument(transactionId, documentId),
		itemIndex,
		action: `reading document ${documentId} of transaction ${transactionId}`,
		hints: TRANSACTION_HINTS,
	});
	return document ?? {};
}
