/**
 * A transaction's life: New → (start or launch) Processing → Processed | Failed | Canceled, each
 * started transaction following a TransactionScript (first in, first out, like exports), with an
 * optional manual review phase. Also builds the documents a start produces and the TransactionDto.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';

import { FIXTURE } from '../fixture';
import type { SkillsArea } from '../routes/skills';
import type * as S from '../schemas';
import type { SimulatorCore } from '../server';
import type { ReceivedFile } from './uploads';
import { Results } from './results';
import {
	byIndex,
	DEFAULT_ERROR,
	TransactionStore,
	type DocumentState,
	type KeyValue,
	type Pace,
	type SourceFile,
	type TransactionScript,
	type TransactionState,
} from './state';

export type Outcome = 'Processed' | 'Failed' | 'Canceled';

/** A document a splitting Process skill cut from the files: its text and the files it came from. */
interface Cut {
	fileIds: string[];
	text: string;
	/** Holds an InvoiceNumber line: the next one starts another document. */
	numbered: boolean;
}

const INVOICE_NUMBER_LINE = /^\s*invoicenumber\s*:/i;
const CONTINUED_LINE = /^\s*continued\s*:\s*yes\s*$/im;

/**
 * A splitting Process skill's documents, from the files in upload order: a new document starts
 * at each `InvoiceNumber:` line (the lines before the first belong to the first); a file with a
 * `Continued: yes` line carries on the document before it (which then came from two files) up to
 * its own first InvoiceNumber line; a file without an InvoiceNumber line is one document.
 */
export function splitDocuments(files: SourceFile[]): Cut[] {
	const cuts: Cut[] = [];
	for (const file of files) {
		const text = file.head.toString('utf8');
		let current: Cut | undefined;
		if (cuts.length && CONTINUED_LINE.test(text)) {
			current = cuts[cuts.length - 1];
			current.fileIds.push(file.id);
		}
		for (const line of text.split(/\r?\n/)) {
			const numbered = INVOICE_NUMBER_LINE.test(line);
			if (!current || (numbered && current.numbered)) {
				current = { fileIds: [file.id], text: '', numbered: false };
				cuts.push(current);
			}
			current.text += `${line}\n`;
			current.numbered ||= numbered;
		}
	}
	return cuts;
}

export interface SeedOptions {
	/** Default FIXTURE.documentSkillId. */
	skillId?: string;
	/** Default 'Processed'. */
	status?: Outcome;
	/** Completion time of each (default now); creation is one second earlier unless `createdAt`. */
	completedAt?: Date | ((i: number) => Date);
	/** Creation time of each (the lists filter and order by it); default one second before completion. */
	createdAt?: Date | ((i: number) => Date);
	registrationParameters?: KeyValue[];
	/** Whether each went through Manual Review (default false); see ./qa.ts for what it changed. */
	manualReview?: boolean;
	/**
	 * The source file of each, taken in turn (default `seed-<n>.txt` with a line of text): its text
	 * is what extraction and Manual Review read (see ./extract.ts and ./qa.ts).
	 */
	files?: Array<{ name?: string; text: string; contentType?: string }>;
}

function reached(pace: Pace, polls: number, elapsedMs: number): boolean {
	return 'polls' in pace ? polls >= pace.polls : elapsedMs >= pace.ms;
}

export class Processing {
	readonly store: TransactionStore;
	readonly results: Results;
	private scripts: TransactionScript[] = [];
	private defaultScript: TransactionScript = {};

	constructor(
		private readonly core: SimulatorCore,
		readonly skills: SkillsArea,
	) {
		this.store = new TransactionStore(() => core.options.deleteGraceMs);
		this.results = new Results(skills);
	}

	/** The next transaction to start follows `script`. */
	scriptNext(script: TransactionScript): void {
		this.scripts.push(script);
	}

	setDefaultScript(script: TransactionScript): void {
		this.defaultScript = script;
	}

