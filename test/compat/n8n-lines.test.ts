/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- compiles the package and runs it in child processes */
/**
 * The package against every n8n-workflow line README names: 2.41 (n8n 2.x), 1.120.31 (n8n
 * 1.123, the last 1.x; its NodeApiError drops the error it wraps) and 1.83.0 (n8n 1.85, the
 * oldest supported: the first whose n8n-workflow exports everything the compiled code uses). The
 * package is compiled exactly as `n8n-node build` compiles it, then loaded and exercised once per
 * n8n-workflow, and all must behave the same. The real n8n of each line runs the packed package
 * in the end-to-end suite (`npm run test:e2e`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { REVIEW_OUTPUTS } from '../../nodes/AbbyyVantage/params/needsReview';

const ROOT = join(__dirname, '..', '..');
const OLDEST = 'n8n-workflow-1.83.0';
/** n8n 1.123's n8n-workflow: NodeApiError loses `cause` (a class field reset after super()). */
const LAST_1X = 'n8n-workflow-1.120.31';

interface ProbeResult {
	version: string;
	/** `typeof` of every export of the n8n-workflow the probe ran with. */
	exportKinds: Record<string, string>;
	fingerprint: Record<string, unknown>;
	pauseMs: number;
	keepsCause: boolean;
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
let last1x: ProbeResult;
let oldest: ProbeResult;

beforeAll(() => {
	outDir = compile();
	current = probe('n8n-workflow');
	last1x = probe(LAST_1X);
	oldest = probe(OLDEST);
}, 120_000);

afterAll(() => {
	if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('every n8n-workflow line: 2.41, 1.120.31 (n8n 1.123) and 1.83.0 (n8n 1.85)', () => {
	it('probes the versions it claims to, one of which drops what NodeApiError wraps', () => {
		const devDependencies = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
			.devDependencies as Record<string, string>;
		expect(current.version).toBe(devDependencies['n8n-workflow']);
		expect(last1x.version).toBe('1.120.31');
		expect(oldest.version).toBe('1.83.0');
		expect([current.keepsCause, last1x.keepsCause, oldest.keepsCause]).toEqual([true, false, true]);
	});

	it('exports every n8n-workflow value the compiled package uses, of the same kind', () => {
		const used = runtimeImports(outDir);
		// The compiled code does use n8n-workflow at run time; an empty scan would prove nothing.
		expect(used).toEqual(expect.arrayContaining(['NodeApiError', 'NodeOperationError', 'sleep']));
		const kinds = (r: ProbeResult) =>
			Object.fromEntries(used.map((name) => [name, r.exportKinds[name] ?? 'missing']));
		const expected = kinds(current);
		expect(Object.values(expected)).not.toContain('missing');
		expect(kinds(last1x)).toEqual(expected);
		expect(kinds(oldest)).toEqual(expected);
	});

	it('loads the node and the credential with the same descriptions', () => {
		const pick = (r: ProbeResult) => ({
			nodes: r.fingerprint.nodes,
			credentials: r.fingerprint.credentials,
		});
		expect(pick(last1x)).toEqual(pick(current));
		expect(pick(oldest)).toEqual(pick(current));
		const nodes = oldest.fingerprint.nodes as Array<{
			description: { name: string; outputs: unknown };
		}>;
		expect(nodes.map((n) => n.description.name)).toEqual([
			'abbyyVantage',
			'abbyyVantageInstantTrigger',
			'abbyyVantageTrigger',
		]);
		// The ABBYY Vantage node's outputs depend on its parameters (Needs Review's second output),
		// resolved on every line in ./reviewOutputs.test.ts; the triggers have one.
		for (const node of nodes) {
			expect(node.description.outputs).toEqual(
				node.description.name === 'abbyyVantage' ? REVIEW_OUTPUTS : ['main'],
			);
		}
	});

	it('resolves the parameters of every version, resource and operation as n8n does, the same on every line', () => {
		const parameters = (r: ProbeResult) => r.fingerprint.parameters as Record<string, unknown>;
		const cases = Object.keys(parameters(current));
		// Both nodes, every version, every operation of the 36, each in both mapping modes.
		expect(cases.length).toBeGreaterThan(2 * 36);
		expect(cases).toEqual(
			expect.arrayContaining(['abbyyVantage 1 catalogRecord add autoMapInputData']),
		);
		for (const line of [current, last1x, oldest]) {
			const refused = Object.entries(parameters(line)).filter(
				([, shown]) => typeof shown === 'string',
			);
			expect({ version: line.version, refused }).toEqual({ version: line.version, refused: [] });
		}
		expect(parameters(last1x)).toEqual(parameters(current));
		expect(parameters(oldest)).toEqual(parameters(current));
		expect(parameters(current)['abbyyVantage 1 catalogRecord add autoMapInputData']).toContain(
			'recordIdNotice',
		);
		expect(parameters(current)['abbyyVantage 1 catalogRecord add defineBelow']).not.toContain(
			'recordIdNotice',
		);
		expect(parameters(current)['abbyyVantage 1 catalogRecord sync defineBelow']).toContain(
			'dryRun',
		);
	});

	it('reads answers, failures without an answer and refused sign-ins into the same error items', () => {
		for (const other of [last1x, oldest]) {
			expect(other.fingerprint.failures).toEqual(current.fingerprint.failures);
			expect(other.fingerprint.signIn).toEqual(current.fingerprint.signIn);
			expect(other.fingerprint.badInput).toEqual(current.fingerprint.badInput);
			expect(other.fingerprint.wrapped).toEqual(current.fingerprint.wrapped);
		}
		const failures = last1x.fingerprint.failures as Record<
			string,
			{
				isNodeApiError: boolean;
				failure: { kind: string; code?: string };
				item: { json: { error: string; errorDescription?: string; httpCode?: string } };
			}
		>;
		expect(failures['400 ProblemDetails'].isNodeApiError).toBe(true);
		expect(failures['400 ProblemDetails'].item.json.error).toContain(
			'Only Process skills take documents.',
		);
		expect(failures['400 ProblemDetails'].item.json.httpCode).toBe('400');
		expect(failures['429 Retry-After'].failure).toMatchObject({ status: 429, retryAfter: '2' });
		// The socket's code, which n8n's NodeApiError keeps as httpCode even where it drops the cause.
		expect(failures['connection reset'].failure).toEqual({ kind: 'network', code: 'ECONNRESET' });
		expect(failures['connection reset'].item.json.error).toMatch(/\[item 3\]$/);
		expect(failures['connection refused'].failure).toEqual({
			kind: 'network',
			code: 'ECONNREFUSED',
		});
		expect(failures.timeout.failure).toEqual({ kind: 'timeout', code: 'ECONNABORTED' });
		// No code anywhere: unclassified, in n8n's words, never an invented code; may have been applied.
		expect(failures['no code'].failure).toEqual({
			kind: 'unclassified',
			message: 'Something went wrong',
		});
		expect(failures['no code'].item.json.error).toBe(
			'The request to ABBYY Vantage failed without an answer: Something went wrong [item 3]',
		);
		expect(failures['no code'].item.json.errorDescription).not.toMatch(/network code/);
		expect(failures['no code'].item.json.errorDescription).toMatch(
			/may have reached ABBYY Vantage/,
		);
		expect(last1x.fingerprint.signIn).toEqual({
			recorded: 'ABBYY Vantage refused the sign-in (invalid_grant). Check Username and Password',
			takenOnce: true,
			wrappedIsNodeApiError: true,
		});
	});

	it('stops a wait when the execution is cancelled, even where sleep ignores the signal', () => {
		expect(current.fingerprint.pause).toBe('CancelledError');
		expect(last1x.fingerprint.pause).toBe('CancelledError');
		expect(oldest.fingerprint.pause).toBe('CancelledError');
		// n8n-workflow 1.83's sleep has no signal: the wait is sliced, so it ends within a slice
		// (1 s) of the cancel instead of running its full 10 s.
		expect(oldest.pauseMs).toBeLessThan(5_000);
	});
});
