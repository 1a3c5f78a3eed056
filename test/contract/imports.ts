/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the package's sources */
/**
 * The package's import graph: every relative import of every .ts file under nodes/ and
 * credentials/ (import, import type, export … from, require, import()), read with TypeScript's
 * own import scanner, so the checks need no dependency of their own.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const SOURCES = ['nodes', 'credentials'];

/** Every .ts file under `dir`, as a path from the repository root. */
export function sourceFiles(dir: string): string[] {
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
export function importGraph(
	paths: string[],
	read: (path: string) => string,
): Map<string, string[]> {
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
 * component of two files or more, or a file importing itself), with the shortest loop through its
 * first file written out. Tarjan's algorithm; files and circles sorted, so the answer is stable.
 */
export function circlesOf(graph: Map<string, string[]>): Array<{ files: string[]; loop: string }> {
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

/** The package's files (paths from the repository root) and its import graph. */
export function packageImports(): { paths: string[]; graph: Map<string, string[]> } {
	const paths = SOURCES.flatMap(sourceFiles);
	return { paths, graph: importGraph(paths, (path) => readFileSync(join(ROOT, path), 'utf8')) };
}
