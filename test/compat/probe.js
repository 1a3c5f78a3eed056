// Loads the compiled package the way n8n does (require of the files its package.json lists) with
// a chosen n8n-workflow, exercises every place where behaviour depends on n8n-workflow, and prints
// a JSON fingerprint. Run by n8n-lines.test.ts once per n8n-workflow version.
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

// What n8n's httpRequestWithAuthentication throws when there is no answer: the error wrapped in a
// NodeApiError (n8n-workflow 1.99 – 1.120 drop the wrapped error from it).
function hostError(wrapped) {
	return new workflow.NodeApiError(node, wrapped);
}
function axiosError(fields) {
	return Object.assign(
		new Error(fields.message ?? 'Request failed'),
		{ isAxiosError: true },
		fields,
	);
}

async function main() {
	const failureOf = require(compiled('dist/nodes/AbbyyVantage/transport/failure.js'));
	const wording = require(compiled('dist/nodes/AbbyyVantage/transport/nodeApiError.js'));
	const endpoints = require(compiled('dist/credentials/AbbyyVantageApi.endpoints.js'));
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

	// What n8n does first with every workflow that holds the node: resolve its parameters (n8n-workflow
	// 1.x refuses the whole node when a displayOptions key cannot be ordered). For every version,
	// resource and operation: the parameters shown, or the error.
	const parameters = {};
	const helpers = workflow.NodeHelpers;
	// n8n-workflow 1.83 has no node type description among these arguments (1.9x on have).
	const withDescription = (description) =>
		helpers.getNodeParameters.length >= 6 ? [description] : [];
	for (const { description } of nodes) {
		const versions = [].concat(description.version);
		const resource = description.properties.find((p) => p.name === 'resource');
		const operationsOf = (value) =>
			description.properties
				.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(value))
				.flatMap((p) => p.options.map((o) => o.value));
		const cases = resource
			? resource.options.flatMap((r) =>
					operationsOf(r.value).map((operation) => ({ resource: r.value, operation })),
				)
			: [{}];
		for (const version of versions) {
			for (const values of cases) {
				for (const mappingMode of ['defineBelow', 'autoMapInputData']) {
					const given = { ...values, columns: { mappingMode, value: null } };
					const typed = {
						...node,
						type: description.name,
						typeVersion: version,
						parameters: given,
					};
					const key = [description.name, version, values.resource, values.operation, mappingMode]
						.filter((part) => part !== undefined)
						.join(' ');
					try {
						const resolved = helpers.getNodeParameters(
							description.properties,
							given,
							true,
							false,
							typed,
							...withDescription(description),
						);
						const noticesShown = description.properties
							.filter((p) => p.type === 'notice')
							.filter((p) =>
								helpers.displayParameter(given, p, typed, ...withDescription(description), given),
							)
							.map((p) => p.name);
						parameters[key] = [...Object.keys(resolved ?? {}), ...noticesShown].sort();
					} catch (error) {
						parameters[key] = `error: ${error.message}`;
					}
				}
			}
		}
	}

	const ctxOf = { itemIndex: 3, action: 'adding the document', attempts: 1, creates: true };
	const asItem = (failure) => {
		const apiError = wording.toNodeApiError(node, failure, ctxOf);
		return {
			failure,
			isNodeApiError: apiError instanceof workflow.NodeApiError,
			item: errorHelpers.errorItem(apiError, 3),
		};
	};

	// Answers, as the transport reads them from n8n's full response (never from an error).
	const answers = {
		'400 ProblemDetails': {
			statusCode: 400,
			headers: {},
			body: { title: 'Bad Request', status: 400, detail: 'Only Process skills take documents.' },
		},
		'429 Retry-After': { statusCode: 429, headers: { 'retry-after': '2' }, body: '' },
		'502 text body': { statusCode: 502, headers: {}, body: Buffer.from('Bad Gateway') },
	};
	const failures = {};
	for (const [name, answer] of Object.entries(answers)) {
		failures[name] = asItem(failureOf.httpFailure(answer));
	}

	// No answer: what this n8n-workflow's NodeApiError still tells.
	const reset = axiosError({ code: 'ECONNRESET', message: 'socket hang up' });
	const thrown = {
		'connection reset': hostError(reset),
		'connection refused': hostError(
			axiosError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' }),
		),
		timeout: hostError(axiosError({ code: 'ECONNABORTED', message: 'timeout of 5000ms exceeded' })),
		'no code': hostError(new Error('Something went wrong')),
	};
	for (const [name, error] of Object.entries(thrown)) {
		failures[name] = asItem(failureOf.thrownFailure(error, 10, 60_000));
	}

	// A refused sign-in: the credential records why under the object n8n gave it; n8n wraps the
	// error it throws on the way to the node.
	const signInCredentials = {};
	const signInThrown = hostError(
		endpoints.signInFailed(
			signInCredentials,
			'ABBYY Vantage refused the sign-in (invalid_grant). Check Username and Password',
		),
	);
	const signIn = {
		recorded: endpoints.takeSignInFailure(signInCredentials),
		takenOnce: endpoints.takeSignInFailure(signInCredentials) === undefined,
		wrappedIsNodeApiError: signInThrown instanceof workflow.NodeApiError,
	};

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
		parameters,
		failures,
		signIn,
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
	// Whether this n8n-workflow keeps the error a NodeApiError wraps (1.99 – 1.120 do not).
	const keepsCause = thrown['connection reset'].cause === reset;
	process.stdout.write(JSON.stringify({ version, exportKinds, fingerprint, pauseMs, keepsCause }));
}

main().catch((error) => {
	process.stderr.write(String(error && error.stack ? error.stack : error));
	process.exit(1);
});
