/* eslint-disable @n8n/community-nodes/no-restricted-globals --
 * Test infrastructure, never shipped: timers move flows with Custom activities along. */
/**
 * A transaction's life: New → (start or launch) Processing → Processed | Failed | Canceled, each
 * started transaction following a TransactionScript (first in, first out, like exports), with an
 * optional manual review phase. Also builds the documents a start produces and the TransactionDto.
 *
 * Custom activities (../customActivity/activities.ts) placed before and/or after Review run their
 * script at that point of the flow: processing → [Custom activity] → Manual Review →
 * [Custom activity] → Processed. While a script runs the transaction is Processing (stage
 * CustomActivity); placed after Review, it becomes Processed only once the script has returned; a
 * script that fails (uncaught exception, Context.ErrorMessage) makes it Failed with that message.
 * Such a flow also moves by itself, on timers, where its script's phases are paced in
 * milliseconds: a Custom activity pushes events without anyone polling.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';

import { FIXTURE } from '../fixture';
import type { SkillsArea } from '../routes/skills';
import type * as S from '../schemas';
import type { SimulatorCore } from '../server';
import { CustomActivities } from '../customActivity/activities';
import type { ReceivedFile } from './uploads';
import { Results } from './results';
import {
	byIndex,
	DEFAULT_ERROR,
	TransactionStore,
	type DocumentState,
	type KeyValue,
	type Pace,
	type Placement,
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
	readonly activities = new CustomActivities();
	private scripts: TransactionScript[] = [];
	private defaultScript: TransactionScript = {};
	/** Wake-ups of flows with Custom activities (cleared by `stop`). */
	private readonly timers = new Set<NodeJS.Timeout>();

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
		// A flow that fails or is canceled is interrupted before its Custom activities.
		const { outcome = 'Processed', processing = { polls: 1 } } = tx.script;
		tx.activities =
			outcome === 'Processed' || outcome === 'Never'
				? this.activities.placementsFor(tx.skillId)
				: [];
		tx.flow = tx.activities.length > 0 ? 'processing' : null;
		if (tx.flow) this.wake(tx, processing, tx.startedAt);
	}

	/** Stop the timers and the scripts (the simulator stops). */
	async stop(): Promise<void> {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		await this.activities.stop();
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
		if (tx.flow) return this.advanceFlow(tx, poll, now);
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

	/** `error`: a Failed transaction's error (default its script's). */
	finish(tx: TransactionState, outcome: Outcome, at = Date.now(), error?: string): void {
		tx.status = outcome;
		tx.completedAt = at;
		tx.manualReview ||= tx.review !== null;
		tx.review = null;
		if (tx.flow) tx.flow = 'done';
		if (outcome === 'Processed') this.results.process(tx);
		if (outcome === 'Failed') tx.error = error ?? tx.script.error ?? DEFAULT_ERROR;
	}

	/**
	 * Finish a transaction now, whatever its script says (a New one is started first). In a flow
	 * with Custom activities, Processed means the flow runs to its end now: each Custom activity
	 * not run yet runs (Manual Review is skipped), and the transaction is Processed once the last
	 * script has returned; Failed and Canceled are now, a running script's end is ignored.
	 */
	complete(id: string, outcome: Outcome = 'Processed'): void {
		const tx = this.store.get(id);
		if (!tx) throw new Error(`no transaction ${id}`);
		if (tx.status === 'New') this.start(tx, { outcome: 'Never' });
		if (tx.status !== 'Processing') throw new Error(`transaction ${id} is ${tx.status}`);
		if (tx.flow && outcome === 'Processed') {
			tx.script = {
				...tx.script,
				outcome: 'Processed',
				processing: { ms: 0 },
				manualReview: undefined,
			};
			if (tx.flow === 'held') this.afterReview(tx);
			else if (tx.flow === 'processing' || tx.flow === 'review') this.advance(tx, false);
			return;
		}
		this.finish(tx, outcome);
	}

	// ------------------------------------------------------------ flows with Custom activities

	/**
	 * processing → [Custom activity before Review] → Manual Review (when the script has one) →
	 * [Custom activity after Review] → Processed (or held for ever with outcome 'Never'). Paces as
	 * in `advance`; a running script holds the flow until it returns (see `runActivity`).
	 */
	private advanceFlow(tx: TransactionState, poll: number, now: number): void {
		const { outcome = 'Processed', processing = { polls: 1 }, manualReview } = tx.script;
		if (tx.flow === 'processing') {
			if (!reached(processing, poll, now - tx.startedAt!)) return;
			if (tx.activities.includes('beforeReview')) return this.runActivity(tx, 'beforeReview');
			this.enterReview(tx, poll, 'ms' in processing ? tx.startedAt! + processing.ms : now);
		}
		if (tx.flow === 'review' && tx.review) {
			if (outcome === 'Never') return;
			if (manualReview && !reached(manualReview, poll - tx.review.poll, now - tx.review.at)) return;
			tx.manualReview = true;
			tx.review = null;
			this.afterReview(tx);
		}
	}

	/** Into Manual Review when the script has one (its first poll is `poll`), else past it. */
	private enterReview(tx: TransactionState, poll: number, at: number): void {
		const { manualReview } = tx.script;
		if (!manualReview) return this.afterReview(tx);
		tx.flow = 'review';
		tx.review = {
			poll,
			at,
			link: `${this.core.url}/review/${tx.id}?token=${randomBytes(16).toString('hex')}`,
		};
		this.wake(tx, manualReview, at);
	}

	private afterReview(tx: TransactionState): void {
		if (tx.script.outcome === 'Never') {
			tx.flow = 'held';
			return;
		}
		if (tx.activities.includes('afterReview')) return this.runActivity(tx, 'afterReview');
		this.finish(tx, 'Processed');
	}

	/** Run a Custom activity's script; the flow goes on when it returns, or fails with it. */
	private runActivity(tx: TransactionState, placement: Placement): void {
		tx.flow = placement;
		const ended = (error?: string) => {
			if (tx.status !== 'Processing' || tx.flow !== placement) return;
			if (error !== undefined) return this.finish(tx, 'Failed', Date.now(), error);
			if (placement === 'afterReview') return this.finish(tx, 'Processed');
			// Manual Review's first poll is the next one, so that a poll can see its link.
			this.enterReview(tx, tx.polls, Date.now());
			this.advance(tx, false);
		};
		this.activities.run(tx, placement).then(
			(run) => ended(run.outcome === 'failed' ? run.error : undefined),
			(error: Error) => ended(`The simulator could not run the script: ${error.message}`),
		);
	}

	/** Move the flow along when a phase paced in milliseconds, begun at `from`, ends. */
	private wake(tx: TransactionState, pace: Pace, from: number): void {
		if (!('ms' in pace)) return;
		const due = from + pace.ms;
		const timer = setTimeout(
			() => {
				this.timers.delete(timer);
				// A timer may fire a millisecond before Date.now() says it is due: wait again then.
				if (Date.now() < due) this.wake(tx, pace, from);
				else this.advance(tx, false);
			},
			Math.max(0, due - Date.now()),
		);
		timer.unref();
		this.timers.add(timer);
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
