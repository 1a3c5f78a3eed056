/** How tests see a transaction (`VantageSimulator.transaction(id)`): a copy of its state. */
import type * as S from '../schemas';
import type { KeyValue, TransactionState } from './state';

/** A transaction as tests see it (`transaction(id)`). */
export interface TransactionRecord {
	id: string;
	skillId: string;
	status: S.TransactionStatus;
	/** Before start: those created by CreateTransactionDocument; after: those the start produced. */
	documents: Array<{ id: string; index: number | null; imageProcessingOptions?: unknown }>;
	files: Array<{
		id: string;
		/** As stored (characters replaced); `sentName` as uploaded. */
		name: string;
		sentName: string;
		size: number;
		sha256: string;
		contentType: string;
		index: number | null;
		registrationParameters: KeyValue[];
		/** The documents holding the file. */
		documentIds: string[];
	}>;
	registrationParameters: KeyValue[];
	skillParameters: KeyValue[];
	createdUtc: string;
	completedUtc: string | null;
	manualReviewLink: string | null;
	error: string | null;
	/** Deleted, still readable during the grace period. */
	deleted: boolean;
}

export function transactionRecord(tx: TransactionState): TransactionRecord {
	const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
	return {
		id: tx.id,
		skillId: tx.skillId,
		status: tx.status,
		documents: tx.documents.map((d) => ({
			id: d.id,
			index: d.index,
			imageProcessingOptions: d.imageProcessingOptions,
		})),
		files: tx.files.map((f) => ({
			id: f.id,
			name: f.name,
			sentName: f.sentName,
			size: f.size,
			sha256: f.sha256,
			contentType: f.contentType,
			index: f.index,
			registrationParameters: f.registrationParameters,
			documentIds: tx.documents.filter((d) => d.fileIds.includes(f.id)).map((d) => d.id),
		})),
		registrationParameters: tx.registrationParameters,
		skillParameters: tx.skillParameters,
		createdUtc: iso(tx.createdAt)!,
		completedUtc: iso(tx.completedAt),
		manualReviewLink: tx.status === 'Processing' ? (tx.review?.link ?? null) : null,
		error: tx.error,
		deleted: tx.deletedAt !== null,
	};
}
