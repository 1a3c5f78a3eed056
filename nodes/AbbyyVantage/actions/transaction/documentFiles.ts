import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readFileSelection } from './inputFiles';
import { readInputFiles, type InputFile } from '../../helpers/binaryInput';
import { downloadFile } from '../../transport/download';
import { FILE_URL_MAX_REDIRECTS } from '../../constants';
import { readFileLink, readMaxFileBytes, usesFileUrl } from './fileUrl';

/**
 * The files of one input item for Process Document and Add Files: its binary fields, or the
 * file at its File URL, downloaded into n8n's binary store and uploaded from there like any
 * binary (streamed when n8n keeps binaries on disk).
 */
export async function readDocumentFiles(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	timeoutMs: number,
): Promise<InputFile[]> {
	if (!usesFileUrl(ctx, itemIndex)) {
		return await readInputFiles(ctx, item, itemIndex, readFileSelection(ctx, itemIndex));
	}
	const { url, allowed } = readFileLink(ctx, itemIndex);
	const maxBytes = readMaxFileBytes(ctx, itemIndex);
	const file = await downloadFile(
		ctx,
		url,
		{ maxBytes, maxRedirects: FILE_URL_MAX_REDIRECTS, timeoutMs, allowed },
		itemIndex,
	);
	const { binary } = file;
	const streamed = typeof binary.id === 'string' && binary.id !== '';
	return [
		{
			itemIndex,
			property: 'fileUrl',
			originalName: file.fileName,
			name: file.fileName,
			mimeType: file.mimeType,
			size: file.size,
			streamed,
			open: async () =>
				streamed
					? ((await ctx.helpers.getBinaryStream(
							binary.id as string,
						)) as unknown as AsyncIterable<Uint8Array>)
					: Buffer.from(binary.data, 'base64'),
		},
	];
}

/**
 * Every item's File URL checked before anything is sent (a download is a request too): without
 * Continue On Fail the first link that is not http or https, or that points to an internal host
 * the user did not list (or an Allowed Internal Hosts entry that cannot be read), stops the run
 * before any download or upload. With it, each item is refused on its own when its files are read.
 */
export function checkFileUrls(ctx: IExecuteFunctions, items: INodeExecutionData[]): void {
	if (ctx.continueOnFail()) return;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		if (usesFileUrl(ctx, itemIndex)) readFileLink(ctx, itemIndex);
	}
}
