import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { listExportRequests, TERMINAL_EXPORT_STATUSES } from '../../AbbyyVantage/vantage/exports';
import { deliver } from '../delivery';
import {
	openPoll,
	outputProperty,
	readOutput,
	timeOf,
	windowOptionsProperty,
	type EventDefinition,
	type ListedEvent,
} from './common';

const properties: INodeProperties[] = [
	{
		displayName:
			'Vantage lists only the export requests of the credential’s user, who needs the Tenant Administrator or Processing Supervisor role',
		name: 'exportNotice',
		type: 'notice',
		default: '',
	},
	outputProperty('export', 'exports'),
	windowOptionsProperty,
];

/** Export Finished: ListExportRequests with the final statuses, one event per export request. */
export const exportFinished = {
	name: 'Export Finished',
	description: 'An export request of transaction steps succeeded, failed or was cancelled',
	properties,
	async poll(ctx, client, start) {
		const poll = openPoll(ctx, start, {});
		// createdFrom is a day (ListExportRequests): the day of the window's start.
		const requests = await listExportRequests(client, {
			statuses: TERMINAL_EXPORT_STATUSES,
			createdFrom: new Date(poll.window.start).toISOString().slice(0, 10),
		});
		const listed: ListedEvent[] = requests
			.filter(
				(r) =>
					typeof r.requestId === 'string' && TERMINAL_EXPORT_STATUSES.includes(String(r.status)),
			)
			.map((r) => ({
				id: r.requestId as string,
				time: timeOf(r.createdUtc),
				completedAt: timeOf(r.completedUtc),
				item: r,
			}))
			// Listed by day, an export whose creation time cannot be read could come back after Look
			// Back has passed and be emitted again: it is left out.
			.filter((e) => Number.isFinite(e.time));
		const build = async (e: ListedEvent): Promise<INodeExecutionData[]> => [{ json: e.item }];
		return await deliver(ctx, poll, listed, build, readOutput(ctx));
	},
} satisfies EventDefinition;
