import type {
	ICredentialDataDecryptedObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { searchSkills } from '../AbbyyVantage/methods/listSearch';
import {
	authenticationProperty,
	credentialDescriptions,
} from '../AbbyyVantage/params/authentication';
import { triggerResultProperties } from '../AbbyyVantage/params/resultOptions';
import { skillFilterProperty } from '../AbbyyVantage/params/skill';
import { transactionEventsProperty } from '../AbbyyVantage/params/transactionEvents';
import { optionsProperty, receive } from './receive';
import { EVENT_SECRET, secretProblem, testEventSecret } from '../AbbyyVantage/vantage/eventSecret';

/** The ABBYY Vantage credentials, each shown for its Authentication choice (as the other nodes have them). */
const [passwordCredential, oAuth2Credential] = credentialDescriptions;

/**
 * Vantage tells n8n: a Process skill's Custom activity runs the script
 * custom-activity/n8n-events.js, which posts a small signed event the moment a transaction is
 * processed or enters Manual Review. This trigger checks the event
 * (../AbbyyVantage/vantage/pushedEvents.ts), answers at once, confirms the transaction through the
 * Vantage API with the user's credential (../AbbyyVantage/vantage/confirmation.ts) and
 * starts one execution per transaction state (./receive.ts), with the item the ABBYY Vantage
 * Trigger would emit for it. docs/instant-trigger.md tells the whole story.
 */
export class AbbyyVantageInstantTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ABBYY Vantage Instant Trigger',
		name: 'abbyyVantageInstantTrigger',
		icon: {
			light: 'file:../../icons/abbyyVantage.svg',
			dark: 'file:../../icons/abbyyVantage.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["events"].includes("manualReview") ? ($parameter["events"].includes("transactionCompleted") ? "Completed or Awaiting Manual Review" : "Awaiting Manual Review") : "Transaction Completed"}}',
		description:
			'Starts the workflow the moment a Process skill’s Custom activity reports a transaction processed or waiting for review',
		defaults: { name: 'ABBYY Vantage Instant Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ ...passwordCredential },
			{ ...oAuth2Credential },
			{
				name: 'abbyyVantageEventSecretApi',
				required: true,
				testedBy: 'abbyyVantageEventSecretTest',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'events',
			},
		],
		eventTriggerDescription: 'Waiting for ABBYY Vantage to push an event',
		activationMessage:
			'Transactions now start this workflow as soon as the Custom activity reports them.',
		properties: [
			{
				displayName:
					'Paste the script custom-activity/n8n-events.js from this package’s repository into a Custom activity of your Process skill: after the Review step for Transaction Completed; before it, with EVENT set to "transaction.manualReview", for Transaction Awaiting Manual Review. In Vantage’s Configuration → Environment Variables, set n8n-events-url to the Production URL above and n8n-events-secret to the Event Secret credential’s Secret.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			authenticationProperty,
			transactionEventsProperty,
			skillFilterProperty('skillId', 'Only transactions of this skill; empty for any skill'),
			{
				displayName: 'Include Results',
				name: 'includeResults',
				type: 'boolean',
				default: false,
				description:
					'Whether to fetch the extracted fields of a completed transaction, as Process Document outputs them (one item per document), instead of only the transaction',
				displayOptions: { show: { events: ['transactionCompleted'] } },
			},
			...triggerResultProperties({ show: { events: ['transactionCompleted'] } }),
			optionsProperty,
		],
	};

	methods = {
		listSearch: { searchSkills },
		credentialTest: { abbyyVantageEventSecretTest: testEventSecret },
	};

	webhookMethods = {
		default: {
			/**
			 * Vantage keeps no registration n8n could look up: the address lives in the tenant's
			 * environment variable n8n-events-url, which the user sets. n8n then calls `create`.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			/** Activation: refuse an Event Secret that cannot sign events safely. */
			async create(this: IHookFunctions): Promise<boolean> {
				const problem = secretProblem(
					await this.getCredentials<ICredentialDataDecryptedObject>(EVENT_SECRET),
				);
				if (problem) {
					throw new NodeOperationError(
						this.getNode(),
						`The Event Secret credential cannot be used: ${problem}`,
						{
							description:
								'Edit the ABBYY Vantage Event Secret credential: its Secret is the value of n8n-events-secret in Vantage’s Configuration → Environment Variables.',
						},
					);
				}
				return true;
			},
			/** Deactivation: nothing to remove in Vantage (its n8n-events-url stays until the user changes it). */
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receive(this);
	}
}
