/**
 * ABBYY Vantage simulator: a loopback HTTP server that behaves like the vendor's service (auth,
 * Reporting v2 exports and QA reports, skills, transactions with uploads, documents and results,
 * transaction lists, catalogs, reindex, invites) as its OpenAPI documents describe it
 * (test/fixtures/openapi/) and docs.abbyy.com explains, with programmable faults and a request log.
 * Used by the unit tests, the real-n8n suite, the demo and the benchmarks. Control it in-process
 * through this class, or over HTTP under `/__simulator/` (./control.ts).
 *
 * Layout: ./server.ts is the core (server, log, faults, tokens, route matching); each API area
 * under ./routes/ returns its routes; this class composes them. Processing state (transactions,
 * files, documents, scripts, results) lives in ./processing/, shared by the skills, transactions,
 * documents and list areas; catalogs and their records live in ./catalogs/, shared by the
 * catalogs and records areas; ./multipart.ts is the streaming upload parser, ./skills.ts the skill
 * definitions.
 */
import type { z } from 'zod/v4';

import {
	CatalogStore,
	cloneFields,
	mapIterable,
	productColumns,
	type RecordUpsert,
	type StoredRecord,
} from './catalogs/store';
import { controlPlane } from './control';
import type { Fault } from './faults';
import type { ActivityRun, CustomActivityConfig } from './customActivity/activities';
import { FIXTURE } from './fixture';
import type { RouteId } from './http';
import type { LoggedRequest } from './log';
import { Processing, type Outcome, type SeedOptions } from './processing/lifecycle';
import type { EventLogEntry, TransactionScript } from './processing/state';
import { transactionRecord, type TransactionRecord } from './processing/view';
import { OAuthGrants } from './oauth';
import { AuthArea } from './routes/auth';
import { AuthorizeArea, redirectUrisOf } from './routes/authorize';
import { CatalogsArea, type ReindexScript } from './routes/catalogs';
import { DocumentsArea } from './routes/documents';
import { InvitesArea, type Invite } from './routes/invites';
import { QualityReportsArea } from './routes/qualityReports';
import { RecordsArea } from './routes/records';
import { ReportingArea, type ExportScript } from './routes/reporting';
import { SkillsArea } from './routes/skills';
import { TransactionListsArea } from './routes/transactionLists';
import { TransactionsArea } from './routes/transactions';
import type * as S from './schemas';
import {
	SimulatorCore,
	type QaColumnSet,
	type RateLimit,
	type ResolvedOptions,
	type SimulatorOptions,
} from './server';
import { defaultSkills, type SkillDefinition } from './skills';

export type { Fault, FaultRule } from './faults';
export {
	FIXTURE,
	fixtureCredentialData,
	fixtureOAuth2CredentialData,
	sampleCsv,
	type SimClient,
	type SimUser,
} from './fixture';
export { s256 } from './oauth';
export { SIGN_IN_PATH } from './routes/authorize';
export type { RouteId } from './http';
export type { LoggedRequest } from './log';
export type { RecordUpsert, StoredRecord } from './catalogs/store';
export type { Outcome, SeedOptions } from './processing/lifecycle';
export type {
	EventLogEntry,
	KeyValue,
	Pace,
	Placement,
	TransactionScript,
} from './processing/state';
export type { ActivityRun, CustomActivityConfig } from './customActivity/activities';
export type { SentRequest } from './customActivity/runner';
export type { TransactionRecord } from './processing/view';
export type { ReindexScript } from './routes/catalogs';
export type { ExportScript } from './routes/reporting';
export type { Invite } from './routes/invites';
export type { QaColumnSet, RateLimit, SimulatorOptions } from './server';
export { splittingSkill, type FieldDefinition, type SkillDefinition } from './skills';

export class VantageSimulator {
	readonly options: ResolvedOptions;
	readonly requests: LoggedRequest[];
	private readonly core: SimulatorCore;
	private readonly reporting: ReportingArea;
	private readonly skills: SkillsArea;
	private readonly processing: Processing;
	private readonly catalogStore = new CatalogStore();
	private readonly catalogs: CatalogsArea;
	private readonly invitesArea = new InvitesArea();
	private readonly grants = new OAuthGrants();

