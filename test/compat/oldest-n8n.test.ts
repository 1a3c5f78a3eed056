/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- compiles the package and runs it in child processes */
/**
 * README states the oldest n8n the package supports: 1.85.0, the first release whose n8n-workflow
 * (1.83.0) exports everything the compiled code uses at run time. n8n 1.x itself cannot be
 * installed from this registry, so this proves the claim at the boundary that matters: the package
 * is compiled exactly as `n8n-node build` compiles it, then loaded and exercised once with the
 * n8n-workflow under test (2.41) and once with n8n-workflow 1.83.0, and both must behave the same.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const OLDEST = 'n8n-workflow-1.83.0';

interface ProbeResult {
	version: string;
	/** `typeof` of every export of the n8n-workflow the probe ran with. */
	exportKinds: Record<string, string>;
	fingerprint: Record<string, unknown>;
	pauseMs: number;
}

let outDir: string;

function compile(): string {
	const dir = mkdtempSync(join(tmpdir(), 'abbyy-vantage-compat-'));
	const config = ts.getParsedCommandLineOfConfigFile(
		join(ROOT, 'tsconfig.json'),
		{ outDir: dir, declaration: false, sourceMap: false },
		{
			...ts.sys,
			onUnRecoverableConfigFileDiagnostic: (d) => {
				throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
			},
		},
	);
	if (!config) throw new Error('tsconfig.json could not be read');
	const program = ts.createProgram(config.fileNames, config.options);
	const result = program.emit();
	const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
	if (diagnostics.length) {
		throw new Error(
			diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'),
		);
	}
	return dir;
}

function probe(workflowPackage: string): ProbeResult {
	const folder = dirname(require.resolve(`${workflowPackage}/package.json`));
	const stdout = execFileSync(
		process.execPath,
		[join(__dirname, 'probe.js'), outDir, join(ROOT, 'package.json'), folder],
		{ encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
	);
	return JSON.parse(stdout) as ProbeResult;
}

/** Every n8n-workflow export the compiled code touches at run time (types are erased). */
function runtimeImports(dir: string): string[] {
	const used = new Set<string>();
	const walk = (folder: string) => {
		for (const name of readdirSync(folder)) {
			const path = join(folder, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith('.js')) {
				const code = readFileSync(path, 'utf8');
				const binding = /const (\w+) = require\("n8n-workflow"\)/.exec(code)?.[1];
				if (!binding) continue;
				for (const match of code.matchAll(new RegExp(`\\b${binding}\\.(\\w+)`, 'g'))) {
					used.add(match[1]);
				}
			}
		}
	};
	walk(dir);
	return [...used].sort();
}

let current: ProbeResult;
let oldest: ProbeResult;

beforeAll(() => {
	outDir = compile();
	current = probe('n8n-workflow');
	oldest = probe(OLDEST);
}, 120_000);

afterAll(() => {
	if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('the oldest supported n8n (n8n-workflow 1.83.0, shipped with n8n 1.85.0)', () => {
	it('probes the versions it claims to', () => {
		const devDependencies = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
			.devDependencies as Record<string, string>;
		expect(current.version).toBe(devDependencies['n8n-workflow']);
		expect(oldest.version).toBe('1.83.0');
	});

	it('exports every n8n-workflow value the compiled package uses, of the same kind', () => {
		const used = runtimeImports(outDir);
		// The compiled code does use n8n-workflow at run time; an empty scan would prove nothing.
		expect(used).toEqual(expect.arrayContaining(['NodeApiError', 'NodeOperationError', 'sleep']));
		const kinds = (r: ProbeResult) =>
			Object.fromEntries(used.map((name) => [name, r.exportKinds[name] ?? 'missing']));
		const expected = kinds(current);
		expect(Object.values(expected)).not.toContain('missing');
		expect(kinds(oldest)).toEqual(expected);
	});

	it('loads the node and the credential with the same descriptions', () => {
		const pick = (r: ProbeResult) => ({
			nodes: r.fingerprint.nodes,
			credentials: r.fingerprint.credentials,
		});
		expect(pick(oldest)).toEqual(pick(current));
		const nodes = oldest.fingerprint.nodes as Array<{
			description: { name: string; outputs: unknown };
		}>;
		expect(nodes.map((n) => n.description.name)).toEqual(['abbyyVantage', 'abbyyVantageTrigger']);
		for (const node of nodes) expect(node.description.outputs).toEqual(['main']);
	});

	it('turns what the host throws into the same error items', () => {
		expect(oldest.fingerprint.failures).toEqual(current.fingerprint.failures);
		expect(oldest.fingerprint.badInput).toEqual(current.fingerprint.badInput);
		expect(oldest.fingerprint.wrapped).toEqual(current.fingerprint.wrapped);
		const failures = oldest.fingerprint.failures as Record<
			string,
			{ isNodeApiError: boolean; item: { json: { error: string; httpCode?: string } } }
		>;
		expect(failures['400 ProblemDetails'].isNodeApiError).toBe(true);
		expect(failures['400 ProblemDetails'].item.json.error).toContain(
			'Only Process skills take documents.',
		);
		expect(failures['400 ProblemDetails'].item.json.httpCode).toBe('400');
		expect(failures['connection reset'].item.json.error).toMatch(/\[item 3\]$/);
	});

	it('stops a wait when the execution is cancelled, even where sleep ignores the signal', () => {
		expect(current.fingerprint.pause).toBe('CancelledError');
		expect(oldest.fingerprint.pause).toBe('CancelledError');
		// n8n-workflow 1.83's sleep has no signal: the wait is sliced, so it ends within a slice
		// (1 s) of the cancel instead of running its full 10 s.
		expect(oldest.pauseMs).toBeLessThan(5_000);
	});
});
