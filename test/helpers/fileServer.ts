/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure */
/**
 * A file server on loopback standing in for a storage service that hands out presigned links:
 * files with their headers, redirects (relative or absolute, to any scheme), error statuses, a
 * body larger than announced or streamed without a length, a body that stalls. Every request is
 * logged with its path, query and headers, so a test can tell what was (not) fetched.
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

	async start(): Promise<string> {
		this.server = createServer((req, res) => this.handle(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		const { port } = this.server.address() as AddressInfo;
		this.base = `http://127.0.0.1:${port}`;
		return this.base;
	}

	async stop(): Promise<void> {
		for (const res of this.open) res.destroy();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
	}

	private handle(req: IncomingMessage, res: ServerResponse): void {
		const url = new URL(req.url ?? '/', this.base);
		this.requests.push({ path: url.pathname, query: url.search, headers: req.headers });
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

/** A file server for every test of the calling file, started before each test. */
export function useFileServer(): { server: FileServer } {
	const fixture = {} as { server: FileServer };
	beforeEach(async () => {
		fixture.server = new FileServer();
		await fixture.server.start();
	});
	afterEach(async () => await fixture.server.stop());
	return fixture;
}
