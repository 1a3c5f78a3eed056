/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
 * End-to-end tooling, never shipped: watches an install on this machine. */
/**
 * What an n8n host install (./n8n.ts, ensureHost) is doing right now, in words, read from what
 * can be seen from outside npm: the packages in place in the folder it installs into, the bytes
 * npm's cache holds, and the processes running under this one (Linux's /proc). A cold install
 * spends its first minute with no package in place while npm asks the registry for the metadata
 * of every package in the lockfile (the host lockfile records no download addresses), then
 * downloads and unpacks, then builds sqlite3: a prebuilt binary when one can be downloaded for
 * this machine, otherwise a compile of SQLite's C sources that takes minutes on 2 cores.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * The packages a lockfile installs on this machine (its os, cpu and libc), as folders under `dir`:
 * the same count as ./n8n.ts shows.
 */
export function lockfilePackages(dir: string): string[] {
	const lockPath = join(dir, 'package-lock.json');
	if (!existsSync(lockPath)) return [];
	const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as {
		packages: Record<
			string,
			{ os?: string | string[]; cpu?: string | string[]; libc?: string | string[] }
		>;
	};
	const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })
		.header;
	const libc = header?.glibcVersionRuntime ? 'glibc' : 'musl';
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
				fits(p.os, process.platform) &&
				fits(p.cpu, process.arch) &&
				fits(p.libc, libc),
		)
		.map(([path]) => join(dir, path));
}

/** A process running under this one: its command name and its arguments. */
export interface Descendant {
	command: string;
	args: string[];
}

/** The processes descending from `root` (Linux's /proc; none elsewhere), e.g. npm, make, cc1. */
export function descendants(root = process.pid): Descendant[] {
	let entries: string[];
	try {
		entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
	} catch {
		return [];
	}
	const parent = new Map<number, number>();
	const command = new Map<number, string>();
	for (const entry of entries) {
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// pid (comm) state ppid …: comm may hold spaces and parentheses, so split at the last ')'.
			const close = stat.lastIndexOf(')');
			parent.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
			command.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
		} catch {
			// the process ended while we looked
		}
	}
	const found: Descendant[] = [];
	for (const [pid] of parent) {
		for (let up = parent.get(pid); up !== undefined && up > 1; up = parent.get(up)) {
			if (up !== root) continue;
			let args: string[] = [];
			try {
				args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
			} catch {
				// ended
			}
			found.push({ command: command.get(pid) ?? '', args });
			break;
		}
	}
	return found;
}

const MB = 1024 * 1024;

/** npm's cache folder: `npm_config_cache`, else npm's default (~/.npm). */
export function npmCacheFolder(): string {
	return (
		process.env.npm_config_cache ??
		process.env.NPM_CONFIG_CACHE ??
		join(process.env.HOME ?? '', '.npm')
	);
}

/** What npm fetched from the registry since `since` (ms), from its cache index: metadata and tarballs. */
export function registryFetches(
	cache: string,
	since: number,
): { metadata: Set<string>; tarballs: Set<string>; bytes: number } {
	const metadata = new Set<string>();
	const tarballs = new Set<string>();
	let bytes = 0;
	const walk = (folder: string) => {
		let names: string[];
		try {
			names = readdirSync(folder);
		} catch {
			return;
		}
		for (const name of names) {
			const path = join(folder, name);
			try {
				const stat = statSync(path);
				if (stat.isDirectory()) walk(path);
				else if (stat.mtimeMs >= since) {
					// A bucket: one line per entry, "<hash>\t<json>"; appended to, so old entries stay.
					for (const line of readFileSync(path, 'utf8').split('\n')) {
						const json = line.slice(line.indexOf('\t') + 1);
						if (!json.startsWith('{')) continue;
						const entry = JSON.parse(json) as { key?: string; time?: number; size?: number };
						if ((entry.time ?? 0) < since) continue;
						const url = /^make-fetch-happen:request-cache:(https?:.*)$/.exec(entry.key ?? '')?.[1];
						if (!url) continue;
						if (/\/-\/[^/]+\.tgz$/.test(url)) tarballs.add(url);
						else metadata.add(url);
						bytes += entry.size ?? 0;
					}
				}
			} catch {
				// written or removed while we looked
			}
		}
	};
	walk(join(cache, '_cacache', 'index-v5'));
	return { metadata, tarballs, bytes };
}

