/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions --
 * End-to-end infrastructure, never shipped: a private Redis for the queue-mode suite. */
/** Debian's `redis-server` on a private loopback port, in memory only, in the run's folder. */
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';

import { start, waitUntil, type Proc } from './processes';

export interface Redis {
	proc: Proc;
	port: number;
	version: string;
}

export function redisInstalled(): boolean {
	try {
		execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/** Send one inline command and return the first line of the answer. */
export async function redisCommand(port: number, command: string): Promise<string> {
	return await new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1');
		let answer = '';
		socket.setTimeout(5000, () => socket.destroy(new Error('redis timeout')));
		socket.on('connect', () => socket.write(`${command}\r\n`));
		socket.on('data', (chunk) => {
			answer += chunk.toString('utf8');
			if (answer.includes('\r\n')) {
				socket.end();
				resolve(answer.split('\r\n')[0]);
			}
		});
		socket.on('error', reject);
	});
}

export async function startRedis(dir: string, port: number): Promise<Redis> {
	if (!redisInstalled())
		throw new Error('redis-server is not installed (apt-get install redis-server)');
	const version =
		/v=([\d.]+)/.exec(execFileSync('redis-server', ['--version']).toString())?.[1] ?? '?';
	const proc = start(
		'redis',
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
		],
		join(dir, 'redis.log'),
	);
	await waitUntil(
		'Redis to answer PING',
		async () => {
			try {
				return (await redisCommand(port, 'PING')) === '+PONG';
			} catch {
				return false;
			}
		},
		30_000,
		proc,
	);
	return { proc, port, version };
}
