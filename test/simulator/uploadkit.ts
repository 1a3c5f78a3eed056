/**
 * Shared by the simulator's processing tests: multipart bodies built by hand (the simulator's
 * parser must not be tested with itself), uploads, launches and polling.
 */
import { request } from 'undici';

import { api, raw, type RawResponse } from '../helpers/http';
import type { VantageSimulator } from './simulator';
import { TRANSACTIONS } from './testkit';

export const BOUNDARY = '----SimBoundary7MA4YWxkTrZu0gW';

export interface Part {
	name: string;
	filename?: string;
	contentType?: string;
	data: string | Buffer;
}

export interface FileSpec {
	name: string;
	data?: string | Buffer;
	contentType?: string;
}

/** A multipart/form-data body of `parts` with CRLF line ends. */
export function multipart(parts: Part[], boundary = BOUNDARY): Buffer {
	const chunks: Buffer[] = [];
	for (const part of parts) {
		const disposition =
			`form-data; name="${part.name}"` +
			(part.filename !== undefined
				? `; filename="${part.filename.replace(/["\\]/g, '\\$&')}"`
				: '');
		let head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n`;
		if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
		chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(part.data), Buffer.from('\r\n'));
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return Buffer.concat(chunks);
}

/** The parts of an upload: an optional Model (JSON) and one Files part per file. */
export function uploadParts(files: FileSpec[], model?: unknown): Part[] {
	return [
		...(model !== undefined
			? [{ name: 'Model', contentType: 'application/json', data: JSON.stringify(model) }]
			: []),
		...files.map((f) => ({
			name: 'Files',
			filename: f.name,
			contentType: f.contentType ?? 'application/octet-stream',
			data: f.data ?? `content of ${f.name}\n`,
		})),
	];
}

export async function postMultipart(
	sim: VantageSimulator,
	bearer: string,
	path: string,
	parts: Part[],
	contentType = `multipart/form-data; boundary=${BOUNDARY}`,
): Promise<RawResponse> {
	return await raw(sim.url + path, {
		method: 'POST',
		headers: { authorization: `Bearer ${bearer}`, 'content-type': contentType },
		body: multipart(parts),
	});
}

export async function addFiles(
	sim: VantageSimulator,
	bearer: string,
	transactionId: string,
	files: FileSpec[],
	model?: unknown,
): Promise<RawResponse> {
	return await postMultipart(
		sim,
		bearer,
		`${TRANSACTIONS}/${transactionId}/files`,
		uploadParts(files, model),
	);
}

export async function launch(
	sim: VantageSimulator,
	bearer: string,
	skillId: string,
	files: FileSpec[],
	model?: unknown,
): Promise<RawResponse> {
	const path = `${TRANSACTIONS}/launch?skillId=${encodeURIComponent(skillId)}`;
	return await postMultipart(sim, bearer, path, uploadParts(files, model));
}

/** Launch and return the transaction id (fails the test on anything but 201). */
export async function launched(
	sim: VantageSimulator,
	bearer: string,
	skillId: string,
	files: FileSpec[],
	model?: unknown,
): Promise<string> {
	const res = await launch(sim, bearer, skillId, files, model);
	if (res.status !== 201) throw new Error(`launch failed: ${res.status} ${res.text}`);
	return (res.json as { transactionId: string }).transactionId;
}

export interface TransactionDtoJson {
	id: string;
	status: string;
	manualReviewLink?: string;
	error?: string;
	sourceFiles: Array<{ id: string; name: string }>;
	documents?: Array<{
		id: string;
		resultFiles?: Array<{ fileId: string; fileName: string; type: string }>;
		classification?: { resultClass: { id: string; name: string } };
		businessRulesErrors?: unknown[];
	}>;
}

export async function info(
	sim: VantageSimulator,
	bearer: string,
	transactionId: string,
): Promise<TransactionDtoJson> {
	const res = await api(sim, bearer, 'GET', `${TRANSACTIONS}/${transactionId}`);
	if (res.status !== 200) throw new Error(`info failed: ${res.status} ${res.text}`);
	return res.json as TransactionDtoJson;
}

/** Poll GetTransactionInfo until the status is no longer New/Processing (at most `max` polls). */
export async function settle(
	sim: VantageSimulator,
	bearer: string,
	transactionId: string,
	max = 20,
): Promise<TransactionDtoJson> {
	for (let i = 0; i < max; i++) {
		const dto = await info(sim, bearer, transactionId);
		if (dto.status !== 'Processing' && dto.status !== 'New') return dto;
	}
	throw new Error(`transaction ${transactionId} did not finish in ${max} polls`);
}

/** A result or source file's bytes through DownloadFile. */
export async function download(
	sim: VantageSimulator,
	bearer: string,
	transactionId: string,
	fileId: string,
): Promise<{ status: number; contentType: string; body: Buffer }> {
	const res = await request(`${sim.url}${TRANSACTIONS}/${transactionId}/files/${fileId}/download`, {
		headers: { authorization: `Bearer ${bearer}` },
	});
	const body = Buffer.from(await res.body.arrayBuffer());
	return { status: res.statusCode, contentType: String(res.headers['content-type']), body };
}

/** The parsed `Json` result file of a processed transaction's document `n`. */
export async function resultJson(
	sim: VantageSimulator,
	bearer: string,
	dto: TransactionDtoJson,
	n = 0,
	type = 'Json',
): Promise<Record<string, unknown>> {
	const file = dto.documents?.[n].resultFiles?.find((f) => f.type === type);
	if (!file) throw new Error(`no ${type} result file in document ${n}`);
	const res = await download(sim, bearer, dto.id, file.fileId);
	return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
}
