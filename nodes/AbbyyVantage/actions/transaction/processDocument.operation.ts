import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
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
import { asNodeError, errorItem, invalid } from '../../helpers/errors';
import {
	runPerItem,
	runPreparedPerItem,
	type CreatedBy,
	type ItemOutput,
} from '../../helpers/items';
import type { PollSettings } from '../../helpers/polling';
import { requireOption } from '../../helpers/validation';
import type { VantageClient } from '../../transport';
import { choiceOptions, choiceValues } from '../../helpers/choices';
import { concurrencyOption, readRunConcurrency } from '../../params/concurrency';
import { pollOptions, readPollSettings } from '../../params/wait';
import { readCollection, sortedOptions } from '../../params/collections';
import { readSkillId, skillProperty } from '../../params/skill';
import {
	documentItems,
	readResults,
	uniqueResultFileNames,
	type ResultOptions,
	type ResultsContext,
} from '../../vantage/results';
import { readResultOptions, resultOptions } from '../../params/resultOptions';
import { needsReviewProperty, readNeedsReview } from '../../params/needsReview';
import { manualReviewDecision } from '../../helpers/reviewDecision';
import { imageProcessingOptions, readImageProcessing } from './imageProcessing';
import { inputFilesProperties } from './inputFiles';
import {
	readTransactionParameters,
	registrationParametersOption,
	skillParametersOption,
} from './transactionParameters';
import {
	onManualReviewOption,
	readOnManualReview,
	TRANSACTION_POLL,
	waitLimitOption,
} from './waiting';
import {
	failedEntry,
	readDurableWait,
	waitDurably,
	withResumeUrl,
	type DurableWait,
	type Resumed,
	type ResumeContext,
	type Waiting,
	recordOf,
	withoutRecord,
} from './durableWait';
import {
	type OnManualReview,
	type TransactionParameters,
	type WaitOutcome,
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
	needsReviewProperty({ secondOutput: true }),
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
			waitLimitOption,
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

/**
 * The settings of item `itemIndex` (files are added by the caller). With a durable wait (`durable`,
 * read once from the first item), every transaction stops at Manual Review and carries the resume
 * URL.
 */
function readPlan(
	ctx: IExecuteFunctions,
	itemIndex: number,
	itemIndexes: number[],
	durable?: DurableWait,
): Plan {
	const options = readCollection(ctx, itemIndex, 'options');
	const parameters = readTransactionParameters(ctx, itemIndex, options);
	const onManualReview = readOnManualReview(ctx, itemIndex, options);
	if ((onManualReview === 'resume') !== (durable !== undefined)) throw mixedWait(ctx, itemIndex);
	const review = readNeedsReview(
		ctx,
		itemIndex,
		ctx.getNodeParameter('needsReview', itemIndex, {}),
	);
	if (onManualReview === 'resume' && review?.secondOutput)
		throw reviewOutputOnResume(ctx, itemIndex);
	return {
		itemIndexes,
		skillId: readSkillId(ctx, itemIndex),
		parameters: durable ? withResumeUrl(ctx, itemIndex, parameters, durable.resumeUrl) : parameters,
		files: [],
		uploadMethod: requireOption(
			ctx,
			itemIndex,
			'Upload Method',
			options.uploadMethod ?? 'auto',
			choiceValues(UPLOAD_METHODS),
		),
		poll: readPollSettings(ctx, itemIndex, options, TRANSACTION_POLL),
		onManualReview: onManualReview === 'resume' ? 'output' : onManualReview,
		results: {
			...readResultOptions(ctx, itemIndex, options),
			review: review?.rules,
		},
	};
}

/**
 * A node that resumes from a push outputs what its webhook returns; n8n 1.x engines pass on only
 * the first output of a resumed node (n8n-io/n8n#31714 fixed it in 2.x), and the node cannot tell
 * which engine runs it: documents sent to Needs Review would be lost there without a word.
 */
function reviewOutputOnResume(ctx: IExecuteFunctions, itemIndex: number): Error {
	return invalid(
		ctx,
		itemIndex,
		'Needs Review → Send to Second Output cannot be used with On Manual Review → Resume When Vantage Pushes',
		'n8n 1.x passes on only the first output of a node that resumes, so documents needing review could be lost. Turn Send to Second Output off (every document is still marked "needsReview", with "reviewReasons") and follow the node with an If on needsReview.',
	);
}

/** On Manual Review → Resume When Vantage Pushes is one wait: every item or none. */
function mixedWait(ctx: IExecuteFunctions, itemIndex: number): Error {
	return invalid(
		ctx,
		itemIndex,
		'On Manual Review must be Resume When Vantage Pushes for every item or for none: the execution waits once, for all of them',
		'It is read from the first item; give every item the same choice.',
	);
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

/** A file of a One for All Items transaction: its name as stored, and the item it came from. */
interface SentFile {
	name: string;
	item: number;
}

/**
 * The input items a document of a One for All Items transaction came from: those whose files
 * are its source files (Vantage stores names with some characters replaced; see `storedKey`).
 * All the transaction's items when that cannot be told, and the item then says `pairing:
 * "unknown"`.
 */
function documentPairing(files: SentFile[], itemIndexes: number[], output: ItemOutput): number[] {
	const itemOf = new Map(files.map((file) => [storedKey(file.name), file.item]));
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
		return itemIndexes;
	}
	return itemIndexes.filter((item) => found.has(item));
}

function sentFiles(plan: Plan): SentFile[] {
	return plan.files.map((file) => ({ name: file.name, item: file.itemIndex }));
}

/** The output items of a One for All Items transaction, each paired with the items it came from. */
function pairedOutputs(
	files: SentFile[],
	itemIndexes: number[],
	outputs: ItemOutput[],
): INodeExecutionData[] {
	return outputs.map((output) => {
		const paired = documentPairing(files, itemIndexes, output);
		return {
			...output,
			pairedItem: paired.length === 1 ? { item: paired[0] } : paired.map((item) => ({ item })),
		};
	});
}

/** What an item had created, for the error of a run that stops: each transaction once. */
function createdTransactions(): CreatedBy {
	const named = new Set<unknown>();
	return (output) => {
		const id = output.json.transactionId;
		if (typeof id !== 'string' || named.has(id)) return undefined;
		named.add(id);
		return `transaction ${id}`;
	};
}

/** A transaction uploaded, started and waited for: where it stands. */
interface Launched {
	plan: Plan;
	transactionId: string;
	waited: WaitOutcome;
	/** How its files went up (`uploadMethod`, `renamedFiles`): part of every output item. */
	upload: IDataObject;
}

/** Upload, start and wait for one transaction (to Manual Review or its end, as the plan says). */
async function launchAndWait(
	ctx: IExecuteFunctions,
	client: VantageClient,
	plan: Plan,
): Promise<Launched> {
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
		return { plan, transactionId, waited, upload };
	} catch (error) {
		throw transactions.tagged(error, transactionId);
	}
}

