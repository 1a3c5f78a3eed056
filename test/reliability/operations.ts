import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/n8n';
import { binaryFile, fileItem, invoiceText } from '../helpers/binary';
import type { SimulatorFixture } from '../helpers/fixture';
import { api, token } from '../helpers/http';
import {
	addFilesParams,
	nodeParams,
	processParams,
	recordDeleteParams,
	rl,
} from '../helpers/params';
import { FIXTURE, type RouteId, type VantageSimulator } from '../simulator/simulator';
import { CATALOG } from './shared';

type Counts = ReturnType<VantageSimulator['createdCounts']>;

/** One operation of the fault matrix: which route the faults hit and what it sends normally. */
export interface Operation {
	name: string;
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
	/** What one successful run creates, from the simulator's counters: more than 1 is a duplicate. */
	created?: (counts: Counts) => number;
	prepare: () => Promise<{
		parameters: INodeParameters;
		items?: Array<IDataObject | INodeExecutionData>;
	}>;
}

const invoiceItem = (number: string) =>
	fileItem(binaryFile(`${number}.pdf`, invoiceText({ number })));

const DELETE_IDS = Array.from({ length: 15 }, (_, i) => `rec-${i}`);

/** Every operation of the node, prepared against the fixture's simulator. */
export function matrixOperations(f: SimulatorFixture): Operation[] {
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
	return [
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
			name: 'Transaction Create',
			route: 'CreateTransaction',
			creates: true,
			requests: 1,
			created: (c) => c.transactions,
			prepare: async () => ({
				parameters: nodeParams('transaction', 'create', { skillId: rl(FIXTURE.documentSkillId) }),
			}),
		},
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
		{
			name: 'Skill Get Many',
			route: 'GetAvailableSkills',
			creates: false,
			requests: 1,
			prepare: async () => ({ parameters: nodeParams('skill', 'getMany', { returnAll: true }) }),
		},
		{
			name: 'Skill Get',
			route: 'GetSkillInfo',
			creates: false,
			requests: 1,
			prepare: async () => ({
				parameters: nodeParams('skill', 'get', { skillId: rl(FIXTURE.documentSkillId) }),
			}),
		},
	];
}
