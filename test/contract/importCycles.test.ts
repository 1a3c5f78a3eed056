/**
 * No import circle in the package's code: files under nodes/ and credentials/ that import each
 * other in a loop hold one concept in two homes (or two concepts in one tangle). Every relative
 * import counts, type-only ones too: a circle of types is still two homes for one concept.
 */
import { circlesOf, importGraph, packageImports } from './imports';

describe('no import circle under nodes/ and credentials/', () => {
	const { paths, graph } = packageImports();
	const circles = circlesOf(graph);

	test('the scan reads the package: the three nodes, the transport and the credential', () => {
		expect(paths).toEqual(
			expect.arrayContaining([
				'nodes/AbbyyVantage/AbbyyVantage.node.ts',
				'nodes/AbbyyVantageTrigger/AbbyyVantageTrigger.node.ts',
				'nodes/AbbyyVantageInstantTrigger/AbbyyVantageInstantTrigger.node.ts',
				'nodes/AbbyyVantage/transport/index.ts',
				'credentials/AbbyyVantageApi.credentials.ts',
			]),
		);
		// A barrel import ('../transport') counts, and so does a type-only one.
		expect(graph.get('nodes/AbbyyVantage/methods/listSearch.ts')).toContain(
			'nodes/AbbyyVantage/transport/index.ts',
		);
		expect(graph.get('nodes/AbbyyVantage/actions/node.type.ts')).toEqual([
			'nodes/AbbyyVantage/transport/index.ts',
		]);
	});

	test('no circle', () => {
		expect(circles.map((circle) => `circle of ${circle.files.length}: ${circle.loop}`)).toEqual([]);
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
