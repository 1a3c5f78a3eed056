import { pathUnder } from './path';

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
const publicApi = pathUnder('/api/publicapi/v1');

const read = (path: string): Endpoint => ({ method: 'GET', path, idempotent: true });
const create = (path: string): Endpoint => ({ method: 'POST', path, idempotent: false });

export const endpoints = {
	// Reporting API v2
	createTransactionStepsExportRequest: () => create(exportsPath``),
	getExportStatus: (requestId: string) => read(exportsPath`/${requestId}/status`),
	getExportResult: (requestId: string, fileIndex: number) =>
		read(exportsPath`/${requestId}/result/${fileIndex}`),

	// Processing API v1: transactions
	createTransactionDocument: (transactionId: string) =>
		create(publicApi`/transactions/${transactionId}/documents`),

	// Processing API v1: catalogs
	getCatalogs: () => read(publicApi`/catalogs`),
	/** Vantage ignores ids that do not exist, so sending a batch again changes nothing. */
	deleteRecords: (catalogId: string): Endpoint => ({
		method: 'POST',
		path: publicApi`/catalogs/${catalogId}/records/delete`,
		idempotent: true,
	}),
	startCatalogReindex: (catalogId: string) => create(publicApi`/catalogs/${catalogId}/reindex`),
	getReindexOperation: (catalogId: string, operationId: string) =>
		read(publicApi`/catalogs/${catalogId}/reindex/${operationId}`),
};
