import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

/**
 * Workflow id and node name: one trigger of one workflow, as this n8n instance keys what it keeps
 * per trigger (the poll under way here, the executions it started, the cursor it last wrote).
 */
export function triggerOf(ctx: IPollFunctions): string {
	return `${ctx.getWorkflow().id ?? ''}\u0000${ctx.getNode().name}`;
}

/** Triggers polling right now in this n8n instance. */
const polling = new Set<string>();

/**
 * Run `poll` unless this trigger is polling already. n8n 2.41 starts a poll at every Poll Times
 * tick without waiting for the previous one (n8n-core ActiveWorkflowTriggers registers each cron
 * with `void executePollTrigger()`; the durable scheduler fires each task on its own), and two
 * polls reading one cursor would both emit its new events. The overlapping poll emits nothing and
 * leaves the cursor as it is: the running one takes care of everything. Poll Times crons run on
 * the leader main only (n8n-core ScheduledTaskManager), so a lock in this instance is enough; with
 * the durable scheduler in a multi-main setup, polls can run on other mains, which it cannot see.
 */
export async function oneAtATime(
	ctx: IPollFunctions,
	poll: () => Promise<INodeExecutionData[][] | null>,
): Promise<INodeExecutionData[][] | null> {
	const trigger = triggerOf(ctx);
	if (polling.has(trigger)) return null;
	polling.add(trigger);
	try {
		return await poll();
	} finally {
		polling.delete(trigger);
	}
}