	addFiles(
		tx: TransactionState,
		received: ReceivedFile[],
		metadata: Array<z.infer<typeof S.TransactionFileMetadataDto>> | null | undefined,
		document: DocumentState | null,
	): SourceFile[] {
		const added = received.map((r, i): SourceFile => {
			const meta = metadata?.[i];
			return {
				id: randomUUID(),
				name: r.name,
				sentName: r.sentName,
				size: r.size,
				sha256: r.sha256,
				contentType: r.contentType,
				head: r.head,
				truncated: r.truncated,
				index: meta?.index ?? null,
				imageProcessingOptions: meta?.imageProcessingOptions,
				registrationParameters: meta?.registrationParameters ?? [],
				documentId: document?.id ?? null,
			};
		});
		tx.files.push(...added);
		document?.fileIds.push(...added.map((f) => f.id));
		return added;
	}

	/** Start processing (StartTransaction, LaunchTransaction): documents are built now. */
	start(tx: TransactionState, script?: TransactionScript): void {
		tx.documents = this.buildDocuments(tx);
		tx.status = 'Processing';
		tx.startedAt = Date.now();
		tx.polls = 0;
		tx.script = script ?? this.scripts.shift() ?? this.defaultScript;
	}

	/**
	 * Documents after start. Documents created by CreateTransactionDocument keep their files (empty
	 * ones are dropped). Files added to the transaction itself: a Process skill splits each into two
	 * documents (pages 1 and 2 of a bundle), each holding only the file it came from; other skills
	 * put them all into their one document. GetTransactionDocuments lists each document with its
	 * own files ("how uploaded files were grouped into documents before or after processing", the
	 * OpenAPI document), which is how a client learns which file a document came from.
	 *
	 * A splitting Process skill (`splitsDocuments`) instead cuts the files' text into documents
	 * with new ids (`splitDocuments`); GetTransactionDocuments keeps listing the documents as
	 * uploaded (the explicit ones, and one per file added to the transaction), whose ids are not
	 * those of the processed documents. Only each document's Json result (`SourceFiles`) says
	 * which files it came from.
	 */
	private buildDocuments(tx: TransactionState): DocumentState[] {
		const skill = this.skills.get(tx.skillId);
		const explicit = byIndex(tx.documents.filter((d) => d.fileIds.length > 0));
		const loose = byIndex(tx.files.filter((f) => f.documentId === null));
		const doc = (fileIds: string[], page: number, index: number | null): DocumentState => ({
			id: randomUUID(),
			index,
			explicit: false,
			fileIds,
			page,
			resultFiles: [],
			ruleErrors: [],
		});
		if (skill?.type === 'Process' && skill.splitsDocuments) {
			tx.listedDocuments = [...explicit, ...loose.map((f) => doc([f.id], 1, f.index))];
			const files = new Map(tx.files.map((f) => [f.id, f]));
			const ordered = tx.listedDocuments.flatMap((d) => d.fileIds.map((id) => files.get(id)!));
			return splitDocuments(ordered).map((cut) => ({
				...doc(cut.fileIds, 1, null),
				text: cut.text,
			}));
		}
		if (skill?.type === 'Process') {
			return [
				...explicit,
				...loose.flatMap((f) => [doc([f.id], 1, f.index), doc([f.id], 2, f.index)]),
			];
		}
		if (loose.length === 0) return explicit;
		if (explicit.length > 0) {
			explicit[0].fileIds.push(...loose.map((f) => f.id));
			return explicit;
		}
		return [
			doc(
				loose.map((f) => f.id),
				1,
				null,
			),
		];
	}

