/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports --
 * Test infrastructure, never shipped: a loopback HTTP server and timers. */
/**
 * A loopback HTTP server standing in for n8n in the Custom-activity tests: it records each request
 * and answers with the next scripted answer (a status, optionally after a delay, or `hang`: no
 * answer until the client gives up), then with the default answer (202).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Answer = number | 'hang' | { status: number; delayMs?: number; body?: string };

export interface Received {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
	at: number;
}

export class Receiver {
	readonly requests: Received[] = [];
	private answers: Answer[] = [];
	private server: Server | null = null;
	private readonly sockets = new Set<Socket>();
	private waiters: Array<{ count: number; resolve: () => void }> = [];

	constructor(private readonly fallback: Answer = 202) {}

	/** The next requests get these answers, in order. */
	answer(...answers: Answer[]): void {
		this.answers.push(...answers);
	}

	get url(): string {
		if (!this.server) throw new Error('receiver not started');
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** Resolves once `count` requests have arrived in total. */
	async received(count: number): Promise<Received[]> {
		if (this.requests.length < count) {
			await new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
		}
		return this.requests;
	}

	async start(): Promise<string> {
		const server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				this.requests.push({
					method: req.method ?? '',
					path: req.url ?? '',
					headers: req.headers,
					body: Buffer.concat(chunks).toString('utf8'),
					at: Date.now(),
				});
				for (const w of this.waiters.filter((w) => this.requests.length >= w.count)) w.resolve();
				this.waiters = this.waiters.filter((w) => this.requests.length < w.count);
				const answer = this.answers.shift() ?? this.fallback;
				if (answer === 'hang') return;
				const {
					status,
					delayMs = 0,
					body = '',
				} = typeof answer === 'number' ? { status: answer } : answer;
				const send = () => {
					res.writeHead(status, { 'content-type': 'application/json' });
					res.end(body);
				};
				if (delayMs > 0) setTimeout(send, delayMs);
				else send();
			});
		});
		server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		this.server = server;
		return this.url;
	}

	async stop(): Promise<void> {
		const server = this.server;
		this.server = null;
		if (!server) return;
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
}
