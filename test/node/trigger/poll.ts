import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runPoll, type CredentialStore, type PollRun } from '../../harness/n8n';

/** Trigger parameters for `event`. */
export const triggerParams = (event: string, fields: IDataObject = {}): INodeParameters => ({
	event,
	...(fields as INodeParameters),
});

/** A trigger kept between polls as n8n keeps it: its static data survives (and restarts). */
export class ActiveTrigger {
	staticData = '{}';
	readonly runs: PollRun[] = [];

	constructor(
		private readonly store: () => CredentialStore,
		private readonly parameters: INodeParameters,
	) {}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<PollRun> {
		const run = await runPoll({
			credentials: this.store(),
			parameters: this.parameters,
			staticData: this.staticData,
			mode,
		});
		if (mode === 'trigger') this.staticData = run.staticData;
		this.runs.push(run);
		return run;
	}

	/** Every transaction id emitted so far, one per execution. */
	emittedIds(): string[] {
		return this.runs.flatMap((run) =>
			run.executions.map((items) => String(items[0].json.transactionId ?? items[0].json.requestId)),
		);
	}
}