	constructor(options: SimulatorOptions = {}) {
		this.core = new SimulatorCore(
			options,
			controlPlane(this, () => ({
				catalogs: this.catalogs.snapshot(),
				exports: this.reporting.snapshot(),
				transactions: this.processing.store.all().map((tx) => ({
					id: tx.id,
					skillId: tx.skillId,
					status: tx.status,
					files: tx.files.map((f) => ({ id: f.id, name: f.name, size: f.size })),
					documents: tx.documents.map((d) => ({ id: d.id, sourceFiles: d.fileIds })),
				})),
				tokensIssued: this.core.tokens.count,
				oauth: { ...this.grants.counts },
			})),
		);
		this.options = this.core.options;
		this.requests = this.core.log.requests;
		this.reporting = new ReportingArea(this.core);
		this.skills = new SkillsArea();
		this.processing = new Processing(this.core, this.skills);
		this.catalogs = new CatalogsArea(this.catalogStore);
		// Order matters where paths overlap: /transactions/active before /transactions/{id}.
		for (const area of [
			new AuthArea(this.core, this.grants),
			new AuthorizeArea(this.core, this.grants),
			this.reporting,
			new QualityReportsArea(this.processing, this.options),
			this.skills,
			new TransactionListsArea(this.processing),
			new TransactionsArea(this.core, this.processing),
			new DocumentsArea(this.core, this.processing),
			this.catalogs,
			new RecordsArea(this.catalogStore, this.options),
			this.invitesArea,
		])
			this.core.register(area.routes);
		for (const skill of defaultSkills()) this.skills.define(skill);
		this.addCatalog(FIXTURE.catalogId);
		this.addCatalog(FIXTURE.productCatalogId, productColumns());
	}

	// ------------------------------------------------------------ lifecycle

	get url(): string {
		return this.core.url;
	}

	async start(): Promise<string> {
		return await this.core.start();
	}

	async stop(): Promise<void> {
		await this.processing.stop();
		await this.core.stop();
	}

	// ------------------------------------------------------------ faults, log, tokens

