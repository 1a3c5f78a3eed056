/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test harness: timers for cancellation, n8n-core's own DI container */
/**
 * Runs the ABBYY Vantage node through n8n's real execution engine (n8n-core's WorkflowExecute,
 * ExecuteContext and request helpers), not through hand-written fakes. The one piece n8n's CLI
 * normally supplies, the credentials helper, is reproduced here from n8n's own
 * `CredentialsHelper`: it runs `preAuthentication` when the expirable token is empty or after a
 * 401, stores what it returns, and resolves the generic `authenticate` expressions. For the OAuth2
 * credential it does what n8n's CLI does for `oAuth2Api` types: names `oAuth2Api` as its parent
 * (so n8n-core signs with the stored `oauthTokenData` and refreshes through client-oauth2),
 * applies the credential's defaults over the inherited ones and resolves its `$self` expressions,
 * and stores refreshed token data.
 */
import { createRequire } from 'node:module';
import {
	BinaryDataService,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	ObservableObject,
	Workflow,
	WorkflowExpression,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type IBinaryData,
	type IDataObject,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IPollFunctions,
	type IRun,
	type IRunExecutionData,
	type IWorkflowExecuteAdditionalData,
	type IRequestOptionsSimplified,
	type ExecutionBaseError,
} from 'n8n-workflow';

import { AbbyyVantageApi } from '../../credentials/AbbyyVantageApi.credentials';
import { AbbyyVantageOAuth2Api } from '../../credentials/AbbyyVantageOAuth2Api.credentials';
import { AbbyyVantage } from '../../nodes/AbbyyVantage/AbbyyVantage.node';
import { AbbyyVantageTrigger } from '../../nodes/AbbyyVantageTrigger/AbbyyVantageTrigger.node';
import { connect, type TokenSet } from '../helpers/oauth';
import {
	fixtureCredentialData,
	fixtureOAuth2CredentialData,
	type VantageSimulator,
} from '../simulator/simulator';

export const NODE_TYPE = 'n8n-nodes-abbyy-vantage.abbyyVantage';
export const NODE_NAME = 'ABBYY Vantage';
let credentialStores = 0;

const nodeType = new AbbyyVantage();
const credentialType = new AbbyyVantageApi();
const oauth2Type = new AbbyyVantageOAuth2Api();

export const API_CREDENTIAL_TYPE = credentialType.name;
export const OAUTH2_CREDENTIAL_TYPE = oauth2Type.name;

/**
 * What the OAuth2 credential inherits from n8n-nodes-base's `oAuth2Api` (OAuth2Api.credentials.ts,
 * n8n 2.41; fields marked doNotInherit are not inherited), as n8n's CredentialsHelper merges a
 * parent's properties under the child's (NodeHelpers.mergeNodeProperties: the child's win).
 */
const OAUTH2_API_PROPERTIES: INodeProperties[] = [
	{ displayName: 'DCR', name: 'useDynamicClientRegistration', type: 'hidden', default: false },
	{ displayName: 'Grant Type', name: 'grantType', type: 'string', default: 'authorizationCode' },
	{ displayName: 'Authorization URL', name: 'authUrl', type: 'string', default: '' },
	{ displayName: 'Access Token URL', name: 'accessTokenUrl', type: 'string', default: '' },
	{ displayName: 'Client ID', name: 'clientId', type: 'string', default: '' },
	{
		displayName: 'Authentication',
		name: 'clientCredentialType',
		type: 'hidden',
		default: 'clientSecret',
	},
	{ displayName: 'Client Secret', name: 'clientSecret', type: 'string', default: '' },
	{ displayName: 'Private Key', name: 'privateKey', type: 'hidden', default: '' },
	{ displayName: 'Certificate', name: 'certificate', type: 'hidden', default: '' },
	{ displayName: 'Scope', name: 'scope', type: 'string', default: '' },
	{
		displayName: 'Auth URI Query Parameters',
		name: 'authQueryParameters',
		type: 'string',
		default: '',
	},
	{ displayName: 'Authentication', name: 'authentication', type: 'string', default: 'header' },
];

function oauth2Properties(): INodeProperties[] {
	const own = new Set(oauth2Type.properties.map((p) => p.name));
	return [...OAUTH2_API_PROPERTIES.filter((p) => !own.has(p.name)), ...oauth2Type.properties];
}

