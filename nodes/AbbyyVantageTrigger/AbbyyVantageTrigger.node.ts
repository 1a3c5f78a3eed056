import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { searchSkills } from '../AbbyyVantage/methods/listSearch';
import { VantageClient } from '../AbbyyVantage/transport';
import { authenticationProperty } from '../AbbyyVantage/params/authentication';
import { oneAtATime } from './gate';
import { triggerCredentialDescriptions } from './safetyNet';
import { EVENTS, eventProperties, isEventName } from './events';

/**
 * ABBYY Vantage has no webhooks: this trigger polls (n8n's Poll Times) and starts one execution
 * per event, exactly once (see ./cursor.ts), handed over as ./delivery.ts says, one poll of a
 * trigger at a time (./gate.ts).
 */
export class AbbyyVantageTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ABBYY Vantage Trigger',
		name: 'abbyyVantageTrigger',
		icon: {
			light: 'file:../../icons/abbyyVantage.svg',
			dark: 'file:../../icons/abbyyVantage.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		// n8n's node picker shows one "ABBYY Vantage" entry for this trigger and the action node, and
		// gives it the trigger's description (useActionsGeneration.ts: "default to trigger
		// description"): it speaks for both.
		description:
			'Process documents with ABBYY Vantage skills, keep catalogs in sync, get reports, and start workflows when transactions finish',
		defaults: { name: 'ABBYY Vantage Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: triggerCredentialDescriptions,
		properties: [authenticationProperty, ...eventProperties],
	};

	methods = { listSearch: { searchSkills } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const name = this.getNodeParameter('event');
		if (!isEventName(name)) {
			throw new NodeOperationError(this.getNode(), `Unknown event ${JSON.stringify(name)}`, {
				description: `Choose one of: ${Object.values(EVENTS)
					.map((e) => e.name)
					.join(', ')}.`,
			});
		}
		const event = EVENTS[name];
		const client = new VantageClient(this);
		const poll = async () => await event.poll(this, client, { event: name, startedAt: Date.now() });
		// Fetch Test Event reads without touching the cursor: it may run beside the active trigger.
		return this.getMode() === 'manual' ? await poll() : await oneAtATime(this, poll);
	}
}
