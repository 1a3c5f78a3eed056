/**
 * Transaction lists: GetActiveTransactions and GetCompletedTransactions (Processing v1).
 *
 * Query (names case-insensitive, as ASP.NET binds them): `Limit` required 1..1000, `Offset` ≥ 0,
 * `StartDate` / `EndDate` (UTC date-times; EndDate must be after StartDate when both are given),
 * `SkillId`, `SkillVersion`, `TransactionParameters` / `DocumentParameters` (ASP.NET list binding
 * `TransactionParameters[0].Key=…&TransactionParameters[0].Value=…`, or the documented JSON form
 * `TransactionParameters={"key":"…","value":"…"}`), active: `StageType`, `StageName`;
 * completed: `TransactionStatus` (Processed | Cancelled | Failed; the status itself says Canceled).
 *
 * Both lists filter by creation time, as the OpenAPI parameters say ("StartDate: minimum creation
 * time of the transactions"), and are ordered by it, then id (inferred). Active transactions are
 * the Processing ones; completed ones those that reached Processed, Failed or Canceled.
 * The answer `{ items, totalItemCount }` and its items are inferred (the OpenAPI document shows an
 * observed example only; see schemas/processing.ts TransactionListItem).
 */
import { invalidValue, problem, respond, route, type RequestContext, type Route } from '../http';
import type { Processing } from '../processing/lifecycle';
import { stageOf, type KeyValue, type TransactionState } from '../processing/state';
import * as S from '../schemas';

const API = '/api/publicapi/v1/transactions';
const COMPLETED = new Map([
	['processed', 'Processed'],
	['cancelled', 'Canceled'],
	['failed', 'Failed'],
	['0', 'Processed'],
	['1', 'Canceled'],
	['2', 'Failed'],
]);
const STAGES = ['ManualReview', 'CustomActivity', 'Automatic'];

type Kind = 'active' | 'completed';

export class TransactionListsArea {
	readonly routes: Route[];

	constructor(private readonly processing: Processing) {
		this.routes = [
			route('GetActiveTransactions', 'GET', `${API}/active`, (c) => this.list(c, 'active')),
			route('GetCompletedTransactions', 'GET', `${API}/completed`, (c) =>
				this.list(c, 'completed'),
			),
		];
	}

	private list(ctx: RequestContext, kind: Kind) {
		const q = new Query(ctx.query);
		const limit = q.int('Limit', true);
		if (limit! < 1 || limit! > 1000) {
			throw invalidValue('Limit', 'The field Limit must be between 1 and 1000.');
		}
		const offset = q.int('Offset') ?? 0;
		if (offset < 0) throw invalidValue('Offset', 'The field Offset must be 0 or more.');
		const start = q.date('StartDate');
		const end = q.date('EndDate');
		if (start !== null && end !== null && end <= start) {
			throw problem(400, 'Bad Request', 'EndDate must be greater than start date');
		}
		const skillId = q.get('SkillId')?.toLowerCase();
		const skillVersion = q.int('SkillVersion');
		const txParams = q.parameters('TransactionParameters');
		const docParams = q.parameters('DocumentParameters');
		let stage: string | undefined;
		let stageName: string | undefined;
		let status: string | undefined;
		if (kind === 'active') {
			const given = q.get('StageType');
			stage = given && STAGES.find((s) => s.toLowerCase() === given.toLowerCase());
			if (given && !stage) throw invalidValue('StageType', `The value '${given}' is not valid.`);
			stageName = q.get('StageName')?.toLowerCase();
		} else {
			const given = q.get('TransactionStatus');
			status = given ? COMPLETED.get(given.toLowerCase()) : undefined;
			if (given && !status) {
				throw invalidValue('TransactionStatus', `The value '${given}' is not valid.`);
			}
		}

		const from = start ?? -Infinity;
		const to = end ?? Date.now() + 1;
		const matches = this.processing.store.all().filter((tx) => {
			this.processing.advance(tx, false);
			if (kind === 'active' ? tx.status !== 'Processing' : tx.completedAt === null) return false;
			if (tx.createdAt < from || tx.createdAt >= to) return false;
			if (skillId && tx.skillId.toLowerCase() !== skillId) return false;
			if (skillVersion !== null && skillVersion !== 1) return false;
			if (status && tx.status !== status) return false;
			const view = stageOf(tx);
			if (stage && view.stage !== stage) return false;
			if (stageName && view.stageName.toLowerCase() !== stageName) return false;
			if (!txParams.every((p) => has(tx.registrationParameters, p))) return false;
			const files = fileParameters(tx);
			return docParams.every((p) => has(files, p));
		});
		matches.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
		return respond(200, S.TransactionListResponse, {
			items: matches.slice(offset, offset + limit!).map((tx) => this.item(tx, kind)),
			totalItemCount: matches.length,
		});
	}

