// Offline equivalent of n8n's verification scan (`npx @n8n/scan-community-package`), which only
// scans published packages: run its own analyzePackage over the packed tarball (`**/*.js` and
// package.json) and over the sources (`package.json`, `{nodes,credentials}/**`), with inline
// eslint-disable comments ignored, exactly as the real scan does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'vantage-scan-'));
let failed = false;
try {
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
