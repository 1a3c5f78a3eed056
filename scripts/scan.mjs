// Offline equivalent of n8n's verification scan (`npx @n8n/scan-community-package`, which n8n's
// verification guidelines ask to pass), which only scans published packages: its
// analyzePackageByName checks the npm provenance, then lints the attested source checkout
// (`package.json`, `{nodes,credentials}/**`) and the published tarball (`**/*.js` and
// package.json). This runs the same analyzePackage, with the same patterns and inline
// eslint-disable comments ignored, over the sources and over `npm pack` of the built dist/. Not
// run here: the provenance check (it needs the package published from a GitHub Action).
//
// `npx` runs the registry's latest scanner, so the pinned devDependency must be that version: it
// is asked for (npm view) and a difference fails the scan; without an answer (offline) the
// pinned one runs and the scan says so.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const SCANNER = '@n8n/scan-community-package';
const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'vantage-scan-'));
let failed = false;

/** The scanner version installed here, and the one the registry's `latest` names (or null). */
function scannerVersions() {
	const installed = JSON.parse(
		readFileSync(require.resolve(`${SCANNER}/package.json`), 'utf8'),
	).version;
	let latest = null;
	try {
		latest = execFileSync('npm', ['view', SCANNER, 'dist-tags.latest'], {
			cwd: root,
			timeout: 30_000,
			stdio: ['ignore', 'pipe', 'ignore'],
		})
			.toString()
			.trim();
	} catch {
		// offline, or the registry did not answer
	}
	return { installed, latest: latest || null };
}

/** Files under `dir` (recursively) whose name passes `keep`, with their modification times. */
function mtimes(dir, keep) {
	const out = [];
	for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (entry.isFile() && keep(entry.name))
			out.push(statSync(join(entry.parentPath, entry.name)).mtimeMs);
	}
	return out;
}

try {
	const { installed, latest } = scannerVersions();
	if (latest === null) {
		console.log(`scanner: ${SCANNER}@${installed} (the registry did not answer: not compared)`);
	} else if (latest !== installed) {
		console.log(
			`scanner: ${SCANNER}@${installed} is pinned, but the registry's latest (what npx and the Creator Portal run) is ${latest}: npm install -D --save-exact ${SCANNER}@${latest}`,
		);
		failed = true;
	} else {
		console.log(`scanner: ${SCANNER}@${installed}, the registry's latest`);
	}
	// npm pack runs no build (.npmrc: ignore-scripts): the tarball is dist/ as it is.
	const sources = [
		...mtimes(join(root, 'nodes'), (n) => n.endsWith('.ts')),
		...mtimes(join(root, 'credentials'), (n) => n.endsWith('.ts')),
	];
	let built = [];
	try {
		built = mtimes(join(root, 'dist'), (n) => n.endsWith('.js'));
	} catch {
		// no dist/
	}
	if (!built.length || Math.max(...sources) > Math.min(...built)) {
		console.log(
			`dist/ is ${built.length ? 'older than the sources' : 'missing'}: run npm run build first`,
		);
		process.exit(1);
	}
	execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: root,
		stdio: 'ignore',
	});
	const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
	const unpacked = join(work, 'package');
	execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
	// The tarball holds the build and the package's own documents, nothing else.
	const listed = execFileSync('tar', ['-tzf', join(work, tarball)])
		.toString()
		.trim()
		.split('\n');
	const allowed =
		/^package\/(package\.json|README\.md|LICENSE\.md|dist\/(package\.json|credentials\/.+|nodes\/.+|icons\/.+))$/;
	const stray = listed.filter((f) => !allowed.test(f));
	console.log(
		`tarball: ${listed.length} files${stray.length ? `, unexpected: ${stray.join(', ')}` : ', all expected'}`,
	);
	if (stray.length) failed = true;
	for (const [label, dir, patterns] of [
		['packed tarball', unpacked, ['**/*.js', 'package.json']],
		['sources', root, SOURCE_FILE_PATTERNS],
	]) {
		const result = await analyzePackage(dir, patterns);
		console.log(`scan ${label}: ${result.passed ? 'passed' : `FAILED — ${result.message}`}`);
		if (!result.passed) {
			failed = true;
			if (result.details) console.log(result.details);
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