	private item(tx: TransactionState, kind: Kind): S.TransactionListItem {
		const skill = this.processing.skills.get(tx.skillId);
		const created = new Date(tx.createdAt).toISOString();
		const { stage, stageName } = stageOf(tx);
		return {
			transactionId: tx.id,
			skillId: skill?.id ?? tx.skillId,
			skillName: skill?.name ?? tx.skillId,
			skillVersion: 1,
			status: tx.status,
			createdUtc: created,
			createTimeUtc: created,
			...(kind === 'completed'
				? { completedUtc: new Date(tx.completedAt!).toISOString() }
				: {
						stageType: stage,
						stage,
						stageName,
						...(tx.review ? { manualReviewLink: tx.review.link } : {}),
					}),
			registrationParameters: tx.registrationParameters.map(({ key, value }) => ({ key, value })),
			transactionParameters: tx.registrationParameters.map(({ key, value }) => ({
				isReadOnly: false,
				key,
				value,
			})),
			fileParameters: fileParameters(tx),
			documentCount: tx.documents.length,
			...(kind === 'completed' ? { pageCount: tx.documents.length } : {}),
		};
	}
}

/** Each file's registration parameters, the predefined read-only ones first. */
function fileParameters(tx: TransactionState) {
	return tx.files.flatMap((f, i) => [
		{ isReadOnly: true, key: 'Index', value: String(i) },
		{ isReadOnly: true, key: 'SourceFileName', value: f.name },
		{ isReadOnly: true, key: 'SourceType', value: 'PublicAPI' },
		...f.registrationParameters.map(({ key, value }) => ({ isReadOnly: false, key, value })),
	]);
}

/** A filter parameter matches a parameter with its key (any case) and, if given, its value. */
function has(params: KeyValue[], filter: { key: string; value: string | null }): boolean {
	return params.some(
		(p) =>
			p.key.toLowerCase() === filter.key.toLowerCase() &&
			(filter.value === null || p.value === filter.value),
	);
}

/** Query values by case-insensitive name, with ASP.NET's binding errors. */
class Query {
	private readonly values = new Map<string, string[]>();

	constructor(query: URLSearchParams) {
		for (const [key, value] of query) {
			const k = key.toLowerCase();
			this.values.set(k, [...(this.values.get(k) ?? []), value]);
		}
	}

	get(name: string): string | undefined {
		return this.values.get(name.toLowerCase())?.[0];
	}

	int(name: string, required = false): number | null {
		const value = this.get(name);
		if (value === undefined || value === '') {
			if (required) throw invalidValue(name, `The ${name} field is required.`);
			return null;
		}
		if (!/^\s*[-+]?\d+\s*$/.test(value) || Math.abs(Number(value)) > 2147483647) {
			throw invalidValue(name, `The value '${value}' is not valid for ${name}.`);
		}
		return Number(value);
	}

	/** Milliseconds; a date-time without an offset is UTC, as the vendor requires. */
	date(name: string): number | null {
		const value = this.get(name);
		if (value === undefined || value === '') return null;
		const utc = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? `${value}Z` : value;
		const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(utc) : NaN;
		if (Number.isNaN(ms))
			throw invalidValue(name, `The value '${value}' is not valid for ${name}.`);
		return ms;
	}

	/** `Name[i].Key` / `Name[i].Value` pairs and `Name={"key":…,"value":…}` values. */
	parameters(name: string): Array<{ key: string; value: string | null }> {
		const prefix = name.toLowerCase();
		const indexed = new Map<number, { key?: string; value?: string }>();
		const out: Array<{ key: string; value: string | null }> = [];
		for (const [key, values] of this.values) {
			const m = /^(.+)\[(\d+)\]\.(key|value)$/.exec(key);
			if (m && m[1] === prefix) {
				const entry = indexed.get(Number(m[2])) ?? {};
				entry[m[3] as 'key' | 'value'] = values[0];
				indexed.set(Number(m[2]), entry);
			} else if (key === prefix) {
				for (const text of values) {
					let parsed: unknown;
					try {
						parsed = JSON.parse(text);
					} catch {
						throw invalidValue(name, `The value '${text}' is not valid for ${name}.`);
					}
					// System.Text.Json as ASP.NET configures it reads property names in any case.
					const lowered =
						parsed && typeof parsed === 'object'
							? Object.fromEntries(
									Object.entries(parsed).map(([k, v]) => [k.toLowerCase(), v as unknown]),
								)
							: parsed;
					const p = S.Parameter.safeParse(lowered);
					if (!p.success || !p.data.key) {
						throw invalidValue(name, `The value '${text}' is not valid for ${name}.`);
					}
					out.push({ key: p.data.key, value: p.data.value ?? null });
				}
			}
		}
		for (const [, entry] of [...indexed].sort((a, b) => a[0] - b[0])) {
			if (entry.key) out.push({ key: entry.key, value: entry.value ?? null });
		}
		return out;
	}
}
