import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalid } from '../../helpers/errors';
import { parseFileUrl } from '../../helpers/fileUrl';
import { requireInteger, requireText } from '../../helpers/validation';
import { FILE_URL_DEFAULT_MAX_MB, FILE_URL_MAX_REDIRECTS, MAX_UPLOAD_BYTES } from '../../constants';

/** Input Files → File URL: the link and the largest file the node downloads from it. */
const MB = 1024 * 1024;

export const fileUrlProperties: INodeProperties[] = [
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://storage.example.com/invoices/4711.pdf',
		description: `An http or https link to the file, e.g. a presigned S3, Azure or Google Cloud Storage link. The node downloads it (following up to ${FILE_URL_MAX_REDIRECTS} redirects) and names it as the answer's Content-Disposition does, else after the link's last path segment.`,
		displayOptions: { show: { inputFiles: ['url'] } },
	},
	{
		displayName: 'Max File Size (MB)',
		name: 'maxFileSizeMb',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_UPLOAD_BYTES / MB },
		default: FILE_URL_DEFAULT_MAX_MB,
		description:
			'A larger file is not downloaded (the download stops once it passes this size), and nothing is sent to Vantage',
		displayOptions: { show: { inputFiles: ['url'] } },
	},
];

/** Whether item `itemIndex` takes its file from a link. */
export function usesFileUrl(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return ctx.getNodeParameter('inputFiles', itemIndex, 'selected') === 'url';
}

/** The item's link, checked: only http and https, refused naming the item before any request. */
export function readFileUrl(ctx: IExecuteFunctions, itemIndex: number): URL {
	const text = requireText(
		ctx,
		itemIndex,
		'File URL',
		ctx.getNodeParameter('fileUrl', itemIndex, ''),
	);
	const url = parseFileUrl(text);
	if (typeof url === 'string') {
		throw invalid(
			ctx,
			itemIndex,
			`File URL ${url}`,
			'Give a link that starts with http:// or https://, e.g. a presigned storage link. Other schemes (file, ftp, data…) are never fetched.',
		);
	}
	return url;
}

export function readMaxFileBytes(ctx: IExecuteFunctions, itemIndex: number): number {
	const mb = requireInteger(
		ctx,
		itemIndex,
		'Max File Size (MB)',
		ctx.getNodeParameter('maxFileSizeMb', itemIndex, FILE_URL_DEFAULT_MAX_MB),
		1,
		MAX_UPLOAD_BYTES / MB,
	);
	return mb * MB;
}
