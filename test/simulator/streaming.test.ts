/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports --
 * Test infrastructure, never shipped: measures the process's memory while streaming an upload and
 * speaks raw HTTP over node:net to send headers no HTTP client would. */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';

import { token } from '../helpers/http';
import { FIXTURE, VantageSimulator } from './simulator';
import { TRANSACTIONS, useRawSimulator } from './testkit';
import { BOUNDARY } from './uploadkit';

const s = useRawSimulator();
const MB = 1024 * 1024;

const head = (name: string) =>
	Buffer.from(
		`--${BOUNDARY}\r\nContent-Disposition: form-data; name="Files"; filename="${name}"\r\n` +
			'Content-Type: application/octet-stream\r\n\r\n',
	);
const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** A multipart body with one file of `size` bytes, generated block by block (never held whole). */
async function* generated(name: string, size: number, hash?: ReturnType<typeof createHash>) {
	const block = Buffer.alloc(MB);
	for (let i = 0; i < block.length; i++) block[i] = (i * 2654435761) >>> 24;
	yield head(name);
	for (let sent = 0; sent < size; sent += block.length) {
		const piece = size - sent < block.length ? block.subarray(0, size - sent) : block;
		hash?.update(piece);
		yield piece;
	}
	yield tail;
}

async function streamUpload(url: string, bearer: string, body: AsyncIterable<Buffer>) {
	const res = await request(url, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${bearer}`,
			'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
		},
		// A stream without a length: undici sends it with chunked transfer encoding.
		body: Readable.from(body),
	});
	return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** Send raw request bytes, return the raw response text once the server closes or answers. */
async function rawHttp(port: number, text: string): Promise<string> {
	return await new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => socket.write(text));
		let answer = '';
		socket.on('data', (d) => {
			answer += d.toString('latin1');
			if (answer.includes('\r\n\r\n')) socket.end();
		});
		socket.on('close', () => resolve(answer));
		socket.on('error', reject);
	});
}

describe('streaming uploads', () => {
	test('a 200 MB chunked upload passes through with bounded memory', async () => {
		// Warm up first: the first upload of a process grows the heap and the allocator once
		// (~60 MB here, whatever the upload's size); the measured one must not grow it further.
		const warm = s.sim.createTransaction(FIXTURE.documentSkillId);
		const url = (tx: string) => `${s.sim.url}${TRANSACTIONS}/${tx}/files`;
		expect((await streamUpload(url(warm), s.bearer, generated('warm.bin', 32 * MB))).status).toBe(
			200,
		);
		s.sim.clearLog();
		const tx = s.sim.createTransaction(FIXTURE.documentSkillId);
		const size = 200 * MB;
		const hash = createHash('sha256');
		const before = process.memoryUsage().rss;
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
		try {
			const res = await streamUpload(url(tx), s.bearer, generated('big.bin', size, hash));
			expect(res.status).toBe(200);
		} finally {
			clearInterval(sampler);
		}
		peak = Math.max(peak, process.memoryUsage().rss);
		const request = s.sim.requestsTo('AddFilesToTransaction')[0];
		expect(request.headers['transfer-encoding']).toBe('chunked');
		expect(request.headers['content-length']).toBeUndefined();
		const file = s.sim.transaction(tx)!.files[0];
		expect(file).toMatchObject({ name: 'big.bin', size, sha256: hash.digest('hex') });
		// The server keeps 64 KB of it; the process grew by far less than the upload.
		expect(peak - before).toBeLessThan(64 * MB);
	}, 60_000);

	test('launch streams too, and its multipart parts may arrive in any chunking', async () => {
		async function* trickle() {
			const model = Buffer.from(
				`--${BOUNDARY}\r\nContent-Disposition: form-data; name="Model"\r\n\r\n` +
					`{"registrationParameters":[{"key":"Batch","value":"7"}]}\r\n`,
			);
			for (const byte of model) yield Buffer.from([byte]);
			yield* generated('scan.tif', 3 * MB + 17);
		}
		const res = await streamUpload(
			`${s.sim.url}${TRANSACTIONS}/launch?skillId=${FIXTURE.processSkillId}`,
			s.bearer,
			trickle(),
		);
		expect(res.status).toBe(201);
		const { transactionId } = JSON.parse(res.text) as { transactionId: string };
		expect(s.sim.transaction(transactionId)).toMatchObject({
			status: 'Processing',
			registrationParameters: [{ key: 'Batch', value: '7' }],
			files: [{ name: 'scan.tif', size: 3 * MB + 17 }],
		});
	});

	test('a declared Content-Length over 2 GB → 413 before any byte is read', async () => {
		const port = Number(new URL(s.sim.url).port);
		const answer = await rawHttp(
			port,
			`POST ${TRANSACTIONS}/launch?skillId=${FIXTURE.documentSkillId} HTTP/1.1\r\n` +
				`Host: 127.0.0.1\r\nAuthorization: Bearer ${s.bearer}\r\n` +
				`Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
				`Content-Length: ${2 * 1024 ** 3 + 1}\r\n\r\n`,
		);
		expect(answer).toMatch(/^HTTP\/1\.1 413 /);
		expect(answer.toLowerCase()).toContain('connection: close');
		expect(s.sim.createdCounts().transactions).toBe(0);
	});

	test('a chunked upload that grows past the limit → 413 (limit lowered for the test)', async () => {
		const sim = new VantageSimulator({ maxUploadBytes: 5 * MB });
		await sim.start();
		try {
			const bearer = await token(sim);
			const tx = sim.createTransaction(FIXTURE.documentSkillId);
			const res = await streamUpload(
				`${sim.url}${TRANSACTIONS}/${tx}/files`,
				bearer,
				generated('too-big.bin', 6 * MB),
			);
			expect(res.status).toBe(413);
			expect(sim.transaction(tx)!.files).toEqual([]);
			expect(sim.requestsTo('AddFilesToTransaction')[0].status).toBe(413);
		} finally {
			await sim.stop();
		}
	});

	test('JSON routes keep the buffered reader and its 30 MB limit: 413', async () => {
		async function* big() {
			const block = Buffer.alloc(MB, 0x20);
			yield Buffer.from('{"skillId":"x","pad":"');
			for (let i = 0; i < 31; i++) yield block;
			yield Buffer.from('"}');
		}
		const res = await request(`${s.sim.url}${TRANSACTIONS}`, {
			method: 'POST',
			headers: { authorization: `Bearer ${s.bearer}`, 'content-type': 'application/json' },
			body: Readable.from(big()),
		});
		await res.body.text();
		expect(res.statusCode).toBe(413);
		expect(s.sim.requestsTo('CreateTransaction')[0].status).toBe(413);
	});
});