	/** Inject a fault for the next `times` requests to `route` (default: once). */
	/** The next `times` requests to `route` get `fault`, after `skip` more pass untouched. */
	injectFault(route: RouteId | '*', fault: Fault, times = 1, skip = 0): void {
		this.core.faults.inject(route, fault, times, skip);
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

	/**
	 * How many things were created through the API: duplicates here mean a create was processed
	 * twice. `transactions`: CreateTransaction + LaunchTransaction; `documents`:
	 * CreateTransactionDocument; `uploads`: successful upload requests; `filesUploaded`: their files;
	 * `recordsAdded`: rows AddRecords inserted or replaced.
	 */
	createdCounts(): {
		exports: number;
		documents: number;
		reindexes: number;
		tokens: number;
		transactions: number;
		launches: number;
		filesUploaded: number;
		uploads: number;
		recordsAdded: number;
		invites: number;
	} {
		const counts = this.processing.store.counts;
		return {
			exports: this.reporting.count,
			documents: counts.documents,
			reindexes: this.catalogs.reindexCount,
			tokens: this.core.tokens.count,
			transactions: counts.transactions,
			launches: counts.launches,
			filesUploaded: counts.filesUploaded,
			uploads: counts.uploads,
			recordsAdded: this.catalogStore.recordsAdded,
			invites: this.invitesArea.invites.length,
		};
	}

	/** Every route's id (the vendor's operationIds), in matching order. */
	routeIds(): RouteId[] {
		return [...new Set(this.core.routeIds())];
	}

	/** Requests per route and status, e.g. { "DeleteRecords 200": 200 }. */
	stats(): Record<string, number> {
		return this.core.log.stats();
	}

	/** Empty the request log (and start counting the peak of requests in flight anew). */
	clearLog(): void {
		this.core.log.clear();
		this.core.resetInFlightPeak();
	}

	/** API requests being handled now, and the most at once since the log was last cleared. */
	inFlight(): { now: number; peak: number } {
		return this.core.inFlight();
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

	/** Every access token issued so far expires now; refresh tokens stay good. */
	expireTokens(): void {
		this.core.tokens.expireAll();
	}

	/**
	 * Every access token issued so far expires as the `requests`-th API request from now arrives
	 * (1: the next one): it and the requests in flight with it get 401 (see SimulatorCore).
	 */
	expireTokensAfter(requests: number): void {
		this.core.expireTokensAfter(requests);
	}

	// ------------------------------------------------------------ OAuth2 (authorization code)

	/**
	 * Whitelist a redirect URI for a client (default the fixture client), as ABBYY support does
	 * for an integration's callback: the authorize endpoint accepts it from then on.
	 */
	allowRedirectUri(uri: string, clientId: string = FIXTURE.clientId): void {
		const client = this.options.clients.find((c) => c.clientId === clientId);
		if (!client) throw new Error(`no client ${clientId}`);
		const uris = redirectUrisOf(client);
		if (!uris.includes(uri)) client.redirectUris = [...uris, uri];
	}

	/** Every refresh token is refused from now on, as when the user's grant is revoked. */
	revokeRefreshTokens(): void {
		this.grants.revokeRefreshTokens();
	}

	/** Every refresh token issued so far, for "no secret leaked" assertions. */
	issuedRefreshTokens(): string[] {
		return this.grants.issuedRefreshTokens();
	}

	/** Authorization codes issued and exchanged, and refresh tokens redeemed, so far. */
	oauthCounts(): { codesIssued: number; codesExchanged: number; refreshes: number } {
		return { ...this.grants.counts };
	}

	setTokenLifetime(seconds: number): void {
		this.options.tokenLifetimeSeconds = seconds;
	}

	setLatency(ms: number): void {
		this.options.latencyMs = ms;
	}

	/**
	 * Refuse with 429 any API request (not the token endpoint) that arrives while
	 * `limit.maxInFlight` others are being handled, with `Retry-After: limit.retryAfter` when
	 * given; null lifts the limit. Throws unless maxInFlight is a whole number of at least 1.
	 */
	setRateLimit(limit: RateLimit | null): void {
		if (limit && (!Number.isInteger(limit.maxInFlight) || limit.maxInFlight < 1)) {
			throw new Error(`maxInFlight must be a whole number of at least 1, not ${limit.maxInFlight}`);
		}
		this.options.rateLimit = limit && {
			maxInFlight: limit.maxInFlight,
			...(limit.retryAfter !== undefined ? { retryAfter: String(limit.retryAfter) } : {}),
		};
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

	/** The columns each QA report serves: 'full' (default) or the OpenAPI example's 'example'. */
	setQaColumns(columns: { documents?: QaColumnSet; fields?: QaColumnSet }): void {
		this.options.qaColumns = { ...this.options.qaColumns, ...columns };
	}

	// ------------------------------------------------------------ invites

	/** Every invite CreateInvite accepted (copies), in order. */
	invites(): Invite[] {
		return this.invitesArea.invites.map((invite) => ({ ...invite }));
	}

	// ------------------------------------------------------------ skills

	/** Add (or replace) a published skill from a list item; see ./skills.ts fromListItem. */
	addSkill(skill: z.infer<typeof S.SkillListItemDto>): void {
		this.skills.addListItem(skill);
	}

	/** Add (or replace) a published skill with its field tree, classes or included skills. */
	defineSkill(definition: SkillDefinition): void {
		this.skills.define(definition);
	}

	/** Listed no more; GetSkillInfo, create and launch answer 404. Existing transactions go on. */
	unpublishSkill(id: string): void {
		this.skills.setPublished(id, false);
	}

	publishSkill(id: string): void {
		this.skills.setPublished(id, true);
	}

	/** GetAvailableSkills answers 403, as for API clients without the right to list skills. */
	denySkillListing(deny = true): void {
		this.skills.denyListing(deny);
	}

	// ------------------------------------------------------------ transactions

	/** Create a transaction directly (as another client would), returning its id. */
	createTransaction(skillId: string): string {
		return this.processing.store.create(skillId).id;
	}

	transaction(id: string): TransactionRecord | undefined {
		const tx = this.processing.store.get(id);
		return tx && transactionRecord(tx);
	}

	/** The next transaction to start (start or launch) follows this script (first in, first out). */
	scriptNextTransaction(script: TransactionScript): void {
		this.processing.scriptNext(script);
	}

	/** Every transaction started without a queued script follows this one (default: {}). */
	setDefaultTransactionScript(script: TransactionScript): void {
		this.processing.setDefaultScript(script);
	}

	/**
	 * Finish a transaction now (default Processed), whatever its script says. With Custom
	 * activities, Processed runs those not run yet first (see processing/lifecycle.ts complete).
	 */
	completeTransaction(id: string, outcome?: Outcome): void {
		this.processing.complete(id, outcome);
	}

	// ------------------------------------------------------------ Custom activities

	/**
	 * Place a Custom activity in the skills' flow: before Review, after Review or both, for every
	 * skill or `skillIds`; it runs the shipped script (custom-activity/n8n-events.js, its event
	 * line changed before Review) or `source`, in Node's vm (see customActivity/). Transactions
	 * started from now on follow it; `{ placements: [] }` removes it. Throws on a bad config.
	 */
	configureCustomActivity(config: CustomActivityConfig): void {
		this.processing.activities.configure(config);
	}

	/**
	 * Set secrets (Configuration → Environment Variables) of a tenant (default the fixture
	 * tenant), as Context.GetSecret reads them; a null value deletes one.
	 */
	setSecrets(secrets: Record<string, string | null>, tenantId?: string): void {
		this.processing.activities.setSecrets(secrets, tenantId);
	}

	/** Delete every secret of a tenant (default the fixture tenant). */
	clearSecrets(tenantId?: string): void {
		this.processing.activities.clearSecrets(tenantId);
	}

	/** A transaction's event log (copies): its Custom activities' starts, lines, ends, failures. */
	transactionEventLog(id: string): EventLogEntry[] {
		const tx = this.processing.store.get(id);
		if (!tx) throw new Error(`no transaction ${id}`);
		return tx.eventLog.map((entry) => ({ ...entry }));
	}

	/** Every Custom-activity run so far (copies), or those of one transaction, in start order. */
	customActivityRuns(transactionId?: string): ActivityRun[] {
		return this.processing.activities.runs
			.filter((run) => transactionId === undefined || run.transactionId === transactionId)
			.map((run) => structuredClone(run));
	}

	/** Forget the Custom-activity runs recorded so far. */
	clearCustomActivityRuns(): void {
		this.processing.activities.clearRuns();
	}

	/** Resolves once no Custom-activity script is running. */
	async customActivitiesSettled(): Promise<void> {
		await this.processing.activities.settled();
	}

	/**
	 * Finished transactions (one file, documents, results), created directly; their ids. With a
	 * Process skill, `manualReview` and `files` they feed the QA reports (see processing/qa.ts).
	 */
	seedCompletedTransactions(count: number, options?: SeedOptions): string[] {
		return this.processing.seedCompleted(count, options);
	}

	/** Ids of transactions deleted through the API, in order. */
	deletedTransactionIds(): string[] {
		return this.processing.store.deletedIds();
	}

	/** What AddFilesToTransaction answers: 'empty' (default) or 'list' (see SimulatorOptions). */
	setFilesResponse(mode: 'empty' | 'list'): void {
		this.options.filesResponse = mode;
	}

	// ------------------------------------------------------------ catalogs

	scriptNextReindex(script: ReindexScript): void {
		this.catalogs.scriptNextReindex(script);
	}

	setDefaultReindexScript(script: ReindexScript): void {
		this.catalogs.setDefaultReindexScript(script);
	}

	/**
	 * Add a catalog (or replace one of the same name, records dropped). Default columns: Name (Text,
	 * notEmpty) and Country (Text). Throws on an empty name, a bad column or a repeated column name.
	 */
	addCatalog(name: string, columns?: Array<z.infer<typeof S.ColumnDto>>): void {
		this.catalogStore.add(name, columns);
	}

	/** Seed records with the given ids (fields `{ Name: [id] }`) into a catalog. */
	seedRecords(catalogId: string, ids: Iterable<string>): void {
		this.catalogStore.seed(
			catalogId,
			mapIterable(ids, (id) => ({ id, fields: { Name: [id] } })),
		);
	}

	/**
	 * Seed records with their fields, as given: no validation, no record limit; an existing id is
	 * replaced in place. Fast enough for 500 000 records.
	 */
	seedCatalogRecords(catalogId: string, records: Iterable<StoredRecord>): void {
		this.catalogStore.seed(catalogId, records);
	}

	/** The ids of a catalog's records, in order ([] for an unknown catalog). */
	recordIds(catalogId: string): string[] {
		return this.catalogStore.get(catalogId)?.records.ids() ?? [];
	}

	/** One record (a copy), or undefined; throws for an unknown catalog, as the next three do. */
	catalogRecord(catalogId: string, id: string): StoredRecord | undefined {
		const record = this.catalogStore.require(catalogId).records.get(id);
		return record && { id, fields: cloneFields(record.fields) };
	}

	/** Every record of a catalog (copies), in the order GetRecords pages them. */
	catalogRecords(catalogId: string): StoredRecord[] {
		const out: StoredRecord[] = [];
		for (const r of this.catalogStore.require(catalogId).records) {
			out.push({ id: r.id, fields: cloneFields(r.fields) });
		}
		return out;
	}

	/** The catalog's columns (copies), as GetCatalog answers them. */
	catalogColumns(catalogId: string): Array<z.infer<typeof S.ColumnDto>> {
		return this.catalogStore.require(catalogId).columns.list.map((c) => ({ ...c }));
	}

	/** What AddRecords does with an id the catalog holds: 'replace' (default) or 'reject'. */
	setRecordUpsert(mode: RecordUpsert): void {
		this.options.recordUpsert = mode;
	}

	/** Records one catalog may hold (vendor: 500 000); rows beyond are rejected `CatalogIsFull`. */
	setMaxRecordsPerCatalog(max: number): void {
		this.options.maxRecordsPerCatalog = max;
	}
}
