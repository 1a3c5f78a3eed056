/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure */
/**
 * A file server on loopback standing in for a storage service that hands out presigned links:
 * files with their headers, redirects (relative or absolute, to any scheme), error statuses, a
 * body larger than announced or streamed without a length, a body that stalls. Every request is
 * logged with its path, query and headers, so a test can tell what was (not) fetched.
 *
 * Loopback is internal: File URL fetches from it only when Allowed Internal Hosts lists it, and
 * `allowed` is the entry that lets exactly this server through (127.0.0.1 and its port). Started
 * on '0.0.0.0' or '::' it is a target stub: it answers on every local address (127.0.0.2, ::1,
 * ::ffff:127.0.0.1 …), so a test proves that no spelling of a refused address reached it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FileRoute {
	/** The body; ignored for `redirect` and with `size`. */
	body?: Buffer | string;
	status?: number;
	headers?: Record<string, string>;
	/** Answer 302 with this Location. */
	redirect?: string;
	/** Stream this many bytes (chunked, no Content-Length), 64 KiB at a time. */
	size?: number;
	/** Send the headers and the first chunk, then nothing more. */
	stall?: boolean;
}

export interface FileRequest {
	path: string;
	query: string;
	headers: IncomingMessage['headers'];
	/** The local address the request came in on (which spelling reached the server). */
	from: string;
}

export class FileServer {
	readonly requests: FileRequest[] = [];
	private readonly routes = new Map<string, FileRoute>();
	private server?: Server;
	private base = '';
	private readonly open = new Set<ServerResponse>();

	serve(path: string, route: FileRoute): string {
		this.routes.set(path, route);
		return this.url(path);
	}

	url(path: string): string {
		return `${this.base}${path}`;
	}

	/** The port it listens on. */
	port = 0;

	/** The Allowed Internal Hosts entry for exactly this server. */
	get allowed(): string {
		return `127.0.0.1:${this.port}`;
	}

	/** Whether it answers on IPv6 too (started on '::' where the machine has IPv6). */
	ipv6 = false;

	/**
	 * Listen on `host` (loopback by default); links are made with 127.0.0.1 either way. '::' falls
	 * back to '0.0.0.0' on a machine without IPv6 (`ipv6` says which).
	 */
	async start(host = '127.0.0.1'): Promise<string> {
		this.server = createServer((req, res) => this.handle(req, res));
		const listen = async (on: string) =>
			await new Promise<void>((resolve, reject) => {
				this.server!.once('error', reject);
				this.server!.listen(0, on, () => {
					this.server!.off('error', reject);
					resolve();
				});
			});
		if (host !== '::') {
			await listen(host);
		} else {
			try {
				await listen('::');
				this.ipv6 = true;
			} catch {
				await listen('0.0.0.0');
			}
		}
		this.port = (this.server.address() as AddressInfo).port;
		this.base = `http://127.0.0.1:${this.port}`;
		return this.base;
	}

	async stop(): Promise<void> {
		for (const res of this.open) res.destroy();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
	}

	private handle(req: IncomingMessage, res: ServerResponse): void {
		const url = new URL(req.url ?? '/', this.base);
		this.requests.push({
			path: url.pathname,
			query: url.search,
			headers: req.headers,
			from: req.socket.localAddress ?? '',
		});
		const route = this.routes.get(url.pathname);
		if (!route) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
			return;
		}
		if (route.redirect) {
			res.writeHead(route.status ?? 302, { location: route.redirect }).end();
			return;
		}
		const status = route.status ?? 200;
		if (route.size !== undefined || route.stall) {
			res.writeHead(status, { 'content-type': 'application/pdf', ...route.headers });
			this.open.add(res);
			res.on('close', () => this.open.delete(res));
			const chunk = Buffer.alloc(64 * 1024, 0x41);
			if (route.stall) {
				res.write(chunk);
				return;
			}
			let left = route.size ?? 0;
			const pump = () => {
				while (left > 0) {
					const part = chunk.subarray(0, Math.min(chunk.length, left));
					left -= part.length;
					if (!res.write(part)) {
						res.once('drain', pump);
						return;
					}
				}
				res.end();
			};
			pump();
			return;
		}
		const body = Buffer.isBuffer(route.body) ? route.body : Buffer.from(route.body ?? '', 'utf8');
		res.writeHead(status, {
			'content-type': 'application/pdf',
			'content-length': String(body.length),
			...route.headers,
		});
		res.end(body);
	}
}

/** A file server for every test of the calling file, started before each test (on `host`). */
export function useFileServer(host?: string): { server: FileServer } {
	const fixture = {} as { server: FileServer };
	beforeEach(async () => {
		fixture.server = new FileServer();
		await fixture.server.start(host);
	});
	afterEach(async () => await fixture.server.stop());
	return fixture;
}
