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
	readInputFiles,
	type InputFile,
} from '../../helpers/binaryInput';
import { asNodeError, errorItem } from '../../helpers/errors';
import { runPreparedPerItem, type ItemOutput } from '../../helpers/items';
import type { PollSettings } from '../../helpers/polling';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import {
	concurrencyOption,
	pollOptions,
	readConcurrency,
	readOptions,
	readPollSettings,
	sortedOptions,
} from '../common';
import { readSkillId, skillProperty } from '../skill/shared';
import { readResults, readResultOptions, resultOptions, type ResultOptions } from './results';
import {
	imageProcessingOptions,
	inputFilesProperties,
	onManualReviewOption,
	readFileSelection,
	readImageProcessing,
	readOnManualReview,
	readTransactionParameters,
	registrationParametersOption,
	skillParametersOption,
	TRANSACTION_POLL,
	type OnManualReview,
	type TransactionParameters,
} from './shared';
import { Transactions, type FileOptions } from './transactions';

const CONCURRENCY = { max: 32, what: 'transactions' };
/** The vendor suggests launch for one small file, separate calls for large or multi-file jobs. */
const LAUNCH_MAX_BYTES = 30 * 1024 * 1024;

const properties: INodeProperties[] = [
	skillProperty,
	...inputFilesProperties,
	{
		displayName: 'Transactions',
		name: 'transactionMode',
		type: 'options',
		options: [
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
		],
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
				options: [
					{
						name: 'Automatic',
						value: 'auto',
						description: 'One call for a single file under 30 MB, separate calls otherwise',
					},
					{ name: 'One Call (Launch)', value: 'launch' },
					{ name: 'Separate Calls (Create, Add Files, Start)', value: 'separate' },
				],
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
	fileOptions: FileOptions;
	files: InputFile[];
	uploadMethod: 'auto' | 'launch' | 'separate';
	poll: PollSettings;
	onManualReview: OnManualReview;
	results: ResultOptions;
}

/** The settings of item `itemIndex` (files are added by the caller). */
function readPlan(ctx: IExecuteFunctions, itemIndex: number, itemIndexes: number[]): Plan {
	const options = readOptions(ctx, itemIndex);
	return {
		itemIndexes,
		skillId: readSkillId(ctx, itemIndex),
		parameters: readTransactionParameters(ctx, itemIndex, options),
		fileOptions: { imageProcessingOptions: readImageProcessing(ctx, itemIndex, options) },
		files: [],
		uploadMethod: requireOption(ctx, itemIndex, 'Upload Method', options.uploadMethod ?? 'auto', [
			'auto',
			'launch',
			'separate',
		] as const),
		poll: readPollSettings(ctx, itemIndex, options, TRANSACTION_POLL),
		onManualReview: readOnManualReview(ctx, itemIndex, options),
		results: readResultOptions(ctx, itemIndex, options),
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
		transactionId = await transactions.launch(
			plan.skillId,
			plan.parameters,
			plan.files,
			plan.fileOptions,
			itemIndex,
		);
	} else {
		transactionId = (await transactions.create(plan.skillId, plan.parameters, itemIndex))
			.transactionId;
	}
	try {
		if (!launch) {
			await transactions.addFiles(transactionId, plan.files, plan.fileOptions, itemIndex);
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
	const concurrency = readConcurrency(this, readOptions(this, 0), CONCURRENCY, client);
	const mode = requireOption(
		this,
		0,
		'Transactions',
		this.getNodeParameter('transactionMode', 0, 'perItem'),
		['perItem', 'combined'] as const,
	);
	if (mode === 'perItem') {
		return await runPreparedPerItem(
			this,
			items,
			async (itemIndex) => {
				const plan = readPlan(this, itemIndex, [itemIndex]);
				plan.files = await readInputFiles(
					this,
					items[itemIndex],
					itemIndex,
					readFileSelection(this, itemIndex),
				);
				checkUploadLimits(this, itemIndex, plan.files);
				return plan;
			},
			async (plan) => await process(this, client, plan),
			concurrency,
		);
	}

	// One transaction for all items: settings from the first item, files from every item.
	const continueOnFail = this.continueOnFail();
	const out: INodeExecutionData[] = [];
	const plan = readPlan(this, 0, []);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const files = await readInputFiles(
				this,
				items[itemIndex],
				itemIndex,
				readFileSelection(this, itemIndex),
			);
			plan.files.push(...files);
			plan.itemIndexes.push(itemIndex);
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			out.push(errorItem(nodeError, itemIndex));
		}
	}
	if (!plan.itemIndexes.length) return out;
	const first = plan.itemIndexes[0];
	const pairedItem = plan.itemIndexes.map((item) => ({ item }));
	try {
		checkUploadLimits(this, first, plan.files);
		for (const output of await process(this, client, plan)) out.push({ ...output, pairedItem });
	} catch (error) {
		const nodeError = asNodeError(this, error, first);
		if (!continueOnFail) throw nodeError;
		out.push(errorItem(nodeError, plan.itemIndexes));
	}
	return out;
}
