// Loads the compiled package the way n8n does (require of the files its package.json lists) with
// a chosen n8n-workflow, exercises every place where behaviour depends on n8n-workflow, and prints
// a JSON fingerprint. Run by oldest-n8n.test.ts once per n8n-workflow version.
//
//   node probe.js <compiled root> <package.json> <n8n-workflow package folder>
'use strict';
const Module = require('node:module');
const { join } = require('node:path');

const [root, packageJsonPath, workflowFolder] = process.argv.slice(2);
const workflowPath = require.resolve(workflowFolder);

// The package's `require('n8n-workflow')` gets the chosen version, as it would inside that n8n.
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
	return resolve.call(this, request === 'n8n-workflow' ? workflowPath : request, ...rest);
};

const workflow = require('n8n-workflow');
const pkg = require(packageJsonPath);
const compiled = (file) => join(root, file.replace(/^dist\//, ''));
const load = (file) => {
	const exports = require(compiled(file));
	const Class = Object.values(exports).find((value) => typeof value === 'function');
	return new Class();
};

const node = {
	id: '1',
	name: 'ABBYY Vantage',
	type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const ctx = { getNode: () => node };

// What n8n's httpRequestWithAuthentication throws: the axios error wrapped in a NodeApiError.
function hostError(axiosLike) {
	return new workflow.NodeApiError(node, axiosLike);
}
function axiosError(fields) {
	return Object.assign(
		new Error(fields.message ?? 'Request failed'),
		{ isAxiosError: true },
		fields,
	);
}

async function main() {
	const errors = require(compiled('dist/nodes/AbbyyVantage/transport/errors.js'));
	const errorHelpers = require(compiled('dist/nodes/AbbyyVantage/helpers/errors.js'));
	const time = require(compiled('dist/nodes/AbbyyVantage/helpers/time.js'));

	const nodes = pkg.n8n.nodes.map((file) => {
		const type = load(file);
		return { file, description: type.description, methods: type.methods ?? null };
	});
	const credentials = pkg.n8n.credentials.map((file) => {
		const type = load(file);
		return {
			file,
			type: JSON.parse(JSON.stringify(type)),
			preAuthentication: typeof type.preAuthentication,
			authenticate: typeof type.authenticate,
		};
	});

	const thrown = {
		'400 ProblemDetails': hostError(
			axiosError({
				response: {
					status: 400,
					headers: {},
					data: {
						title: 'Bad Request',
						status: 400,
						detail: 'Only Process skills take documents.',
					},
				},
			}),
		),
		'429 Retry-After': hostError(
			axiosError({ response: { status: 429, headers: { 'retry-after': '2' }, data: '' } }),
		),
		'502 text body': hostError(
			axiosError({ response: { status: 502, headers: {}, data: 'Bad Gateway' } }),
		),
		'connection reset': hostError(axiosError({ code: 'ECONNRESET', message: 'socket hang up' })),
		timeout: hostError(axiosError({ code: 'ECONNABORTED', message: 'timeout of 5000ms exceeded' })),
	};
	const failures = {};
	for (const [name, error] of Object.entries(thrown)) {
		const failure = errors.describeFailure(error);
		const apiError = errors.toNodeApiError(node, failure, {
			itemIndex: 3,
			action: 'adding the document',
			attempts: 1,
			creates: true,
		});
		failures[name] = {
			failure,
			isNodeApiError: apiError instanceof workflow.NodeApiError,
			item: errorHelpers.errorItem(apiError, 3),
		};
	}

	const badInput = errorHelpers.invalid(ctx, 2, 'Transaction ID is empty', 'Give the transaction.');
	const wrapped = errorHelpers.asNodeError(ctx, new Error('plain failure'), 4);

	// Cancelling a long wait must stop it, whether or not this n8n-workflow's sleep takes a signal.
	const controller = new AbortController();
	const started = Date.now();
	setTimeout(() => controller.abort(), 100);
	const pauseError = await time.pause(10_000, controller.signal).then(
		() => 'finished',
		(error) => error.name,
	);
	const pauseMs = Date.now() - started;

	const fingerprint = {
		nodes,
		credentials,
		failures,
		badInput: {
			isNodeOperationError: badInput instanceof workflow.NodeOperationError,
			item: errorHelpers.errorItem(badInput, 2),
		},
		wrapped: {
			isNodeOperationError: wrapped instanceof workflow.NodeOperationError,
			item: errorHelpers.errorItem(wrapped, 4),
		},
		pause: pauseError,
	};
	const version = require(join(workflowFolder, 'package.json')).version;
	const exportKinds = Object.fromEntries(
		Object.keys(workflow).map((name) => [name, typeof workflow[name]]),
	);
	process.stdout.write(JSON.stringify({ version, exportKinds, fingerprint, pauseMs }));
}

main().catch((error) => {
	process.stderr.write(String(error && error.stack ? error.stack : error));
	process.exit(1);
});
