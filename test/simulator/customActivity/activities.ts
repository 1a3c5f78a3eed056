/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports --
 * Test infrastructure, never shipped: reads the shipped script from the repository. */
/**
 * The simulator's Custom activities: where they sit in the skills' flow (before Review, after
 * Review, or both; every skill or some), the script they run (by default the one users paste,
 * custom-activity/n8n-events.js, read from disk, with its one line changed before Review, as the
 * README tells users to), the tenants' secrets (Configuration → Environment Variables), and a
 * record of every run. processing/lifecycle.ts runs them at their place in a transaction's life.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FIXTURE } from '../fixture';
import {
	PLACEMENTS,
	type EventLogEntry,
	type Placement,
	type TransactionState,
} from '../processing/state';
import { ScriptRunner, type RunOptions, type SentRequest } from './runner';

export const SCRIPT_PATH = join(__dirname, '..', '..', '..', 'custom-activity', 'n8n-events.js');
/** The script's one line to change: as shipped (after Review), and as placed before Review. */
export const EVENT_LINE = 'var EVENT = "transaction.processed";';
export const REVIEW_EVENT_LINE = 'var EVENT = "transaction.manualReview";';

/** The shipped script as a user pastes it at `placement`. */
export function shippedScript(placement: Placement): string {
	const source = readFileSync(SCRIPT_PATH, 'utf8');
	return placement === 'beforeReview' ? placedBeforeReview(source) : source;
}

/** `source` with its event line changed for a place before Review; throws unless it has it once. */
export function placedBeforeReview(source: string): string {
	const count = source.split(EVENT_LINE).length - 1;
	if (count !== 1)
		throw new Error(`the script must hold the line ${EVENT_LINE} once, not ${count} times`);
	return source.replace(EVENT_LINE, REVIEW_EVENT_LINE);
}

export interface CustomActivityConfig extends RunOptions {
	/** Where the Custom activity sits ([]: nowhere, the default). */
	placements: Placement[];
	/** The skills whose flow has it; null or absent: every skill. */
	skillIds?: string[] | null;
	/**
	 * The script (default the shipped one). Before Review, its event line (EVENT_LINE) is changed
	 * as users change it, when it has that line.
	 */
	source?: string | null;
	/** Scripts running at once (default 4); more wait their turn. */
	concurrency?: number;
}

/** One run of a Custom activity's script: live while it runs (`log` grows), final after. */
export interface ActivityRun {
	transactionId: string;
	placement: Placement;
	outcome: 'running' | 'completed' | 'failed';
	error?: string;
	/** Its Context.LogMessage lines. */
	log: string[];
	/** What it sent and what each got, once it finished. */
	requests: SentRequest[];
	startedAt: number;
	finishedAt: number | null;
}

export class CustomActivities {
	private config: CustomActivityConfig = { placements: [] };
	private readonly secrets = new Map<string, Map<string, string>>();
	readonly runs: ActivityRun[] = [];
	private readonly running = new Set<Promise<unknown>>();
	private runner: ScriptRunner | null = null;
	private scripts: Partial<Record<Placement, string>> = {};