	/**
	 * Move a Processing transaction along its script. GetTransactionInfo counts as a poll; other
	 * views (lists, state) see the state as of the last poll, or as time has moved it.
	 */
	advance(tx: TransactionState, countPoll: boolean): void {
		if (tx.status !== 'Processing' || tx.startedAt === null) return;
		const now = Date.now();
		const poll = countPoll ? tx.polls++ : tx.polls - 1;
		const { outcome = 'Processed', processing = { polls: 1 }, manualReview } = tx.script;
		if (!tx.review) {
			if (!reached(processing, poll, now - tx.startedAt)) return;
			if (manualReview) {
				tx.review = {
					poll,
					at: 'ms' in processing ? tx.startedAt + processing.ms : now,
					link: `${this.core.url}/review/${tx.id}?token=${randomBytes(16).toString('hex')}`,
				};
			}
		}
		if (outcome === 'Never') return;
		if (tx.review && manualReview) {
			if (!reached(manualReview, poll - tx.review.poll, now - tx.review.at)) return;
		}
		this.finish(tx, outcome);
	}

	finish(tx: TransactionState, outcome: Outcome, at = Date.now()): void {
		tx.status = outcome;
		tx.completedAt = at;
		tx.manualReview ||= tx.review !== null;
		tx.review = null;
		if (outcome === 'Processed') this.results.process(tx);
		if (outcome === 'Failed') tx.error = tx.script.error ?? DEFAULT_ERROR;
	}

	/** Finish a transaction now, whatever its script says (a New one is started first). */
	complete(id: string, outcome: Outcome = 'Processed'): void {
		const tx = this.store.get(id);
		if (!tx) throw new Error(`no transaction ${id}`);
		if (tx.status === 'New') this.start(tx, { outcome: 'Never' });
		if (tx.status !== 'Processing') throw new Error(`transaction ${id} is ${tx.status}`);
		this.finish(tx, outcome);
	}

	/** Finished transactions with one file, documents and results, created directly (fast). */
	seedCompleted(count: number, options: SeedOptions = {}): string[] {
		const skillId = options.skillId ?? FIXTURE.documentSkillId;
		const skill = this.skills.get(skillId);
		if (!skill) throw new Error(`no skill ${skillId}`);
		const ids: string[] = [];
		for (let i = 0; i < count; i++) {
			const when = options.completedAt;
			const at = (typeof when === 'function' ? when(i) : (when ?? new Date())).getTime();
			const created = options.createdAt;
			const tx = this.store.create(skill.id, {
				registrationParameters: options.registrationParameters,
				createdAt: created
					? (typeof created === 'function' ? created(i) : created).getTime()
					: at - 1000,
			});
			const given = options.files?.length ? options.files[i % options.files.length] : undefined;
			const head = Buffer.from(given?.text ?? `Seeded transaction ${i + 1}\n`, 'utf8');
			const name = given?.name ?? `seed-${i + 1}.txt`;
			const file = {
				sentName: name,
				name,
				size: head.length,
				sha256: createHash('sha256').update(head).digest('hex'),
				contentType: given?.contentType ?? 'text/plain',
				head,
				truncated: false,
			};
			this.addFiles(tx, [file], null, null);
			this.start(tx, { outcome: 'Never' });
			tx.startedAt = tx.createdAt;
			tx.manualReview = options.manualReview === true;
			this.finish(tx, options.status ?? 'Processed', at);
			ids.push(tx.id);
		}
		return ids;
	}

	/** GetTransactionInfo's answer. */
	view(tx: TransactionState): z.infer<typeof S.TransactionDto> {
		const documents =
			tx.status === 'New'
				? tx.documents.map((d) => ({ id: d.id }))
				: tx.status === 'Processed'
					? tx.documents.map((d) => this.results.dto(d))
					: undefined;
		return {
			id: tx.id,
			status: tx.status,
			...(tx.status === 'Processing' && tx.review ? { manualReviewLink: tx.review.link } : {}),
			...(documents ? { documents } : {}),
			...(tx.status === 'Failed' ? { error: tx.error } : {}),
			sourceFiles: tx.files.map((f) => ({ id: f.id, name: f.name })),
		};
	}
}
