import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as catalog from './actions/catalog/Catalog.resource';
import * as report from './actions/report/Report.resource';
import { router } from './actions/router';
import * as transactionDocument from './actions/transactionDocument/TransactionDocument.resource';
import { searchCatalogs } from './methods/listSearch';

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
			'Export transaction-step reports, add transaction documents and clean up catalogs in ABBYY Vantage',
		defaults: { name: 'ABBYY Vantage' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'abbyyVantageApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Catalog', value: 'catalog' },
					{ name: 'Report', value: 'report' },
					{ name: 'Transaction Document', value: 'transactionDocument' },
				],
				default: 'report',
			},
			...catalog.description,
			...report.description,
			...transactionDocument.description,
			{
				displayName: 'Request Options',
				name: 'requestOptions',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Max Retries',
						name: 'maxRetries',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 10 },
						default: 3,
						description:
							'How often to resend a request that is safe to repeat after a rate limit (429), a gateway failure (502–504) or a network failure. Requests that create something are never resent.',
					},
					{
						displayName: 'Max Retry Delay (Seconds)',
						name: 'maxRetryDelay',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 2 },
						default: 30,
						description:
							'Longest wait before a retry. A Retry-After asking for longer ends the retries.',
					},
					{
						displayName: 'Retry Delay (Seconds)',
						name: 'retryDelay',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 2 },
						default: 1,
						description: 'Wait before the first retry; it doubles for each further retry',
					},
					{
						displayName: 'Timeout (Seconds)',
						name: 'timeout',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 60,
						description: 'How long to wait for each response',
					},
				],
			},
		],
	};

	methods = { listSearch: { searchCatalogs } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
