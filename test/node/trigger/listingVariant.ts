/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure: a loopback HTTP front */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Vantage whose transaction lists show some transactions with another creation time than the
 * one they were filtered by: in front of the simulator (which lists faithfully), everything is
 * passed through, and list entries of the chosen ids get the creation time given here (an
 * unreadable text, or a time before the request's StartDate). Members named in `removedKeys` are
 * left out of every entry.
 */
export class ListingVariant {
	private server?: Server;
	readonly createTimes = new Map<string, string>();
	/** Members left out of every list entry (e.g. `completedUtc`, which Vantage's example lacks). */
	readonly removedKeys = new Set<string>();

	constructor(private readonly target: string) {}

	async start(): Promise<string> {
		const target = new URL(this.target);
		this.server = createServer((req, res) => {
			const upstream = request(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, host: target.host },
				},
				(answer) => {
					const chunks: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => chunks.push(chunk));
					answer.on('end', () => {
						let body = Buffer.concat(chunks);
						if (
							/\/transactions\/(completed|active)\b/.test(req.url ?? '') &&
							answer.statusCode === 200
						)
							body = Buffer.from(this.rewrite(body.toString('utf8')));
						const headers = { ...answer.headers, 'content-length': String(body.length) };
						delete headers['transfer-encoding'];
						res.writeHead(answer.statusCode ?? 502, headers);
						res.end(body);
					});
				},
			);
			upstream.on('error', () => res.destroy());
			req.pipe(upstream);
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	private rewrite(text: string): string {
		const page = JSON.parse(text) as { items?: Array<Record<string, unknown>> };
		for (const item of page.items ?? []) {
			const time = this.createTimes.get(String(item.transactionId));
			if (time !== undefined) Object.assign(item, { createTimeUtc: time, createdUtc: time });
			for (const key of this.removedKeys) delete item[key];
		}
		return JSON.stringify(page);
	}
}
