import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import { parseFileCount, REPORT_ACCESS_HINTS } from '../../AbbyyVantage/actions/report/shared';
import { endpoints, type VantageClient } from '../../AbbyyVantage/transport';
import { deliver, timeOf } from '../cursor';
import { eventOptionsProperty, windowOf, type EventDefinition, type ListedEvent } from './common';

const show = { show: { event: ['exportFinished'] } };

const FINISHED = ['Succeeded', 'Failed', 'Cancelled'];

const properties: INodeProperties[] = [
	{
		displayName:
			'Vantage lists only the export requests of the credential’s user, who needs the Tenant Administrator or Processing Supervisor role',
		name: 'exportNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	eventOptionsProperty('exportFinished'),
];

/** Export Finished: ListExportRequests with the final statuses, one event per export request. */
export const exportFinished: EventDefinition = {
	value: 'exportFinished',
	properties,
	async poll(ctx: IPollFunctions, client: VantageClient) {
		const window = windowOf(ctx, this.value);
		const response = await client.request<IDataObject | undefined>({
			...endpoints.listExportRequests(),
			// createdFrom is a date (ListExportRequests): the day of the window's start.
			qs: {
				statusFilter: FINISHED,
				createdFrom: new Date(window.start).toISOString().slice(0, 10),
			},
			action: 'listing finished export requests',
			hints: REPORT_ACCESS_HINTS,
		});
		const requests = Array.isArray(response?.requests) ? (response.requests as IDataObject[]) : [];
		const listed: ListedEvent[] = requests
			.filter((r) => typeof r.requestId === 'string' && FINISHED.includes(String(r.status)))
			.map((r) => ({
				id: r.requestId as string,
				time: timeOf(r.createdUtc),
				item: { ...r, totalFileCount: parseFileCount(r.totalFileCount) },
			}))
			.filter((e) => !(e.time < window.start));
		const build = async (e: ListedEvent): Promise<INodeExecutionData[]> => [{ json: e.item }];
		return await deliver(ctx, this.value, listed, window, build);
	},
};
