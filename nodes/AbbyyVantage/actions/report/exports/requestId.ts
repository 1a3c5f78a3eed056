import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requirePathParameter } from '../../../helpers/validation';

export const requestIdProperty: INodeProperties = {
	displayName: 'Request ID',
	name: 'requestId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3f2c8a8e-5d1b-4f3e-9a57-2b9c0e6d4f10',
	description: 'ID of the export request, as returned by Create Export',
};

export function readRequestId(ctx: IExecuteFunctions, itemIndex: number): string {
	return requirePathParameter(
		ctx,
		itemIndex,
		'Request ID',
		ctx.getNodeParameter('requestId', itemIndex),
	);
}
