import type { IDataObject, INodeParameters } from 'n8n-workflow';

import * as n8nProcess from '../../harness/n8n';
import type { CredentialStore, Executions, PollRun } from '../../harness/n8n';
import type { EventName } from '../../../nodes/AbbyyVantageTrigger/events';

/** Trigger parameters for `event`, named as the trigger's event registry names it. */
export const triggerParams = (event: EventName, fields: IDataObject = {}): INodeParameters => ({
	event,
	...(fields as INodeParameters),
});

type N8nProcess = typeof n8nProcess;

/**
 * A new n8n process: the harness, n8n-core and the node loaded afresh, so nothing the previous
 * process held in memory is left (the trigger keeps per-process state, as n8n would lose it).
 */
function startedAgain(): N8nProcess {
	let fresh: N8nProcess | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		fresh = require('../../harness/n8n') as N8nProcess;
	});
	return fresh!;
}

/** A trigger kept between polls as n8n keeps it: its static data survives (and restarts). */
export class ActiveTrigger {
	staticData = '{}';
	readonly runs: PollRun[] = [];
	private n8n: N8nProcess = n8nProcess;

	constructor(
		private readonly store: () => CredentialStore,
		private readonly parameters: INodeParameters,
		/** The workflow's time zone; default UTC. */
		private readonly timezone?: string,
		/** How the executions it starts run (default: each finishes at once), and its workflow. */
		private readonly options: { executions?: Executions; workflowId?: string } = {},
	) {}

	/** n8n restarted: the static data it stored is all the trigger has. */
	restart(staticData = this.staticData): this {
		this.n8n = startedAgain();
		this.staticData = staticData;
		return this;
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger', pollBudgetMs?: number): Promise<PollRun> {
		const run = await this.n8n.runPoll({
			credentials: this.store(),
			parameters: this.parameters,
			staticData: this.staticData,
			mode,
			pollBudgetMs,
			timezone: this.timezone,
			...this.options,
		});
		if (mode === 'trigger') this.staticData = run.staticData;
		this.runs.push(run);
		return run;
	}

	/** The stored cursor, as n8n keeps it in the static data. */
	cursor(): { event: string; filters: string; seen: Record<string, unknown>; floor?: number } {
		return (JSON.parse(this.staticData) as { cursor: ReturnType<ActiveTrigger['cursor']> }).cursor;
	}

	/** Every transaction id emitted so far, one per execution. */
	emittedIds(): string[] {
		return this.runs.flatMap((run) => idsOf(run));
	}
}

/** The transaction (or export) id of each execution a poll started. */
export const idsOf = (run: PollRun): string[] =>
	run.executions.map((items) => String(items[0].json.transactionId ?? items[0].json.requestId));