/**
 * Watches one host install in `folder` (the folder npm installs into) and words what it is doing:
 * `describe('installing n8n')` while npm installs, `describe('compiling sqlite3')` while sqlite3
 * is built.
 */
export class InstallWatch {
	private readonly started = Date.now();

	constructor(
		private readonly folder: string,
		private readonly cache = npmCacheFolder(),
	) {}

	describe(step: string): string {
		if (step.startsWith('compiling sqlite3')) return this.sqlite3();
		const packages = lockfilePackages(this.folder);
		if (!packages.length) return 'npm is starting';
		const inPlace = packages.filter((dir) => existsSync(join(dir, 'package.json'))).length;
		// One registry document per package name, whatever the versions installed.
		const names = new Set(packages.map((dir) => dir.slice(dir.lastIndexOf('node_modules/') + 13)))
			.size;
		const fetched = registryFetches(this.cache, this.started);
		const size = `${Math.round(fetched.bytes / MB)} MB`;
		if (inPlace === 0)
			return `resolving: npm asks the registry about each package of n8n's lockfile (${fetched.metadata.size} of ${names} so far, ${size})`;
		if (inPlace < packages.length)
			return `downloading and unpacking: ${inPlace} of ${packages.length} packages in place (${fetched.tarballs.size} downloaded, ${size} in all)`;
		return `all ${packages.length} packages in place; npm links them (command-line scripts, its record of the install)`;
	}

	private sqlite3(): string {
		const running = descendants();
		const runs = (pattern: RegExp) =>
			running.some((p) => pattern.test(p.command) || p.args.some((a) => pattern.test(a)));
		const objects = countFiles(join(this.folder, 'node_modules', 'sqlite3', 'build'), '.o');
		const built = `${objects} object file${objects === 1 ? '' : 's'} built so far`;
		// The compiler proper (cc1 for C, cc1plus for C++) names the source it compiles.
		const sources = [
			...new Set(
				running
					.filter((p) => /^cc1(plus)?$/.test(p.command))
					.flatMap((p) => p.args.filter((a) => /[^/.][^/]*\.(c|cc|cpp)$/.test(a)))
					.map((a) => basename(a)),
			),
		];
		if (sources.length) {
			const what = sources.includes('sqlite3.c')
				? 'sqlite3.c, SQLite itself in one C file (the longest step: about a minute on 2 cores)'
				: `${sources.join(', ')} (sqlite3's binding for Node)`;
			return `compiling ${what}; ${built}`;
		}
		if (runs(/^(make|g\+\+|gcc|c\+\+|cc|ld|ar|as)$/)) return `compiling with make; ${built}`;
		if (runs(/^tar$/) || runs(/extract\.js$/))
			return 'unpacking the SQLite sources sqlite3 bundles';
		if (runs(/node-gyp/)) return 'node-gyp prepares the compile (Node headers, Makefiles)';
		if (runs(/prebuild-install/))
			return 'looking for a prebuilt sqlite3 binary for this Node and machine (else it compiles)';
		return 'building sqlite3';
	}
}

/** How many files under `dir` end with `suffix`. */
function countFiles(dir: string, suffix: string): number {
	let count = 0;
	const walk = (folder: string) => {
		let names: string[];
		try {
			names = readdirSync(folder);
		} catch {
			return;
		}
		for (const name of names) {
			const path = join(folder, name);
			try {
				if (statSync(path).isDirectory()) walk(path);
				else if (name.endsWith(suffix)) count++;
			} catch {
				// removed while we looked
			}
		}
	};
	walk(dir);
	return count;
}
