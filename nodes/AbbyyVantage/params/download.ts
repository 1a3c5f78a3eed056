import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireText } from '../helpers/validation';

/** The output binary field of a download operation. */
export function outputFieldProperty(what = 'file'): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: `The name of the output binary field to put the ${what} in`,
	};
}

export function readOutputField(ctx: IExecuteFunctions, itemIndex: number): string {
	return requireText(
		ctx,
		itemIndex,
		'Put Output File in Field',
		ctx.getNodeParameter('binaryPropertyName', itemIndex),
	);
}

/** One downloaded file as an output item: `json` describes it, the bytes go in `field`. */
export async function fileItem(
	ctx: IExecuteFunctions,
	field: string,
	bytes: Buffer,
	fileName: string,
	json: IDataObject,
	mimeType?: string,
): Promise<INodeExecutionData> {
	return {
		json: { ...json, fileName, fileSize: bytes.length },
		binary: { [field]: await ctx.helpers.prepareBinaryData(bytes, fileName, mimeType) },
	};
}
