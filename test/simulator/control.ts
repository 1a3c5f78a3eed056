/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * Test infrastructure, never shipped: commands answer on node:http responses. */
/**
 * The HTTP control plane under `/__simulator/`: the same controls as the VantageSimulator class,
 * for processes that do not share its memory (the real-n8n suite, the demo, the benchmarks).
 */
import type { ServerResponse } from 'node:http';

import type { CustomActivityConfig } from './customActivity/activities';
import type { Fault } from './faults';
import type { RouteId } from './http';
import type { Outcome, SeedOptions } from './processing/lifecycle';
import type { KeyValue, TransactionScript } from './processing/state';
import type { ReindexScript } from './routes/catalogs';
import type { ExportScript } from './routes/reporting';
import { RecordModel, type ColumnDto } from './schemas';
import type { ControlHandler } from './server';
import type { SkillDefinition } from './skills';
import type { VantageSimulator } from './simulator';

/** `state` gives what `GET /__simulator/state` reports. */
export function controlPlane(sim: VantageSimulator, state: () => unknown): ControlHandler {
	return (req, res, path, rawBody) => {
		const body = rawBody.length
			? (JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>)
			: {};
		try {
			if (!command(sim, state, `${req.method} ${path}`, body, res)) res.writeHead(404).end();
		} catch (error) {
			res.writeHead(400, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: String(error) }));
		}
	};
}

