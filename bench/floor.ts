/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports --
 * Benchmark floor, never shipped: a raw undici client with timers, files and streams. */
/**
 * The floor: a raw undici client sending the optimal request sequence for each benchmarked task,
 * with keep-alive connections, one token, the same concurrency and poll interval as the node,
 * and nothing the task does not need. It checks the answers it relies on, as the node does.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { Pool, request } from 'undici';

// The fixture alone (no imports), not test/helpers/http: that loads the whole simulator.
import { tokenForm } from '../test/helpers/http';
import { CsvRecordCounter } from '../nodes/AbbyyVantage/helpers/csv';
import { BENCH_CATALOG, invoiceNumber, PROCESS, QA_REPORT, SYNC, type SyncItem } from './scenario';

const API = '/api/publicapi/v1';
const FINAL = ['Processed', 'Failed', 'Canceled'];

/** The password grant the tests send. */
export async function token(simUrl: string): Promise<string> {
	const res = await request(`${simUrl}/auth2/connect/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: tokenForm(),
	});
	return ((await res.body.json()) as { access_token: string }).access_token;
}

/** Run `task` over `inputs` with `limit` in flight. */
export async function pool<T>(
	inputs: T[],
	limit: number,
	task: (input: T, index: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, inputs.length) }, async () => {
			while (next < inputs.length) {
				const index = next++;
				await task(inputs[index], index);
			}
		}),
	);
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

function batches<T>(values: T[], size: number): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
	return out;
}

/** One keep-alive pool and a bearer token; JSON calls that throw on an unexpected status. */
class Client {
	private constructor(
		readonly pool: Pool,
		private readonly bearer: string,
	) {}

	static async open(simUrl: string, connections: number): Promise<Client> {
		return new Client(new Pool(simUrl, { connections }), await token(simUrl));
	}

	async call(
		method: 'GET' | 'POST',
		path: string,
		expect: number,
		body?: string | Buffer | Readable,
		headers: Record<string, string> = {},
	): Promise<Buffer> {
		const res = await this.pool.request({
			method,
			path,
			headers: { authorization: `Bearer ${this.bearer}`, ...headers },
			body,
		});
		const bytes = Buffer.from(await res.body.arrayBuffer());
		if (res.statusCode !== expect) {
			throw new Error(`${method} ${path} answered ${res.statusCode}: ${bytes.toString()}`);
		}
		return bytes;
	}

	async json<T>(method: 'GET' | 'POST', path: string, expect = 200, body?: unknown): Promise<T> {
		const text = await this.call(
			method,
			path,
			expect,
			body === undefined ? undefined : JSON.stringify(body),
			body === undefined ? {} : { 'content-type': 'application/json' },
		);
		return (text.length ? JSON.parse(text.toString('utf8')) : undefined) as T;
	}

	async close(): Promise<void> {
		await this.pool.close();
	}
}

// ------------------------------------------------------------------ Delete Records

export async function floorDelete(
	simUrl: string,
	input: string[][],
	concurrency: number,
): Promise<void> {
	const client = await Client.open(simUrl, concurrency);
	const unique = [...new Set(input.flat())];
	const path = `${API}/catalogs/${encodeURIComponent(BENCH_CATALOG)}/records/delete`;
	await pool(batches(unique, 5000), concurrency, async (ids) => {
		await client.call('POST', path, 200, JSON.stringify(ids), {
			'content-type': 'application/json',
		});
	});
	await client.close();
}

// ------------------------------------------------------------------ Get Export Status

export async function floorStatus(
	simUrl: string,
	ids: string[],
	concurrency: number,
): Promise<void> {
	const client = await Client.open(simUrl, concurrency);
	await pool(ids, concurrency, async (id) => {
		const body = await client.json<{ totalFileCount: string }>(
			'GET',
			`/api/reporting/v2/exports/transaction-steps/${encodeURIComponent(id)}/status`,
		);
		if (Number(body.totalFileCount) !== 1) throw new Error('bad status');
	});
	await client.close();
}

// ------------------------------------------------------------------ Process Document

interface TransactionDto {
	status: string;
	documents?: Array<{ resultFiles?: Array<{ fileId: string; type: string }> }>;
}

/** A multipart body as the node sends it: a `Model` JSON part and one `Files` part. */
function multipartParts(
	model: unknown,
	fileName: string,
): { head: Buffer; tail: Buffer; contentType: string } {
	const boundary = `----floor${randomBytes(16).toString('hex')}`;
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="Model"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(model)}\r\n` +
			`--${boundary}\r\nContent-Disposition: form-data; name="Files"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	return { head, tail, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Poll GetTransactionInfo (first at once, then every `intervalMs`) until it is final. */
async function waitFor(client: Client, id: string, intervalMs: number): Promise<TransactionDto> {
	for (;;) {
		const info = await client.json<TransactionDto>('GET', `${API}/transactions/${id}`);
		if (FINAL.includes(info.status)) return info;
		await sleep(intervalMs);
	}
}

/** Download the Json result file of the first document and check it is the expected invoice. */
async function readResult(
	client: Client,
	id: string,
	info: TransactionDto,
	expected: string,
): Promise<void> {
	if (info.status !== 'Processed') throw new Error(`transaction ${id} is ${info.status}`);
	const json = info.documents?.[0]?.resultFiles?.find((f) => f.type === 'Json');
	if (!json) throw new Error(`transaction ${id} has no Json result`);
	const result = await client.call(
		'GET',
		`${API}/transactions/${id}/files/${json.fileId}/download`,
		200,
	);
	const text = JSON.stringify(JSON.parse(result.toString('utf8')));
	if (!text.includes(expected)) throw new Error(`transaction ${id}: ${expected} not in its result`);
}

/**
 * Launch each document (one multipart call), poll every second, download its Json result;
 * `concurrency` documents at a time.
 */
export async function floorProcess(
	simUrl: string,
	documents: Buffer[],
	{ concurrency = PROCESS.concurrency, pollMs = PROCESS.pollSeconds * 1000 } = {},
): Promise<void> {
	const client = await Client.open(simUrl, concurrency);
	await pool(documents, concurrency, async (bytes, i) => {
		const { head, tail, contentType } = multipartParts({ files: [{}] }, `invoice-${i}.pdf`);
		const { transactionId } = JSON.parse(
			(
				await client.call(
					'POST',
					`${API}/transactions/launch?skillId=${PROCESS.skillId}`,
					201,
					Buffer.concat([head, bytes, tail]),
					{ 'content-type': contentType },
				)
			).toString('utf8'),
		) as { transactionId: string };
		const info = await waitFor(client, transactionId, pollMs);
		await readResult(client, transactionId, info, invoiceNumber(i));
	});
	await client.close();
}

/** Separate calls for one big file: create, add the file streamed from disk, start, wait, read. */
export async function floorUpload(simUrl: string, file: string, expected: string): Promise<void> {
	const client = await Client.open(simUrl, 1);
	const { transactionId } = await client.json<{ transactionId: string }>(
		'POST',
		`${API}/transactions`,
		201,
		{ skillId: PROCESS.skillId },
	);
	const { head, tail, contentType } = multipartParts({ files: [{}] }, basename(file));
	const size = statSync(file).size;
	async function* body(): AsyncGenerator<Buffer> {
		yield head;
		for await (const chunk of createReadStream(file)) yield chunk as Buffer;
		yield tail;
	}
	await client.call(
		'POST',
		`${API}/transactions/${transactionId}/files`,
		200,
		Readable.from(body()),
		{
			'content-type': contentType,
			'content-length': String(head.length + size + tail.length),
		},
	);
	await client.call('POST', `${API}/transactions/${transactionId}/start`, 200);
	const info = await waitFor(client, transactionId, PROCESS.pollSeconds * 1000);
	await readResult(client, transactionId, info, expected);
	await client.close();
}

// ------------------------------------------------------------------ QA report download

/** GET the field changes report, streamed to `file`, its records counted on the way. */
export async function floorQaReport(simUrl: string, file: string): Promise<{ rows: number }> {
	const res = await request(`${simUrl}${QA_REPORT.path}`, {
		headers: { authorization: `Bearer ${await token(simUrl)}` },
	});
	if (res.statusCode !== 200) throw new Error(`report: HTTP ${res.statusCode}`);
	const counter = new CsvRecordCounter();
	async function* counted(): AsyncGenerator<Buffer> {
		for await (const chunk of res.body) {
			counter.push(chunk as Buffer);
			yield chunk as Buffer;
		}
	}
	await pipeline(Readable.from(counted()), createWriteStream(file));
	const rows = counter.end() - 1;
	if (rows !== QA_REPORT.rows) throw new Error(`report: ${rows} rows, expected ${QA_REPORT.rows}`);
	return { rows };
}

// ------------------------------------------------------------------ Catalog Sync

interface Fields {
	Name?: string[];
	Country?: string[];
}

/**
 * Read the catalog in pages of 1000 (its row count from GetCatalog), compare with the source on
 * Name and Country, delete what the source lacks and add (or replace) what is new or changed, in
 * batches of 5000, `concurrency` requests at a time.
 */
export async function floorSync(
	simUrl: string,
	source: SyncItem[],
	concurrency: number,
): Promise<{ added: number; updated: number; deleted: number }> {
	const client = await Client.open(simUrl, concurrency);
	const catalog = `${API}/catalogs/${encodeURIComponent(SYNC.catalog)}`;
	const { rowCount } = await client.json<{ rowCount: number }>('GET', catalog);
	const offsets = Array.from(
		{ length: Math.ceil(rowCount / SYNC.pageSize) },
		(_, i) => i * SYNC.pageSize,
	);
	const pages: Array<Array<{ id: string; fields: Fields }>> = new Array(offsets.length);
	await pool(offsets, concurrency, async (offset, index) => {
		pages[index] = await client.json(
			'GET',
			`${catalog}/records?offset=${offset}&limit=${SYNC.pageSize}`,
		);
	});
	const current = new Map<string, Fields>();
	for (const page of pages) for (const record of page) current.set(record.id, record.fields);

	const writes: Array<{ id: string; fields: Record<string, string[]> }> = [];
	const wanted = new Set<string>();
	let updated = 0;
	for (const item of source) {
		wanted.add(item.recordId);
		const stored = current.get(item.recordId);
		if (stored && stored.Name?.[0] === item.Name && stored.Country?.[0] === item.Country) continue;
		if (stored) updated++;
		writes.push({ id: item.recordId, fields: { Name: [item.Name], Country: [item.Country] } });
	}
	const deletes = [...current.keys()].filter((id) => !wanted.has(id));
	await pool(batches(deletes, SYNC.batchSize), concurrency, async (ids) => {
		await client.call('POST', `${catalog}/records/delete`, 200, JSON.stringify(ids), {
			'content-type': 'application/json',
		});
	});
	await pool(batches(writes, SYNC.batchSize), concurrency, async (records) => {
		const answer = await client.json<{ insertedRowCount: number }>(
			'POST',
			`${catalog}/records`,
			200,
			records,
		);
		if (answer.insertedRowCount !== records.length) throw new Error('rows rejected');
	});
	await client.close();
	return { added: writes.length - updated, updated, deleted: deletes.length };
}
