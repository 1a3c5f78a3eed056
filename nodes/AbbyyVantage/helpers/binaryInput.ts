import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { MAX_FILES_PER_TRANSACTION, MAX_UPLOAD_BYTES } from '../constants';
import { invalid } from './errors';
import { withSuffix } from './fileNames';
import { count } from './text';
import type { UploadPart } from './multipart';

/** One input binary to upload. */
export interface InputFile extends UploadPart {
	itemIndex: number;
	/** The binary property it came from. */
	property: string;
	/** The name it had in n8n (or one built from the MIME type). */
	originalName: string;
	mimeType: string;
	/** Auto Crop / Auto Orientation of the item it came from, when set. */
	imageProcessingOptions?: IDataObject;
}

/** Which binary properties of an item to upload. */
export interface FileSelection {
	all: boolean;
	/** Property names, when not `all`. */
	names: string[];
}

const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/tiff': 'tif',
	'image/bmp': 'bmp',
	'image/gif': 'gif',
	'text/plain': 'txt',
	'application/msword': 'doc',
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/** "data, attachment_0" → ["data", "attachment_0"]. */
export function parseSelection(all: boolean, names: string): FileSelection {
	return {
		all,
		names: names
			.split(',')
			.map((name) => name.trim())
			.filter((name) => name !== ''),
	};
}

/** The usual extension of a MIME type ("application/pdf" → "pdf"), or "bin". */
export function extensionFor(mimeType: string | undefined): string {
	return EXTENSIONS[(mimeType ?? '').split(';')[0].trim().toLowerCase()] ?? 'bin';
}

function fallbackName(property: string, binary: IBinaryData): string {
	const extension = binary.fileExtension ?? extensionFor(binary.mimeType);
	return `${property}.${extension}`;
}

/**
 * The binaries of one item, checked before any request: each named property must exist and hold
 * a non-empty file. Files n8n keeps outside memory (filesystem or S3 mode) are streamed.
 */
export async function readInputFiles(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	selection: FileSelection,
): Promise<InputFile[]> {
	const binaries = item.binary ?? {};
	const properties = selection.all ? Object.keys(binaries) : selection.names;
	if (properties.length === 0) {
		throw invalid(
			ctx,
			itemIndex,
			selection.all
				? 'The input item has no binary data to process'
				: 'Input Binary Fields is empty',
			'Pass files into this node, e.g. from Read/Write Files from Disk, an e-mail trigger or an HTTP Request.',
		);
	}
	const files: InputFile[] = [];
	for (const property of properties) {
		const binary = binaries[property];
		if (!binary) {
			const present = Object.keys(binaries);
			throw invalid(
				ctx,
				itemIndex,
				`The input item has no binary field "${property}"`,
				present.length
					? `Its binary fields are: ${present.join(', ')}.`
					: 'It has no binary data at all.',
			);
		}
		const streamed = typeof binary.id === 'string' && binary.id !== '';
		const size = streamed
			? Number((await ctx.helpers.getBinaryMetadata(binary.id as string)).fileSize)
			: Buffer.byteLength(binary.data ?? '', 'base64');
		const originalName = binary.fileName?.trim() || fallbackName(property, binary);
		if (!(size > 0)) {
			throw invalid(
				ctx,
				itemIndex,
				`The file in binary field "${property}" (${originalName}) is empty`,
			);
		}
		files.push({
			itemIndex,
			property,
			originalName,
			name: originalName,
			mimeType: binary.mimeType || 'application/octet-stream',
			size,
			streamed,
			open: async () =>
				streamed
					? ((await ctx.helpers.getBinaryStream(
							binary.id as string,
						)) as unknown as AsyncIterable<Uint8Array>)
					: await ctx.helpers.getBinaryDataBuffer(itemIndex, property),
		});
	}
	return files;
}

/**
 * The name Vantage stores: it replaces these characters with `_` (docs.abbyy.com, processing
 * documents with a single API call). Compared without case, to be safe.
 */
export function storedKey(name: string): string {
	return name.replace(/[:/?#[\]@!$&'()*+,;=\\]/g, '_').toLowerCase();
}

export interface RenamedFile {
	from: string;
	to: string;
	item: number;
	property: string;
}

/**
 * Make every name unique within the transaction (Vantage answers 409 to a duplicate): a name
 * that is taken, by an earlier file or by one of `taken` (names already in the transaction),
 * gets "-2", "-3"… before its extension. Returns the files that were renamed.
 */
export function assignUniqueNames(files: InputFile[], taken: Iterable<string> = []): RenamedFile[] {
	const used = new Set([...taken].map(storedKey));
	const renamed: RenamedFile[] = [];
	for (const file of files) {
		let name = file.originalName;
		for (let n = 2; used.has(storedKey(name)); n++) name = withSuffix(file.originalName, n);
		used.add(storedKey(name));
		file.name = name;
		if (name !== file.originalName) {
			renamed.push({
				from: file.originalName,
				to: name,
				item: file.itemIndex,
				property: file.property,
			});
		}
	}
	return renamed;
}

/** "2.35 GB (2,523,456,789 bytes)": rounding alone could hide that a size is over the limit. */
function describeSize(bytes: number): string {
	return `${(bytes / 1024 ** 3).toFixed(2)} GB (${bytes.toLocaleString('en-US')} bytes)`;
}

/**
 * The vendor's limits for one upload, checked before any request: at most 1000 files, at most
 * 2 GB. A single file over the limit is named with its own item and binary field.
 */
export function checkUploadLimits(
	ctx: IExecuteFunctions,
	itemIndex: number,
	files: InputFile[],
): void {
	if (files.length > MAX_FILES_PER_TRANSACTION) {
		throw invalid(
			ctx,
			itemIndex,
			`${count(files.length, 'file')} are more than one transaction takes (${MAX_FILES_PER_TRANSACTION})`,
			'Process the files in several runs, e.g. with Loop Over Items.',
		);
	}
	const advice = 'Split the file, or send fewer files per transaction.';
	const big = files.find((file) => file.size > MAX_UPLOAD_BYTES);
	if (big) {
		throw invalid(
			ctx,
			big.itemIndex,
			`The file in binary field "${big.property}" (${big.originalName}) is ${describeSize(big.size)}, more than the 2 GB Vantage accepts in one upload`,
			advice,
		);
	}
	const total = files.reduce((sum, file) => sum + file.size, 0);
	if (total > MAX_UPLOAD_BYTES) {
		throw invalid(
			ctx,
			itemIndex,
			`The ${count(files.length, 'file')} add up to ${describeSize(total)}, more than the 2 GB Vantage accepts in one upload`,
			advice,
		);
	}
}
