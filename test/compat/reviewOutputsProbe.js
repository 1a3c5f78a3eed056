// Resolves the ABBYY Vantage node's `outputs` expression (params/needsReview.ts REVIEW_OUTPUTS) the
// way n8n does (NodeHelpers.getNodeOutputs on a Workflow, which first fills the parameters'
// defaults), with one chosen n8n-workflow, for each case of parameters; prints the outputs as JSON.
// Run by reviewOutputs.test.ts once per n8n-workflow line.
//
//   node reviewOutputsProbe.js <n8n-workflow package folder>   (stdin: { description, cases })
'use strict';
const [workflowFolder] = process.argv.slice(2);
const workflow = require(require.resolve(workflowFolder));

let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
	const { description, cases } = JSON.parse(input);
	const nodeType = { description };
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const results = cases.map(({ parameters, onError }) => {
		const node = {
			id: '1',
			name: 'ABBYY Vantage',
			type: description.name,
			typeVersion: 1,
			position: [0, 0],
			parameters,
			...(onError ? { onError } : {}),
		};
		const graph = new workflow.Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes,
		});
		return workflow.NodeHelpers.getNodeOutputs(graph, graph.getNode(node.name), description);
	});
	const version = require(`${workflowFolder}/package.json`).version;
	process.stdout.write(JSON.stringify({ version, results }));
});
