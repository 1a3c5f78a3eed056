import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DAY_SECONDS, MAX_INVITE_VALID_DAYS } from '../../constants';
import { readInputFiles, type InputFile } from '../../helpers/binaryInput';
import { invalid } from '../../helpers/errors';
import { runPreparedPerItem } from '../../helpers/items';
import { buildMultipart } from '../../helpers/multipart';
import { describeValue, isBlank, optionalText, requireText } from '../../helpers/validation';
import { endpoints, type VantageClient } from '../../transport';
import { concurrencyOnlyOptions, readRunConcurrency } from '../../params/concurrency';
import { readCollection } from '../../params/collections';

/**
 * Tenant → Create Invite: CreateInvite (`POST /api/publicapi/v1/invites`, Processing API), a
 * multipart request whose `Model` is CreateAdminInviteData (`email` and `tenantName` required,
 * `validWithin` a .NET TimeSpan such as "14.00:00:00", `useMySubscription`, `tenantDescription`)
 * and an optional `File`. Vantage e-mails the invite; the answer is 200 without a body. The
 * OpenAPI document says "To access this method, you need to contact support".
 */
const CONCURRENCY = { max: 8, what: 'invites' };

/** RFC 5321: at most 254 characters in all, 64 before the @. */
const EMAIL = /^[^\s@",;<>()[\]\\]{1,64}@(?:[^\s@",;<>()[\]\\.]+\.)+[^\s@",;<>()[\]\\.\d]{2,}$/;

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'Who receives the invite',
	},
	{
		displayName: 'Tenant Name',
		name: 'tenantName',
		type: 'string',
		required: true,
		default: '',
		description: 'Name of the tenant the invited person creates',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'File From Binary Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: '',
				placeholder: 'e.g. data',
				description:
					'Name of an input binary field whose file is sent with the invite (the request’s File part)',
			},
			{
				displayName: 'Tenant Description',
				name: 'tenantDescription',
				type: 'string',
				default: '',
				description: 'Description of the tenant to be created',
			},
			{
				displayName: 'Use My Subscription',
				name: 'useMySubscription',
				type: 'boolean',
				default: false,
				description:
					'Whether the new tenant uses the active subscription of the credential’s tenant',
			},
			{
				displayName: 'Valid For (Days)',
				name: 'validDays',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: MAX_INVITE_VALID_DAYS, numberPrecision: 2 },
				default: 14,
				description: `How long the invite can be accepted, from 1 minute to ${MAX_INVITE_VALID_DAYS} days. Empty: Vantage’s default.`,
			},
		],
	},
	concurrencyOnlyOptions(CONCURRENCY),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tenant'], operation: ['createInvite'] } },
	properties,
);

/** 1.5 days → "1.12:00:00", .NET's TimeSpan text ("14.00:00:00" in the OpenAPI example). */
export function timeSpan(seconds: number): string {
	const two = (n: number) => String(n).padStart(2, '0');
	const days = Math.floor(seconds / DAY_SECONDS);
	const rest = seconds - days * DAY_SECONDS;
	return `${days}.${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`;
}

interface Plan {
	model: IDataObject;
	file?: InputFile;
}

function readEmail(ctx: IExecuteFunctions, itemIndex: number): string {
	const email = requireText(ctx, itemIndex, 'Email', ctx.getNodeParameter('email', itemIndex));
	if (email.length > 254 || !EMAIL.test(email)) {
		throw invalid(
			ctx,
			itemIndex,
			`Email ${describeValue(email)} is not an e-mail address`,
			'Enter one address such as name@example.com, without a display name or angle brackets.',
		);
	}
	return email;
}

function readValidWithin(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
): string | undefined {
	if (isBlank(value)) return undefined;
	const days = typeof value === 'string' ? Number(value) : value;
	const seconds = typeof days === 'number' ? Math.round(days * DAY_SECONDS) : NaN;
	if (!Number.isFinite(seconds) || seconds < 60 || seconds > MAX_INVITE_VALID_DAYS * DAY_SECONDS) {
		throw invalid(
			ctx,
			itemIndex,
			`Valid For (Days) must be a number of days from 1 minute (0.0007) to ${MAX_INVITE_VALID_DAYS}, not ${describeValue(value)}`,
		);
	}
	return timeSpan(seconds);
}

async function prepare(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
): Promise<Plan> {
	const fields = readCollection(ctx, itemIndex, 'additionalFields');
	const model: IDataObject = {
		email: readEmail(ctx, itemIndex),
		tenantName: requireText(
			ctx,
			itemIndex,
			'Tenant Name',
			ctx.getNodeParameter('tenantName', itemIndex),
		),
	};
	const validWithin = readValidWithin(ctx, itemIndex, fields.validDays);
	if (validWithin) model.validWithin = validWithin;
	if (fields.useMySubscription !== undefined && typeof fields.useMySubscription !== 'boolean') {
		throw invalid(ctx, itemIndex, 'Use My Subscription must be true or false');
	}
	if (fields.useMySubscription === true) model.useMySubscription = true;
	const tenantDescription = optionalText(
		ctx,
		itemIndex,
		'Tenant Description',
		fields.tenantDescription,
	);
	if (tenantDescription) model.tenantDescription = tenantDescription;
	const property = optionalText(
		ctx,
		itemIndex,
		'File From Binary Field',
		fields.binaryPropertyName,
	);
	if (!property) return { model };
	const [file] = await readInputFiles(ctx, items[itemIndex], itemIndex, {
		all: false,
		names: [property],
	});
	return { model, file };
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, CONCURRENCY, client);
	// Every item is checked before the first invite is sent (see runPreparedPerItem).
	return await runPreparedPerItem(
		this,
		items,
		async (itemIndex) => await prepare(this, items, itemIndex),
		async ({ model, file }, itemIndex) => {
			await client.request({
				...endpoints.createInvite(),
				upload: async () => await buildMultipart(model, file ? [file] : [], 'File'),
				ignoreBody: true,
				itemIndex,
				action: `inviting ${String(model.email)} to create tenant "${String(model.tenantName)}"`,
				hints: {
					403: 'ABBYY support enables invites for a tenant ("To access this method, you need to contact support"), and the credential’s user must be allowed to invite.',
				},
			});
			return {
				json: {
					...model,
					useMySubscription: model.useMySubscription === true,
					...(file ? { fileName: file.name } : {}),
					invited: true,
				},
			};
		},
		concurrency,
		({ json }) => `invite for ${String(json.email)}`,
	);
}
