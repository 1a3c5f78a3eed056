/**
 * ABBYY Vantage simulator: a loopback HTTP server that behaves like the vendor's service (auth,
 * Reporting v2 exports, transactions, catalogs, reindex) as its OpenAPI documents describe it
 * (test/fixtures/openapi/) and docs.abbyy.com explains, with programmable faults and a request log.
 * Used by the unit tests, the real-n8n suite, the demo and the benchmarks. Control it in-process
 * through this class, or over HTTP under `/__simulator/` (./control.ts).
 *
 * Layout: ./server.ts is the core (server, log, faults, tokens, route matching); each API area
 * under ./routes/ keeps its own state and returns its routes; this class composes them.
 */
import type { z } from 'zod/v4';

import { controlPlane } from './control';
import type { Fault } from './faults';
import { FIXTURE } from './fixture';
import type { RouteId } from './http';
import type { LoggedRequest } from './log';
import { AuthArea } from './routes/auth';
import { CatalogsArea, type ReindexScript } from './routes/catalogs';
import { ReportingArea, type ExportScript } from './routes/reporting';
import { TransactionsArea, type TransactionRecord } from './routes/transactions';
import type * as S from './schemas';
import { SimulatorCore, type ResolvedOptions, type SimulatorOptions } from './server';

export type { Fault, FaultRule } from './faults';
export { FIXTURE, fixtureCredentialData, sampleCsv, type SimClient, type SimUser } from './fixture';
export type { RouteId } from './http';
export type { LoggedRequest } from './log';
export type { ReindexScript } from './routes/catalogs';
export type { ExportScript } from './routes/reporting';
export type { SimulatorOptions } from './server';

export class VantageSimulator {
	readonly options: ResolvedOptions;
	readonly requests: LoggedRequest[];
	private readonly core: SimulatorCore;
	private readonly reporting: ReportingArea;
	private readonly transactions: TransactionsArea;
	private readonly catalogs: CatalogsArea;

	constructor(options: SimulatorOptions = {}) {
		this.core = new SimulatorCore(
			options,
			controlPlane(this, () => ({
				catalogs: this.catalogs.snapshot(),
				exports: this.reporting.snapshot(),
				transactions: this.transactions.snapshot(),
				tokensIssued: this.core.tokens.count,
			})),
		);
		this.options = this.core.options;
		this.requests = this.core.log.requests;
		this.reporting = new ReportingArea(this.core);
		this.transactions = new TransactionsArea(this.core);
		this.catalogs = new CatalogsArea();
		for (const area of [new AuthArea(this.core), this.reporting, this.transactions, this.catalogs])
			this.core.register(area.routes);
		this.addSkill({ id: FIXTURE.processSkillId, name: 'Invoice Processing', type: 'Process' });
		this.addSkill({ id: FIXTURE.documentSkillId, name: 'Invoice', type: 'Document' });
		this.addCatalog(FIXTURE.catalogId);
	}

	// ------------------------------------------------------------ lifecycle

	get url(): string {
		return this.core.url;
	}

	async start(): Promise<string> {
		return await this.core.start();
	}

	async stop(): Promise<void> {
		await this.core.stop();
	}

	// ------------------------------------------------------------ faults, log, tokens

	/** Inject a fault for the next `times` requests to `route` (default: once). */
	injectFault(route: RouteId | '*', fault: Fault, times = 1): void {
		this.core.faults.inject(route, fault, times);
	}

	clearFaults(): void {
		this.core.faults.clear();
	}

	/**
	 * From now on each API request (not the token endpoint) gets one of `faults` with probability
	 * `rate`, drawn from a generator seeded with `seed`, so a soak run can be repeated exactly.
	 */
	injectRandomFaults(rate: number, faults: Fault[], seed: number): void {
		this.core.faults.injectRandom(rate, faults, seed);
	}

	/** How many things were created: duplicates here mean a create was processed twice. */
	createdCounts(): { exports: number; documents: number; reindexes: number; tokens: number } {
		return {
			exports: this.reporting.count,
			documents: this.transactions.documentCount(),
			reindexes: this.catalogs.reindexCount,
			tokens: this.core.tokens.count,
		};
	}

	/** Requests per route and status, e.g. { "DeleteRecords 200": 200 }. */
	stats(): Record<string, number> {
		return this.core.log.stats();
	}

	clearLog(): void {
		this.core.log.clear();
	}

	/** Requests that reached a route (the token endpoint included), optionally one route only. */
	requestsTo(route?: RouteId): LoggedRequest[] {
		return this.core.log.to(route);
	}

	/** Invalidate every issued token, as when they expire: the next API call gets 401. */
	revokeTokens(): void {
		this.core.tokens.revokeAll();
	}

	/** Every access token issued so far, for "no secret leaked" assertions. */
	issuedTokens(): string[] {
		return this.core.tokens.accessTokens();
	}

	setTokenLifetime(seconds: number): void {
		this.options.tokenLifetimeSeconds = seconds;
	}

	setLatency(ms: number): void {
		this.options.latencyMs = ms;
	}

	// ------------------------------------------------------------ reporting

	/** The next created export follows this script (queued, first in first out). */
	scriptNextExport(script: ExportScript): void {
		this.reporting.scriptNext(script);
	}

	/** Every export created without a queued script follows this one. */
	setDefaultExportScript(script: ExportScript): void {
		this.reporting.setDefaultScript(script);
	}

	/** Force an export into a status now (e.g. to measure how fast a waiting client notices). */
	setExportStatus(requestId: string, status: S.ReportRequestStatus): void {
		this.reporting.setStatus(requestId, status);
	}

	/** A Succeeded export with one small file, owned by the fixture user, created directly. */
	createFinishedExport(owner: string = FIXTURE.username): string {
		return this.reporting.createFinished(owner);
	}

	exportIds(): string[] {
		return this.reporting.ids();
	}

	// ------------------------------------------------------------ transactions

	addSkill(skill: z.infer<typeof S.SkillListItemDto>): void {
		this.transactions.addSkill(skill);
	}

	/** Create a transaction directly (as another client would), returning its id. */
	createTransaction(skillId: string): string {
		return this.transactions.createTransaction(skillId);
	}

	transaction(id: string): TransactionRecord | undefined {
		return this.transactions.get(id);
	}

	// ------------------------------------------------------------ catalogs

	scriptNextReindex(script: ReindexScript): void {
		this.catalogs.scriptNextReindex(script);
	}

	setDefaultReindexScript(script: ReindexScript): void {
		this.catalogs.setDefaultReindexScript(script);
	}

	addCatalog(name: string, columns?: Array<z.infer<typeof S.ColumnDto>>): void {
		this.catalogs.add(name, columns);
	}

	/** Seed records with the given ids (fields `{ Name: [id] }`) into a catalog. */
	seedRecords(catalogId: string, ids: Iterable<string>): void {
		this.catalogs.seed(catalogId, ids);
	}

	recordIds(catalogId: string): string[] {
		return this.catalogs.recordIds(catalogId);
	}
}
