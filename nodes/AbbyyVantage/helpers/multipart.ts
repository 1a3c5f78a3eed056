/**
 * multipart/form-data bodies for Vantage's upload operations (LaunchTransaction,
 * AddFilesToTransaction, AddFilesToTransactionDocument, and CreateInvite): one JSON part named
 * `Model` and one part named `Files` per file (CreateInvite: one `File`), as the OpenAPI document
 * declares. Built by hand (no runtime
 * dependencies) and streamed when a file is streamed, so memory does not grow with file size.
 */

/** One file to upload. */
export interface UploadPart {
	/** The file name Vantage receives (unique within the transaction). */
	name: string;
	size: number;
	/** Whether `open` gives a stream (a file n8n keeps on disk) rather than a Buffer. */
	streamed: boolean;
	open: () => Promise<Buffer | AsyncIterable<Uint8Array>>;
}

export interface MultipartBody {
	/** A Buffer, or a Node.js Readable when a file is streamed. */
	body: Buffer | object;
	contentType: string;
	length: number;
}

export type StreamFrom = (source: AsyncIterable<Uint8Array>) => object;

const CRLF = '\r\n';

/** 32 random hex digits; a boundary only has to be absent from the content. */
function newBoundary(): string {
	let hex = '';
	for (let i = 0; i < 4; i++)
		hex += Math.floor(Math.random() * 2 ** 32)
			.toString(16)
			.padStart(8, '0');
	return `----n8nVantage${hex}`;
}

/** RFC 7578 §4.2: the name as UTF-8 in quotes; only `"`, CR and LF are percent-encoded. */
function quoted(name: string): string {
	return name.replace(/["\r\n]/g, (c) => (c === '"' ? '%22' : c === '\r' ? '%0D' : '%0A'));
}

/**
 * The Readable class, taken from a stream n8n handed over: community nodes may not import
 * `stream`. Node's `Readable.from` is inherited by every stream class.
 */
export function streamFromOf(stream: unknown): StreamFrom | undefined {
	const ctor = (stream as { constructor?: { from?: unknown } } | null)?.constructor;
	return typeof ctor?.from === 'function' ? (ctor.from.bind(ctor) as StreamFrom) : undefined;
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of source) chunks.push(Buffer.from(chunk));
	return Buffer.concat(chunks);
}

/**
 * Build the body of one upload; call again for every attempt (a stream can be read once).
 * `fileField` names the file parts: `Files` for the uploads, `File` for CreateInvite.
 */
export async function buildMultipart(
	model: object | undefined,
	files: UploadPart[],
	fileField = 'Files',
): Promise<MultipartBody> {
	const boundary = newBoundary();
	const modelPart =
		model === undefined
			? Buffer.alloc(0)
			: Buffer.from(
					`--${boundary}${CRLF}Content-Disposition: form-data; name="Model"${CRLF}` +
						`Content-Type: application/json${CRLF}${CRLF}${JSON.stringify(model)}${CRLF}`,
				);
	const heads = files.map((file) =>
		Buffer.from(
			`--${boundary}${CRLF}Content-Disposition: form-data; name="${fileField}"; filename="${quoted(file.name)}"${CRLF}` +
				`Content-Type: application/octet-stream${CRLF}${CRLF}`,
		),
	);
	const newline = Buffer.from(CRLF);
	const tail = Buffer.from(`--${boundary}--${CRLF}`);
	const length =
		modelPart.length +
		files.reduce((sum, file, i) => sum + heads[i].length + file.size + newline.length, 0) +
		tail.length;
	const contentType = `multipart/form-data; boundary=${boundary}`;

	if (!files.some((file) => file.streamed)) {
		const parts: Buffer[] = [modelPart];
		for (let i = 0; i < files.length; i++) {
			parts.push(heads[i], await collectAny(await files[i].open()), newline);
		}
		parts.push(tail);
		return { body: Buffer.concat(parts), contentType, length };
	}

	// Open the first streamed file now: it carries the stream class the body is built with.
	const firstStreamed = files.findIndex((file) => file.streamed);
	const opened = new Map<number, Buffer | AsyncIterable<Uint8Array>>([
		[firstStreamed, await files[firstStreamed].open()],
	]);
	const from = streamFromOf(opened.get(firstStreamed));
	async function* generate(): AsyncGenerator<Uint8Array> {
		try {
			yield modelPart;
			for (let i = 0; i < files.length; i++) {
				yield heads[i];
				const source = opened.get(i) ?? (await files[i].open());
				opened.set(i, source);
				if (Buffer.isBuffer(source)) yield source;
				else for await (const chunk of source) yield chunk;
				opened.delete(i);
				yield newline;
			}
			yield tail;
		} finally {
			// A request that ends early (refused, cancelled) must not leave files open.
			for (const source of opened.values()) (source as { destroy?: () => void }).destroy?.();
		}
	}
	// Without a stream class (not expected from n8n) the body is gathered in memory instead.
	const body = from ? from(generate()) : await collect(generate());
	return { body, contentType, length };
}

async function collectAny(source: Buffer | AsyncIterable<Uint8Array>): Promise<Buffer> {
	return Buffer.isBuffer(source) ? source : await collect(source);
}
