/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * End-to-end infrastructure, never shipped: a loopback HTTP server the queue suite's workflows call. */
/**
 * A gate for executions: a workflow's HTTP Request node calls `GET <url>/gate?callId=…&worker=…`
 * and gets `{ callId, worker }` back, at once while the gate is open, else when the suite opens
 * it. Executions held there run on their worker (they hold one of its `--concurrency` slots) but
 * have not yet read the credential, so the suite can decide when they all read it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';

export interface GateCall {
	callId: string;
	worker: string;
	at: number;
}

export class Gate {
	private server?: Server;
	private open = true;
	private readonly waiting: Array<{ call: GateCall; res: ServerResponse }> = [];
	/** callIds let through while the gate is closed. */
	private readonly passes = new Set<string>();
	/** Every call, in arrival order. */
	readonly calls: GateCall[] = [];

	url = '';

	async start(): Promise<string> {
		this.server = createServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://gate');
			if (url.pathname !== '/gate') {
				res.writeHead(404).end();
				return;
			}
			const call = {
				callId: url.searchParams.get('callId') ?? '',
				worker: url.searchParams.get('worker') ?? '',
				at: Date.now(),
			};
			this.calls.push(call);
			if (this.open || this.passes.has(call.callId)) answer(res, call);
			else this.waiting.push({ call, res });
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		const { port } = this.server.address() as { port: number };
		this.url = `http://127.0.0.1:${port}`;
		return this.url;
	}

	/** Hold every call from now on. */
	close(): void {
		this.open = false;
	}

	/** Let the call with this callId through even while the gate is closed. */
	pass(callId: string): void {
		this.passes.add(callId);
	}

	/** Calls held now. */
	held(): GateCall[] {
		return this.waiting.map((w) => w.call);
	}

	/** Let the held calls through, and every call from now on. */
	release(): void {
		this.open = true;
		for (const { call, res } of this.waiting.splice(0)) answer(res, call);
	}

	async stop(): Promise<void> {
		this.release();
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}
}

function answer(res: ServerResponse, call: GateCall): void {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(JSON.stringify({ callId: call.callId, worker: call.worker }));
}
