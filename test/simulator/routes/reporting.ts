/**
 * Reporting area: transaction-steps CSV exports (Reporting v2, OpenAPI in
 * test/fixtures/openapi/vantage-reporting-v2.json). Each export follows a script of statuses, so
 * tests can drive a client's polling through every lifecycle.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';

import { FIXTURE, sampleCsv, type SimUser } from '../fixture';
import {
	invalidValue,
	notFound,
	problem,
	readJson,
	respond,
	route,
	type Reply,
	type RequestContext,
	type Route,
} from '../http';
import * as S from '../schemas';
import type { SimulatorCore } from '../server';

export interface ExportScript {
	/** Statuses the export goes through; the last one is kept. Default New → Queued → Processing → Succeeded. */
	path?: S.ReportRequestStatus[];
	/** Advance one step every N status polls (default 1), or every `ms` milliseconds. */
	advanceEvery?: { polls: number } | { ms: number };
	/** Result files (CSV text). Default: one generated file. */
	files?: string[];
}

interface ExportRecord {
	requestId: string;
	owner: string;
	createdUtc: string;
	completedUtc: string | null;
	correlationId: string;
	filters: z.infer<typeof S.AsyncStepReportFilters> | null;
	sendEmailNotification: boolean;
	script: Required<Pick<ExportScript, 'path' | 'advanceEvery' | 'files'>>;
	polls: number;
	createdAt: number;
	forced?: S.ReportRequestStatus;
}

/** docs.abbyy.com, business reporting: only these roles may use the Reporting API. */
const REPORTING_ROLES = ['TenantAdministrator', 'ProcessingSupervisor'];

/** The caller, if allowed to use reports; 403 otherwise. */
export function requireReportingRole(ctx: RequestContext): SimUser {
	const user = ctx.user;
	if (!user || !user.roles.some((role) => REPORTING_ROLES.includes(role))) {
		throw problem(
			403,
			'Forbidden',
			'Only Tenant Administrators and Processing Supervisors can access reports.',
		);
	}
	return user;
}
const EXPORTS = '/api/reporting/v2/exports/transaction-steps';

/**
 * A ListExportRequests day (`2025-11-05`; a date-time counts by its UTC day), or undefined when
 * absent or empty. Inferred: the vendor documents the parameters as dates, not their binding.
 */
function readDay(key: string, value: string | undefined): string | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const text = value.trim();
	const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
	if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !Number.isFinite(ms)) {
		throw invalidValue(key, `The value '${value}' is not valid for ${key}.`);
	}
	return new Date(ms).toISOString().slice(0, 10);
}

export class ReportingArea {
	readonly routes: Route[];
	private readonly exports = new Map<string, ExportRecord>();
	private scripts: ExportScript[] = [];
	private defaultScript: ExportScript = {};

	constructor(private readonly core: SimulatorCore) {
		// Reporting errors carry a string `status`, as the Reporting spec types ProblemDetails.
		const reporting = { reporting: true };
		this.routes = [
			route(
				'CreateTransactionStepsExportRequest',
				'POST',
				EXPORTS,
				(c) => this.create(c),
				reporting,
			),
			route('ListExportRequests', 'GET', EXPORTS, (c) => this.list(c), reporting),
			route(
				'GetExportStatus',
				'GET',
				`${EXPORTS}/:requestId/status`,
				(c) => this.status(c),
				reporting,
			),
			route(
				'GetExportResult',
				'GET',
				`${EXPORTS}/:requestId/result/:fileIndex`,
				(c) => this.result(c),
				reporting,
			),
		];
	}

	// ------------------------------------------------------------ controls

	get count(): number {
		return this.exports.size;
	}

	ids(): string[] {
		return [...this.exports.keys()];
	}

	scriptNext(script: ExportScript): void {
		this.scripts.push(script);
	}

	setDefaultScript(script: ExportScript): void {
		this.defaultScript = script;
	}

	setStatus(requestId: string, status: S.ReportRequestStatus): void {
		const record = this.exports.get(requestId);
		if (!record) throw new Error(`no export ${requestId}`);
		record.forced = status;
	}

	createFinished(owner: string = FIXTURE.username): string {
		const requestId = randomUUID();
		this.exports.set(requestId, {
			requestId,
			owner,
			createdUtc: new Date().toISOString(),
			completedUtc: new Date().toISOString(),
			correlationId: randomUUID(),
			filters: { startDate: '2025-11-01T00:00:00Z' },
			sendEmailNotification: false,
			script: {
				path: ['Succeeded'],
				advanceEvery: { polls: 1 },
				files: [sampleCsv(1, requestId.slice(0, 8))],
			},
			polls: 0,
			createdAt: Date.now(),
		});
		return requestId;
	}

	/** For `GET /__simulator/state`. */
	snapshot(): Array<{ requestId: string; status: S.ReportRequestStatus }> {
		return [...this.exports.values()].map((e) => ({
			requestId: e.requestId,
			status: this.state(e),
		}));
	}

	// ------------------------------------------------------------ routes

