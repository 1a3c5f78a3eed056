/**
 * One workflow holding the ABBYY Vantage Instant Trigger and the ABBYY Vantage Trigger, in one n8n
 * process, with one static data "in the database" (JSON of the workflow's whole static data: the
 * global section and each node's). The Instant Trigger runs behind HTTP as ../../harness/webhook.ts
 * runs it: each request reads the database and writes its whole static data back when it set
 * anything. The polling trigger runs in n8n-core's PollContext on either path n8n polls on:
 *
 * - 'activation' (n8n 1.x, and 2.41 without its scheduler: n8n-core ActiveWorkflowTriggers): the
 *   Workflow built when the workflow was activated serves every poll; at each __emit n8n saves its
 *   whole static data when anything in it was set (WorkflowStaticDataService.saveStaticData), as
 *   read at activation plus what the polls changed, and once after the first poll, which runs as
 *   part of the activation (ActiveWorkflowManager.add). Nothing is saved after a later poll that
 *   emitted nothing.
 * - 'durable' (2.41 with durable poll cursors: TriggerExecutionContextFactory
 *   .getExecutePollFunctions): each poll builds its Workflow from the database; the node's cursor
 *   lives in a table of its own (copied from the node's static data at the first poll), committed
 *   with each execution, or alone after a poll that returned nothing; the static data is saved at
 *   each __emit as above.
 *
 * `restartedIn()` continues in a new n8n process: every module (the nodes, their in-process
 * registries) loaded afresh, the database and the cursor table kept.
 */
import { PollContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeTypes,
	type IPollFunctions,
} from 'n8n-workflow';

import {
	Executions,
	TRIGGER_TYPE,
	makeAdditionalData,
	type CredentialStore,
} from '../../harness/n8n';
import {
	InstantTrigger,
	eventBody,
	signed,
	type EventSecrets,
	type Push,
} from '../../harness/webhook';
import { AbbyyVantageTrigger } from '../../../nodes/AbbyyVantageTrigger/AbbyyVantageTrigger.node';

export type PollPath = 'activation' | 'durable';

export const POLL_NODE = 'ABBYY Vantage Trigger';

