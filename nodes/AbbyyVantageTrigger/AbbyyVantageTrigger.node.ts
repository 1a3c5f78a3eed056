import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchSkills } from '../AbbyyVantage/methods/listSearch';
import { VantageClient } from '../AbbyyVantage/transport';
import type { EventDefinition } from './events/common';
import { exportFinished } from './events/exportFinished';
import { manualReview } from './events/manualReview';
import { transactionCompleted } from './events/transactionCompleted';

const EVENTS: Record<string, EventDefinition> = {
	[exportFinished.value]: exportFinished,
	[manualReview.value]: manualReview,
	[transactionCompleted.value]: transactionCompleted,
};

/**
 * ABBYY Vantage has no webhooks: this trigger polls (n8n's Poll Times) and starts one execution
 * per event, exactly once (see ./cursor.ts).
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
		description:
			'Starts a workflow when ABBYY Vantage transactions finish or wait for manual review, or an export is ready',
		defaults: { name: 'ABBYY Vantage Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'abbyyVantageApi', required: true }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Export Finished',
						value: 'exportFinished',
						description:
							'An export request of transaction steps succeeded, failed or was cancelled',
					},
					{
						name: 'Transaction Awaiting Manual Review',
						value: 'manualReview',
						description: 'A transaction entered Manual Review; the item carries its review link',
					},
					{
						name: 'Transaction Completed',
						value: 'transactionCompleted',
						description: 'A transaction was processed, failed or was cancelled',
					},
				],
				default: 'transactionCompleted',
			},
			...transactionCompleted.properties,
			...manualReview.properties,
			...exportFinished.properties,
		],
	};

	methods = { listSearch: { searchSkills } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = EVENTS[this.getNodeParameter('event') as string];
		if (!event) return null;
		const client = new VantageClient(this);
		return await event.poll(this, client);
	}
}
