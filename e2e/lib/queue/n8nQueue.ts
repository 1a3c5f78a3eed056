/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions --
 * End-to-end infrastructure, never shipped: runs n8n 2.41.1 in queue mode (main + workers). */
/**
 * n8n in queue mode on one machine, each process as if on a machine of its own: a user folder per
 * process with the packed package extracted the way n8n's installer lays it out
 * (`<userFolder>/.n8n/nodes/node_modules/<name>`), one encryption key, one PostgreSQL database,
 * one Redis. The main process (`n8n start`, EXECUTIONS_MODE=queue) receives webhooks and runs
 * the poll triggers; `n8n worker` processes run the executions.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { freePort, HOST_BIN, n8nEnv, writeJson } from '../n8n';
import { start, stop, waitUntil, type Proc } from './processes';

const N8N = join(HOST_BIN, 'n8n');

/** Bull's lock on a running job, and how often workers look for jobs whose lock lapsed. */
export const LOCK_DURATION_MS = 20_000;
export const STALLED_INTERVAL_MS = 5_000;
/** How often the main process looks for executions without a job (n8n's unit: minutes). */
export const RECOVERY_INTERVAL_MIN = 0.2;

export interface ClusterConfig {
	work: string;
	packageName: string;
	postgresPort: number;
	redisPort: number;
}

export interface N8nProcess {
	name: string;
	proc: Proc;
	env: NodeJS.ProcessEnv;
	/** Main: the editor/webhook port. Worker: its health-check port. */
	port: number;
	startedInMs: number;
}

export class QueueCluster {
	readonly main: N8nProcess[] = [];
	readonly workers = new Map<string, N8nProcess>();

	constructor(private readonly config: ClusterConfig) {}

	/** Settings every process shares: database, queue, encryption key. */
	private async baseEnv(name: string): Promise<NodeJS.ProcessEnv> {
		const { config } = this;
		const userFolder = join(config.work, name);
		const files = join(config.work, `${name}-files`);
		mkdirSync(files, { recursive: true });
		return await n8nEnv(userFolder, files, {
			EXECUTIONS_MODE: 'queue',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(config.postgresPort),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'n8n',
			DB_POSTGRESDB_PASSWORD: 'n8n',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(config.redisPort),
			QUEUE_WORKER_LOCK_DURATION: String(LOCK_DURATION_MS),
			QUEUE_WORKER_STALLED_INTERVAL: String(STALLED_INTERVAL_MS),
			N8N_LOG_OUTPUT: 'console',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '20',
		});
	}

	/** Run an n8n CLI command with the main process's settings (imports, publishing). */
	async cli(args: string[]): Promise<string> {
		const env = await this.baseEnv('main');
		return await new Promise((resolve, reject) => {
			const child = spawn(N8N, args, { env, cwd: this.config.work });
			let out = '';
			child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
			child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
			child.on('close', (code) =>
				code === 0 ? resolve(out) : reject(new Error(`n8n ${args.join(' ')} → ${code}\n${out}`)),
			);
		});
	}

	async importCredential(credential: Record<string, unknown>): Promise<void> {
		const file = join(this.config.work, 'credentials.json');
		writeJson(file, [credential]);
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	async importWorkflows(workflows: Array<{ id: string }>, publish: string[]): Promise<void> {
		const dir = join(this.config.work, 'workflows');
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		for (const workflow of workflows) writeJson(join(dir, `${workflow.id}.json`), workflow);
		await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
		// Each publish is a CLI process of its own; the database is migrated by now, so they run at once.
		await Promise.all(
			publish.map(async (id) => await this.cli(['publish:workflow', `--id=${id}`])),
		);
	}

	async startMain(): Promise<N8nProcess> {
		const port = await freePort();
		const env = {
			...(await this.baseEnv('main')),
			N8N_PORT: String(port),
			N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: String(RECOVERY_INTERVAL_MIN),
		};
		const started = Date.now();
		const proc = start('n8n main', N8N, ['start'], join(this.config.work, 'main.log'), {
			env,
			cwd: this.config.work,
		});
		await waitUntil(
			'n8n main to be ready',
			async () => await healthy(`http://127.0.0.1:${port}/healthz/readiness`),
			240_000,
			proc,
			500,
		);
		const main = { name: 'main', proc, env, port, startedInMs: Date.now() - started };
		this.main.push(main);
		return main;
	}

	async startWorker(name: string, concurrency: number): Promise<N8nProcess> {
		const port = await freePort();
		const env = {
			...(await this.baseEnv(name)),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(port),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			// Lets a workflow expression name the worker that ran it ($env.QUEUE_WORKER_NAME).
			N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
			QUEUE_WORKER_NAME: name,
		};
		const started = Date.now();
		const proc = start(
			`n8n ${name}`,
			N8N,
			['worker', `--concurrency=${concurrency}`],
			join(this.config.work, `${name}.log`),
			{ env, cwd: this.config.work },
		);
		await waitUntil(
			`n8n ${name} to be ready`,
			async () => await healthy(`http://127.0.0.1:${port}/healthz/readiness`),
			240_000,
			proc,
			500,
		);
		const worker = { name, proc, env, port, startedInMs: Date.now() - started };
		this.workers.set(name, worker);
		return worker;
	}

	get url(): string {
		const main = this.main[this.main.length - 1];
		return `http://127.0.0.1:${main.port}`;
	}

	async stopAll(): Promise<void> {
		for (const worker of this.workers.values()) await stop(worker.proc, 30_000);
		for (const main of this.main) await stop(main.proc, 30_000);
	}
}

async function healthy(url: string): Promise<boolean> {
	try {
		const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
		await res.arrayBuffer();
		return res.ok;
	} catch {
		return false;
	}
}
