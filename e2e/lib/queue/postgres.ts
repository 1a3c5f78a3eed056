/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions --
 * End-to-end infrastructure, never shipped: a private PostgreSQL cluster for the queue-mode suite. */
/**
 * Debian's PostgreSQL as a private cluster in a temporary folder: `initdb` and `postgres` on a
 * loopback port, trust authentication for the one role `n8n`. PostgreSQL refuses to run as root,
 * so when the suite runs as root both run as the unprivileged `nobody` (its folder belongs to it).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { start, waitUntil, type Proc } from './processes';

export interface Postgres {
	proc: Proc;
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

export async function startPostgres(dir: string, port: number): Promise<Postgres> {
	const bin = postgresBin();
	if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
	const user = 'n8n';
	const database = 'n8n';
	const data = join(dir, 'data');
	const socketDir = join(dir, 'socket');
	mkdirSync(socketDir, { recursive: true });
	const as = unprivileged();
	if (as) {
		// The folders above must be traversable by nobody; the cluster's own folder belongs to it.
		chmodSync(dir, 0o755);
		chownSync(socketDir, as.uid, as.gid);
		mkdirSync(data, { recursive: true, mode: 0o700 });
		chownSync(data, as.uid, as.gid);
	}
	const env = { ...process.env, HOME: dir, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };
	execFileSync(
		join(bin, 'initdb'),
		['-D', data, '-U', user, '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
		{ env, cwd: dir, stdio: 'ignore', ...(as ?? {}) },
	);
	const proc = start(
		'postgres',
		join(bin, 'postgres'),
		[
			'-D',
			data,
			'-p',
			String(port),
			'-h',
			'127.0.0.1',
			'-k',
			socketDir,
			// A throw-away cluster: durability is not what the suite measures.
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
		],
		join(dir, 'postgres.log'),
		{ env, cwd: dir, ...(as ?? {}), stopSignal: 'SIGINT' },
	);
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
	return { proc, port, user, database, version, sql: (query) => psql(database, query) };
}
