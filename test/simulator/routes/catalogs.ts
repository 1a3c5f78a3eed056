/**
 * Catalogs area (Processing v1, tag Catalogs; OpenAPI in
 * test/fixtures/openapi/vantage-processing-v1.json): list, get and clear catalogs, and reindex
 * operations. Each reindex follows a script, so tests can make it complete, fail or never finish.
 * Records (tag CatalogRecords) are in ./records.ts; both share ../catalogs/store.ts.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';

import type { Catalog, CatalogStore } from '../catalogs/store';
import { notFound, respond, route, type Reply, type RequestContext, type Route } from '../http';
import * as S from '../schemas';

export interface ReindexScript {
	outcome: 'Completed' | 'Failed' | 'Never';
	/** Finish after this many status polls (default 1), or after `ms` milliseconds. */
	after?: { polls: number } | { ms: number };
}

interface ReindexRecord {
	catalogId: string;
	result: z.infer<typeof S.ReindexOperationResult>;
	script: ReindexScript;
	polls: number;
	startedAt: number;
}

export const CATALOG = '/api/publicapi/v1/catalogs/:catalogId';

/** The catalog named by the path (its id, decoded from one segment, matched exactly), else 404. */
export function findCatalog(store: CatalogStore, ctx: RequestContext): Catalog {
	const catalog = store.get(ctx.params.catalogId);
	if (!catalog) throw notFound('Catalog not found');
	return catalog;
}

export class CatalogsArea {
	readonly routes: Route[];
	private readonly reindexOps = new Map<string, ReindexRecord>();
	private reindexScripts: ReindexScript[] = [];
	private defaultReindexScript: ReindexScript = { outcome: 'Completed', after: { polls: 1 } };

	constructor(private readonly store: CatalogStore) {
		this.routes = [
			route('GetCatalogs', 'GET', '/api/publicapi/v1/catalogs', () =>
				respond(
					200,
					S.CatalogListItemDto.array(),
					store.all().map((c) => ({ id: c.id, name: c.name })),
				),
			),
			route('GetCatalog', 'GET', CATALOG, (c) => {
				const catalog = findCatalog(store, c);
				return respond(200, S.CatalogDto, {
					id: catalog.id,
					name: catalog.name,
					columns: catalog.columns.list,
					rowCount: catalog.records.size,
				});
			}),
			route('ClearCatalog', 'POST', `${CATALOG}/clear`, (c) => this.clear(c)),
			route('StartCatalogReindex', 'POST', `${CATALOG}/reindex`, (c) => this.startReindex(c)),
			route('GetReindexOperation', 'GET', `${CATALOG}/reindex/:operationId`, (c) =>
				this.getReindex(c),
			),
		];
	}

	// ------------------------------------------------------------ controls

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
		return this.store.all().map((c) => ({ id: c.id, recordCount: c.records.size }));
	}

	// ------------------------------------------------------------ routes

	/** Every record goes; the catalog and its columns stay. 200 with an empty body. */
	private clear(ctx: RequestContext): Reply {
		findCatalog(this.store, ctx).records.clear();
		return { status: 200, empty: true };
	}

	private startReindex(ctx: RequestContext): Reply {
		const catalog = findCatalog(this.store, ctx);
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
		const catalog = findCatalog(this.store, ctx);
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
