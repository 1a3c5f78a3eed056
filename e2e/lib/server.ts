/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets --
 * End-to-end infrastructure, never shipped: runs a real n8n as a server (`n8n start`). */
/**
 * A real n8n as a server: started with `n8n start`, its owner set up, signed in, and given a
 * public-API key, so that a suite can activate workflows and read the executions n8n STORED
 * (public API `GET /api/v1/executions`, the same data the editor's Executions list shows). Stopped
 * gracefully (SIGTERM, n8n's shutdown waits for running executions) or hard (SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';

import { HOST, type N8nInstance } from './n8n';

const N8N_BIN = join(HOST, 'node_modules', '.bin', 'n8n');

export const OWNER = {
	email: 'e2e-owner@example.com',
	password: 'E2e-owner-n8n-2026',
	firstName: 'E2e',
	lastName: 'Owner',
};

type Json = Record<string, unknown>;

export interface N8nServer {
	url: string;
	child: ChildProcess;
	/** Resolves with the exit code (or the signal's name) when the process ends. */
	exited: Promise<number | string>;
	/** Where the server's stdout and stderr go. */
	logFile: string;
}

/**
 * `n8n start` in `instance` with `env` added; resolves once `/healthz/readiness` answers (n8n has
 * opened its database, run migrations and activated the published workflows by then) and its REST
 * API does (n8n 1.x reports ready a few seconds before it has registered its routes).
 */
export async function startServer(
	instance: N8nInstance,
	env: NodeJS.ProcessEnv = {},
	options: { logFile?: string; timeoutMs?: number } = {},
): Promise<N8nServer> {
	const url = `http://127.0.0.1:${instance.env.N8N_PORT}`;
	const logFile = options.logFile ?? join(instance.userFolder, 'n8n-server.log');
	const log = createWriteStream(logFile, { flags: 'a' });
	// Its own process group: a SIGKILL then reaches the task runner n8n starts too, as a crash of the
	// whole container would, and nothing is left running.
	const child = spawn(N8N_BIN, ['start'], {
		env: { ...instance.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	child.stdout?.pipe(log, { end: false });
	child.stderr?.pipe(log, { end: false });
	const exited = new Promise<number | string>((resolve) =>
		child.once('exit', (code, signal) => {
			log.end();
			// n8n copies its editor's scripts into the user folder at every start; inside the
			// project they would be linted with the package (n8n-node lint runs `eslint .`).
			rmSync(join(instance.userFolder, '.cache'), { recursive: true, force: true });
			resolve(code ?? signal ?? -1);
		}),
	);
	const deadline = Date.now() + (options.timeoutMs ?? 180_000);
	let gone = false;
	void exited.then(() => (gone = true));
	while (Date.now() < deadline && !gone) {
		const ready =
			(await fetch(`${url}/healthz/readiness`).then(
				(r) => r.ok,
				() => false,
			)) &&
			(await fetch(`${url}/rest/settings`).then(
				(r) => r.ok,
				() => false,
			));
		if (ready) return { url, child, exited, logFile };
		await sleep(500);
	}
	killGroup(child, 'SIGKILL');
	throw new Error(
		`n8n did not become ready at ${url}${gone ? ' (it exited)' : ''}; see ${logFile}`,
	);
}

/** A signal to the process group `child` leads (n8n and its task runner); gone already is fine. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	try {
		if (child.pid) process.kill(-child.pid, signal);
	} catch {
		// the group has exited already
	}
}

/**
 * SIGTERM to n8n (it shuts down gracefully, its runner with it) or SIGKILL to its whole process
 * group (nothing more is written); waits for the exit, then makes sure nothing of the group is
 * left running.
 */
export async function stopServer(
	server: N8nServer,
	signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM',
	timeoutMs = 120_000,
): Promise<number | string> {
	if (server.child.exitCode === null && server.child.signalCode === null) {
		if (signal === 'SIGKILL') killGroup(server.child, 'SIGKILL');
		else server.child.kill('SIGTERM');
	}
	const timer = setTimeout(() => killGroup(server.child, 'SIGKILL'), timeoutMs);
	try {
		return await server.exited;
	} finally {
		clearTimeout(timer);
		killGroup(server.child, 'SIGKILL');
	}
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Set up the owner (once per user folder; later calls are refused and ignored) and sign in. */
export async function signIn(url: string, owner = OWNER): Promise<string> {
	await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(owner),
	});
	const res = await fetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
	});
	const match = /n8n-auth=([^;]+)/.exec(res.headers.get('set-cookie') ?? '');
	if (!match) throw new Error(`login failed: ${res.status} ${await res.text()}`);
	return match[1];
}

