import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptionsProperty } from './params/requestOptions';
import { resourceOptions, resourceProperties, router } from './actions/router';
import { runsAsTool } from './agent/mode';
import { withToolProperties } from './agent/properties';
import { runAsTool } from './agent/run';
import { searchCatalogs, searchSkills } from './methods/listSearch';
import { getCatalogColumns } from './methods/resourceMapping';
import { resume, RESUME_WEBHOOKS } from './actions/transaction/resume';
import { actionCredentialDescriptions, authenticationProperty } from './params/authentication';
import { REVIEW_OUTPUTS, routeForReview } from './params/needsReview';

export class AbbyyVantage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ABBYY Vantage',
		name: 'abbyyVantage',
		icon: {
			light: 'file:../../icons/abbyyVantage.svg',
			dark: 'file:../../icons/abbyyVantage.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Process documents with ABBYY Vantage skills, manage transactions and catalogs, and get report exports and extraction quality reports',
		defaults: { name: 'ABBYY Vantage' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		// One output, or Ready and Needs Review when Get Results or Process Document sends documents
		// needing review apart.
		outputs: REVIEW_OUTPUTS,
		credentials: actionCredentialDescriptions,
		// On Manual Review → Resume When Vantage Pushes: the waiting execution's resume URL.
		webhooks: RESUME_WEBHOOKS,
		// The tool variant's own parameters (descriptions for a model, $fromAI defaults, Output,
		// the switch for destructive operations) are shown only in it: see agent/properties.ts.
		properties: withToolProperties([
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: 'transaction',
			},
			...resourceProperties,
			requestOptionsProperty,
		]),
	};

	methods = {
		listSearch: { searchCatalogs, searchSkills },
		resourceMapping: { getCatalogColumns },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// As a tool of an AI agent or an MCP client: one compact answer, failures included.
		if (runsAsTool(this)) return await runAsTool(this, async () => await router.call(this));
		return routeForReview(this, await router.call(this));
	}

	/** A push to a waiting Process Document or Wait For Transaction (its resume URL). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resume(this);
	}
}
