/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions --
 * End-to-end infrastructure, never shipped: a private PostgreSQL cluster for the queue-mode suite. */
/**
 * Debian's PostgreSQL as a private cluster in a temporary folder: `initdb`, then `pg_ctl start`
 * on a loopback port (trust authentication for the one role `n8n`). The postmaster runs on after
 * pg_ctl returns; the suite takes its process id from `postmaster.pid` and stops it by that id
 * (SIGINT, PostgreSQL's fast shutdown), waiting until the id is gone. PostgreSQL refuses to run as
 * root, so when the suite runs as root initdb and pg_ctl run as the unprivileged `nobody` (the
 * cluster's folder and log belong to it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	chmodSync,
	chownSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	realpathSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

import { adopt, waitUntil, type Proc } from './processes';

export interface Postgres {
	/** The postmaster, adopted by the id pg_ctl wrote to postmaster.pid. */
	proc: Proc;
	/** The cluster's folder (`pg_ctl -D`). */
	data: string;
	/** Who runs it: `nobody` when the suite runs as root, else the suite's own user. */
	runAs: string;
	port: number;
	user: string;
	database: string;
	version: string;
	/** Run SQL through psql; rows of tab-separated fields, no header. */
	sql: (query: string) => string[];
}

/**
 * The folder of PostgreSQL's server programs: the first PATH folder holding both `initdb` and
 * `postgres` (symbolic links resolved), else Debian's /usr/lib/postgresql/<major>/bin, newest
 * major first. Undefined when PostgreSQL is not installed.
 */
export function postgresBin(): string | undefined {
	for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
		if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) {
			return dirname(realpathSync(join(dir, 'initdb')));
		}
	}
	const root = '/usr/lib/postgresql';
	const majors = existsSync(root)
		? readdirSync(root)
				.filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	return majors.length ? join(root, majors[0], 'bin') : undefined;
}

/** The uid and gid of `nobody` when we are root, else undefined (run as ourselves). */
function unprivileged(): { uid: number; gid: number } | undefined {
	if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
	const uid = Number(execFileSync('id', ['-u', 'nobody']).toString().trim());
	const gid = Number(execFileSync('id', ['-g', 'nobody']).toString().trim());
	return { uid, gid };
}

/** The postmaster named by `postmaster.pid` (its first line), adopted: stopped by that id. */
function postmaster(pidFile: string, log: string): Proc {
	const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
	if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no process id in ${pidFile}`);
	// SIGINT: PostgreSQL's fast shutdown (what `pg_ctl stop -m fast` sends).
	return adopt('postgres', pid, log, 'SIGINT');
}

/** A value for pg_ctl's `-o`, which hands it to /bin/sh: quoted as one word. */
function shellWord(text: string): string {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** n8n's settings for the database startPostgres makes on `port` (user and database `n8n`, trust on loopback). */
export function n8nDatabaseEnv(port: number): Record<string, string> {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(port),
		DB_POSTGRESDB_DATABASE: 'n8n',
		DB_POSTGRESDB_USER: 'n8n',
		DB_POSTGRESDB_PASSWORD: 'n8n',
	};
}

export async function startPostgres(dir: string, port: number): Promise<Postgres> {
	const bin = postgresBin();
	if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
	const user = 'n8n';
	const database = 'n8n';
	const data = join(dir, 'data');
	const socketDir = join(dir, 'socket');
	const log = join(dir, 'postgres.log');
	mkdirSync(socketDir, { recursive: true });
	writeFileSync(log, '');
	const as = unprivileged();
	if (as) {
		// The folders above must be traversable by nobody; the cluster's own folder belongs to it.
		chmodSync(dir, 0o755);
		chownSync(socketDir, as.uid, as.gid);
		chownSync(log, as.uid, as.gid);
		mkdirSync(data, { recursive: true, mode: 0o700 });
		chownSync(data, as.uid, as.gid);
	}
	const env = { ...process.env, HOME: dir, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };
	const runOptions = { env, cwd: dir, ...(as ?? {}) };
	execFileSync(
		join(bin, 'initdb'),
		['-D', data, '-U', user, '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
		{ ...runOptions, stdio: 'ignore' },
	);
	const serverOptions = [
		['-p', String(port)],
		['-h', '127.0.0.1'],
		['-k', socketDir],
		// A throw-away cluster: durability is not what the suite measures.
		['-c', 'fsync=off'],
		['-c', 'synchronous_commit=off'],
		['-c', 'full_page_writes=off'],
		['-c', 'max_connections=200'],
	]
		.map(([flag, value]) => `${flag} ${shellWord(value)}`)
		.join(' ');
	// -w: returns once the server accepts connections (or fails after -t seconds).
	const started = spawnSync(
		join(bin, 'pg_ctl'),
		['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', serverOptions],
		{ ...runOptions, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	if (started.status !== 0) {
		// A postmaster that started but did not get ready in time is still stopped with the rest.
		const pidFile = join(data, 'postmaster.pid');
		if (existsSync(pidFile)) postmaster(pidFile, log);
		throw new Error(
			`pg_ctl start failed (${started.status ?? started.signal ?? started.error}): ${String(started.stderr ?? '')}${String(started.stdout ?? '')}\n${readFileSync(log, 'utf8').slice(-3000)}`,
		);
	}
	const proc = postmaster(join(data, 'postmaster.pid'), log);
	// Debian's client wrapper in PATH, or the server's own psql beside initdb.
	const psqlBin = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
	const psql = (db: string, query: string) =>
		execFileSync(
			psqlBin,
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				user,
				'-d',
				db,
				'-At',
				'-F',
				'\t',
				'-v',
				'ON_ERROR_STOP=1',
				'-c',
				query,
			],
			{
				env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
				stdio: ['ignore', 'pipe', 'pipe'],
				maxBuffer: 512 * 1024 * 1024,
			},
		)
			.toString('utf8')
			.split('\n')
			.filter((line) => line !== '');
	await waitUntil(
		'PostgreSQL to accept connections',
		() => {
			try {
				psql('postgres', 'select 1');
				return true;
			} catch {
				return false;
			}
		},
		60_000,
		proc,
	);
	psql('postgres', `create database ${database}`);
	const version = psql('postgres', 'show server_version')[0];
	return {
		proc,
		data,
		runAs: as ? 'nobody' : 'this user',
		port,
		user,
		database,
		version,
		sql: (query) => psql(database, query),
	};
}