/** An internal REST call (`/rest/...`) as the signed-in owner; the answer's `data`. */
export async function rest<T = unknown>(
	url: string,
	cookie: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const res = await fetch(`${url}/rest${path}`, {
		method,
		headers: {
			cookie: `n8n-auth=${cookie}`,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} /rest${path}: ${res.status} ${text.slice(0, 500)}`);
	return (JSON.parse(text) as { data: T }).data;
}

/**
 * A public-API key of the owner with every scope the owner may grant (n8n before API-key scopes,
 * such as 1.85, grants every scope to every key).
 */
export async function createApiKey(url: string, cookie: string): Promise<string> {
	const scopes = await rest<string[]>(url, cookie, 'GET', '/api-keys/scopes').catch(
		(error: Error) => {
			if (/: 404 /.test(error.message)) return undefined;
			throw error;
		},
	);
	const key = await rest<{ rawApiKey?: string; apiKey?: string }>(
		url,
		cookie,
		'POST',
		'/api-keys',
		{ label: `e2e ${Date.now()}`, expiresAt: null, ...(scopes ? { scopes } : {}) },
	);
	const raw = key.rawApiKey ?? key.apiKey;
	if (!raw) throw new Error(`no API key in ${JSON.stringify(key)}`);
	return raw;
}

/** A public-API call (`/api/v1/...`) with an API key. */
export async function publicApi<T = Json>(
	url: string,
	apiKey: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const res = await fetch(`${url}/api/v1${path}`, {
		method,
		headers: {
			'x-n8n-api-key': apiKey,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} /api/v1${path}: ${res.status} ${text.slice(0, 500)}`);
	return JSON.parse(text) as T;
}

/** One execution as the public API lists it. */
export interface StoredExecution {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished: boolean;
	startedAt: string | null;
	stoppedAt: string | null;
	createdAt?: string;
	data?: Json;
}

/**
 * The executions n8n stored for `workflowId` (pages of 250 followed to the end), with their run
 * data when `includeData`. Without `status` the public API leaves out the running ones.
 */
export async function storedExecutions(
	url: string,
	apiKey: string,
	workflowId: string,
	includeData = false,
	status?: string,
): Promise<StoredExecution[]> {
	const all: StoredExecution[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({
			workflowId,
			limit: '250',
			includeData: String(includeData),
			...(status ? { status } : {}),
			...(cursor ? { cursor } : {}),
		});
		const page = await publicApi<{ data: StoredExecution[]; nextCursor?: string | null }>(
			url,
			apiKey,
			'GET',
			`/executions?${query.toString()}`,
		);
		// n8n 1.85's public API gives no status: a finished run succeeded, a stopped one failed.
		all.push(
			...page.data.map((e) => ({
				...e,
				status: e.status ?? (e.finished ? 'success' : e.stoppedAt ? 'error' : 'running'),
			})),
		);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

/** The items a node output in a stored execution's first run. */
export function nodeItems(execution: StoredExecution, node: string): Array<{ json: Json }> {
	const runData = ((execution.data?.resultData as Json | undefined)?.runData ?? {}) as Record<
		string,
		Json[]
	>;
	const task = runData[node]?.[0];
	return (((task?.data as Json | undefined)?.main as Array<Array<{ json: Json }>>) ?? [])[0] ?? [];
}