/**
 * A transaction waiting in Manual Review, as On Manual Review → Output the Link gives it. With
 * Needs Review rules it needs review (`manualReview`), whatever the rules: a person must look at it
 * in Vantage, and Send to Second Output sends it to Needs Review with its link.
 */
function reviewItem({ plan, transactionId, waited, upload }: Launched): ItemOutput {
	const { info } = waited;
	return {
		json: {
			transactionId,
			status: info.status,
			waitingForManualReview: waited.stoppedForReview,
			manualReviewLink: info.manualReviewLink ?? null,
			sourceFiles: (info.sourceFiles ?? []).map((f) => f.name),
			polls: waited.polls,
			failedPolls: waited.failedPolls,
			...upload,
			...(plan.results.review && waited.stoppedForReview
				? manualReviewDecision(transactionId, info.manualReviewLink)
				: {}),
		},
	};
}

/** What a launched transaction outputs: the review link, or its results (a failure throws). */
async function outcome(
	ctx: IExecuteFunctions,
	client: VantageClient,
	launched: Launched,
): Promise<ItemOutput[]> {
	const { plan, transactionId, waited, upload } = launched;
	const itemIndex = plan.itemIndexes[0];
	const transactions = new Transactions(ctx, client);
	try {
		if (waited.stoppedForReview) return [reviewItem(launched)];
		const { info } = waited;
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

/** A launched transaction as an entry of the durable wait (its results are read after it). */
function waitingFor(launched: Launched, files?: SentFile[]): Waiting {
	const { plan, waited, upload } = launched;
	return {
		json: reviewItem(launched).json,
		items: plan.itemIndexes,
		results: plan.results,
		...(files ? { files } : {}),
		extra: { ...upload, polls: waited.polls, failedPolls: waited.failedPolls },
	};
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
	// Resume When Vantage Pushes is one wait for the whole execution: read from the first item.
	const firstOptions = readCollection(this, 0, 'options');
	const durable =
		firstOptions.onManualReview === 'resume'
			? await readDurableWait(this, firstOptions, client)
			: undefined;
	checkFileUrls(this, items);
	if (mode === 'perItem') {
		if (durable) return await perItemDurably(this, client, items, durable, concurrency);
		const out = await runPreparedPerItem(
			this,
			items,
			async (itemIndex) => await preparedPlan(this, client, items, itemIndex),
			async (plan) => await outcome(this, client, await launchAndWait(this, client, plan)),
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
	const plan = readPlan(this, 0, [], durable);
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
		const launched = await launchAndWait(this, client, plan);
		if (durable && launched.waited.stoppedForReview) {
			// The failed items and the transaction, in item order.
			const waiting = [...out.map(failedEntry), waitingFor(launched, sentFiles(plan))].sort(
				(a, b) => Math.min(...a.items) - Math.min(...b.items),
			);
			return await waitDurably(this, waiting, durable);
		}
		out.push(
			...pairedOutputs(sentFiles(plan), plan.itemIndexes, await outcome(this, client, launched)),
		);
	} catch (error) {
		const nodeError = asNodeError(this, error, first);
		if (!continueOnFail) throw nodeError;
		out.push(errorItem(nodeError, plan.itemIndexes));
	}
	uniqueResultFileNames(out);
	return out;
}

/** Item `itemIndex`'s plan with its files, checked. */
async function preparedPlan(
	ctx: IExecuteFunctions,
	client: VantageClient,
	items: INodeExecutionData[],
	itemIndex: number,
	durable?: DurableWait,
): Promise<Plan> {
	const plan = readPlan(ctx, itemIndex, [itemIndex], durable);
	plan.files = await readItemFiles(ctx, client, items, itemIndex);
	checkUploadLimits(ctx, itemIndex, plan.files);
	return plan;
}

/**
 * One Transaction per Input Item with a durable wait: every transaction is uploaded and waited
 * for up to Manual Review. When none waits there, the results are read and output at once, as
 * without the option; otherwise the execution waits for Vantage (./durableWait.ts) and every
 * result is read when it resumes (./resume.ts).
 */
async function perItemDurably(
	ctx: IExecuteFunctions,
	client: VantageClient,
	items: INodeExecutionData[],
	durable: DurableWait,
	concurrency: number,
): Promise<INodeExecutionData[]> {
	const launched = new Map<number, Launched>();
	const failures = new Map<number, unknown>();
	const noted = async <T>(itemIndex: number, work: () => Promise<T>): Promise<T> => {
		try {
			return await work();
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			failures.set(itemIndex, nodeError);
			throw nodeError;
		}
	};
	const first = await runPreparedPerItem(
		ctx,
		items,
		async (itemIndex) =>
			await noted(
				itemIndex,
				async () => await preparedPlan(ctx, client, items, itemIndex, durable),
			),
		async (plan, itemIndex) =>
			await noted(itemIndex, async () => {
				const done = await launchAndWait(ctx, client, plan);
				launched.set(itemIndex, done);
				return reviewItem(done);
			}),
		concurrency,
		createdTransactions(),
	);
	if (![...launched.values()].some((l) => l.waited.stoppedForReview)) {
		// Nothing waits for review: the results now, as the other choices give them.
		const out = await runPerItem(
			ctx,
			items,
			async (itemIndex) => {
				const done = launched.get(itemIndex);
				if (!done) throw failures.get(itemIndex);
				return await outcome(ctx, client, done);
			},
			concurrency,
			createdTransactions(),
		);
		uniqueResultFileNames(out);
		return out;
	}
	// A transaction that failed before the wait fails as it would without it: the run stops (in
	// item order), or, under Continue On Fail, it is an error item now.
	const continueOnFail = ctx.continueOnFail();
	const waiting: Waiting[] = [];
	for (const item of first) {
		const itemIndex = (item.pairedItem as { item: number }).item;
		const done = launched.get(itemIndex);
		const info = done?.waited.info;
		if (done && info && !done.waited.stoppedForReview && info.status !== 'Processed') {
			const transactions = new Transactions(ctx, client);
			const error = asNodeError(
				ctx,
				transactions.tagged(transactions.failure(info, itemIndex), done.transactionId),
				itemIndex,
			);
			if (!continueOnFail) throw error;
			waiting.push(failedEntry(errorItem(error, itemIndex)));
			continue;
		}
		waiting.push(done ? waitingFor(done) : failedEntry(item));
	}
	return await waitDurably(ctx, waiting, durable);
}

/**
 * After the durable wait (./resume.ts): each entry's output, in item order, as Keep Waiting gives
 * it: a finished transaction's documents, paired as at launch; a Failed or Canceled one, or one
 * whose results cannot be read, as an error item (the execution goes on, as under Continue On
 * Fail: a node that resumes cannot stop its execution); an item that failed before the wait, as it
 * was. Delete After Reading deletes once the resume is sure (`finish`).
 */
export async function resume(ctx: ResultsContext, r: ResumeContext): Promise<Resumed> {
	const out: INodeExecutionData[] = [];
	const deletes: Array<{ transactionId: string; itemIndex: number; outputs: ItemOutput[] }> = [];
	for (const entry of r.entries) {
		const record = recordOf(entry);
		const itemIndex = record.items[0];
		if (record.failed) {
			out.push({ json: withoutRecord(entry.json), pairedItem: entry.pairedItem });
			continue;
		}
		const transactionId = String(entry.json.transactionId);
		const transactions = new Transactions(ctx, r.client);
		try {
			const info = r.final(transactionId);
			if (info instanceof Error) throw info;
			if (info.status !== 'Processed') throw transactions.failure(info, itemIndex);
			const results = record.results ?? defaultResults();
			const outputs = await documentItems(ctx, r.client, info, results, itemIndex, {
				...(record.extra ?? {}),
			});
			if (results.deleteAfterReading) deletes.push({ transactionId, itemIndex, outputs });
			out.push(
				...(record.files
					? pairedOutputs(record.files, record.items, outputs)
					: outputs.map((output) => ({ ...output, pairedItem: entry.pairedItem }))),
			);
		} catch (error) {
			const tagged = transactions.tagged(error, transactionId);
			out.push(errorItem(asResumeError(ctx, tagged, itemIndex), record.items));
		}
	}
	uniqueResultFileNames(out);
	return {
		items: out,
		finish: async () => {
			for (const { transactionId, itemIndex, outputs } of deletes) {
				const deleted = await new Transactions(ctx, r.client).deleteAfterReading(
					transactionId,
					itemIndex,
				);
				for (const output of outputs) Object.assign(output.json, deleted);
			}
		},
	};
}

/** Result options of an entry that names none (never written so; read defensively). */
function defaultResults(): ResultOptions {
	return { includeFieldDetails: false, downloadTypes: [], deleteAfterReading: false };
}

/** Any error of a resume as an n8n error naming the item (n8n errors pass through). */
function asResumeError(
	ctx: ResultsContext,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	return asNodeError(ctx as IExecuteFunctions, error, itemIndex);
}