const triggerType = new AbbyyVantageTrigger();
const nodeTypes = {
	getByName: () => triggerType,
	getByNameAndVersion: () => triggerType,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

export interface SharedWorkflowOptions {
	store: () => CredentialStore;
	secrets: () => EventSecrets;
	workflowId: string;
	path: PollPath;
	/** The polling trigger's parameters (Authentication is set from the credential). */
	poll: INodeParameters;
	/** The Instant Trigger's parameters. */
	instant?: INodeParameters;
	/** How the executions polls start run (default: each finishes at once). */
	executions?: Executions;
}

/** One poll: the executions it started (items of each) and what poll() returned or threw. */
export interface SharedPoll {
	executions: INodeExecutionData[][];
	returned: INodeExecutionData[][] | null;
	error?: Error;
}

/** What the workflow's static data holds, parsed. */
export interface StoredStaticData {
	global?: { abbyyVantageDeliveries?: { delivered: Record<string, number>; floor?: number } };
	[node: `node:${string}`]: { cursor?: StoredCursor } | undefined;
}

export interface StoredCursor {
	seen: Record<string, number>;
	sightings?: Record<string, number>;
}

/** The transaction id of an execution's first item. */
export const idOf = (items: INodeExecutionData[]): string => String(items[0].json.transactionId);

export class SharedWorkflow {
	readonly instant: InstantTrigger;
	/** Executions the polling trigger started, in order. */
	readonly polled: INodeExecutionData[][] = [];
	/** What the polling trigger logged through n8n's logger. */
	readonly logs: string[] = [];
	/** The durable path's cursor table: the cursor committed last (JSON), once the first poll ran. */
	cursorTable?: string;
	/** The activation path's Workflow, built at the first poll of this process. */
	private activated?: Workflow;
	private readonly executions: Executions;

	constructor(readonly options: SharedWorkflowOptions) {
		this.instant = new InstantTrigger({
			credentials: options.store,
			secrets: options.secrets,
			workflowId: options.workflowId,
			parameters: options.instant ?? {},
		});
		this.executions = options.executions ?? new Executions();
	}

	/** The workflow's static data in the database (JSON). */
	get database(): string {
		return this.instant.staticData;
	}

	set database(json: string) {
		this.instant.staticData = json;
	}

	/** The database's static data, parsed. */
	stored(): StoredStaticData {
		return JSON.parse(this.database) as StoredStaticData;
	}

	/** The keys the workflow's record of deliveries holds in the database. */
	deliveredKeys(): string[] {
		return Object.keys(this.stored().global?.abbyyVantageDeliveries?.delivered ?? {}).sort();
	}

	/** The polling trigger's cursor as n8n would read it at the next poll. */
	cursor(): StoredCursor | undefined {
		if (this.options.path === 'durable' && this.cursorTable !== undefined) {
			return (JSON.parse(this.cursorTable) as { cursor?: StoredCursor }).cursor;
		}
		if (this.activated) {
			return (this.activated.getStaticData('node', this.node()) as { cursor?: StoredCursor })
				.cursor;
		}
		return this.stored()[`node:${POLL_NODE}`]?.cursor;
	}

	/** Every execution of the workflow so far, by either trigger: its transaction id. */
	startedIds(): string[] {
		return [...this.instant.executions, ...this.polled].map(idOf);
	}

	async start(): Promise<this> {
		await this.instant.start();
		return this;
	}

	async stop(): Promise<void> {
		await this.instant.stop();
	}

	/** The Custom activity's push for `transactionId`, signed with the current secret. */
	async push(
		transactionId: string,
		event: 'transaction.processed' | 'transaction.manualReview' = 'transaction.processed',
	): Promise<Push> {
		return await this.instant.push(
			signed(eventBody(transactionId, event), this.options.secrets().secret),
		);
	}

	node(): INode {
		const store = this.options.store();
		return {
			id: 'trigger-1',
			name: POLL_NODE,
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { authentication: store.authentication, ...this.options.poll },
			credentials: { [store.type]: { id: store.id, name: 'ABBYY Vantage account' } },
		};
	}

	private workflow(): Workflow {
		return new Workflow({
			id: this.options.workflowId,
			name: 'instant trigger and its safety net',
			nodes: [this.node()],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(this.database) as IDataObject,
			settings: { timezone: 'UTC' },
		});
	}

	/** n8n's WorkflowStaticDataService.saveStaticData: the whole object, when anything in it was set. */
	private save(workflow: Workflow): void {
		const data = workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (data.__dataChanged) {
			this.database = JSON.stringify(data);
			data.__dataChanged = false;
		}
	}

	/** One poll as n8n runs it on this workflow's path ('manual': Fetch Test Event, nothing saved). */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<SharedPoll> {
		const node = this.node();
		const durable = this.options.path === 'durable' && mode === 'trigger';
		const activating = !durable && mode === 'trigger' && !this.activated;
		const workflow =
			mode === 'manual' || durable ? this.workflow() : (this.activated ??= this.workflow());
		let staged: { seed: string; snapshot: IDataObject } | undefined;
		if (durable) {
			// The first poll copies the node's static data into the cursor table.
			this.cursorTable ??= JSON.stringify(workflow.getStaticData('node', node));
			staged = { seed: this.cursorTable, snapshot: JSON.parse(this.cursorTable) as IDataObject };
		}
		const commit = () => {
			if (!staged) return;
			const cursor = JSON.stringify(staged.snapshot);
			if (cursor !== staged.seed) this.cursorTable = staged.seed = cursor;
		};
		const executions: INodeExecutionData[][] = [];
		const emit: IPollFunctions['__emit'] = (data, _response, done) => {
			executions.push(data[0]);
			this.polled.push(data[0]);
			// The cursor is committed with the execution; the static data saved beside it.
			commit();
			this.save(workflow);
			this.executions.start(done);
		};
		const context = new PollContext(
			workflow,
			node,
			makeAdditionalData(this.options.store()),
			mode,
			'activate',
			emit,
			() => {},
			undefined,
			undefined,
			staged ? () => staged.snapshot : undefined,
		);
		const record = (level: string) => (message: string) => this.logs.push(`${level}: ${message}`);
		Object.defineProperty(context, 'logger', {
			value: {
				error: record('error'),
				warn: record('warn'),
				info: record('info'),
				debug: () => {},
			},
		});
		try {
			const returned = await triggerType.poll.call(context);
			if (mode === 'trigger') {
				if (returned !== null) emit(returned);
				else commit();
			}
			// The activation saves the static data once its first poll is done.
			if (activating) this.save(workflow);
			return { executions, returned };
		} catch (error) {
			return { executions, returned: null, error: error as Error };
		}
	}

	/**
	 * n8n restarted: the same workflow in `n8n`, a new process (this module loaded afresh with
	 * everything it imports, so nothing either trigger held in memory is left: see `restart` in
	 * ./safetyNet.test.ts), with the same database and cursor table. This one stops listening first.
	 */
	async restartedIn(n8n: typeof import('./sharedWorkflow')): Promise<SharedWorkflow> {
		await this.stop();
		const next = new n8n.SharedWorkflow(this.options);
		next.database = this.database;
		next.cursorTable = this.cursorTable;
		// What the workflow started before the restart still counts.
		next.instant.executions.push(...this.instant.executions);
		next.polled.push(...this.polled);
		return await next.start();
	}
}