const nodeTypes: INodeTypes = {
	getByName: (type: string) =>
		type === NODE_TYPE ? nodeType : (undefined as unknown as INodeType),
	getByNameAndVersion: (type: string) =>
		type === NODE_TYPE ? nodeType : (undefined as unknown as INodeType),
	getKnownTypes: () => ({}),
} as INodeTypes;

/** The stored credential, as n8n's database would hold it between executions. */
export class CredentialStore {
	data: ICredentialDataDecryptedObject;
	preAuthenticationCalls = 0;
	/** OAuth2: how often n8n stored refreshed token data (one per refresh). */
	tokenUpdates = 0;
	/** Each store is its own credential, as two credentials in n8n have two ids. */
	readonly id = `cred-${++credentialStores}`;

	constructor(
		data: ICredentialDataDecryptedObject,
		/** The credential's type: the ABBYY Vantage API credential, or the OAuth2 one. */
		readonly type: string = API_CREDENTIAL_TYPE,
	) {
		this.data = type === API_CREDENTIAL_TYPE ? { accessToken: '', ...data } : { ...data };
		this.authentication = type === OAUTH2_CREDENTIAL_TYPE ? 'oAuth2' : 'vantageApi';
	}

	/** The node's Authentication value that chooses this credential. */
	readonly authentication: 'vantageApi' | 'oAuth2';
}

export function simulatorCredentials(
	sim: VantageSimulator,
	overrides: IDataObject = {},
): CredentialStore {
	return new CredentialStore({
		...fixtureCredentialData(sim.url),
		...(overrides as ICredentialDataDecryptedObject),
	});
}

/**
 * An ABBYY Vantage OAuth2 API credential for the fixture tenant, connected: its `oauthTokenData`
 * is what n8n stores after Connect my account (the token endpoint's answer), from a real sign-in
 * through the simulator's authorize page (`tokens` to start from other data).
 */
export async function oauth2Credentials(
	sim: VantageSimulator,
	overrides: IDataObject = {},
	tokens?: IDataObject,
): Promise<CredentialStore> {
	const oauthTokenData = tokens ?? ((await connect(sim.url)) as TokenSet as unknown as IDataObject);
	return new CredentialStore(
		{
			...fixtureOAuth2CredentialData(sim.url),
			oauthTokenData,
			...(overrides as ICredentialDataDecryptedObject),
		},
		OAUTH2_CREDENTIAL_TYPE,
	);
}

class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly store: CredentialStore) {
		super();
	}

	getParentTypes(typeName: string): string[] {
		return typeName === OAUTH2_CREDENTIAL_TYPE ? ['oAuth2Api'] : [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialType.authenticate;
		if (typeName !== credentialType.name || !authenticate) {
			throw new Error(`unexpected credential type ${typeName}`);
		}
		// As n8n's CredentialsHelper: a function is called; a generic block has its expressions resolved.
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		const options = requestOptions as IHttpRequestOptions & Record<string, unknown>;
		for (const [outerKey, outer] of Object.entries(authenticate.properties)) {
			const target = (options[outerKey] ??= {}) as Record<string, string>;
			for (const [key, value] of Object.entries(outer as Record<string, string>)) {
				target[key] = String(
					workflow!.expression.getSimpleParameterValue(
						node!,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					) ?? '',
				);
			}
		}
		return options;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const expirable = credentialType.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeName !== credentialType.name) return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		this.store.preAuthenticationCalls++;
		const output = await credentialType.preAuthentication!.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		this.store.data = { ...this.store.data, ...(output as ICredentialDataDecryptedObject) };
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used');
	}

	async getDecrypted(
		_additionalData?: unknown,
		_nodeCredentials?: unknown,
		typeName?: string,
		_mode?: unknown,
		_executeData?: unknown,
		raw?: boolean,
	): Promise<ICredentialDataDecryptedObject> {
		if (typeName !== undefined && typeName !== this.store.type) {
			throw new Error(
				`the node asked for ${typeName}; the test's credential is ${this.store.type}`,
			);
		}
		if (raw || this.store.type !== OAUTH2_CREDENTIAL_TYPE) return { ...this.store.data };
		return resolveOAuth2Credential(this.store.data);
	}

	async updateCredentials(
		_n: INodeCredentialsDetails,
		_t: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.store.data = { ...data };
	}

	/** As n8n's CredentialsHelper: only `oauthTokenData` is written back. */
	async updateCredentialsOauthTokenData(
		_n: INodeCredentialsDetails,
		_t: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.tokenUpdates++;
		this.store.data = { ...this.store.data, oauthTokenData: data.oauthTokenData };
	}

	getCredentialsProperties(typeName: string): INodeProperties[] {
		return typeName === OAUTH2_CREDENTIAL_TYPE ? oauth2Properties() : credentialType.properties;
	}
}

