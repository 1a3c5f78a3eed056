/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the package's sources */
/**
 * No import circle in the package's code: files under nodes/ and credentials/ that import each
 * other in a loop hold one concept in two homes (or two concepts in one tangle). Every relative
 * import counts, type-only ones too: a circle of types is still two homes for one concept. Read
 * with TypeScript's own import scanner, so the check needs no dependency of its own.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const SOURCES = ['nodes', 'credentials'];

/**
 * Circles known today and tolerated until their owner's change is merged, each as its files.
 * Removed when the transport's failure home lands (errors.ts ↔ retry.ts; index.ts ↔ stream.ts).
 */
const KNOWN_TRANSPORT_CIRCLES: string[][] = [
	['nodes/AbbyyVantage/transport/errors.ts', 'nodes/AbbyyVantage/transport/retry.ts'],
	['nodes/AbbyyVantage/transport/index.ts', 'nodes/AbbyyVantage/transport/stream.ts'],
];

/** Every .ts file under `dir`, as a path from the repository root. */
function sourceFiles(dir: string): string[] {
	return readdirSync(join(ROOT, dir)).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
	});
}

/** The file a relative specifier names, as TypeScript resolves it: `x.ts` or `x/index.ts`. */
function resolveImport(from: string, specifier: string, files: Set<string>): string | undefined {
	const base = relative(ROOT, resolve(ROOT, dirname(from), specifier));
	return [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => files.has(candidate));
}

/** Each file's relative imports (import, import type, export … from, require, import()). */
function importGraph(paths: string[], read: (path: string) => string): Map<string, string[]> {
	const files = new Set(paths);
	const graph = new Map<string, string[]>();
	for (const path of paths) {
		const { importedFiles } = ts.preProcessFile(read(path), true, true);
		const targets = importedFiles
			.map((f) => f.fileName)
			.filter((specifier) => specifier.startsWith('.'))
			.map((specifier) => resolveImport(path, specifier, files))
			.filter((target): target is string => target !== undefined);
		graph.set(path, [...new Set(targets)].sort());
	}
	return graph;
}

/**
 * The circles of `graph`: each group of files that reach one another (a strongly connected
 * component of two files or more, or a file importing itself), with one loop through all of them
 * written out. Tarjan's algorithm; files and circles sorted, so the answer is stable.
 */
function circlesOf(graph: Map<string, string[]>): Array<{ files: string[]; loop: string }> {
	let next = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const components: string[][] = [];
	const visit = (file: string) => {
		index.set(file, next);
		low.set(file, next);
		next++;
		stack.push(file);
		onStack.add(file);
		for (const target of graph.get(file) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file)!, low.get(target)!));
			} else if (onStack.has(target)) {
				low.set(file, Math.min(low.get(file)!, index.get(target)!));
			}
		}
		if (low.get(file) === index.get(file)) {
			const component: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				component.push(member);
			} while (member !== file);
			const selfImport = (graph.get(file) ?? []).includes(file);
			if (component.length > 1 || selfImport) components.push(component.sort());
		}
	};
	for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
	return components
		.sort((a, b) => a[0].localeCompare(b[0]))
		.map((files) => ({ files, loop: loopThrough(graph, files) }));
}

/** A walk from the component's first file back to it that stays inside the component. */
function loopThrough(graph: Map<string, string[]>, files: string[]): string {
	const inside = new Set(files);
	const start = files[0];
	// Breadth-first from each neighbour of the start back to the start: the shortest loop.
	const previous = new Map<string, string>();
	const queue = [start];
	while (queue.length) {
		const file = queue.shift()!;
		for (const target of graph.get(file) ?? []) {
			if (!inside.has(target)) continue;
			if (target === start) {
				const path = [start];
				for (let at = file; at !== start; at = previous.get(at)!) path.unshift(at);
				path.unshift(start);
				return path.join(' -> ');
			}
			if (!previous.has(target)) {
				previous.set(target, file);
				queue.push(target);
			}
		}
	}
	return files.join(', ');
}

const key = (files: string[]) => [...files].sort().join(' | ');

describe('no import circle under nodes/ and credentials/', () => {
	const paths = SOURCES.flatMap(sourceFiles);
	const circles = circlesOf(importGraph(paths, (path) => readFileSync(join(ROOT, path), 'utf8')));
	const known = new Set(KNOWN_TRANSPORT_CIRCLES.map(key));

	test('the scan reads the package: both nodes, the transport and the credential', () => {
		expect(paths).toEqual(
			expect.arrayContaining([
				'nodes/AbbyyVantage/AbbyyVantage.node.ts',
				'nodes/AbbyyVantageTrigger/AbbyyVantageTrigger.node.ts',
				'nodes/AbbyyVantage/transport/index.ts',
				'credentials/AbbyyVantageApi.credentials.ts',
			]),
		);
		const graph = importGraph(paths, (path) => readFileSync(join(ROOT, path), 'utf8'));
		// A barrel import ('../transport') and a type-only import both count.
		expect(graph.get('nodes/AbbyyVantage/AbbyyVantage.node.ts')).toContain(
			'nodes/AbbyyVantage/actions/router.ts',
		);
		expect(graph.get('nodes/AbbyyVantage/methods/listSearch.ts')).toContain(
			'nodes/AbbyyVantage/transport/index.ts',
		);
	});

	test('no circle, besides the known ones listed above', () => {
		const unexpected = circles
			.filter((circle) => !known.has(key(circle.files)))
			.map((circle) => `circle of ${circle.files.length}: ${circle.loop}`);
		expect(unexpected).toEqual([]);
	});

	test('every known circle still exists (a circle gone is struck from the list)', () => {
		const found = new Set(circles.map((circle) => key(circle.files)));
		expect(KNOWN_TRANSPORT_CIRCLES.map(key).filter((k) => !found.has(k))).toEqual([]);
	});

	test('the check finds a circle of types, a longer loop and a self-import, naming each', () => {
		const sources: Record<string, string> = {
			'nodes/a.ts': "import type { B } from './b';\nexport type A = B;",
			'nodes/b.ts': "export type { A as B } from './a';",
			'nodes/c.ts': "import { d } from './sub';\nexport const c = d;",
			'nodes/sub/index.ts': "import { e } from '../e';\nexport const d = e;",
			'nodes/e.ts':
				"import { c } from './c';\nimport { x } from 'n8n-workflow';\nexport const e = c;",
			'nodes/f.ts': "import { f } from './f';\nexport { f };",
			'nodes/g.ts': "import { a } from './a';\nexport const g = a;",
		};
		const graph = importGraph(Object.keys(sources), (path) => sources[path]);
		expect(circlesOf(graph)).toEqual([
			{ files: ['nodes/a.ts', 'nodes/b.ts'], loop: 'nodes/a.ts -> nodes/b.ts -> nodes/a.ts' },
			{
				files: ['nodes/c.ts', 'nodes/e.ts', 'nodes/sub/index.ts'],
				loop: 'nodes/c.ts -> nodes/sub/index.ts -> nodes/e.ts -> nodes/c.ts',
			},
			{ files: ['nodes/f.ts'], loop: 'nodes/f.ts -> nodes/f.ts' },
		]);
	});
});
