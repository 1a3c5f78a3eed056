/**
 * CatalogRecords area (Processing v1, tag CatalogRecords; OpenAPI in
 * test/fixtures/openapi/vantage-processing-v1.json): add, page, get and delete the records of a
 * catalog. AddRecords answers 200 even when rows are rejected, with a reason per rejected id (see
 * ../catalogs/rows.ts); pages cost O(page · log n) whatever the catalog's size
 * (../catalogs/table.ts).
 */
import type { CatalogStore } from '../catalogs/store';
import {
	invalidValue,
	notFound,
	readJson,
	respond,
	route,
	type Reply,
	type RequestContext,
	type Route,
} from '../http';
import * as S from '../schemas';
import type { ResolvedOptions } from '../server';
import { CATALOG, findCatalog } from './catalogs';

export class RecordsArea {
	readonly routes: Route[];

	constructor(
		private readonly store: CatalogStore,
		/** Read on each request: `recordUpsert` and `maxRecordsPerCatalog` can change at run time. */
		private readonly options: Pick<ResolvedOptions, 'recordUpsert' | 'maxRecordsPerCatalog'>,
	) {
		this.routes = [
			route('AddRecords', 'POST', `${CATALOG}/records`, (c) => this.addRecords(c)),
			route('GetRecords', 'GET', `${CATALOG}/records`, (c) => this.getRecords(c)),
			route('DeleteRecords', 'POST', `${CATALOG}/records/delete`, (c) => this.deleteRecords(c)),
			route('GetRecord', 'GET', `${CATALOG}/records/:recordId`, (c) => this.getRecord(c)),
		];
	}

	private addRecords(ctx: RequestContext): Reply {
		const catalog = findCatalog(this.store, ctx);
		const records = readJson(ctx, S.AddRecordsRequest);
		const result = this.store.addRecords(
			catalog,
			records,
			this.options.recordUpsert,
			this.options.maxRecordsPerCatalog,
		);
		return respond(200, S.AddRecordsResultResult, result);
	}

	/** `offset` (default 0, ≥ 0) and `limit` (default 1000, 1..1000), in insertion order. */
	private getRecords(ctx: RequestContext): Reply {
		const catalog = findCatalog(this.store, ctx);
		const offset = intQuery(ctx.query, 'offset') ?? 0;
		const limit = intQuery(ctx.query, 'limit') ?? 1000;
		if (offset < 0) throw invalidValue('offset', 'The field offset must be 0 or more.');
		if (limit < 1 || limit > 1000) {
			throw invalidValue('limit', 'The field limit must be between 1 and 1000.');
		}
		return respond(200, S.RecordDto.array(), catalog.records.page(offset, limit));
	}

	private getRecord(ctx: RequestContext): Reply {
		const record = findCatalog(this.store, ctx).records.get(ctx.params.recordId);
		if (!record) throw notFound('Record not found');
		return respond(200, S.RecordDto, record);
	}

	private deleteRecords(ctx: RequestContext): Reply {
		const catalog = findCatalog(this.store, ctx);
		const ids = readJson(ctx, S.DeleteRecordsRequest);
		// Ids that do not exist are ignored; the vendor sends no per-record report.
		for (const id of ids) catalog.records.delete(id);
		return { status: 200, empty: true };
	}
}

/** An int32 query value, its name matched case-insensitively as ASP.NET binds it; null if absent. */
function intQuery(query: URLSearchParams, name: string): number | null {
	let value: string | undefined;
	for (const [key, v] of query) {
		if (key.toLowerCase() === name) {
			value = v;
			break;
		}
	}
	if (value === undefined || value === '') return null;
	if (!/^\s*[-+]?\d+\s*$/.test(value) || Math.abs(Number(value)) > 2147483647) {
		throw invalidValue(name, `The value '${value}' is not valid for ${name}.`);
	}
	return Number(value);
}