/**
 * The OAuth2 credential as n8n's CredentialsHelper.applyDefaultsAndOverwrites gives it to a node:
 * the stored hidden URL and grant fields dropped (OAUTH_PINNED_FIELDS), defaults applied, every
 * `$self` expression resolved over the result, the stored `oauthTokenData` kept.
 */
export function resolveOAuth2Credential(
	stored: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const properties = oauth2Properties();
	const data = { ...stored };
	for (const field of ['authUrl', 'accessTokenUrl', 'grantType', 'authentication']) {
		if (properties.some((p) => p.name === field && p.type === 'hidden')) delete data[field];
	}
	const withDefaults = NodeHelpers.getNodeParameters(
		properties,
		data as INodeParameters,
		true,
		false,
		null,
		null,
	) as ICredentialDataDecryptedObject;
	const node = makeNode({});
	const resolved = makeWorkflow(node).expression.getComplexParameterValue(
		node,
		withDefaults as INodeParameters,
		'internal',
		{},
		undefined,
		undefined,
		withDefaults as IDataObject,
	) as ICredentialDataDecryptedObject;
	if (stored.oauthTokenData !== undefined) resolved.oauthTokenData = stored.oauthTokenData;
	return resolved;
}

// n8n-core ships its own copies of the DI container and HTTP stack; services must come from them.
const requireFromCore = createRequire(require.resolve('n8n-core'));
const { Container } = requireFromCore('@n8n/di') as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};
const { OutboundHttp } = requireFromCore('@n8n/backend-network') as {
	OutboundHttp: new () => {
		requests(): { request(options: IHttpRequestOptions): Promise<unknown> };
	};
};

/** n8n's own `helpers.httpRequest`, as `preAuthentication` receives it. */
export const n8nHttpHelper: IHttpRequestHelper = {
	helpers: {
		httpRequest: async (options: IHttpRequestOptions) =>
			await Container.get(OutboundHttp).requests().request(options),
	},
} as IHttpRequestHelper;

let binaryReady: Promise<void> | undefined;
export async function initBinaryData(): Promise<void> {
	binaryReady ??= Container.get(BinaryDataService).init();
	await binaryReady;
}