	private create(ctx: RequestContext): Reply {
		const user = requireReportingRole(ctx);
		const body = readJson(ctx, S.CreateTransactionStepsCsvRequest);
		const script = this.scripts.shift() ?? this.defaultScript;
		const requestId = randomUUID();
		this.exports.set(requestId, {
			requestId,
			owner: user.username,
			createdUtc: new Date().toISOString(),
			completedUtc: null,
			correlationId: randomUUID(),
			filters: body.filters ?? null,
			sendEmailNotification: body.sendEmailNotification ?? false,
			script: {
				path: script.path ?? ['New', 'Queued', 'Processing', 'Succeeded'],
				advanceEvery: script.advanceEvery ?? { polls: 1 },
				files: script.files ?? [sampleCsv(3, requestId.slice(0, 8))],
			},
			polls: 0,
			createdAt: Date.now(),
		});
		return respond(200, S.CreateReportRequestResponse, { requestId });
	}

	private state(record: ExportRecord): S.ReportRequestStatus {
		if (record.forced) return record.forced;
		const { path, advanceEvery } = record.script;
		const step =
			'polls' in advanceEvery
				? Math.floor(record.polls / Math.max(1, advanceEvery.polls))
				: Math.floor((Date.now() - record.createdAt) / Math.max(1, advanceEvery.ms));
		return path[Math.min(step, path.length - 1)];
	}

	private view(record: ExportRecord) {
		const status = this.state(record);
		const terminal = status === 'Succeeded' || status === 'Failed' || status === 'Cancelled';
		if (terminal && !record.completedUtc) record.completedUtc = new Date().toISOString();
		return {
			status,
			totalFileCount: status === 'Succeeded' ? String(record.script.files.length) : null,
			correlationId: record.correlationId,
			filters: record.filters,
		};
	}

	/** Exports are private to their creator: another user's id is 404. */
	private find(ctx: RequestContext): ExportRecord {
		const user = requireReportingRole(ctx);
		const record = this.exports.get(ctx.params.requestId.toLowerCase());
		if (!record || record.owner !== user.username) throw notFound('Report request not found');
		return record;
	}

	private status(ctx: RequestContext): Reply {
		const record = this.find(ctx);
		const view = this.view(record);
		record.polls++;
		return respond(200, S.ReportRequestStatusResponse, view);
	}

	/**
	 * ListExportRequests: the caller's requests, filtered by status (each `statusFilter` value must
	 * be a ReportRequestStatus, as ASP.NET binds an enum list) and by day of creation (UTC), both
	 * days included.
	 */
	private list(ctx: RequestContext): Reply {
		const user = requireReportingRole(ctx);
		const query = S.ListExportRequestsQuery.parse({
			statusFilter: ctx.query.has('statusFilter') ? ctx.query.getAll('statusFilter') : undefined,
			createdFrom: ctx.query.get('createdFrom') ?? undefined,
			createdTo: ctx.query.get('createdTo') ?? undefined,
		});
		const statuses = (query.statusFilter ?? []).map((value) => {
			const status = S.ReportRequestStatus.options.find(
				(s) => s.toLowerCase() === value.trim().toLowerCase(),
			);
			if (!status) throw invalidValue('statusFilter', `The value '${value}' is not valid.`);
			return status;
		});
		const from = readDay('createdFrom', query.createdFrom);
		const to = readDay('createdTo', query.createdTo);
		const requests = [...this.exports.values()]
			.filter((e) => e.owner === user.username)
			.filter((e) => {
				const day = e.createdUtc.slice(0, 10);
				return (from === undefined || day >= from) && (to === undefined || day <= to);
			})
			.map((e) => ({
				...this.view(e),
				requestId: e.requestId,
				createdUtc: e.createdUtc,
				completedUtc: e.completedUtc,
			}))
			.filter((e) => statuses.length === 0 || statuses.includes(e.status))
			.map((e) => {
				// The list item has no correlationId (ListReportRequestsResponseReportRequestDto).
				delete (e as { correlationId?: string }).correlationId;
				return e;
			});
		return respond(200, S.ListReportRequestsResponse, { requests });
	}

	private result(ctx: RequestContext): Reply {
		const record = this.find(ctx);
		if (!/^-?\d+$/.test(ctx.params.fileIndex)) {
			throw problem(400, 'One or more validation errors occurred.', undefined, {
				errors: { fileIndex: [`The value '${ctx.params.fileIndex}' is not valid.`] },
			});
		}
		const status = this.state(record);
		if (status !== 'Succeeded') {
			// Inferred: not documented by the vendor (no error is declared for this case).
			throw problem(
				400,
				'Bad Request',
				`The export request has not succeeded (status: ${status}).`,
			);
		}
		const file = record.script.files[Number(ctx.params.fileIndex)];
		if (file === undefined) throw notFound('Result file not found');
		return {
			status: 200,
			bytes: Buffer.from(file, 'utf8'),
			contentType: this.core.options.resultContentType,
		};
	}
}
