import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assignUniqueNames, checkUploadLimits, readInputFiles } from '../../helpers/binaryInput';
import { runPreparedPerItem } from '../../helpers/items';
import { optionalText } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { readOptions, sortedOptions } from '../common';
import {
	imageProcessingOptions,
	inputFilesProperties,
	readFileSelection,
	readImageProcessing,
	readTransactionId,
	transactionIdProperty,
} from './shared';
import { Transactions } from './transactions';

const properties: INodeProperties[] = [
	transactionIdProperty,
	...inputFilesProperties,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortedOptions([
			...imageProcessingOptions,
			{
				displayName: 'Document ID',
				name: 'documentId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 6b29fc40-ca47-1067-b31d-00dd010662da',
				description:
					'Add the files to this document of the transaction (created with Transaction Document → Add) instead of as documents of their own. Image options then come from the document.',
			},
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['addFiles'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const transactions = new Transactions(this, client);
	return await runPreparedPerItem(
		this,
		items,
		async (itemIndex) => {
			const options = readOptions(this, itemIndex);
			const files = await readInputFiles(
				this,
				items[itemIndex],
				itemIndex,
				readFileSelection(this, itemIndex),
			);
			checkUploadLimits(this, itemIndex, files);
			return {
				transactionId: readTransactionId(this, itemIndex),
				documentId: optionalText(this, itemIndex, 'Document ID', options.documentId),
				imageProcessingOptions: readImageProcessing(this, itemIndex, options),
				files,
			};
		},
		async (plan, itemIndex) => {
			// Names already in the transaction are unknown here; Vantage answers 409 to a repeat.
			const renamedFiles = assignUniqueNames(plan.files);
			await transactions.addFiles(
				plan.transactionId,
				plan.files,
				{ imageProcessingOptions: plan.imageProcessingOptions },
				itemIndex,
				plan.documentId,
			);
			return {
				json: {
					transactionId: plan.transactionId,
					...(plan.documentId ? { documentId: plan.documentId } : {}),
					files: plan.files.map((f) => ({ name: f.name, size: f.size, binaryField: f.property })),
					...(renamedFiles.length ? { renamedFiles } : {}),
				},
			};
		},
	);
}
