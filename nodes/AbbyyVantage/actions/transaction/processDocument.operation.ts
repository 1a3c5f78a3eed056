import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	assignUniqueNames,
	checkUploadLimits,
	storedKey,
	type InputFile,
} from '../../helpers/binaryInput';
import { LAUNCH_MAX_BYTES } from '../../constants';
import { checkFileUrls, readDocumentFiles } from './documentFiles';
import { asNodeError, errorItem } from '../../helpers/errors';
import { runPreparedPerItem, type CreatedBy, type ItemOutput } from '../../helpers/items';
import type { PollSettings } from '../../helpers/polling';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { choiceOptions, choiceValues } from '../../helpers/choices';
import { concurrencyOption, readRunConcurrency } from '../../params/concurrency';
import { pollOptions, readPollSettings } from '../../params/wait';
import { readCollection, sortedOptions } from '../../params/collections';
import { readSkillId, skillProperty } from '../../params/skill';
import { readResults, uniqueResultFileNames, type ResultOptions } from '../../vantage/results';
import { readResultOptions, resultOptions } from '../../params/resultOptions';
import { imageProcessingOptions, readImageProcessing } from './imageProcessing';
import { inputFilesProperties } from './inputFiles';
import {
	readTransactionParameters,
	registrationParametersOption,
	skillParametersOption,
} from './transactionParameters';
import { onManualReviewOption, readOnManualReview, TRANSACTION_POLL } from './waiting';
import {
	type OnManualReview,
	type TransactionParameters,
	Transactions,
} from '../../vantage/transactions';

const CONCURRENCY = { max: 32, what: 'transactions' };

const TRANSACTION_MODES = [
	{
		name: 'One per Input Item',
		value: 'perItem',
		description: 'Each input item’s files are processed in a transaction of their own',
	},
	{
		name: 'One for All Items',
		value: 'combined',
		description:
			'The files of all input items go into one transaction. Only Process skills take several documents.',
	},
] as const;

const UPLOAD_METHODS = [
	{
		name: 'Automatic',
		value: 'auto',
		description: 'One call for a single file under 30 MB, separate calls otherwise',
	},
	{ name: 'One Call (Launch)', value: 'launch' },
	{ name: 'Separate Calls (Create, Add Files, Start)', value: 'separate' },
] as const;

