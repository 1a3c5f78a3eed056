/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the package's sources */
/**
 * Where the package calls Vantage, read from its code with TypeScript's own checker: each use of
 * a vendor operation (`endpoints.<operation>` of transport/endpoints.ts) and the declaration it
 * is written in (its home: a function, a constant, a method), and which of them an operation's
 * `execute` reaches through the calls and references of the code.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
export const ENDPOINTS_FILE = 'nodes/AbbyyVantage/transport/endpoints.ts';

/** A declaration of the code: `file#name`, `file#Class.member`. */
export type Unit = string;

export interface VendorCalls {
	/** Each operation's endpoint name → the declarations that write a use of it. */
	homes: Map<string, Set<Unit>>;
	/** The endpoint names used in what `roots` reach. */
	reached(roots: Unit[]): Set<string>;
	/** The declaration `name` is exported from in `path` (a root for `reached`). */
	exported(path: string, name: string): Unit | undefined;
	/** Vantage API paths written outside transport/endpoints.ts: `file: text`. */
	pathsOutside: string[];
}

/**
 * Reads `paths` (from the repository root) as one program. Only these files are read: imports
 * from packages stay unresolved, which the questions asked here do not need (they concern the
 * package's own declarations), and which keeps the read to about a second.
 */
export function vendorCalls(
	paths: string[],
	read: (path: string) => string = (path) => readFileSync(join(ROOT, path), 'utf8'),
): VendorCalls {
	const abs = (path: string) => join(ROOT, path);
	const sources = new Map(paths.map((path) => [abs(path), read(path)]));
	const options: ts.CompilerOptions = {
		noLib: true,
		noResolve: true,
		types: [],
		target: ts.ScriptTarget.ES2019,
		module: ts.ModuleKind.CommonJS,
		moduleResolution: ts.ModuleResolutionKind.Node10,
	};
	const host = ts.createCompilerHost(options);
	host.getSourceFile = (fileName, languageVersion) => {
		const text = sources.get(fileName);
		return text === undefined
			? undefined
			: ts.createSourceFile(fileName, text, languageVersion, true);
	};
	host.fileExists = (fileName) => sources.has(fileName);
	host.readFile = (fileName) => sources.get(fileName);
	const program = ts.createProgram([...sources.keys()], options, host);
	const checker = program.getTypeChecker();
	const ours = program.getSourceFiles().filter((file) => sources.has(file.fileName));
	const relativeOf = (file: ts.SourceFile) => file.fileName.slice(ROOT.length + 1);

	/** The declaration a node is written in, at the top of its file or as a class member. */
	function unitOf(node: ts.Node): Unit | undefined {
		let at: ts.Node = node;
		while (at.parent && !ts.isSourceFile(at.parent)) {
			if (ts.isClassLike(at.parent) && at.parent.name) {
				const name = (at as ts.ClassElement).name;
				const member = name && ts.isIdentifier(name) ? name.text : 'constructor';
				return `${relativeOf(at.getSourceFile())}#${at.parent.name.text}.${member}`;
			}
			if (ts.isVariableDeclaration(at) && ts.isVariableStatement(at.parent.parent)) {
				if (ts.isSourceFile(at.parent.parent.parent)) break;
			}
			at = at.parent;
		}
		if (!at.parent) return undefined;
		const file = relativeOf(at.getSourceFile());
		if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name)) return `${file}#${at.name.text}`;
		if (ts.isVariableStatement(at)) {
			const [first] = at.declarationList.declarations;
			return ts.isIdentifier(first.name) ? `${file}#${first.name.text}` : `${file}#@${at.pos}`;
		}
		if (
			(ts.isFunctionDeclaration(at) ||
				ts.isClassDeclaration(at) ||
				ts.isInterfaceDeclaration(at)) &&
			at.name
		) {
			return `${file}#${at.name.text}`;
		}
		return `${file}#@${at.pos}`;
	}

	/** The declarations of the package that an identifier names, aliases (imports) followed. */
	function targets(identifier: ts.Identifier): ts.Declaration[] {
		let symbol =
			ts.isShorthandPropertyAssignment(identifier.parent) && identifier.parent.name === identifier
				? checker.getShorthandAssignmentValueSymbol(identifier.parent)
				: checker.getSymbolAtLocation(identifier);
		if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
		return (symbol?.declarations ?? []).filter((d) => sources.has(d.getSourceFile().fileName));
	}

	const isEndpointsObject = (expression: ts.Expression) =>
		ts.isIdentifier(expression) &&
		expression.text === 'endpoints' &&
		targets(expression).some(
			(d) => relativeOf(d.getSourceFile()) === ENDPOINTS_FILE && ts.isVariableDeclaration(d),
		);

	const edges = new Map<Unit, Set<Unit>>();
	const uses = new Map<Unit, Set<string>>();
	const homes = new Map<string, Set<Unit>>();
	const pathsOutside: string[] = [];
	/** Per unit, the nodes written in it (a unit may be made of several nodes: overloads). */
	const bodies = new Map<Unit, ts.Node[]>();

	for (const file of ours) {
		const path = relativeOf(file);
		const visit = (node: ts.Node) => {
			const unit = unitOf(node);
			if (unit) {
				if (!bodies.has(unit)) bodies.set(unit, []);
				if (
					ts.isPropertyAccessExpression(node) &&
					path !== ENDPOINTS_FILE &&
					isEndpointsObject(node.expression)
				) {
					const name = node.name.text;
					if (!homes.has(name)) homes.set(name, new Set());
					homes.get(name)!.add(unit);
					if (!uses.has(unit)) uses.set(unit, new Set());
					uses.get(unit)!.add(name);
				}
				if (ts.isIdentifier(node)) bodies.get(unit)!.push(node);
			}
			if (
				path !== ENDPOINTS_FILE &&
				(ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) &&
				/\/api\/(publicapi|reporting)\b/.test(node.text)
			) {
				pathsOutside.push(`${path}: ${node.text}`);
			}
			ts.forEachChild(node, visit);
		};
		visit(file);
	}

	/** What a unit refers to, resolved once it is reached. */
	function edgesOf(unit: Unit): Set<Unit> {
		let out = edges.get(unit);
		if (!out) {
			out = new Set();
			for (const identifier of bodies.get(unit) ?? []) {
				for (const declaration of targets(identifier as ts.Identifier)) {
					const target = unitOf(declaration);
					if (target && target !== unit) out.add(target);
				}
			}
			edges.set(unit, out);
		}
		return out;
	}

	return {
		homes,
		pathsOutside,
		exported(path, name) {
			const file = ours.find((f) => relativeOf(f) === path);
			const module = file && checker.getSymbolAtLocation(file);
			const symbol = module && checker.getExportsOfModule(module).find((e) => e.name === name);
			const declaration = symbol?.declarations?.[0];
			return declaration && unitOf(declaration);
		},
		reached(roots) {
			const seen = new Set<Unit>();
			const queue = [...roots];
			const names = new Set<string>();
			while (queue.length) {
				const unit = queue.pop()!;
				if (seen.has(unit)) continue;
				seen.add(unit);
				for (const name of uses.get(unit) ?? []) names.add(name);
				queue.push(...edgesOf(unit));
			}
			return names;
		},
	};
}
