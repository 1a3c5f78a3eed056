import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { resources } from '../../nodes/AbbyyVantage/actions/router';
import { runNode } from '../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../helpers/binary';
import type { SimulatorFixture } from '../helpers/fixture';
import { api, token } from '../helpers/http';
import {
	addFilesParams,
	inviteParams,
	nodeParams,
	type OperationName,
	processParams,
	qaParams,
	recordDeleteParams,
	recordParams,
	rl,
	type ResourceName,
} from '../helpers/params';
import { documentWithFile } from '../node/transactionDocument/documents';
import { seedQualityScenario } from '../simulator/qualitykit';
import {
	FIXTURE,
	splittingSkill,
	type RouteId,
	type VantageSimulator,
} from '../simulator/simulator';
import { CATALOG } from './shared';

type Counts = ReturnType<VantageSimulator['createdCounts']>;

/** One row of the fault matrix: which route the faults hit and what the operation sends normally. */
export interface Operation {
	name: string;
	/** The node's Resource and Operation this row runs (a pair of the node's resource table). */
	resource: ResourceName;
	operation: string;
	/** The route the faults hit. */
	route: RouteId;
	/** Creates something: never resent, duplicates counted. */
	creates: boolean;
	/** Requests the operation sends to `route` when nothing goes wrong. */
	requests: number;
	/** Later requests stop after a 401/403/404 (delete batches do). */
	stopsOnFatal?: boolean;
	/** Idempotent batches: those failing with a passing problem get the retry budget again at the end. */
	retriesAtEnd?: boolean;
	/** A wait: it keeps polling through passing problems until its own Timeout (2 s here). */
	waits?: boolean;
	/** The answer's body is not parsed as JSON (files, empty answers): a malformed body is harmless. */
	ignoresBody?: boolean;
	/** The answer is read as it streams in (the QA reports): a body that breaks off is read again. */
	streams?: boolean;
	/** A file the node parses once downloaded (a result JSON): a truncated one is a readable error, sent once. */
	parsesFile?: boolean;
	/**
	 * The failures a summary reports instead of an error (Catalog Record Add with Continue On
	 * Fail lists failed records with their reasons), or '' when none.
	 */
	failuresIn?: (json: IDataObject) => string;
	/** What one successful run creates, from the simulator's counters: more than 1 is a duplicate. */
	created?: (counts: Counts) => number;
	prepare: () => Promise<{
		parameters: INodeParameters;
		items?: Array<IDataObject | INodeExecutionData>;
	}>;
}

/** `resource.operation` for every operation of the node's resource table (router.ts `resources`). */
export type OperationKey = { [R in ResourceName]: `${R}.${OperationName<R>}` }[ResourceName];

/** A row as written: its resource and operation are those of the key it is filed under. */
export type MatrixRow = Omit<Operation, 'resource' | 'operation'>;

/**
 * Every operation's rows, at least one each. The keys are the node's own operations, so one added
 * to the node without its rows does not type-check (and `walkMatrix` refuses it at run time).
 */
export type MatrixRows = { [K in OperationKey]: [MatrixRow, ...MatrixRow[]] };

/** Every (resource, operation) pair of the node, walked from its resource table, in table order. */
export function nodeOperations(): Array<{
	resource: ResourceName;
	operation: string;
	key: string;
}> {
	return (Object.entries(resources) as Array<[ResourceName, object]>).flatMap(
		([resource, operations]) =>
			Object.keys(operations).map((operation) => ({
				resource,
				operation,
				key: `${resource}.${operation}`,
			})),
	);
}

/** The operations of the table that have no row, and the keys of `rows` that are no operation. */
export function coverageGaps(rows: Record<string, readonly unknown[]>): {
	missing: string[];
	extra: string[];
} {
	const keys = nodeOperations().map(({ key }) => key);
	return {
		missing: keys.filter((key) => !rows[key]?.length),
		extra: Object.keys(rows).filter((key) => !keys.includes(key)),
	};
}

/**
 * The matrix: the rows of every operation of the node's resource table, in the table's order.
 * A row must run the operation it is filed under, or it would prove nothing about that operation.
 */
export function walkMatrix(rows: Record<string, readonly MatrixRow[]>): Operation[] {
	const { missing, extra } = coverageGaps(rows);
	if (missing.length || extra.length) {
		throw new Error(
			`Fault matrix rows do not match the node's operations: missing ${missing.join(', ') || 'none'}; not operations of the node: ${extra.join(', ') || 'none'}`,
		);
	}
	return nodeOperations().flatMap(({ resource, operation, key }) =>
		rows[key].map((row) => ({
			...row,
			resource,
			operation,
			prepare: async () => {
				const prepared = await row.prepare();
				const { parameters } = prepared;
				if (parameters.resource !== resource || parameters.operation !== operation) {
					throw new Error(
						`The row "${row.name}" is filed under ${key} but runs ${String(parameters.resource)}.${String(parameters.operation)}`,
					);
				}
				return prepared;
			},
		})),
	);
}

