/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions --
 * End-to-end infrastructure, never shipped: starts and stops the servers of the queue-mode suite. */
/**
 * Processes of the queue-mode suite (PostgreSQL, Redis, n8n main and workers): each writes its
 * output to a log file of its own, is remembered by its process id, and is stopped by that id
 * only (SIGTERM, then SIGKILL after a grace period), never by name. Most are children of the
 * suite; PostgreSQL's postmaster is started by `pg_ctl` and adopted by its id (`adopt`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface Proc {
	name: string;
	pid: number;
	log: string;
	/** Undefined for an adopted process (started by another program, e.g. pg_ctl). */
	child?: ChildProcess;
	/** Resolves with the exit code (or the signal's name) once the process has ended. */
	exited: Promise<number | string>;
	/** True once the process has ended. */
	ended: () => boolean;
	/** The signal that asks it to stop (default SIGTERM). */
	stopSignal?: NodeJS.Signals;
}

const running = new Set<Proc>();

export interface StartOptions {
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	/** Run as this user and group (root starting PostgreSQL as an unprivileged user). */
	uid?: number;
	gid?: number;
	stopSignal?: NodeJS.Signals;
}

/** Start `command`; stdout and stderr go to `log` (appended). */
export function start(
	name: string,
	command: string,
	args: string[],
	log: string,
	options: StartOptions = {},
): Proc {
	const fd = openSync(log, 'a');
	const child = spawn(command, args, {
		env: options.env ?? process.env,
		cwd: options.cwd,
		stdio: ['ignore', fd, fd],
		...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
	});
	closeSync(fd);
	if (child.pid === undefined) throw new Error(`${name} did not start (${command})`);
	let done = false;
	const exited = new Promise<number | string>((resolve) => {
		child.on('exit', (code, signal) => {
			done = true;
			resolve(code ?? signal ?? -1);
		});
		child.on('error', () => {
			done = true;
			resolve(-1);
		});
	});
	const proc: Proc = {
		name,
		pid: child.pid,
		log,
		child,
		exited,
		ended: () => done,
		stopSignal: options.stopSignal,
	};
	running.add(proc);
	void exited.then(() => running.delete(proc));
	return proc;
}

/**
 * Whether process `pid` still runs. An adopted process that has exited but whose new parent (the
 * container's first process, which may not reap) has not collected it is a zombie: ended too.
 */
export function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch (error) {
		// EPERM: it exists but belongs to another user.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		return false;
	}
}

/**
 * Remember a process this suite did not spawn itself (a daemon that `pg_ctl` started): stopped
 * and waited for by its id like the others; its end is noticed by polling that id.
 */
export function adopt(name: string, pid: number, log: string, stopSignal?: NodeJS.Signals): Proc {
	let done = !alive(pid);
	const exited = new Promise<number | string>((resolve) => {
		if (done) return resolve('gone');
		const timer = setInterval(() => {
			if (alive(pid)) return;
			done = true;
			clearInterval(timer);
			resolve('gone');
		}, 100);
	});
	const proc: Proc = { name, pid, log, exited, ended: () => done, stopSignal };
	running.add(proc);
	void exited.then(() => running.delete(proc));
	return proc;
}

export function readLog(proc: Proc): string {
	try {
		return readFileSync(proc.log, 'utf8');
	} catch {
		return '';
	}
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Wait until `ready()` is true; throws after `timeoutMs` or when `proc` ends first. */
export async function waitUntil(
	what: string,
	ready: () => boolean | Promise<boolean>,
	timeoutMs: number,
	proc?: Proc,
	everyMs = 250,
): Promise<number> {
	const started = Date.now();
	for (;;) {
		if (await ready()) return Date.now() - started;
		if (proc?.ended()) {
			throw new Error(
				`${proc.name} ended while waiting for ${what}:\n${readLog(proc).slice(-3000)}`,
			);
		}
		if (Date.now() - started > timeoutMs) {
			throw new Error(
				`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${proc ? `:\n${readLog(proc).slice(-3000)}` : ''}`,
			);
		}
		await sleep(everyMs);
	}
}

/**
 * Stop one process by its id: `signal` (SIGTERM; PostgreSQL's fast shutdown is SIGINT), then
 * SIGKILL if it is still there after `graceMs`.
 */
export async function stop(
	proc: Proc,
	graceMs = 15_000,
	signal: NodeJS.Signals = proc.stopSignal ?? 'SIGTERM',
): Promise<void> {
	if (proc.ended()) return;
	try {
		process.kill(proc.pid, signal);
	} catch {
		return;
	}
	const timer = setTimeout(() => {
		try {
			process.kill(proc.pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}, graceMs);
	await proc.exited;
	clearTimeout(timer);
}

/** SIGKILL one process by its id, as when a machine dies, and wait until it is gone. */
export async function kill(proc: Proc): Promise<void> {
	if (proc.ended()) return;
	process.kill(proc.pid, 'SIGKILL');
	await proc.exited;
}

/** Stop every process this module started that is still running, newest first. */
export async function stopAll(): Promise<void> {
	for (const proc of [...running].reverse()) await stop(proc);
}

/**
 * Last resort when the suite itself exits: SIGKILL each process it started, by id, so that no
 * server outlives the run (an interrupted run leaves nothing on its ports).
 */
export function killAllNow(): void {
	for (const proc of running) {
		try {
			process.kill(proc.pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
}
