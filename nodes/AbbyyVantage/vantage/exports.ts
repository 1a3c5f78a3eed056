import type { IDataObject } from 'n8n-workflow';

import { endpoints, type VantageClient } from '../transport';

/** ReportRequestStatus (Reporting API v2), in the order an export request goes through them. */
export const EXPORT_STATUSES = ['New', 'Queued', 'Processing', 'Succeeded', 'Failed', 'Cancelled'];

/** ExportStatus values after which an export request changes no more. */
export const TERMINAL_EXPORT_STATUSES = ['Succeeded', 'Failed', 'Cancelled'];

/** Advice for the Reporting API's requests, by status. */
export const REPORT_ACCESS_HINTS = {
	403: 'Only Tenant Administrators and Processing Supervisors may use reports.',
	404: 'Export requests are visible only to the user who created them, and result files are kept for two weeks.',
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

/** GetExportStatus: one export request's status, as the node outputs it. */
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

/** Which export requests ListExportRequests returns; each left out: any. */
export interface ExportListFilters {
	/** ReportRequestStatus values. */
	statuses?: readonly string[];
	/** The first day of creation (YYYY-MM-DD, UTC) to include. */
	createdFrom?: string;
	/** The last day of creation (YYYY-MM-DD, UTC) to include. */
	createdTo?: string;
}

/**
 * ListExportRequests: the export requests of the credential's user (Vantage lists nobody else's),
 * whole (the list is not paged), each as Vantage gives it with `totalFileCount` as a number.
 */
export async function listExportRequests(
	client: VantageClient,
	filters: ExportListFilters,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const qs: IDataObject = {};
	if (filters.statuses?.length) qs.statusFilter = [...filters.statuses];
	if (filters.createdFrom) qs.createdFrom = filters.createdFrom;
	if (filters.createdTo) qs.createdTo = filters.createdTo;
	const body = await client.request<IDataObject | undefined>({
		...endpoints.listExportRequests(),
		qs,
		itemIndex,
		action: 'listing export requests',
		hints: REPORT_ACCESS_HINTS,
	});
	const requests: unknown[] = Array.isArray(body?.requests) ? body.requests : [];
	return requests
		.filter((r): r is IDataObject => !!r && typeof r === 'object' && !Array.isArray(r))
		.map((r) => ({ ...r, totalFileCount: parseFileCount(r.totalFileCount) }));
}