const properties: INodeProperties[] = [
	skillProperty,
	...inputFilesProperties,
	{
		displayName: 'Transactions',
		name: 'transactionMode',
		type: 'options',
		options: choiceOptions(TRANSACTION_MODES),
		default: 'perItem',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortedOptions([
			...imageProcessingOptions,
			concurrencyOption(CONCURRENCY),
			...pollOptions(TRANSACTION_POLL),
			onManualReviewOption,
			registrationParametersOption,
			...resultOptions,
			skillParametersOption,
			{
				displayName: 'Upload Method',
				name: 'uploadMethod',
				type: 'options',
				options: choiceOptions(UPLOAD_METHODS),
				default: 'auto',
			},
		]),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transaction'], operation: ['processDocument'] } },
	properties,
);

/** Everything one transaction needs, read and checked before any request. */
interface Plan {
	itemIndexes: number[];
	skillId: string;
	parameters: TransactionParameters;
	files: InputFile[];
	uploadMethod: (typeof UPLOAD_METHODS)[number]['value'];
	poll: PollSettings;
	onManualReview: OnManualReview;
	results: ResultOptions;
}

/** The settings of item `itemIndex` (files are added by the caller). */
function readPlan(ctx: IExecuteFunctions, itemIndex: number, itemIndexes: number[]): Plan {
	const options = readCollection(ctx, itemIndex, 'options');
	return {
		itemIndexes,
		skillId: readSkillId(ctx, itemIndex),
		parameters: readTransactionParameters(ctx, itemIndex, options),
		files: [],
		uploadMethod: requireOption(
			ctx,
			itemIndex,
			'Upload Method',
			options.uploadMethod ?? 'auto',
			choiceValues(UPLOAD_METHODS),
		),
		poll: readPollSettings(ctx, itemIndex, options, TRANSACTION_POLL),
		onManualReview: readOnManualReview(ctx, itemIndex, options),
		results: readResultOptions(ctx, itemIndex, options),
	};
}

/**
 * The files of item `itemIndex`, checked, each with the item's own Auto Crop / Auto Orientation
 * (in One for All Items mode too: the image options travel per file).
 */
async function readItemFiles(
	ctx: IExecuteFunctions,
	client: VantageClient,
	items: INodeExecutionData[],
	itemIndex: number,
): Promise<InputFile[]> {
	const imageProcessingOptions = readImageProcessing(
		ctx,
		itemIndex,
		readCollection(ctx, itemIndex, 'options'),
	);
	const files = await readDocumentFiles(
		ctx,
		items[itemIndex],
		itemIndex,
		client.settings.timeoutMs,
	);
	if (imageProcessingOptions) {
		for (const file of files) file.imageProcessingOptions = imageProcessingOptions;
	}
	return files;
}

/**
 * The input items a document of a One for All Items transaction came from: those whose files
 * are its source files (Vantage stores names with some characters replaced; see `storedKey`).
 * All the transaction's items when that cannot be told, and the item then says `pairing:
 * "unknown"`.
 */
function documentPairing(plan: Plan, output: ItemOutput): number[] {
	const itemOf = new Map(plan.files.map((file) => [storedKey(file.name), file.itemIndex]));
	const names = Array.isArray(output.json.sourceFiles)
		? (output.json.sourceFiles as unknown[])
		: [];
	const found = new Set<number>();
	for (const name of output.json.pairing === 'unknown' ? [] : names) {
		const item = typeof name === 'string' ? itemOf.get(storedKey(name)) : undefined;
		if (item === undefined) {
			found.clear();
			break;
		}
		found.add(item);
	}
	if (!found.size) {
		output.json.pairing = 'unknown';
		return plan.itemIndexes;
	}
	return plan.itemIndexes.filter((item) => found.has(item));
}

/** What a finished item had created, for the error of a run that stops: each transaction once. */
function createdTransactions(): CreatedBy {
	const named = new Set<unknown>();
	return (output) => {
		const id = output.json.transactionId;
		if (typeof id !== 'string' || named.has(id)) return undefined;
		named.add(id);
		return `transaction ${id}`;
	};
}

/** Upload, start, wait and read one transaction: its documents as output items. */
async function process(
	ctx: IExecuteFunctions,
	client: VantageClient,
	plan: Plan,
): Promise<ItemOutput[]> {
	const itemIndex = plan.itemIndexes[0];
	const transactions = new Transactions(ctx, client);
	const renamedFiles = assignUniqueNames(plan.files);
	const total = plan.files.reduce((sum, file) => sum + file.size, 0);
	const launch =
		plan.uploadMethod === 'launch' ||
		(plan.uploadMethod === 'auto' && plan.files.length === 1 && total < LAUNCH_MAX_BYTES);
	let transactionId: string;
	if (launch) {
		transactionId = await transactions.launch(plan.skillId, plan.parameters, plan.files, itemIndex);
	} else {
		transactionId = (await transactions.create(plan.skillId, plan.parameters, itemIndex))
			.transactionId;
	}
	try {
		if (!launch) {
			await transactions.addFiles(transactionId, plan.files, itemIndex);
			await transactions.start(transactionId, itemIndex);
		}
		const upload: IDataObject = {
			uploadMethod: launch ? 'launch' : 'separateCalls',
			...(renamedFiles.length ? { renamedFiles } : {}),
		};
		const waited = await transactions.wait(
			transactionId,
			plan.poll,
			plan.onManualReview,
			itemIndex,
		);
		const { info } = waited;
		if (waited.stoppedForReview) {
			return [
				{
					json: {
						transactionId,
						status: info.status,
						waitingForManualReview: true,
						manualReviewLink: info.manualReviewLink ?? null,
						sourceFiles: (info.sourceFiles ?? []).map((f) => f.name),
						polls: waited.polls,
						failedPolls: waited.failedPolls,
						...upload,
					},
				},
			];
		}
		if (info.status !== 'Processed') throw transactions.failure(info, itemIndex);
		return await readResults(ctx, client, transactions, info, plan.results, itemIndex, {
			...upload,
			polls: waited.polls,
			failedPolls: waited.failedPolls,
		});
	} catch (error) {
		throw transactions.tagged(error, transactionId);
	}
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	const mode = requireOption(
		this,
		0,
		'Transactions',
		this.getNodeParameter('transactionMode', 0, 'perItem'),
		choiceValues(TRANSACTION_MODES),
	);
	checkFileUrls(this, items);
	if (mode === 'perItem') {
		const out = await runPreparedPerItem(
			this,
			items,
			async (itemIndex) => {
				const plan = readPlan(this, itemIndex, [itemIndex]);
				plan.files = await readItemFiles(this, client, items, itemIndex);
				checkUploadLimits(this, itemIndex, plan.files);
				return plan;
			},
			async (plan) => await process(this, client, plan),
			concurrency,
			createdTransactions(),
		);
		uniqueResultFileNames(out);
		return out;
	}

	// One transaction for all items: settings from the first item, files (with their image
	// options) from every item; each document is paired with the items its files came from.
	const continueOnFail = this.continueOnFail();
	const out: INodeExecutionData[] = [];
	const plan = readPlan(this, 0, []);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			plan.files.push(...(await readItemFiles(this, client, items, itemIndex)));
			plan.itemIndexes.push(itemIndex);
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			out.push(errorItem(nodeError, itemIndex));
		}
	}
	if (!plan.itemIndexes.length) return out;
	const first = plan.itemIndexes[0];
	try {
		checkUploadLimits(this, first, plan.files);
		for (const output of await process(this, client, plan)) {
			const paired = documentPairing(plan, output);
			out.push({
				...output,
				pairedItem: paired.length === 1 ? { item: paired[0] } : paired.map((item) => ({ item })),
			});
		}
	} catch (error) {
		const nodeError = asNodeError(this, error, first);
		if (!continueOnFail) throw nodeError;
		out.push(errorItem(nodeError, plan.itemIndexes));
	}
	uniqueResultFileNames(out);
	return out;
}