	/** Replace the configuration; throws on a bad one (nothing changed then). */
	configure(config: CustomActivityConfig): void {
		if (
			!Array.isArray(config.placements) ||
			config.placements.some((p) => !PLACEMENTS.includes(p))
		) {
			throw new Error(`placements must be a list of ${PLACEMENTS.join(', ')}`);
		}
		const { skillIds, source, concurrency, timeScale } = config;
		if (
			skillIds != null &&
			(!Array.isArray(skillIds) || skillIds.some((id) => typeof id !== 'string'))
		) {
			throw new Error('skillIds must be a list of skill ids, or null for every skill');
		}
		if (source != null && typeof source !== 'string') throw new Error('source must be a string');
		if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) {
			throw new Error(`concurrency must be a whole number of at least 1, not ${concurrency}`);
		}
		if (timeScale !== undefined && !(typeof timeScale === 'number' && timeScale > 0)) {
			throw new Error(`timeScale must be a number more than 0, not ${timeScale}`);
		}
		const scripts: Partial<Record<Placement, string>> = {};
		for (const placement of config.placements) {
			scripts[placement] =
				source == null
					? shippedScript(placement)
					: placement === 'beforeReview' && source.includes(EVENT_LINE)
						? placedBeforeReview(source)
						: source;
		}
		if ((concurrency ?? 4) !== (this.config.concurrency ?? 4)) void this.retireRunner();
		this.config = { ...config, placements: [...new Set(config.placements)] };
		this.scripts = scripts;
	}

	/** The Custom activities a transaction of `skillId` meets, in flow order. */
	placementsFor(skillId: string): Placement[] {
		const { placements, skillIds } = this.config;
		if (skillIds != null && !skillIds.some((id) => id.toLowerCase() === skillId.toLowerCase()))
			return [];
		return PLACEMENTS.filter((p) => placements.includes(p));
	}

	/** Set (or, with null, delete) secrets of a tenant (default the fixture tenant). */
	setSecrets(values: Record<string, string | null>, tenantId: string = FIXTURE.tenantId): void {
		const entries = Object.entries(values);
		for (const [name, value] of entries) {
			if (value !== null && typeof value !== 'string')
				throw new Error(`the secret ${name} must be a string or null`);
		}
		const store = this.secrets.get(tenantId) ?? new Map<string, string>();
		for (const [name, value] of entries) {
			if (value === null) store.delete(name);
			else store.set(name, value);
		}
		this.secrets.set(tenantId, store);
	}

	/** Delete every secret of a tenant (default the fixture tenant). */
	clearSecrets(tenantId: string = FIXTURE.tenantId): void {
		this.secrets.delete(tenantId);
	}

	/**
	 * Run the Custom activity at `placement` for `tx`: its lines go to the transaction's event log
	 * as they come. Resolves when the script has returned (or was interrupted).
	 */
	async run(tx: TransactionState, placement: Placement): Promise<ActivityRun> {
		const record: ActivityRun = {
			transactionId: tx.id,
			placement,
			outcome: 'running',
			log: [],
			requests: [],
			startedAt: Date.now(),
			finishedAt: null,
		};
		this.runs.push(record);
		const where = placement === 'beforeReview' ? 'before Review' : 'after Review';
		const log = (kind: EventLogEntry['kind'], message: string) =>
			tx.eventLog.push({ at: Date.now(), placement, kind, message });
		log('started', `Custom activity (${where}) started`);
		const done = (async () => {
			this.runner ??= new ScriptRunner(this.config.concurrency ?? 4);
			const result = await this.runner.run({
				source: this.scripts[placement] ?? shippedScript(placement),
				transaction: {
					id: tx.id,
					documentIds: tx.documents.map((d) => d.id),
					registrationParameters: tx.registrationParameters.map(({ key, value }) => ({
						key,
						value,
					})),
				},
				secrets: Object.fromEntries(this.secrets.get(tx.tenantId) ?? []),
				pages: tx.documents.length,
				options: this.config,
				onLog: (line) => {
					record.log.push(line);
					log('message', line);
				},
			});
			record.outcome = result.outcome;
			record.requests = result.requests;
			record.finishedAt = result.finishedAt;
			if (result.outcome === 'failed') {
				record.error = result.error ?? 'The script failed';
				log('failed', record.error);
			} else {
				log('finished', `Custom activity (${where}) finished`);
			}
			return record;
		})();
		this.running.add(done);
		try {
			return await done;
		} finally {
			this.running.delete(done);
		}
	}

	/**
	 * Resolves once no script is running, those started meanwhile included: a flow starts its next
	 * Custom activity when one returns, so each round lets pending callbacks run before it looks.
	 */
	async settled(): Promise<void> {
		do {
			await Promise.allSettled([...this.running]);
			await new Promise<void>((resolve) => setImmediate(resolve));
		} while (this.running.size > 0);
	}

	/** Forget the runs recorded so far (the transactions' event logs stay). */
	clearRuns(): void {
		this.runs.length = 0;
	}

	async stop(): Promise<void> {
		await this.retireRunner();
	}

	private async retireRunner(): Promise<void> {
		const runner = this.runner;
		this.runner = null;
		await runner?.stop();
	}
}
