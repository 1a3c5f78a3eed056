import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

/** An in-memory n8n binary, as a Read/Write Files from Disk or an e-mail trigger hands it over. */
export function binaryFile(
	fileName: string | undefined,
	content: string | Buffer,
	mimeType = 'application/pdf',
): IBinaryData {
	const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
	return {
		data: bytes.toString('base64'),
		mimeType,
		...(fileName !== undefined ? { fileName } : {}),
		fileSize: `${bytes.length} B`,
	};
}

/** An input item carrying files in binary fields (`data` by default). */
export function fileItem(
	files: Record<string, IBinaryData> | IBinaryData,
	json: IDataObject = {},
): INodeExecutionData {
	const binary =
		'data' in files && typeof files.data === 'string'
			? { data: files as IBinaryData }
			: (files as Record<string, IBinaryData>);
	return { json, binary };
}

/** The text of an invoice the simulator extracts fields from (see test/simulator results). */
export function invoiceText(fields: {
	number: string;
	date?: string;
	total?: string;
	vendor?: string;
	lines?: Array<[string, string, string]>;
	poNumbers?: string[];
	extra?: string[];
}): string {
	const lines = [`InvoiceNumber: ${fields.number}`];
	if (fields.date) lines.push(`InvoiceDate: ${fields.date}`);
	if (fields.total) lines.push(`Total: ${fields.total}`);
	if (fields.vendor) lines.push(`Vendor.Name: ${fields.vendor}`);
	if (fields.poNumbers) lines.push(`PONumbers: ${fields.poNumbers.join(', ')}`);
	for (const [description, quantity, amount] of fields.lines ?? []) {
		lines.push(`LineItem: ${description}; ${quantity}; ${amount}`);
	}
	lines.push(...(fields.extra ?? []));
	return lines.join('\n') + '\n';
}
