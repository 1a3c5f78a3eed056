/**
 * Transactions as the simulator keeps them: source files, documents, parameters, the processing
 * script each one follows, and the store that finds them (404, 403 for another tenant, and the
 * grace period after a delete).
 */
import { randomUUID } from 'node:crypto';

import { FIXTURE } from '../fixture';
import { guidParam, notFound, problem, type RequestContext } from '../http';
import type * as S from '../schemas';

/** How long a phase lasts: this many GetTransactionInfo polls, or this many milliseconds. */
export type Pace = { polls: number } | { ms: number };

export interface TransactionScript {
	/** Default 'Processed'; 'Never' keeps the transaction Processing for ever (timeout tests). */
	outcome?: 'Processed' | 'Failed' | 'Canceled' | 'Never';
	/** Default { polls: 1 }: the first poll after start says Processing, the next the outcome. */
	processing?: Pace;
	/** Then wait in manual review (status Processing, `manualReviewLink` set) this long. */
	manualReview?: Pace;
	/** The `error` of a Failed transaction. */
	error?: string;
}

export const DEFAULT_ERROR = 'The document could not be processed: the file is damaged';

/** Where a Process skill's Custom activity sits: before the Review activity, or after it. */
export type Placement = 'beforeReview' | 'afterReview';

export const PLACEMENTS: readonly Placement[] = ['beforeReview', 'afterReview'];

/**
 * Where a transaction with Custom activities is in its flow: processing; a Custom activity's
 * script running (`beforeReview`, `afterReview`); waiting in Manual Review; `held` at the end of
 * the flow (script outcome 'Never'); `done`.
 */
export type FlowPhase = 'processing' | Placement | 'review' | 'held' | 'done';

/** A line of a transaction's event log, as Skill Monitor shows it. */
export interface EventLogEntry {
	/** Milliseconds since the epoch. */
	at: number;
	placement: Placement;
	/** `message`: a Context.LogMessage line; `failed`: the error that interrupted the transaction. */
	kind: 'started' | 'message' | 'finished' | 'failed';
	message: string;
}

export interface KeyValue {
	key: string;
	value: string;
}

export interface SourceFile {
	id: string;
	/** As stored: the vendor replaces :/?#[]@!$&'()*+,;=\ with _. */
	name: string;
	/** As sent in Content-Disposition. */
	sentName: string;
	size: number;
	sha256: string;
	contentType: string;
	/** All bytes up to 8 MB; of bigger files the first 64 KB (`truncated`). */
	head: Buffer;
	truncated: boolean;
	index: number | null;
	imageProcessingOptions?: S.ImageProcessingOptions;
	registrationParameters: KeyValue[];
	/** The document it was uploaded to (AddFilesToTransactionDocument), or null. */
	documentId: string | null;
}

export interface ResultFile {
	fileId: string;
	fileName: string;
	type: S.ResultFileType;
}

export interface DocumentState {
	id: string;
	index: number | null;
	imageProcessingOptions?: S.ImageProcessingOptions;
	/** Created by CreateTransactionDocument (rather than by starting the transaction). */
	explicit: boolean;
	fileIds: string[];
	/** Process skills split each file into a two-page bundle: 1 or 2. */
	page: number;
	/** A document cut from its files' text (a splitting Process skill): its own part of it. */
	text?: string;
	/** Once Processed. */
	resultFiles: ResultFile[];
	classification?: S.ClassificationDto;
	ruleErrors: string[];
}

export interface TransactionState {
	id: string;
	skillId: string;
	tenantId: string;
	status: S.TransactionStatus;
	createdAt: number;
	startedAt: number | null;
	completedAt: number | null;
	registrationParameters: KeyValue[];
	skillParameters: KeyValue[];
	files: SourceFile[];
	/** Before start: those created by CreateTransactionDocument; after: those the start produced. */
	documents: DocumentState[];
	/**
	 * What GetTransactionDocuments lists once a splitting Process skill has cut the files into
	 * `documents` with new ids: the documents as uploaded (one per file added to the transaction).
	 */
	listedDocuments?: DocumentState[];
	script: TransactionScript;
	/** GetTransactionInfo polls since start. */
	polls: number;
	review: { poll: number; at: number; link: string } | null;
	/** Whether it went through Manual Review before it finished (the QA reports tell). */
	manualReview: boolean;
	error: string | null;
	deletedAt: number | null;
	/** The Custom activities its skill had when it started (see ../customActivity/activities.ts). */
	activities: Placement[];
	/** Its place in a flow with Custom activities; null without any (the script alone moves it). */
	flow: FlowPhase | null;
	/** The transaction's event log: what its Custom activities did and logged. */
	eventLog: EventLogEntry[];
}

