import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SimulatorFixture } from '../helpers/fixture';
import { api, token } from '../helpers/http';
import { deleteRecordsParams, nodeParams, rl } from '../helpers/params';
import { FIXTURE, type RouteId } from '../simulator/simulator';
import { CATALOG } from './shared';

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
	prepare: () => Promise<{ parameters: INodeParameters; items?: IDataObject[] }>;
}

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
			prepare: async () => ({
				parameters: nodeParams('report', 'waitForExport', {
					requestId: await exportOwnedByUser(),
					options: { pollInterval: 1 },
				}),
			}),
		},
		{
			name: 'Download Export Files',
			route: 'GetExportResult',
			creates: false,
			requests: 1,
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
			prepare: async () => ({
				parameters: nodeParams('transactionDocument', 'add', {
					transactionId: f.sim.createTransaction(FIXTURE.processSkillId),
				}),
			}),
		},
		{
			name: 'Delete Records (3 batches)',
			route: 'DeleteRecords',
			creates: false,
			requests: 3,
			stopsOnFatal: true,
			prepare: async () => {
				f.sim.seedRecords(CATALOG, DELETE_IDS);
				return {
					items: [{ ids: DELETE_IDS.slice(0, 8) }, { ids: DELETE_IDS.slice(5) }],
					parameters: deleteRecordsParams(CATALOG, {
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
			prepare: async () => ({
				parameters: nodeParams('catalog', 'reindex', {
					catalogId: rl(CATALOG),
					waitForCompletion: false,
				}),
			}),
		},
	];
}
