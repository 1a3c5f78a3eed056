/**
 * The package's floors, checked on its imports: each part below imports nothing from the parts
 * named beside it. With these, the trigger reaches no operation of the action node: it shares
 * Vantage's concepts (vantage/) and the parameters (params/) with it, nothing else.
 */
import { packageImports } from './imports';

const NODE = 'nodes/AbbyyVantage/';

/** [a folder or file, what it never imports, why]. */
const NEVER: Array<[string, string[], string]> = [
	[
		'nodes/AbbyyVantageTrigger/',
		[`${NODE}actions/`],
		'the trigger shares concepts and parameters with the action node, not its operations',
	],
	[
		'nodes/AbbyyVantageInstantTrigger/',
		[`${NODE}actions/`, 'nodes/AbbyyVantageTrigger/'],
		'the instant trigger shares concepts, parameters and the record of deliveries (vantage/deliveries.ts) with the polling trigger, not its code',
	],
	[
		NODE,
		['nodes/AbbyyVantageTrigger/', 'nodes/AbbyyVantageInstantTrigger/'],
		'the action node knows nothing of the triggers',
	],
	[
		`${NODE}agent/`,
		[`${NODE}actions/`, `${NODE}params/`, `${NODE}vantage/`, `${NODE}transport/`],
		'the tool layer shapes what the node answers a model; the node hands it the run',
	],
	[`${NODE}params/`, [`${NODE}actions/`], 'a parameter serves operations and events alike'],
	[
		`${NODE}vantage/`,
		[`${NODE}actions/`, `${NODE}params/`, `${NODE}methods/`],
		'what Vantage is and does needs no parameter: readers pass it what they read',
	],
	[
		`${NODE}methods/`,
		[`${NODE}actions/`, `${NODE}params/`],
		'the pickers list what the operations list, through the same calls of vantage/',
	],
	[
		`${NODE}transport/`,
		[`${NODE}actions/`, `${NODE}params/`, `${NODE}vantage/`, `${NODE}methods/`],
		'the transport sends; it knows no operation',
	],
	[
		`${NODE}helpers/`,
		[
			`${NODE}actions/`,
			`${NODE}params/`,
			`${NODE}vantage/`,
			`${NODE}methods/`,
			`${NODE}transport/`,
		],
		'helpers are pure functions: they never import the transport, nor what uses it',
	],
];

/** Whether `path` is in `part`: under it (a folder, ending in "/") or that file. */
function inPart(path: string, part: string): boolean {
	return part.endsWith('/') ? path.startsWith(part) : path === part;
}

describe("the package's floors", () => {
	const { graph } = packageImports();

	test.each(NEVER)('%s imports nothing of %j (%s)', (part, never) => {
		const broken = [...graph]
			.filter(([from]) => inPart(from, part))
			.flatMap(([from, targets]) =>
				targets
					.filter((target) => never.some((other) => inPart(target, other)))
					.map((target) => `${from} -> ${target}`),
			);
		expect(broken).toEqual([]);
	});

	test('the floors are read from real imports: each part has some', () => {
		for (const [part] of NEVER) {
			expect([...graph].some(([from, targets]) => inPart(from, part) && targets.length)).toBe(true);
		}
	});
});
