/* eslint-disable @n8n/community-nodes/require-node-api-error --
 * Test infrastructure, never shipped: the simulator passes on HTTP problems, not n8n node errors. */
/**
 * Receiving multipart/form-data uploads (LaunchTransaction, AddFilesToTransaction,
 * AddFilesToTransactionDocument) straight from the request stream: an optional JSON part `Model`,
 * validated strictly, and parts `Files` with a file name. Of each file the simulator keeps name,
 * size, sha256, content type and the bytes up to 8 MB; of bigger files only the first 64 KB (their
 * downloads return those, see ./routes/documents.ts). Memory stays bounded for any upload size.
 */
import { createHash, type Hash } from 'node:crypto';
import type { z } from 'zod/v4';

import { bare, HttpProblem, problem, validationProblem, type RequestContext } from '../http';
import { formBoundary, MultipartError, MultipartParser, type PartSink } from '../multipart';

export interface ReceivedFile {
	/** As sent in Content-Disposition. */
	sentName: string;
	/** As stored (see `storedName`). */
	name: string;
	size: number;
	sha256: string;
	contentType: string;
	head: Buffer;
	truncated: boolean;
}

export interface Upload<M> {
	model: M | null;
	files: ReceivedFile[];
}

/** Bytes kept of a file; bigger files keep only HEAD_BYTES. */
export const KEEP_BYTES = 8 * 1024 * 1024;
export const HEAD_BYTES = 64 * 1024;
/** ASP.NET FormOptions.ValueLengthLimit: the largest form value (the Model part). */
const MAX_VALUE_BYTES = 4 * 1024 * 1024;

/**
 * The vendor replaces : / ? # [ ] @ ! $ & ' ( ) * + , ; = \ in uploaded file names with _
 * (docs.abbyy.com, processing documents with a single API call).
 */
export function storedName(name: string): string {
	return name.replace(/[:/?#[\]@!$&'()*+,;=\\]/g, '_');
}

class FileCapture implements PartSink {
	size = 0;
	private readonly hash: Hash = createHash('sha256');
	private chunks: Buffer[] = [];
	truncated = false;

	write(chunk: Buffer): void {
		this.size += chunk.length;
		this.hash.update(chunk);
		if (this.truncated) return;
		if (this.size <= KEEP_BYTES) {
			// Copy: the chunk may be a view of a larger network buffer.
			this.chunks.push(Buffer.from(chunk));
			return;
		}
		const head = Buffer.concat([...this.chunks, chunk]).subarray(0, HEAD_BYTES);
		this.chunks = [Buffer.from(head)];
		this.truncated = true;
	}

	end(): void {}

	result(sentName: string, contentType: string | null): ReceivedFile {
		return {
			sentName,
			name: storedName(sentName),
			size: this.size,
			sha256: this.hash.digest('hex'),
			contentType: contentType ?? 'application/octet-stream',
			head: Buffer.concat(this.chunks),
			truncated: this.truncated,
		};
	}
}

class ValueCapture implements PartSink {
	private chunks: Buffer[] = [];
	private size = 0;
	write(chunk: Buffer): void {
		this.size += chunk.length;
		if (this.size > MAX_VALUE_BYTES) {
			throw new MultipartError(`Form value length limit ${MAX_VALUE_BYTES} exceeded.`);
		}
		this.chunks.push(Buffer.from(chunk));
	}
	end(): void {}
	text(): string {
		return Buffer.concat(this.chunks).toString('utf8');
	}
}

const IGNORE: PartSink = { write: () => {}, end: () => {} };

function badForm(message: string): HttpProblem {
	return problem(400, 'One or more validation errors occurred.', undefined, {
		errors: { '': [message] },
	});
}

/**
 * Read the upload of `ctx` (a `stream` route). Errors: 413 when the body exceeds `maxBytes`
 * (Content-Length up front, or counted), 415 for another media type, 400 for a malformed body, a
 * `Model` that is not valid JSON or not `schema`, or a `Files` part without a file name.
 */
export async function receiveUpload<T extends z.ZodType>(
	ctx: RequestContext,
	schema: T,
	maxBytes: number,
	/** The form field of the files: `Files` for the uploads, `File` for CreateInvite. */
	filesField = 'Files',
): Promise<Upload<z.infer<T>>> {
	const { req } = ctx;
	const tooLarge = bare(413, { connection: 'close' });
	if (Number(req.headers['content-length'] ?? 0) > maxBytes) throw tooLarge;
	let boundary: string;
	try {
		const b = formBoundary(req.headers['content-type']);
		if (b === 'unsupported') throw problem(415, 'Unsupported Media Type');
		boundary = b;
	} catch (error) {
		if (error instanceof MultipartError) throw badForm(error.message);
		throw error;
	}

	const models: ValueCapture[] = [];
	const files: Array<{ capture: FileCapture; name: string; contentType: string | null }> = [];
	let fileless = false;
	const parser = new MultipartParser(boundary, (part) => {
		const name = part.name.toLowerCase();
		if (name === 'model' && part.filename === null) {
			const capture = new ValueCapture();
			models.push(capture);
			return capture;
		}
		if (name === filesField.toLowerCase()) {
			if (part.filename === null) {
				fileless = true;
				return IGNORE;
			}
			const capture = new FileCapture();
			files.push({ capture, name: part.filename, contentType: part.contentType });
			return capture;
		}
		// Other form fields are ignored, as ASP.NET's model binding does.
		return IGNORE;
	});

	const received = () => files.map((f) => f.capture.result(f.name, f.contentType));
	let total = 0;
	try {
		for await (const chunk of req.iterator({ destroyOnReturn: false })) {
			total += (chunk as Buffer).length;
			if (total > maxBytes) throw tooLarge;
			parser.push(chunk as Buffer);
		}
		parser.end();
	} catch (error) {
		// Discard the rest of the body, so the answer reaches the client.
		req.resume();
		ctx.logBody({ model: null, files: summary(received()), error: String(error) });
		if (error instanceof MultipartError) throw badForm(error.message);
		throw error;
	}

	const result = received();
	let model: z.infer<T> | null = null;
	let modelJson: unknown = null;
	const problems: HttpProblem[] = [];
	if (models.length > 1) problems.push(badForm('Only one Model part is allowed.'));
	else if (models.length === 1) {
		try {
			modelJson = JSON.parse(models[0].text());
			const parsed = schema.safeParse(modelJson);
			if (parsed.success) model = parsed.data;
			else {
				problems.push(
					validationProblem(parsed.error.issues.map((i) => ({ ...i, path: ['Model', ...i.path] }))),
				);
			}
		} catch (error) {
			problems.push(
				problem(400, 'One or more validation errors occurred.', undefined, {
					errors: { Model: [`The JSON value could not be converted: ${(error as Error).message}`] },
				}),
			);
		}
	}
	if (fileless)
		problems.push(badForm(`Every ${filesField} part must be a file (with a file name).`));
	ctx.logBody({ model: modelJson, files: summary(result) });
	if (problems.length) throw problems[0];
	return { model, files: result };
}

function summary(files: ReceivedFile[]) {
	return files.map((f) => ({
		name: f.sentName,
		storedName: f.name,
		size: f.size,
		sha256: f.sha256,
		contentType: f.contentType,
	}));
}
