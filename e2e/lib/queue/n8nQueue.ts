/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions --
 * End-to-end infrastructure, never shipped: runs n8n 2.41.1 in queue mode (main + workers). */
/**
 * n8n in queue mode on one machine, each process as if on a machine of its own: a user folder per
 * process with the packed package installed as n8n's installer lays it out (see installPackage in
 * ../n8n.ts), one encryption key, one PostgreSQL database, one Redis. The main process
 * (`n8n start`, EXECUTIONS_MODE=queue) receives webhooks and runs the poll triggers; `n8n worker`
 * processes run the executions. Bull's lock, its stalled-job check and n8n's queue recovery keep
 * n8n's defaults (what `queueDefaults` reads from the host's n8n).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { cleanEnv, freePort, HOST, HOST_BIN, n8nEnv, writeJson } from '../n8n';
import { n8nDatabaseEnv } from './postgres';
import { start, stop, waitUntil, type Proc } from './processes';

const N8N = join(HOST_BIN, 'n8n');

/** What a killed worker's executions wait for before n8n reports them: n8n's own settings. */
export interface QueueTimings {
	/** Bull's lock on a running job (QUEUE_WORKER_LOCK_DURATION). */
	lockDurationMs: number;
	/** How often a worker renews the locks of its jobs (QUEUE_WORKER_LOCK_RENEW_TIME). */
	lockRenewMs: number;
	/** How often workers look for jobs whose lock lapsed (QUEUE_WORKER_STALLED_INTERVAL). */
	stalledIntervalMs: number;
	/** How often the main process looks for executions without a job (minutes). */
	recoveryIntervalMin: number;
}

/**
 * n8n's defaults for the settings above, read from the host's @n8n/config with none of them set
 * in the environment (the suite sets none either).
 */
export function queueDefaults(): QueueTimings {
	const env = cleanEnv();
	for (const key of Object.keys(env)) {
		if (key.startsWith('QUEUE_') || key.startsWith('N8N_EXECUTIONS_QUEUE_')) delete env[key];
	}
	const script = [
		"require('reflect-metadata');",
		"const { Container } = require('@n8n/di');",
		"const { GlobalConfig } = require('@n8n/config');",
		'const c = Container.get(GlobalConfig);',
		'process.stdout.write(JSON.stringify({ bull: c.queue.bull.settings, recovery: c.executions.queueRecovery.interval }));',
	].join(' ');
	const out = JSON.parse(
		execFileSync(join(HOST_BIN, 'node'), ['-e', script], { cwd: HOST, env }).toString(),
	) as {
		bull: { lockDuration: number; lockRenewTime: number; stalledInterval: number };
		recovery: number;
	};
	return {
		lockDurationMs: out.bull.lockDuration,
		lockRenewMs: out.bull.lockRenewTime,
		stalledIntervalMs: out.bull.stalledInterval,
		recoveryIntervalMin: out.recovery,
	};
}

export interface ClusterConfig {
	work: string;
	packageName: string;
	postgresPort: number;
	redisPort: number;
	/** Added to every process's environment. */
	env?: NodeJS.ProcessEnv;
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
			...n8nDatabaseEnv(config.postgresPort),
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(config.redisPort),
			N8N_LOG_OUTPUT: 'console',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '20',
			...config.env,
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

	async importCredentials(credentials: Array<Record<string, unknown>>): Promise<void> {
		const file = join(this.config.work, 'credentials.json');
		writeJson(file, credentials);
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
