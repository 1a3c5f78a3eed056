import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requirePathParameter } from '../../helpers/validation';

/**
 * Transaction ID and File ID: the IDs the Transaction and Transaction Document operations take
 * (Document ID: ../transactionDocument/document.ts).
 */

export const transactionIdProperty: INodeProperties = {
	displayName: 'Transaction ID',
	name: 'transactionId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 0f8fad5b-d9cb-469f-a165-70867728950e',
	description: 'ID of the transaction, as returned by Create or Process Document',
};

export function readTransactionId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathParameter(
		ctx,
		itemIndex,
		'Transaction ID',
		ctx.getNodeParameter('transactionId', itemIndex),
	);
}

/** File ID: a result file or a source file of a transaction or document, as Get lists them. */
export function fileIdProperty(description: string): INodeProperties {
	return {
		displayName: 'File ID',
		name: 'fileId',
		type: 'string',
		required: true,
		default: '',
		description,
	};
}

export function readFileId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathParameter(ctx, itemIndex, 'File ID', ctx.getNodeParameter('fileId', itemIndex));
}
