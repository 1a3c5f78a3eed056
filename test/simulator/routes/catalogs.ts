/**
 * Catalogs area: catalogs, their records and reindex operations (Processing v1, OpenAPI in
 * test/fixtures/openapi/vantage-processing-v1.json). Each reindex follows a script, so tests can
 * make it complete, fail or never finish.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';

import {
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

export interface ReindexScript {
	outcome: 'Completed' | 'Failed' | 'Never';
	/** Finish after this many status polls (default 1), or after `ms` milliseconds. */
	after?: { polls: number } | { ms: number };
}

interface CatalogRecord {
	id: string;
	name: string;
	columns: Array<z.infer<typeof S.ColumnDto>>;
	records: Map<string, Record<string, string[]>>;
}

interface ReindexRecord {
	catalogId: string;
	result: z.infer<typeof S.ReindexOperationResult>;
	script: ReindexScript;
	polls: number;
	startedAt: number;
}

const CATALOG = '/api/publicapi/v1/catalogs/:catalogId';

export class CatalogsArea {
	readonly routes: Route[];
	private readonly catalogs = new Map<string, CatalogRecord>();
	private readonly reindexOps = new Map<string, ReindexRecord>();
	private reindexScripts: ReindexScript[] = [];
	private defaultReindexScript: ReindexScript = { outcome: 'Completed', after: { polls: 1 } };

	constructor() {
		this.routes = [
			route('GetCatalogs', 'GET', '/api/publicapi/v1/catalogs', () =>
				respond(
					200,
					S.CatalogListItemDto.array(),
					[...this.catalogs.values()].map((c) => ({ id: c.id, name: c.name })),
				),
			),
			route('GetCatalog', 'GET', CATALOG, (c) => {
				const catalog = this.find(c);
				return respond(200, S.CatalogDto, {
					id: catalog.id,
					name: catalog.name,
					columns: catalog.columns,
					rowCount: catalog.records.size,
				});
			}),
			route('AddRecords', 'POST', `${CATALOG}/records`, (c) => this.addRecords(c)),
			route('GetRecords', 'GET', `${CATALOG}/records`, (c) => this.getRecords(c)),
			route('DeleteRecords', 'POST', `${CATALOG}/records/delete`, (c) => this.deleteRecords(c)),
			route('StartCatalogReindex', 'POST', `${CATALOG}/reindex`, (c) => this.startReindex(c)),
			route('GetReindexOperation', 'GET', `${CATALOG}/reindex/:operationId`, (c) =>
				this.getReindex(c),
			),
		];
	}

	// ------------------------------------------------------------ controls

	add(
		name: string,
		columns: Array<z.infer<typeof S.ColumnDto>> = [
			{ name: 'Name', type: 'Text', notEmpty: true },
			{ name: 'Country', type: 'Text', notEmpty: false },
		],
	): void {
		this.catalogs.set(name, { id: name, name, columns, records: new Map() });
	}

	seed(catalogId: string, ids: Iterable<string>): void {
		const catalog = this.catalogs.get(catalogId);
		if (!catalog) throw new Error(`no catalog ${catalogId}`);
		for (const id of ids) catalog.records.set(id, { Name: [id] });
	}

	recordIds(catalogId: string): string[] {
		return [...(this.catalogs.get(catalogId)?.records.keys() ?? [])];
	}

	scriptNextReindex(script: ReindexScript): void {
		this.reindexScripts.push(script);
	}

	setDefaultReindexScript(script: ReindexScript): void {
		this.defaultReindexScript = script;
	}

	get reindexCount(): number {
		return this.reindexOps.size;
	}

	/** For `GET /__simulator/state`. */
	snapshot(): Array<{ id: string; recordCount: number }> {
		return [...this.catalogs.values()].map((c) => ({ id: c.id, recordCount: c.records.size }));
	}

	// ------------------------------------------------------------ routes

	private find(ctx: RequestContext): CatalogRecord {
		const catalog = this.catalogs.get(ctx.params.catalogId);
		if (!catalog) throw notFound('Catalog not found');
		return catalog;
	}

	private addRecords(ctx: RequestContext): Reply {
		const catalog = this.find(ctx);
		const records = readJson(ctx, S.AddRecordsRequest);
		const errorRows: Record<string, string[]> = {};
		let inserted = 0;
		for (const record of records) {
			const errors: string[] = [];
			for (const column of Object.keys(record.fields)) {
				if (!catalog.columns.some((c) => c.name === column))
					errors.push(`UnknownColumn Column: ${column}`);
			}
			for (const column of catalog.columns) {
				if (column.notEmpty && !(record.fields[column.name] ?? []).some((v) => v !== '')) {
					errors.push(`CannotBeEmpty Column: ${column.name}`);
				}
			}
			if (errors.length) errorRows[record.id] = errors;
			else {
				catalog.records.set(record.id, record.fields);
				inserted++;
			}
		}
		return respond(200, S.AddRecordsResultResult, { insertedRowCount: inserted, errorRows });
	}

	private getRecords(ctx: RequestContext): Reply {
		const catalog = this.find(ctx);
		const offset = Number(ctx.query.get('offset') ?? 0);
		const limit = Number(ctx.query.get('limit') ?? 1000);
		if (
			!Number.isInteger(offset) ||
			offset < 0 ||
			!Number.isInteger(limit) ||
			limit < 1 ||
			limit > 1000
		) {
			throw problem(400, 'One or more validation errors occurred.', undefined, {
				errors: { limit: ['offset must be ≥ 0 and limit between 1 and 1000.'] },
			});
		}
		const page = [...catalog.records.entries()]
			.slice(offset, offset + limit)
			.map(([id, fields]) => ({ id, fields }));
		return respond(200, S.RecordDto.array(), page);
	}

	private deleteRecords(ctx: RequestContext): Reply {
		const catalog = this.find(ctx);
		const ids = readJson(ctx, S.DeleteRecordsRequest);
		// Ids that do not exist are ignored; the vendor sends no per-record report.
		for (const id of ids) catalog.records.delete(id);
		return { status: 200, empty: true };
	}

	private startReindex(ctx: RequestContext): Reply {
		const catalog = this.find(ctx);
		const id = randomUUID();
		const result = {
			id,
			indexModelId: randomUUID(),
			workflowProcessingId: randomUUID(),
			created: new Date().toISOString(),
			completed: null,
			currentState: 'InProgress' as const,
		};
		this.reindexOps.set(id, {
			catalogId: catalog.id,
			result,
			script: this.reindexScripts.shift() ?? this.defaultReindexScript,
			polls: 0,
			startedAt: Date.now(),
		});
		return respond(200, S.ReindexOperationResult, result);
	}

	private getReindex(ctx: RequestContext): Reply {
		const catalog = this.find(ctx);
		const op = this.reindexOps.get(ctx.params.operationId.toLowerCase());
		if (!op || op.catalogId !== catalog.id) throw notFound('Reindex operation not found');
		const { outcome, after = { polls: 1 } } = op.script;
		const done = 'polls' in after ? op.polls >= after.polls : Date.now() - op.startedAt >= after.ms;
		op.polls++;
		if (done && outcome !== 'Never' && op.result.currentState === 'InProgress') {
			op.result = { ...op.result, currentState: outcome, completed: new Date().toISOString() };
		}
		return respond(200, S.ReindexOperationResult, op.result);
	}
}
