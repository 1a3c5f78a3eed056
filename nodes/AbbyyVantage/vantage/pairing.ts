import { namedSourceFiles } from '../helpers/extractedData';
import type { VantageClient } from '../transport';
import { listTransactionDocuments, type TransactionInfo } from './transactions';

/**
 * How a document's `sourceFiles` were found (the `pairing` key; Process Document pairs a One for
 * All Items document with the items those files came from):
 * - `resultJson`: its `Json` result file names them (ExtractedDataTransaction `SourceFiles`);
 * - `transactionDocuments`: Vantage's list of the transaction's documents has it with its files;
 * - `transaction`: the transaction has one file, or one document: all of its files;
 * - `unknown`: nothing says; all of the transaction's files (and, in Process Document, items).
 */
export type Pairing = 'resultJson' | 'transactionDocuments' | 'transaction' | 'unknown';

/** The source files a document came from, and how they were found. */
export interface PairedSources {
	pairing: Pairing;
	sourceFiles: string[];
}

/** The source files one document of a transaction came from, given its id and its result JSON. */
export type PairSources = (documentId: string | null, result: unknown) => Promise<PairedSources>;

/**
 * The source files of each document (by lower-case document id), from GetTransactionDocuments
 * ("Returns the documents that belong to the transaction, including the files attached to each
 * document … before or after processing", OpenAPI document). A Process skill that splits or
 * merges files gives its documents ids of their own, which this list need not know.
 */
async function listedSources(
	client: VantageClient,
	transactionId: string,
	itemIndex: number | undefined,
): Promise<Map<string, string[]>> {
	const listed = await listTransactionDocuments(
		client,
		transactionId,
		itemIndex,
		`reading which files each document of transaction ${transactionId} came from`,
	);
	const sources = new Map<string, string[]>();
	for (const entry of listed) {
		const names = (Array.isArray(entry?.sourceFiles) ? entry.sourceFiles : [])
			.map((file) => (file as { name?: unknown } | null)?.name)
			.filter((name): name is string => typeof name === 'string' && name !== '');
		if (typeof entry?.documentId === 'string' && names.length) {
			sources.set(entry.documentId.toLowerCase(), names);
		}
	}
	return sources;
}

/**
 * Pairs the documents of one transaction with their source files, the surest way first: the
 * files a document's result JSON names; all of the transaction's files when it has one file or
 * one document; else Vantage's list of the transaction's documents, asked once per transaction
 * and only for a document whose result JSON names no files.
 */
export function sourcePairing(
	client: VantageClient,
	info: TransactionInfo,
	itemIndex: number | undefined,
): PairSources {
	const documents = Array.isArray(info.documents) ? info.documents : [];
	const transactionFiles = (info.sourceFiles ?? []).filter(
		(f): f is { id: string; name: string } =>
			!!f && typeof f.id === 'string' && typeof f.name === 'string',
	);
	const allFiles = transactionFiles.map((f) => f.name);
	const certain = documents.length < 2 || allFiles.length < 2;
	let listed: Promise<Map<string, string[]>> | undefined;
	return async (documentId, result) => {
		const named = namedSourceFiles(result, transactionFiles);
		if (named.length) return { pairing: 'resultJson', sourceFiles: named };
		if (certain) return { pairing: 'transaction', sourceFiles: allFiles };
		listed ??= listedSources(client, info.id, itemIndex);
		const found = documentId ? (await listed).get(documentId.toLowerCase()) : undefined;
		return found
			? { pairing: 'transactionDocuments', sourceFiles: found }
			: { pairing: 'unknown', sourceFiles: allFiles };
	};
}