/** Run one command and answer 200; false if there is no such command. */
function command(
	sim: VantageSimulator,
	state: () => unknown,
	name: string,
	body: Record<string, unknown>,
	res: ServerResponse,
): boolean {
	const ok = (value: unknown = { ok: true }) => {
		const text = JSON.stringify(value);
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(text);
		return true;
	};
	// Commands with a transaction id in the path (percent-encoded or not).
	const byTransaction = /^GET \/__simulator\/(event-log|custom-activity\/runs)\/([^/]+)$/.exec(
		name,
	);
	if (byTransaction) {
		const id = decodeURIComponent(byTransaction[2]);
		return byTransaction[1] === 'event-log'
			? ok(sim.transactionEventLog(id))
			: ok(sim.customActivityRuns(id));
	}
	switch (name) {
		case 'GET /__simulator/requests':
			return ok(sim.requests);
		case 'DELETE /__simulator/requests':
			sim.clearLog();
			return ok();
		case 'POST /__simulator/faults':
			sim.injectFault(
				body.route as RouteId | '*',
				body.fault as Fault,
				body.times === 'always' ? Infinity : Number(body.times ?? 1),
			);
			return ok();
		case 'DELETE /__simulator/faults':
			sim.clearFaults();
			return ok();
		case 'POST /__simulator/revoke-tokens':
			sim.revokeTokens();
			return ok();
		case 'POST /__simulator/expire-tokens':
			// { afterRequests? }: every access token issued so far expires now, or as the
			// afterRequests-th API request from now arrives (refresh tokens stay good).
			if (body.afterRequests === undefined) sim.expireTokens();
			else sim.expireTokensAfter(Number(body.afterRequests));
			return ok();
		case 'POST /__simulator/redirect-uris':
			// { uri, clientId? }: whitelist a redirect URI for the authorize endpoint.
			if (typeof body.uri !== 'string') throw new Error('uri must be a string');
			sim.allowRedirectUri(
				body.uri,
				typeof body.clientId === 'string' ? body.clientId : undefined,
			);
			return ok();
		case 'POST /__simulator/revoke-refresh-tokens':
			sim.revokeRefreshTokens();
			return ok();
		case 'POST /__simulator/token-lifetime':
			// { seconds }: the `expires_in` of tokens issued from now on; once that lifetime has run
			// out, the API answers 401 for them (tokens issued before keep the lifetime they got).
			if (typeof body.seconds !== 'number' || !Number.isInteger(body.seconds) || body.seconds < 0)
				throw new Error('seconds must be a whole number of at least 0');
			sim.setTokenLifetime(body.seconds);
			return ok();
		case 'POST /__simulator/export-script':
			sim.scriptNextExport(body as ExportScript);
			return ok();
		case 'POST /__simulator/default-export-script':
			sim.setDefaultExportScript(body as ExportScript);
			return ok();
		case 'POST /__simulator/reindex-script':
			sim.scriptNextReindex(body as unknown as ReindexScript);
			return ok();
		case 'POST /__simulator/catalogs': {
			// { name, columns?, recordIds?, records?: [{ id, fields }] }: add (or replace) and seed.
			const name = String(body.name ?? '');
			const records = RecordModel.array().optional().parse(body.records);
			sim.addCatalog(name, body.columns as ColumnDto[] | undefined);
			if (Array.isArray(body.recordIds)) sim.seedRecords(name, body.recordIds as string[]);
			if (records) sim.seedCatalogRecords(name, records);
			return ok();
		}
		case 'POST /__simulator/record-upsert':
			if (body.mode !== 'replace' && body.mode !== 'reject')
				throw new Error(`mode must be 'replace' or 'reject'`);
			sim.setRecordUpsert(body.mode);
			return ok();
		case 'POST /__simulator/max-records-per-catalog':
			if (!Number.isInteger(body.max) || Number(body.max) < 0)
				throw new Error('max must be a whole number');
			sim.setMaxRecordsPerCatalog(Number(body.max));
			return ok();
		case 'POST /__simulator/transactions':
			return ok({ transactionId: sim.createTransaction(String(body.skillId)) });
		case 'POST /__simulator/transaction-script':
			sim.scriptNextTransaction(body as TransactionScript);
			return ok();
		case 'POST /__simulator/default-transaction-script':
			sim.setDefaultTransactionScript(body as TransactionScript);
			return ok();
		case 'POST /__simulator/completed-transactions': {
			// Many finished transactions at once (trigger tests, benchmarks, QA reports); completedAt:
			// ISO text; manualReview and files ([{ name?, text, contentType? }], taken in turn) as
			// seedCompletedTransactions takes them.
			const transactionIds = sim.seedCompletedTransactions(Number(body.count ?? 1), {
				skillId: body.skillId as string | undefined,
				status: body.status as Outcome | undefined,
				completedAt: body.completedAt ? new Date(String(body.completedAt)) : undefined,
				registrationParameters: body.registrationParameters as KeyValue[] | undefined,
				manualReview: body.manualReview === true,
				files: body.files as SeedOptions['files'],
			});
			return ok({ transactionIds });
		}
		case 'POST /__simulator/custom-activity':
			// { placements: ['beforeReview' | 'afterReview'], skillIds?, source?, timeScale?,
			//   allowPlainHttpOnLoopback?, trustedCertificates?, missingSecret?,
			//   missingRegistrationParameter?, concurrency? }: see CustomActivityConfig.
			sim.configureCustomActivity(body as unknown as CustomActivityConfig);
			return ok();
		case 'DELETE /__simulator/custom-activity':
			sim.configureCustomActivity({ placements: [] });
			return ok();
		case 'POST /__simulator/secrets': {
			// { secrets: { name: value | null }, tenantId? }: set (null: delete) a tenant's secrets.
			const secrets = body.secrets;
			if (!secrets || typeof secrets !== 'object' || Array.isArray(secrets))
				throw new Error('secrets must be an object of names and values');
			sim.setSecrets(
				secrets as Record<string, string | null>,
				typeof body.tenantId === 'string' ? body.tenantId : undefined,
			);
			return ok();
		}
		case 'DELETE /__simulator/secrets':
			// { tenantId? }: delete every secret of the tenant (default the fixture tenant).
			sim.clearSecrets(typeof body.tenantId === 'string' ? body.tenantId : undefined);
			return ok();
		case 'GET /__simulator/custom-activity/runs':
			return ok(sim.customActivityRuns());
		case 'DELETE /__simulator/custom-activity/runs':
			sim.clearCustomActivityRuns();
			return ok();
		case 'POST /__simulator/complete-transaction':
			sim.completeTransaction(String(body.transactionId), body.outcome as Outcome | undefined);
			return ok();
		case 'POST /__simulator/skills':
			sim.defineSkill(body as unknown as SkillDefinition);
			return ok();
		case 'POST /__simulator/unpublish-skill':
			sim.unpublishSkill(String(body.id));
			return ok();
		case 'POST /__simulator/deny-skill-listing':
			sim.denySkillListing(body.deny !== false);
			return ok();
		case 'POST /__simulator/files-response':
			sim.setFilesResponse(body.mode === 'list' ? 'list' : 'empty');
			return ok();
		case 'POST /__simulator/exports': {
			// Many finished exports at once, owned by the fixture user (benchmarks).
			const ids: string[] = [];
			for (let i = 0; i < Number(body.count ?? 1); i++) ids.push(sim.createFinishedExport());
			return ok({ requestIds: ids });
		}
		case 'POST /__simulator/latency':
			sim.setLatency(Number(body.ms));
			return ok();
		case 'POST /__simulator/rate-limit':
			// { maxInFlight, retryAfter? }: 429 for an API request above maxInFlight in flight.
			sim.setRateLimit({
				maxInFlight: Number(body.maxInFlight),
				...(body.retryAfter !== undefined ? { retryAfter: String(body.retryAfter) } : {}),
			});
			return ok();
		case 'DELETE /__simulator/rate-limit':
			sim.setRateLimit(null);
			return ok();
		case 'GET /__simulator/stats':
			return ok({ requests: sim.stats(), created: sim.createdCounts(), inFlight: sim.inFlight() });
		case 'GET /__simulator/state':
			return ok(state());
		default:
			return false;
	}
}
