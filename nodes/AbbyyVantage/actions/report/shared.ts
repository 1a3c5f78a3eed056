import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requirePathParameter } from '../../helpers/validation';
import { endpoints, type VantageClient } from '../../transport';

export const TERMINAL_EXPORT_STATUSES = ['Succeeded', 'Failed', 'Cancelled'];

export const REPORT_ACCESS_HINTS = {
	403: 'Only Tenant Administrators and Processing Supervisors may use reports.',
	404: 'Export requests are visible only to the user who created them, and result files are kept for two weeks.',
};

export const requestIdProperty: INodeProperties = {
	displayName: 'Request ID',
	name: 'requestId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3f2c8a8e-5d1b-4f3e-9a57-2b9c0e6d4f10',
	description: 'ID of the export request, as returned by Create Export',
};

/** One export's status as the node outputs it: `totalFileCount` as a number, id included. */
export interface ExportStatus extends IDataObject {
	requestId: string;
	status: string;
	totalFileCount: number | null;
	correlationId: string | null;
	filters: IDataObject | null;
}

/** The service sends `totalFileCount` as a string ("3"); anything unreadable becomes null. */
export function parseFileCount(value: unknown): number | null {
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	return /^\d+$/.test(text) ? Number(text) : null;
}

export function readRequestId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathParameter(
		ctx,
		itemIndex,
		'Request ID',
		ctx.getNodeParameter('requestId', itemIndex),
	);
}

export async function getExportStatus(
	client: VantageClient,
	requestId: string,
	itemIndex: number,
): Promise<ExportStatus> {
	const body = await client.request<IDataObject | undefined>({
		...endpoints.getExportStatus(requestId),
		itemIndex,
		action: `reading the status of export ${requestId}`,
		hints: REPORT_ACCESS_HINTS,
	});
	return {
		requestId,
		status: typeof body?.status === 'string' ? body.status : 'Unknown',
		totalFileCount: parseFileCount(body?.totalFileCount),
		correlationId: typeof body?.correlationId === 'string' ? body.correlationId : null,
		filters:
			body?.filters && typeof body.filters === 'object' ? (body.filters as IDataObject) : null,
	};
}