/** The bytes of a binary output, whatever storage mode n8n-core uses. */
export async function readBinary(item: INodeExecutionData, key = 'data'): Promise<Buffer> {
	const binary = item.binary?.[key];
	if (!binary) throw new Error(`no binary field ${key}`);
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

/**
 * A binary stored the way n8n's current binary data mode stores it (on disk in filesystem mode,
 * with an `id`), as an upstream node's `prepareBinaryData` would have.
 */
export async function storeBinary(
	bytes: Buffer,
	fileName: string,
	mimeType = 'application/pdf',
): Promise<IBinaryData> {
	await initBinaryData();
	return await Container.get(BinaryDataService).store(
		{ type: 'execution', workflowId: 'wf-test', executionId: 'exec-1' },
		bytes,
		{ data: '', mimeType, fileName } as IBinaryData,
	);
}

export interface RunOptions {
	parameters: INodeParameters;
	/** Input items; plain objects become `{ json }`. Default: one empty item. */
	items?: Array<IDataObject | INodeExecutionData>;
	credentials: CredentialStore;
	continueOnFail?: boolean;
	/** Cancel the execution after this many milliseconds. */
	cancelAfterMs?: number;
	timezone?: string;
}

export interface RunResult {
	/** The node's output items (first output). */
	items: INodeExecutionData[];
	/** The error the node threw, when it failed. */
	error?: ExecutionBaseError;
	status: IRun['status'];
	run: IRun;
	/** Milliseconds from start to finish. */
	elapsedMs: number;
}

function makeNode(
	parameters: INodeParameters,
	continueOnFail = false,
	credentialId = 'cred-0',
	credentialTypeName: string = API_CREDENTIAL_TYPE,
): INode {
	return {
		id: 'node-1',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [credentialTypeName]: { id: credentialId, name: 'ABBYY Vantage account' } },
		...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
}

/**
 * The parameters with the Authentication that chooses `credentials` (unless the test sets it):
 * the same operation runs with either credential.
 */
function withAuthentication(
	parameters: INodeParameters,
	credentials: CredentialStore,
): INodeParameters {
	if ('authentication' in parameters || credentials.type === API_CREDENTIAL_TYPE) return parameters;
	return { authentication: credentials.authentication, ...parameters };
}

function makeWorkflow(node: INode, timezone = 'UTC'): Workflow {
	return new Workflow({
		id: 'wf-test',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: { timezone },
	});
}

let executions = 0;

export function makeAdditionalData(
	credentials: CredentialStore,
	hooks?: ExecutionLifecycleHooks,
	executionId = `exec-${++executions}`,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new TestCredentialsHelper(credentials),
		hooks,
		executeWorkflow: async () => {
			throw new Error('not supported in tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost/rest',
		instanceBaseUrl: 'http://localhost/',
		formBaseUrl: '',
		formWaitingBaseUrl: '',
		formTestBaseUrl: '',
		webhookBaseUrl: '',
		webhookWaitingBaseUrl: '',
		webhookTestBaseUrl: '',
		mcpBaseUrl: '',
		mcpTestBaseUrl: '',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('not supported in tests');
		},
		executionId,
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** A credential expression (e.g. the Test button's base URL) as n8n's expression engine resolves it. */
export function resolveCredentialExpression(expression: string, credentials: IDataObject): unknown {
	const node = makeNode({});
	return makeWorkflow(node).expression.getSimpleParameterValue(
		node,
		expression,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
}

/** Call one of the node's list-search methods (the Catalog picker) in n8n's LoadOptionsContext. */
export async function listSearch(
	credentials: CredentialStore,
	method: string,
	filter?: string,
): Promise<unknown> {
	const search = (nodeType as INodeType).methods?.listSearch?.[method];
	if (!search) throw new Error(`no list search ${method}`);
	return await search.call(loadOptionsContext(credentials, {}, 'parameters.catalogId'), filter);
}

/** Call one of the node's resource-mapping methods (the Columns mapper) with these parameters. */
export async function resourceMapping(
	credentials: CredentialStore,
	method: string,
	parameters: INodeParameters,
): Promise<unknown> {
	const load = (nodeType as INodeType).methods?.resourceMapping?.[method];
	if (!load) throw new Error(`no resource mapping ${method}`);
	return await load.call(loadOptionsContext(credentials, parameters, 'parameters.columns'));
}

function loadOptionsContext(
	credentials: CredentialStore,
	parameters: INodeParameters,
	path: string,
) {
	const node = makeNode(
		withAuthentication({ resource: 'catalogRecord', operation: 'add', ...parameters }, credentials),
		false,
		credentials.id,
		credentials.type,
	);
	return new LoadOptionsContext(makeWorkflow(node), node, makeAdditionalData(credentials), path);
}

/**
 * How often n8n evaluated each expression while `run` ran: every call of n8n's
 * WorkflowExpression.resolveSimpleParameterValue (what getNodeParameter does for each `=` string it
 * resolves, per item), counted by the expression's text.
 */
export async function countEvaluations<T>(
	run: () => Promise<T>,
): Promise<{ result: T; evaluations: (expression: string) => number }> {
	const prototype = WorkflowExpression.prototype;
	const original = prototype.resolveSimpleParameterValue;
	const counts = new Map<unknown, number>();
	prototype.resolveSimpleParameterValue = function (this: WorkflowExpression, ...args) {
		counts.set(args[0], (counts.get(args[0]) ?? 0) + 1);
		return original.apply(this, args);
	};
	try {
		const result = await run();
		return { result, evaluations: (expression) => counts.get(expression) ?? 0 };
	} finally {
		prototype.resolveSimpleParameterValue = original;
	}
}

/** Execute the node once inside n8n's WorkflowExecute and return what n8n recorded. */
export async function runNode(options: RunOptions): Promise<RunResult> {
	await initBinaryData();
	const node = makeNode(
		withAuthentication(options.parameters, options.credentials),
		options.continueOnFail,
		options.credentials.id,
		options.credentials.type,
	);
	const workflow = makeWorkflow(node, options.timezone);
	// Every run is its own execution, as in n8n (the node keeps per-execution state).
	const executionId = `exec-${++executions}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: 'wf-test',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	let resolveRun!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (resolveRun = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));
	const additionalData = makeAdditionalData(options.credentials, hooks, executionId);

	const items = (options.items ?? [{}]).map((item) =>
		'json' in item && typeof item.json === 'object'
			? (item as INodeExecutionData)
			: { json: item as IDataObject },
	);
	const runExecutionData: IRunExecutionData = {
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [{ node, data: { main: [items] }, source: null }],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;

	const started = Date.now();
	const execution = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	let processing: ReturnType<WorkflowExecute['processRunExecutionData']>;
	try {
		processing = execution.processRunExecutionData(workflow);
	} catch (error) {
		// n8n refuses to start a workflow whose node has issues (e.g. a required parameter is empty).
		return {
			items: [],
			error: error as ExecutionBaseError,
			status: 'error',
			run: undefined as never,
			elapsedMs: 0,
		};
	}
	let timer: NodeJS.Timeout | undefined;
	if (options.cancelAfterMs !== undefined) {
		timer = setTimeout(() => processing.cancel(), options.cancelAfterMs);
	}
	processing.catch(() => undefined);
	const run = await finished;
	if (timer) clearTimeout(timer);
	const elapsedMs = Date.now() - started;
	const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
	return {
		items: taskData?.data?.main?.[0] ?? [],
		error: (taskData?.error ?? run.data.resultData.error) as ExecutionBaseError | undefined,
		status: run.status,
		run,
		elapsedMs,
	};
}

/** Everything an execution recorded, serialized: for "no secret anywhere" assertions. */
export function serialize(result: RunResult): string {
	const error = result.error as (ExecutionBaseError & { description?: string }) | undefined;
	return JSON.stringify({
		run: result.run,
		items: result.items,
		error: error && {
			message: error.message,
			description: error.description,
			context: error.context,
			stack: error.stack,
			cause: (error as { cause?: unknown }).cause && String((error as { cause?: unknown }).cause),
			json: error,
		},
	});
}

// ------------------------------------------------------------------ the trigger

export const TRIGGER_TYPE = 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger';
const triggerType = new AbbyyVantageTrigger();

export interface PollRun {
	/** Executions the poll started through n8n's __emit: one list of items each. */
	executions: INodeExecutionData[][];
	/** What poll() returned (manual mode returns its event instead of emitting). */
	returned: INodeExecutionData[][] | null;
	/** The node's static data after the poll, serialized as n8n stores it. */
	staticData: string;
	/** The cursor n8n would store with each execution (static data when it was emitted). */
	cursorAtEmit: string[];
	/**
	 * The static data n8n would have saved by the end of the poll: as n8n does at each __emit, only
	 * when its static data object saw a change (n8n's WorkflowStaticDataService.saveStaticData).
	 */
	savedStaticData: string;
	error?: Error;
}

/**
 * The executions polls start, as n8n runs them: each finishes at once (n8n then settles the done
 * promise the trigger gave __emit), after `takes` milliseconds, or, when `held`, only when the
 * test calls `finish`.
 */
export class Executions {
	private readonly held: Array<() => void> = [];
	/** Started and not finished. */
	running = 0;
	/** The most running at once. */
	maxRunning = 0;

	constructor(private readonly runs: 'at once' | 'held' | { takes: number } = 'at once') {}

	start(done?: { resolve: (run?: IRun) => void }): void {
		this.running++;
		this.maxRunning = Math.max(this.maxRunning, this.running);
		const finish = () => {
			this.running--;
			done?.resolve(undefined);
		};
		if (this.runs === 'held') this.held.push(finish);
		else if (this.runs === 'at once') finish();
		else setTimeout(finish, this.runs.takes);
	}

	/** Finish the `count` oldest held executions (all by default). */
	finish(count = Infinity): void {
		for (const finish of this.held.splice(0, count)) finish();
	}
}

/**
 * One poll of the ABBYY Vantage Trigger in n8n-core's PollContext, as n8n's poll scheduler runs
 * it. `staticData` is the node's stored static data (JSON, as n8n keeps it between polls and
 * restarts); a failed poll leaves it as it was, as n8n does not store it then.
 */
export async function runPoll(options: {
	parameters: INodeParameters;
	credentials: CredentialStore;
	staticData?: string;
	mode?: 'trigger' | 'manual';
	/** n8n's poll time budget (the durable scheduler's is about 36 s); n8n-core's default: 5 min. */
	pollBudgetMs?: number;
	/** The workflow's time zone (Settings → Timezone); default UTC. */
	timezone?: string;
	/** How the executions the poll starts run; default: each finishes at once. */
	executions?: Executions;
	/** The workflow's id: one trigger per workflow id and node name. */
	workflowId?: string;
	/** The ABBYY Vantage Event Secret credential selected in the trigger (its re-sends sign with it). */
	eventSecret?: ICredentialDataDecryptedObject;
	/** n8n's own address (`getInstanceBaseUrl`); default http://localhost. */
	instanceBaseUrl?: string;
	/** Where the trigger's log lines go (n8n's logger); default: n8n-core's. */
	logs?: string[];
}): Promise<PollRun> {
	const node: INode = {
		id: 'trigger-1',
		name: 'ABBYY Vantage Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: withAuthentication(options.parameters, options.credentials),
		credentials: {
			[options.credentials.type]: { id: options.credentials.id, name: 'ABBYY Vantage account' },
			...(options.eventSecret
				? {
						abbyyVantageEventSecretApi: {
							id: 'event-secret-1',
							name: 'ABBYY Vantage event secret',
						},
					}
				: {}),
		},
	};
	const workflow = new Workflow({
		id: options.workflowId ?? 'wf-trigger',
		name: 'trigger test',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: {
			getByName: () => triggerType,
			getByNameAndVersion: () => triggerType,
			getKnownTypes: () => ({}),
		} as unknown as INodeTypes,
		settings: { timezone: options.timezone ?? 'UTC' },
	});
	// As n8n keeps it: an observable object that records whether anything was set in it.
	const key = `node:${node.name}`;
	const root = ObservableObject.create({
		[key]: JSON.parse(options.staticData ?? '{}') as IDataObject,
	}) as IDataObject & { __dataChanged?: boolean };
	const nodeStatic = root[key] as IDataObject;
	let savedStaticData = options.staticData ?? '{}';
	const executions: INodeExecutionData[][] = [];
	const cursorAtEmit: string[] = [];
	const running = options.executions ?? new Executions();
	const emit: IPollFunctions['__emit'] = (data, _response, done) => {
		executions.push(data[0]);
		cursorAtEmit.push(JSON.stringify(nodeStatic));
		if (root.__dataChanged) {
			savedStaticData = JSON.stringify(nodeStatic);
			root.__dataChanged = false;
		}
		running.start(done);
	};
	const additionalData = makeAdditionalData(options.credentials);
	if (options.instanceBaseUrl) additionalData.instanceBaseUrl = options.instanceBaseUrl;
	const eventSecret = options.eventSecret;
	if (eventSecret) {
		const inner = additionalData.credentialsHelper;
		const helper = Object.create(inner) as typeof inner;
		helper.getDecrypted = async (...args: Parameters<typeof inner.getDecrypted>) =>
			args[2] === 'abbyyVantageEventSecretApi'
				? { ...eventSecret }
				: await inner.getDecrypted(...args);
		additionalData.credentialsHelper = helper;
	}
	const context = new PollContext(
		workflow,
		node,
		additionalData,
		options.mode ?? 'trigger',
		'activate',
		emit,
		() => {},
		async () => {},
		async (poll) => await poll(),
		() => nodeStatic,
		...(options.pollBudgetMs === undefined ? [] : [() => options.pollBudgetMs!]),
	);
	const logs = options.logs;
	if (logs) {
		const record = (level: string) => (message: string) => logs.push(`${level}: ${message}`);
		Object.defineProperty(context, 'logger', {
			value: {
				error: record('error'),
				warn: record('warn'),
				info: record('info'),
				debug: () => {},
			},
		});
	}
	try {
		const returned = await triggerType.poll.call(context);
		// n8n's poll executor emits what an active trigger's poll returns as one execution.
		if (returned !== null && (options.mode ?? 'trigger') === 'trigger') emit(returned);
		return {
			executions,
			returned,
			staticData: JSON.stringify(nodeStatic),
			cursorAtEmit,
			savedStaticData,
		};
	} catch (error) {
		return {
			executions,
			returned: null,
			staticData: options.staticData ?? '{}',
			cursorAtEmit,
			savedStaticData,
			error: error as Error,
		};
	}
}