const invoiceItem = (number: string) =>
	fileItem(binaryFile(`${number}.pdf`, invoiceText({ number })));

const DELETE_IDS = Array.from({ length: 15 }, (_, i) => `rec-${i}`);

/** Every operation of the node, prepared against the fixture's simulator. */
export function matrixOperations(f: SimulatorFixture): Operation[] {
	return walkMatrix(matrixRows(f));
}

/** Each operation's rows, prepared against the fixture's simulator (read `f` inside `prepare`). */
export function matrixRows(f: SimulatorFixture): MatrixRows {
	async function exportOwnedByUser(files = ['a,b\r\n1,2\r\n']): Promise<string> {
		f.sim.scriptNextExport({ path: ['Succeeded'], files });
		const res = await api(
			f.sim,
			await token(f.sim),
			'POST',
			'/api/reporting/v2/exports/transaction-steps',
			{ filters: { startDate: '2025-11-01T00:00:00Z' } },
		);
		return (res.json as { requestId: string }).requestId;
	}
	return {
		'catalog.clear': [
			{
				name: 'Catalog Clear',
				route: 'ClearCatalog',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					f.sim.seedRecords(CATALOG, ['c1', 'c2']);
					return {
						parameters: nodeParams('catalog', 'clear', { catalogId: rl(CATALOG), confirm: true }),
					};
				},
			},
		],
		'catalog.get': [
			{
				name: 'Catalog Get',
				route: 'GetCatalog',
				creates: false,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('catalog', 'get', { catalogId: rl(CATALOG) }),
				}),
			},
		],
		'catalog.getMany': [
			{
				name: 'Catalog Get Many',
				route: 'GetCatalogs',
				creates: false,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('catalog', 'getMany', { returnAll: true }),
				}),
			},
		],
		'catalog.reindex': [
			{
				name: 'Reindex',
				route: 'StartCatalogReindex',
				creates: true,
				requests: 1,
				created: (c) => c.reindexes,
				prepare: async () => ({
					parameters: nodeParams('catalog', 'reindex', {
						catalogId: rl(CATALOG),
						waitForCompletion: false,
					}),
				}),
			},
		],
		'catalogRecord.add': [
			{
				name: 'Catalog Record Add',
				route: 'AddRecords',
				creates: false,
				requests: 1,
				retriesAtEnd: true,
				failuresIn: (json) => {
					const [first] = (json.failedRecords as Array<{ id: string; reasons: string[] }>) ?? [];
					return first ? `${json.failed} failed, e.g. "${first.id}": ${first.reasons[0]}` : '';
				},
				prepare: async () => ({
					items: [
						{ recordId: 'add-1', Name: 'First' },
						{ recordId: 'add-2', Name: 'Second' },
					],
					parameters: recordParams('add', CATALOG, { mode: 'aggregate' }),
				}),
			},
		],
		'catalogRecord.delete': [
			{
				name: 'Catalog Record Delete (3 batches)',
				route: 'DeleteRecords',
				creates: false,
				requests: 3,
				stopsOnFatal: true,
				ignoresBody: true,
				retriesAtEnd: true,
				prepare: async () => {
					f.sim.seedRecords(CATALOG, DELETE_IDS);
					return {
						items: [{ ids: DELETE_IDS.slice(0, 8) }, { ids: DELETE_IDS.slice(5) }],
						parameters: recordDeleteParams(CATALOG, {
							mode: 'aggregate',
							options: { batchSize: 5 },
						}),
					};
				},
			},
		],
		'catalogRecord.get': [
			{
				name: 'Catalog Record Get',
				route: 'GetRecord',
				creates: false,
				requests: 1,
				prepare: async () => {
					f.sim.seedRecords(CATALOG, ['get-1']);
					return {
						parameters: nodeParams('catalogRecord', 'get', {
							catalogId: rl(CATALOG),
							recordId: 'get-1',
						}),
					};
				},
			},
		],
		'catalogRecord.getMany': [
			{
				name: 'Catalog Record Get Many',
				route: 'GetRecords',
				creates: false,
				requests: 1,
				prepare: async () => {
					f.sim.seedRecords(CATALOG, ['many-1', 'many-2']);
					return {
						parameters: nodeParams('catalogRecord', 'getMany', {
							catalogId: rl(CATALOG),
							returnAll: true,
						}),
					};
				},
			},
		],
		'catalogRecord.sync': [
			{
				name: 'Catalog Record Sync × read',
				route: 'GetRecords',
				creates: false,
				requests: 1,
				prepare: async () => {
					f.sim.seedRecords(CATALOG, ['keep', 'gone']);
					return {
						items: [
							{ recordId: 'keep', Name: 'keep' },
							{ recordId: 'new', Name: 'New' },
						],
						parameters: recordParams('sync', CATALOG, { options: { reindex: false } }),
					};
				},
			},
			{
				name: 'Catalog Record Sync × write',
				route: 'AddRecords',
				creates: false,
				requests: 1,
				retriesAtEnd: true,
				prepare: async () => {
					f.sim.seedRecords(CATALOG, ['keep', 'gone']);
					return {
						items: [
							{ recordId: 'keep', Name: 'keep' },
							{ recordId: 'new', Name: 'New' },
						],
						parameters: recordParams('sync', CATALOG, { options: { reindex: false } }),
					};
				},
			},
		],
		'report.createExport': [
			{
				name: 'Create Export',
				route: 'CreateTransactionStepsExportRequest',
				creates: true,
				requests: 1,
				created: (c) => c.exports,
				prepare: async () => ({
					parameters: nodeParams('report', 'createExport', { startDate: '2025-11-01T00:00:00Z' }),
				}),
			},
		],
		'report.downloadExportFiles': [
			{
				name: 'Download Export Files',
				route: 'GetExportResult',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => ({
					parameters: nodeParams('report', 'downloadExportFiles', {
						requestId: await exportOwnedByUser(),
					}),
				}),
			},
		],
		'report.getDocumentChanges': [
			{
				// A CSV body, not JSON: a malformed body reads as an empty report (explained, not an error).
				name: 'Get Document Changes',
				streams: true,
				route: 'GetDocumentsAsCsv',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					seedQualityScenario(f.sim);
					return { parameters: qaParams('getDocumentChanges', { returnAll: true }) };
				},
			},
		],
		'report.getExportStatus': [
			{
				name: 'Get Export Status',
				route: 'GetExportStatus',
				creates: false,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('report', 'getExportStatus', {
						requestId: await exportOwnedByUser(),
					}),
				}),
			},
		],
		'report.getFieldChanges': [
			{
				name: 'Get Field Changes (CSV File)',
				streams: true,
				route: 'GetFieldsAsCsv',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					seedQualityScenario(f.sim);
					return { parameters: qaParams('getFieldChanges', { output: 'binary' }) };
				},
			},
		],
		'report.getManyExports': [
			{
				name: 'Get Many Exports',
				route: 'ListExportRequests',
				creates: false,
				requests: 1,
				prepare: async () => {
					await exportOwnedByUser();
					return { parameters: nodeParams('report', 'getManyExports', { returnAll: true }) };
				},
			},
		],
		'report.getQualitySummary': [
			{
				name: 'Get Quality Summary × documents',
				streams: true,
				route: 'GetDocumentsAsCsv',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					seedQualityScenario(f.sim);
					return { parameters: qaParams('getQualitySummary') };
				},
			},
			{
				name: 'Get Quality Summary × fields',
				streams: true,
				route: 'GetFieldsAsCsv',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					seedQualityScenario(f.sim);
					return { parameters: qaParams('getQualitySummary') };
				},
			},
		],
		'report.waitForExport': [
			{
				name: 'Wait For Export',
				route: 'GetExportStatus',
				creates: false,
				requests: 1,
				waits: true,
				prepare: async () => ({
					parameters: nodeParams('report', 'waitForExport', {
						requestId: await exportOwnedByUser(),
						options: { pollInterval: 1, timeout: 2 },
					}),
				}),
			},
		],
		'skill.get': [
			{
				name: 'Skill Get',
				route: 'GetSkillInfo',
				creates: false,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('skill', 'get', { skillId: rl(FIXTURE.documentSkillId) }),
				}),
			},
		],
		'skill.getMany': [
			{
				name: 'Skill Get Many',
				route: 'GetAvailableSkills',
				creates: false,
				requests: 1,
				prepare: async () => ({ parameters: nodeParams('skill', 'getMany', { returnAll: true }) }),
			},
		],
		'tenant.createInvite': [
			{
				name: 'Tenant Create Invite',
				route: 'CreateInvite',
				creates: true,
				requests: 1,
				ignoresBody: true,
				created: (c) => c.invites,
				prepare: async () => ({ parameters: inviteParams() }),
			},
		],
		'transaction.addFiles': [
			{
				name: 'Transaction Add Files',
				route: 'AddFilesToTransaction',
				creates: true,
				requests: 1,
				ignoresBody: true,
				created: (c) => c.uploads,
				prepare: async () => ({
					items: [invoiceItem('REL-2')],
					parameters: addFilesParams(f.sim.createTransaction(FIXTURE.processSkillId)),
				}),
			},
			{
				name: 'Transaction Add Files (to a document)',
				route: 'AddFilesToTransactionDocument',
				creates: true,
				requests: 1,
				ignoresBody: true,
				created: (c) => c.uploads,
				prepare: async () => {
					const { transactionId, documentId } = await documentWithFile(f);
					return {
						items: [invoiceItem('REL-7')],
						parameters: addFilesParams(transactionId, { options: { documentId } }),
					};
				},
			},
		],
		'transaction.create': [
			{
				name: 'Transaction Create',
				route: 'CreateTransaction',
				creates: true,
				requests: 1,
				created: (c) => c.transactions,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'create', { skillId: rl(FIXTURE.documentSkillId) }),
				}),
			},
		],
		'transaction.delete': [
			{
				name: 'Transaction Delete',
				route: 'DeleteTransaction',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'delete', {
						transactionId: f.sim.createTransaction(FIXTURE.documentSkillId),
					}),
				}),
			},
		],
		'transaction.downloadFile': [
			{
				name: 'Transaction Download File',
				route: 'DownloadFile',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					const [transactionId] = f.sim.seedCompletedTransactions(1, {
						skillId: FIXTURE.documentSkillId,
					});
					const info = await runNode({
						credentials: f.store,
						parameters: nodeParams('transaction', 'get', { transactionId }),
					});
					const documents = info.items[0].json.documents as Array<{
						resultFiles: Array<{ fileId: string }>;
					}>;
					return {
						parameters: nodeParams('transaction', 'downloadFile', {
							transactionId,
							fileId: documents[0].resultFiles[0].fileId,
						}),
					};
				},
			},
		],
		'transaction.generateMobileInputLink': [
			{
				name: 'Transaction Generate Mobile Input Link',
				route: 'GenerateMobileInputLink',
				creates: true,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'generateMobileInputLink', {
						transactionId: f.sim.createTransaction(FIXTURE.documentSkillId),
					}),
				}),
			},
		],
		'transaction.get': [
			{
				name: 'Transaction Get',
				route: 'GetTransactionInfo',
				creates: false,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'get', {
						transactionId: f.sim.createTransaction(FIXTURE.documentSkillId),
					}),
				}),
			},
		],
		'transaction.getMany': [
			{
				name: 'Transaction Get Many',
				route: 'GetCompletedTransactions',
				creates: false,
				requests: 1,
				prepare: async () => {
					f.sim.seedCompletedTransactions(3, { skillId: FIXTURE.documentSkillId });
					return { parameters: nodeParams('transaction', 'getMany', { returnAll: true }) };
				},
			},
		],
		'transaction.getRegistrationParameters': [
			{
				name: 'Transaction Get Registration Parameters',
				route: 'GetTransactionRegistrationParameters',
				creates: false,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'getRegistrationParameters', {
						transactionId: f.sim.createTransaction(FIXTURE.documentSkillId),
					}),
				}),
			},
		],
		'transaction.getResults': [
			{
				name: 'Transaction Get Results',
				route: 'GetTransactionInfo',
				creates: false,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'getResults', {
						transactionId: f.sim.seedCompletedTransactions(1, {
							skillId: FIXTURE.documentSkillId,
						})[0],
					}),
				}),
			},
			{
				name: 'Transaction Get Results × result file',
				route: 'DownloadFile',
				creates: false,
				requests: 1,
				ignoresBody: true,
				parsesFile: true,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'getResults', {
						transactionId: f.sim.seedCompletedTransactions(1, {
							skillId: FIXTURE.documentSkillId,
						})[0],
					}),
				}),
			},
		],
		'transaction.getSkillParameters': [
			{
				name: 'Transaction Get Skill Parameters',
				route: 'GetTransactionSkillParameters',
				creates: false,
				requests: 1,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'getSkillParameters', {
						transactionId: f.sim.createTransaction(FIXTURE.documentSkillId),
					}),
				}),
			},
		],
		'transaction.processDocument': [
			{
				name: 'Process Document (launch)',
				route: 'LaunchTransaction',
				creates: true,
				requests: 1,
				created: (c) => c.transactions,
				prepare: async () => ({
					items: [invoiceItem('REL-1')],
					parameters: processParams(),
				}),
			},
			{
				name: 'Process Document (separate calls) × create',
				route: 'CreateTransaction',
				creates: true,
				requests: 1,
				created: (c) => c.transactions,
				prepare: async () => ({
					items: [invoiceItem('REL-4')],
					parameters: processParams({}, { uploadMethod: 'separate' }),
				}),
			},
			{
				name: 'Process Document (separate calls) × add files',
				route: 'AddFilesToTransaction',
				creates: true,
				requests: 1,
				ignoresBody: true,
				created: (c) => c.uploads,
				prepare: async () => ({
					items: [invoiceItem('REL-5')],
					parameters: processParams({}, { uploadMethod: 'separate' }),
				}),
			},
			{
				name: 'Process Document (separate calls) × start',
				route: 'StartTransaction',
				creates: true,
				requests: 1,
				ignoresBody: true,
				prepare: async () => ({
					items: [invoiceItem('REL-6')],
					parameters: processParams({}, { uploadMethod: 'separate' }),
				}),
			},
			{
				name: 'Process Document (One for All Items, a Process skill merging two items’ files) × result JSON',
				route: 'DownloadFile',
				creates: false,
				requests: 1,
				ignoresBody: true,
				parsesFile: true,
				created: (c) => c.transactions,
				prepare: async () => {
					f.sim.defineSkill(splittingSkill());
					return {
						items: [
							invoiceItem('REL-7'),
							fileItem(binaryFile('REL-7-page-2.txt', 'Continued: yes\nLineItem: Desk; 1; 5')),
						],
						parameters: processParams({
							skillId: rl(FIXTURE.splittingSkillId),
							transactionMode: 'combined',
						}),
					};
				},
			},
		],
		'transaction.start': [
			{
				name: 'Transaction Start',
				route: 'StartTransaction',
				creates: true,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					const transactionId = f.sim.createTransaction(FIXTURE.documentSkillId);
					await runNode({
						credentials: f.store,
						items: [invoiceItem('REL-3')],
						parameters: addFilesParams(transactionId),
					});
					return { parameters: nodeParams('transaction', 'start', { transactionId }) };
				},
			},
		],
		'transaction.waitForTransaction': [
			{
				name: 'Wait For Transaction',
				route: 'GetTransactionInfo',
				creates: false,
				requests: 1,
				waits: true,
				prepare: async () => ({
					parameters: nodeParams('transaction', 'waitForTransaction', {
						transactionId: f.sim.seedCompletedTransactions(1, {
							skillId: FIXTURE.documentSkillId,
						})[0],
						options: { pollInterval: 1, timeout: 2 },
					}),
				}),
			},
		],
		'transactionDocument.add': [
			{
				name: 'Add Document',
				route: 'CreateTransactionDocument',
				creates: true,
				requests: 1,
				created: (c) => c.documents,
				prepare: async () => ({
					parameters: nodeParams('transactionDocument', 'add', {
						transactionId: f.sim.createTransaction(FIXTURE.processSkillId),
					}),
				}),
			},
		],
		'transactionDocument.delete': [
			{
				name: 'Transaction Document Delete',
				route: 'DeleteTransactionDocument',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					const { transactionId, documentId } = await documentWithFile(f);
					return {
						parameters: nodeParams('transactionDocument', 'delete', { transactionId, documentId }),
					};
				},
			},
		],
		'transactionDocument.downloadSourceFile': [
			{
				name: 'Transaction Document Download Source File',
				route: 'DownloadTransactionDocumentSourceFile',
				creates: false,
				requests: 1,
				ignoresBody: true,
				prepare: async () => {
					const { transactionId, documentId, fileId } = await documentWithFile(f);
					return {
						parameters: nodeParams('transactionDocument', 'downloadSourceFile', {
							transactionId,
							documentId,
							fileId,
						}),
					};
				},
			},
		],
		'transactionDocument.get': [
			{
				name: 'Transaction Document Get',
				route: 'GetTransactionDocument',
				creates: false,
				requests: 1,
				prepare: async () => {
					const { transactionId, documentId } = await documentWithFile(f);
					return {
						parameters: nodeParams('transactionDocument', 'get', { transactionId, documentId }),
					};
				},
			},
		],
		'transactionDocument.getMany': [
			{
				name: 'Transaction Document Get Many',
				route: 'GetTransactionDocuments',
				creates: false,
				requests: 1,
				prepare: async () => {
					const { transactionId } = await documentWithFile(f);
					return {
						parameters: nodeParams('transactionDocument', 'getMany', {
							transactionId,
							returnAll: true,
						}),
					};
				},
			},
		],
	};
}
