import { pathUnder } from '../helpers/path';

/**
 * Every ABBYY Vantage operation the node calls, named after its OpenAPI operationId (the vendor's
 * documents are copied in test/fixtures/openapi/). `idempotent` says whether the request may be
 * sent again after a failure that may have reached Vantage: reads, status polls and record
 * deletion may; anything that creates something (an export, a transaction, a document, a reindex)
 * may not, because Vantage has no idempotency key.
 */
export interface Endpoint {
	method: 'GET' | 'POST' | 'DELETE';
	/** Every parameter is one encoded path segment. */
	path: string;
	idempotent: boolean;
}

const exportsPath = pathUnder('/api/reporting/v2/exports/transaction-steps');
const qaPath = pathUnder('/api/reporting/v2/qa/process-skills');
const publicApi = pathUnder('/api/publicapi/v1');

const read = (path: string): Endpoint => ({ method: 'GET', path, idempotent: true });
const create = (path: string): Endpoint => ({ method: 'POST', path, idempotent: false });

const remove = (path: string): Endpoint => ({ method: 'DELETE', path, idempotent: true });

export const endpoints = {
	// Reporting API v2
	createTransactionStepsExportRequest: () => create(exportsPath``),
	listExportRequests: () => read(exportsPath``),
	getExportStatus: (requestId: string) => read(exportsPath`/${requestId}/status`),
	getExportResult: (requestId: string, fileIndex: number) =>
		read(exportsPath`/${requestId}/result/${fileIndex}`),
	/** The QA reports: CSV with a header row, filters in the query. */
	getDocumentsAsCsv: () => read(qaPath`/documents`),
	getFieldsAsCsv: () => read(qaPath`/fields`),

	// Processing API v1: skills
	getAvailableSkills: () => read(publicApi`/skills`),
	getSkillInfo: (skillId: string) => read(publicApi`/skills/${skillId}`),

	// Processing API v1: transactions
	createTransaction: () => create(publicApi`/transactions`),
	/** Creates, fills and starts a transaction in one call (skillId goes in the query). */
	launchTransaction: () => create(publicApi`/transactions/launch`),
	addFilesToTransaction: (transactionId: string) =>
		create(publicApi`/transactions/${transactionId}/files`),
	startTransaction: (transactionId: string) =>
		create(publicApi`/transactions/${transactionId}/start`),
	getTransactionInfo: (transactionId: string) => read(publicApi`/transactions/${transactionId}`),
	/** Deleting twice deletes nothing more. */
	deleteTransaction: (transactionId: string) => remove(publicApi`/transactions/${transactionId}`),
	downloadFile: (transactionId: string, fileId: string) =>
		read(publicApi`/transactions/${transactionId}/files/${fileId}/download`),
	getTransactionRegistrationParameters: (transactionId: string) =>
		read(publicApi`/transactions/${transactionId}/registrationParameters`),
	getTransactionSkillParameters: (transactionId: string) =>
		read(publicApi`/transactions/${transactionId}/skillParameters`),
	/** Each call issues a new one-time link. */
	generateMobileInputLink: (transactionId: string) =>
		create(publicApi`/transactions/${transactionId}/mobileInputLink`),
	getActiveTransactions: () => read(publicApi`/transactions/active`),
	getCompletedTransactions: () => read(publicApi`/transactions/completed`),

	// Processing API v1: transaction documents
	createTransactionDocument: (transactionId: string) =>
		create(publicApi`/transactions/${transactionId}/documents`),
	getTransactionDocuments: (transactionId: string) =>
		read(publicApi`/transactions/${transactionId}/documents`),
	getTransactionDocument: (transactionId: string, documentId: string) =>
		read(publicApi`/transactions/${transactionId}/documents/${documentId}`),
	deleteTransactionDocument: (transactionId: string, documentId: string) =>
		remove(publicApi`/transactions/${transactionId}/documents/${documentId}`),
	addFilesToTransactionDocument: (transactionId: string, documentId: string) =>
		create(publicApi`/transactions/${transactionId}/documents/${documentId}/sourceFiles`),
	downloadTransactionDocumentSourceFile: (
		transactionId: string,
		documentId: string,
		fileId: string,
	) =>
		read(
			publicApi`/transactions/${transactionId}/documents/${documentId}/sourceFiles/${fileId}/download`,
		),

	// Processing API v1: catalogs
	getCatalogs: () => read(publicApi`/catalogs`),
	getCatalog: (catalogId: string) => read(publicApi`/catalogs/${catalogId}`),
	getRecords: (catalogId: string) => read(publicApi`/catalogs/${catalogId}/records`),
	getRecord: (catalogId: string, recordId: string) =>
		read(publicApi`/catalogs/${catalogId}/records/${recordId}`),
	/** Record ids are chosen by the caller, so adding the same records again changes nothing more. */
	addRecords: (catalogId: string): Endpoint => ({
		method: 'POST',
		path: publicApi`/catalogs/${catalogId}/records`,
		idempotent: true,
	}),
	/** Removes every record; sending it again removes nothing more. */
	clearCatalog: (catalogId: string): Endpoint => ({
		method: 'POST',
		path: publicApi`/catalogs/${catalogId}/clear`,
		idempotent: true,
	}),
	/** Vantage ignores ids that do not exist, so sending a batch again changes nothing. */
	deleteRecords: (catalogId: string): Endpoint => ({
		method: 'POST',
		path: publicApi`/catalogs/${catalogId}/records/delete`,
		idempotent: true,
	}),
	startCatalogReindex: (catalogId: string) => create(publicApi`/catalogs/${catalogId}/reindex`),
	getReindexOperation: (catalogId: string, operationId: string) =>
		read(publicApi`/catalogs/${catalogId}/reindex/${operationId}`),

	// Processing API v1: invites
	/** Invites someone to a new tenant and e-mails them: never sent twice. */
	createInvite: () => create(publicApi`/invites`),
};
