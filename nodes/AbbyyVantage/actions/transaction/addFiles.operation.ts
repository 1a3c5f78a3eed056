import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	assignUniqueNames,
	checkUploadLimits,
	type InputFile,
	type RenamedFile,
} from '../../helpers/binaryInput';
import { checkFileUrls, readDocumentFiles } from './documentFiles';
import { asNodeError, operationError, plainMessage } from '../../helpers/errors';
import { runPreparedPerItem } from '../../helpers/items';
import { optionalText } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { concurrencyOption, ITEM_CONCURRENCY, readRunConcurrency } from '../../params/concurrency';
import { readCollection, sortedOptions } from '../../params/collections';
import { imageProcessingOptions, readImageProcessing } from './imageProcessing';
import { inputFilesProperties } from './inputFiles';
import { readTransactionId, transactionIdProperty } from './ids';
import { describeFiles, Transactions } from '../../vantage/transactions';

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
			concurrencyOption(ITEM_CONCURRENCY),
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

interface Plan {
	transactionId: string;
	documentId?: string;
	files: InputFile[];
}

/**
 * File names unique within each transaction (Vantage answers 409 to a name it already holds):
 * once per transaction, its existing names are read and the files of every item adding to it
 * are named in item order, so two items adding "scan.pdf" to one transaction do not clash
 * either, whichever uploads first.
 */
class TransactionNames {
	private readonly named = new Map<string, Promise<Map<number, RenamedFile[]>>>();

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly transactions: Transactions,
		private readonly plans: Map<number, Plan>,
	) {}

	/** The files of item `itemIndex` renamed where needed (their `name` is set). */
	async renamedFor(itemIndex: number): Promise<RenamedFile[]> {
		const { transactionId } = this.plans.get(itemIndex)!;
		const group = [...this.plans.entries()]
			.filter(([, plan]) => plan.transactionId === transactionId)
			.map(([index]) => index)
			.sort((a, b) => a - b);
		let naming = this.named.get(transactionId);
		if (!naming) {
			naming = this.name(transactionId, group);
			this.named.set(transactionId, naming);
		}
		try {
			return (await naming).get(itemIndex) ?? [];
		} catch (error) {
			// The first item of the transaction read it; the others say so under their own number.
			throw itemIndex === group[0]
				? asNodeError(this.ctx, error, itemIndex)
				: operationError(
						this.ctx.getNode(),
						itemIndex,
						`Could not read the files already in transaction ${transactionId}: ${plainMessage(error)}`,
						{
							description: `Item ${group[0]} adds files to the same transaction and met this error first. Nothing was uploaded for this item.`,
							output: { transactionId },
						},
					);
		}
	}

	private async name(transactionId: string, group: number[]): Promise<Map<number, RenamedFile[]>> {
		const taken = await this.transactions.sourceFileNames(transactionId, group[0]);
		const files = group.flatMap((index) => this.plans.get(index)!.files);
		const byItem = new Map<number, RenamedFile[]>();
		for (const renamed of assignUniqueNames(files, taken)) {
			byItem.set(renamed.item, [...(byItem.get(renamed.item) ?? []), renamed]);
		}
		return byItem;
	}
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	const transactions = new Transactions(this, client);
	// Every item is checked before the first upload; only items that passed are named and sent.
	const plans = new Map<number, Plan>();
	const names = new TransactionNames(this, transactions, plans);
	checkFileUrls(this, items);
	return await runPreparedPerItem(
		this,
		items,
		async (itemIndex) => {
			const options = readCollection(this, itemIndex, 'options');
			const transactionId = readTransactionId(this, itemIndex);
			const documentId = optionalText(this, itemIndex, 'Document ID', options.documentId);
			const imageProcessing = readImageProcessing(this, itemIndex, options);
			const files = await readDocumentFiles(
				this,
				items[itemIndex],
				itemIndex,
				client.settings.timeoutMs,
			);
			checkUploadLimits(this, itemIndex, files);
			if (imageProcessing) {
				for (const file of files) file.imageProcessingOptions = imageProcessing;
			}
			const plan: Plan = { transactionId, documentId, files };
			plans.set(itemIndex, plan);
			return plan;
		},
		async (plan, itemIndex) => {
			const renamedFiles = await names.renamedFor(itemIndex);
			await transactions.addFiles(plan.transactionId, plan.files, itemIndex, plan.documentId);
			return {
				json: {
					transactionId: plan.transactionId,
					...(plan.documentId ? { documentId: plan.documentId } : {}),
					files: plan.files.map((f) => ({ name: f.name, size: f.size, binaryField: f.property })),
					...(renamedFiles.length ? { renamedFiles } : {}),
				},
			};
		},
		concurrency,
		(output) => {
			const files = output.json.files as Array<{ name: string }> | undefined;
			if (!files?.length) return undefined;
			const where = output.json.documentId ? `, document ${String(output.json.documentId)}` : '';
			return `${describeFiles(files)} added to transaction ${String(output.json.transactionId)}${where}`;
		},
	);
}
