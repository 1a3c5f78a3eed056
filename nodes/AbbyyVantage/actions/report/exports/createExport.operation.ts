import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkDateOrder, optionalUtcDateTime, toUtcDateTime } from '../../../helpers/dates';
import { apiError, invalid } from '../../../helpers/errors';
import { runPreparedPerItem } from '../../../helpers/items';
import { optionalText } from '../../../helpers/validation';
import { endpoints, type VantageClient } from '../../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../../params/concurrency';
import { readCollection } from '../../../params/collections';
import { readSkillFilter, skillFilterProperty } from '../../../params/skill';
import { REPORT_ACCESS_HINTS } from '../../../vantage/exports';

const CONCURRENCY = { max: 8, what: 'exports' };

const properties: INodeProperties[] = [
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			'Include transaction steps completed at or after this time. Vantage keeps 12 months of reporting data.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'End Date',
				name: 'endDate',
				type: 'dateTime',
				default: '',
				description: 'Include steps completed up to this time. Empty means now.',
			},
			{
				displayName: 'Send Email Notification',
				name: 'sendEmailNotification',
				type: 'boolean',
				default: false,
				description: 'Whether Vantage e-mails the credential’s user when the export is ready',
			},
			skillFilterProperty('skillId', 'Only include transactions of this skill'),
			{
				displayName: 'Transaction ID',
				name: 'transactionId',
				type: 'string',
				default: '',
				description: 'Only include this transaction',
			},
		],
	},
	concurrencyOnlyOptions(CONCURRENCY),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['report'], operation: ['createExport'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	// Every item is checked before the first export is created (see runPreparedPerItem).
	return await runPreparedPerItem(
		this,
		items,
		(itemIndex) => {
			const fields = readCollection(this, itemIndex, 'additionalFields');
			const startDate = toUtcDateTime(
				this,
				itemIndex,
				'Start Date',
				this.getNodeParameter('startDate', itemIndex),
			);
			const filters: IDataObject = { startDate };
			const endDate = optionalUtcDateTime(this, itemIndex, 'End Date', fields.endDate);
			checkDateOrder(
				this,
				itemIndex,
				{ displayName: 'Start Date', value: startDate },
				{ displayName: 'End Date', value: endDate },
				{ allowEqual: true },
			);
			if (endDate) filters.endDate = endDate;
			const skillId = readSkillFilter(this, itemIndex, fields.skillId);
			if (skillId) filters.skillId = skillId;
			const transactionId = optionalText(this, itemIndex, 'Transaction ID', fields.transactionId);
			if (transactionId) filters.transactionId = transactionId;
			if (
				fields.sendEmailNotification !== undefined &&
				typeof fields.sendEmailNotification !== 'boolean'
			) {
				throw invalid(this, itemIndex, 'Send Email Notification must be true or false');
			}
			const body: IDataObject = { filters };
			if (fields.sendEmailNotification === true) body.sendEmailNotification = true;
			return body;
		},
		async (body, itemIndex) => {
			const response = await client.request<IDataObject | undefined>({
				...endpoints.createTransactionStepsExportRequest(),
				body,
				itemIndex,
				action: 'creating the transaction-steps export',
				hints: REPORT_ACCESS_HINTS,
			});
			const requestId = response?.requestId;
			if (typeof requestId !== 'string' || requestId === '') {
				throw apiError(
					this.getNode(),
					itemIndex,
					(response ?? {}) as JsonObject,
					'ABBYY Vantage answered without a request ID',
					{
						description:
							'The export may have been created: list your export requests in Vantage to find it.',
					},
				);
			}
			return { json: { requestId, ...body } };
		},
		concurrency,
		({ json }) => `export ${String(json.requestId)}`,
	);
}