/** What `createdCounts()` reports: duplicates here mean a create was processed twice. */
export interface ProcessingCounts {
	/** CreateTransaction and LaunchTransaction successes. */
	transactions: number;
	launches: number;
	/** CreateTransactionDocument successes. */
	documents: number;
	/** Files stored by successful uploads. */
	filesUploaded: number;
	/** Successful upload requests (launch, files, sourceFiles). */
	uploads: number;
}

export class TransactionStore {
	private readonly map = new Map<string, TransactionState>();
	readonly counts: ProcessingCounts = {
		transactions: 0,
		launches: 0,
		documents: 0,
		filesUploaded: 0,
		uploads: 0,
	};
	private readonly deleted: string[] = [];
	/** Creation times are strictly increasing: two transactions created in one millisecond still list in creation order. */
	private lastCreatedAt = 0;

	constructor(private readonly graceMs: () => number) {}

	create(
		skillId: string,
		options: {
			tenantId?: string;
			registrationParameters?: KeyValue[] | null;
			skillParameters?: KeyValue[] | null;
			createdAt?: number;
		} = {},
	): TransactionState {
		const tx: TransactionState = {
			id: randomUUID(),
			skillId,
			tenantId: options.tenantId ?? FIXTURE.tenantId,
			status: 'New',
			createdAt:
				options.createdAt ?? (this.lastCreatedAt = Math.max(Date.now(), this.lastCreatedAt + 1)),
			startedAt: null,
			completedAt: null,
			registrationParameters: [...(options.registrationParameters ?? [])],
			skillParameters: [...(options.skillParameters ?? [])],
			files: [],
			documents: [],
			script: {},
			polls: 0,
			review: null,
			manualReview: false,
			error: null,
			deletedAt: null,
			activities: [],
			flow: null,
			eventLog: [],
		};
		this.map.set(tx.id, tx);
		return tx;
	}

	/** A transaction that exists (deleted ones only during the grace period). */
	get(id: string): TransactionState | undefined {
		const tx = this.map.get(id.toLowerCase());
		if (tx?.deletedAt != null && Date.now() - tx.deletedAt >= this.graceMs()) {
			this.map.delete(tx.id);
			return undefined;
		}
		return tx;
	}

	/** The path's transaction: 400 for a malformed id, 404, or 403 for another tenant's. */
	find(ctx: RequestContext): TransactionState {
		const tx = this.get(guidParam(ctx, 'transactionId'));
		if (!tx) throw notFound('Transaction not found');
		const tenant = ctx.token?.tenantId ?? FIXTURE.tenantId;
		if (tx.tenantId !== tenant) {
			throw problem(403, 'Forbidden', 'Transaction belongs to another tenant');
		}
		return tx;
	}

	/** The path's document of `tx`, as the document routes see it (404 "Transaction document not found"). */
	document(ctx: RequestContext, tx: TransactionState): DocumentState {
		const id = guidParam(ctx, 'documentId');
		const doc = listedDocuments(tx).find((d) => d.id === id);
		if (!doc) throw notFound('Transaction document not found');
		return doc;
	}

	markDeleted(tx: TransactionState): void {
		if (tx.deletedAt === null) {
			tx.deletedAt = Date.now();
			this.deleted.push(tx.id);
		}
	}

	deletedIds(): string[] {
		return [...this.deleted];
	}

	/** Live transactions (not deleted), in creation order. */
	all(): TransactionState[] {
		const out: TransactionState[] = [];
		for (const tx of this.map.values()) {
			if (tx.deletedAt === null) out.push(tx);
			else this.get(tx.id);
		}
		return out;
	}
}

/** The documents the document routes (GetTransactionDocuments and others) see. */
export function listedDocuments(tx: TransactionState): DocumentState[] {
	return tx.listedDocuments ?? tx.documents;
}

/**
 * The stage the active list reports (`stageType`, filtered by `StageType`): a Custom activity's
 * script running, Manual Review, or the automatic steps.
 */
export function stageOf(tx: TransactionState): {
	stage: 'CustomActivity' | 'ManualReview' | 'Automatic';
	stageName: string;
} {
	if (tx.status === 'Processing' && (tx.flow === 'beforeReview' || tx.flow === 'afterReview')) {
		return { stage: 'CustomActivity', stageName: 'Custom activity' };
	}
	return tx.status === 'Processing' && tx.review
		? { stage: 'ManualReview', stageName: 'Manual Review' }
		: { stage: 'Automatic', stageName: 'Extraction' };
}

/** Files of `doc`, in its order. */
export function filesOf(tx: TransactionState, doc: DocumentState): SourceFile[] {
	const byId = new Map(tx.files.map((f) => [f.id, f]));
	return doc.fileIds.map((id) => byId.get(id)).filter((f): f is SourceFile => f !== undefined);
}

/** Nulls last, then as given (a stable sort keeps upload order). */
export function byIndex<T extends { index: number | null }>(items: T[]): T[] {
	const key = (item: T) => item.index ?? Number.MAX_SAFE_INTEGER;
	return [...items].sort((a, b) => key(a) - key(b));
}
