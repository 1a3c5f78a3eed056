// @ts-check
/**
 * The script side of the Custom-activity runner (./runner.ts), in a worker thread: runs a Custom
 * activity script in Node's `vm` with a `Context` that has only the members ABBYY documents
 * (custom-activity/README.md names the page of each) and throws, naming the member, on anything
 * else, as Vantage's script engine fails on a member it lacks.
 *
 * `HttpRequest.Send()` is synchronous, as in Vantage: the worker posts the request to the main
 * thread, which sends it over HTTP, and blocks on `Atomics.wait` until the main thread has put the
 * answer in a MessagePort (read with `receiveMessageOnPort`) and bumped a shared counter.
 *
 * Plain JavaScript (not TypeScript): worker threads load files with Node itself, under jest too.
 */
'use strict';
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const vm = require('node:vm');

/** @type {{ replies: import('node:worker_threads').MessagePort, signal: SharedArrayBuffer }} */
const { replies, signal } = workerData;
const counter = new Int32Array(signal);
let seq = 0;

if (!parentPort) throw new Error('worker.js runs in a worker thread');
const port = parentPort;

port.on('message', (/** @type {Job} */ job) => {
	port.postMessage({ type: 'done', runId: job.runId, ...run(job) });
});

/**
 * @typedef {{
 *   runId: number,
 *   source: string,
 *   transaction: { id: string, documentIds: string[], registrationParameters: Array<{ key: string, value: string }> },
 *   secrets: Record<string, string>,
 *   runtimeMs: number,
 *   timeScale: number,
 *   missingSecret: 'null' | 'throw',
 *   missingRegistrationParameter: 'undefined' | 'throw',
 * }} Job
 */

/**
 * One run: `completed`, or `failed` with the message Skill Monitor would show (an uncaught
 * exception, a syntax error, the runtime limit, or a value assigned to Context.ErrorMessage).
 * @param {Job} job
 * @returns {{ outcome: 'completed' | 'failed', error?: string }}
 */
function run(job) {
	const sandbox = {};
	const context = vm.createContext(sandbox, { name: 'Custom activity' });
	/** @type {{ Error: ErrorConstructor, TypeError: TypeErrorConstructor, Array: ArrayConstructor, Date: DateConstructor }} */
	const realm = vm.runInContext(
		'({ Error: Error, TypeError: TypeError, Array: Array, Date: Date })',
		context,
	);
	/** @type {{ value: string | null }} */
	const errorMessage = { value: null };
	Object.defineProperty(sandbox, 'Context', {
		value: contextObject(job, realm, errorMessage),
		enumerable: true,
	});
	if (job.timeScale !== 1) {
		// Test-only time scale: the script's clock runs 1/timeScale times as fast as the real one,
		// so that Timeout (minutes) and a window measured with Date agree in simulated time.
		Object.defineProperty(sandbox, 'Date', { value: scaledDate(realm.Date, job.timeScale) });
	}
	let script;
	try {
		script = new vm.Script(job.source, { filename: 'custom-activity.js' });
	} catch (error) {
		return { outcome: 'failed', error: `Syntax error in the script: ${describe(error)}` };
	}
	try {
		script.runInContext(context, { timeout: Math.max(1, Math.round(job.runtimeMs)) });
	} catch (error) {
		if (/** @type {{ code?: string }} */ (error)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
			return { outcome: 'failed', error: 'The script ran longer than its runtime limit' };
		}
		return { outcome: 'failed', error: describe(error) };
	}
	// Assigning ErrorMessage interrupts the transaction (Context page).
	if (errorMessage.value !== null) return { outcome: 'failed', error: errorMessage.value };
	return { outcome: 'completed' };
}

/** @param {unknown} error */
function describe(error) {
	if (error && typeof error === 'object' && 'message' in error) {
		const name = 'name' in error && error.name !== 'Error' ? `${error.name}: ` : '';
		return `${name}${error.message}`;
	}
	return String(error);
}

/**
 * An object with only `members`: reading or writing anything else throws, naming it; a member
 * without `set` is read-only. JSON.stringify lists the members.
 * @param {string} name
 * @param {Record<string, { get: () => unknown, set?: (value: unknown) => void }>} members
 * @param {{ Error: ErrorConstructor, TypeError: TypeErrorConstructor }} realm
 */
function strictObject(name, members, realm) {
	const unknown = (/** @type {string} */ key) =>
		new realm.TypeError(
			`${name}.${key} is not a documented member of ${name} (the simulator implements only those)`,
		);
	const member = (/** @type {string | symbol} */ key) => {
		if (typeof key === 'symbol' || !Object.prototype.hasOwnProperty.call(members, key)) return null;
		return members[key];
	};
	return new Proxy(Object.create(null), {
		get(_target, key) {
			// The engine's own probes: symbols (string conversion), toJSON (JSON.stringify).
			if (typeof key === 'symbol' || key === 'toJSON') return undefined;
			const m = member(key);
			if (!m) throw unknown(key);
			return m.get();
		},
		set(_target, key, value) {
			const m = member(key);
			if (!m) throw unknown(String(key));
			if (!m.set) throw new realm.TypeError(`${name}.${String(key)} is read-only`);
			m.set(value);
			return true;
		},
		has(_target, key) {
			return member(key) !== null;
		},
		ownKeys() {
			return Object.keys(members);
		},
		getOwnPropertyDescriptor(_target, key) {
			const m = member(key);
			return m
				? { value: m.get(), writable: !!m.set, enumerable: true, configurable: true }
				: undefined;
		},
		deleteProperty(_target, key) {
			throw new realm.TypeError(`${name}.${String(key)} cannot be deleted`);
		},
		defineProperty(_target, key) {
			throw member(key)
				? new realm.TypeError(`${name}.${String(key)} cannot be redefined`)
				: unknown(String(key));
		},
		setPrototypeOf() {
			throw new realm.TypeError(`${name}'s prototype cannot be changed`);
		},
	});
}

/**
 * A method: a function of the script's realm (`typeof` says function) that checks its argument
 * count, as a .NET method binding fails on a call with the wrong number of arguments.
 * @param {string} name
 * @param {number[]} arities
 * @param {(...args: unknown[]) => unknown} body
 * @param {{ TypeError: TypeErrorConstructor }} realm
 */
function method(name, arities, body, realm) {
	return {
		get: () =>
			function (/** @type {unknown[]} */ ...args) {
				if (!arities.includes(args.length)) {
					throw new realm.TypeError(
						`${name} takes ${arities.join(' or ')} argument(s), not ${args.length}`,
					);
				}
				return body(...args);
			},
	};
}

/**
 * @param {string} name
 * @param {unknown} value
 * @param {string} type
 * @param {{ TypeError: TypeErrorConstructor }} realm
 */
function expect(name, value, type, realm) {
	if (typeof value !== type)
		throw new realm.TypeError(`${name} must be a ${type}, not ${typeof value}`);
}

/**
 * Context: Transaction, ErrorMessage, CreateHttpRequest, GetSecret, LogMessage (Context page;
 * the last three as ABBYY's sample scripts call them).
 * @param {Job} job
 * @param {{ Error: ErrorConstructor, TypeError: TypeErrorConstructor, Array: ArrayConstructor }} realm
 * @param {{ value: string | null }} errorMessage
 */
function contextObject(job, realm, errorMessage) {
	const transaction = transactionObject(job, realm);
	return strictObject(
		'Context',
		{
			Transaction: { get: () => transaction },
			ErrorMessage: {
				get: () => errorMessage.value,
				set: (value) => {
					errorMessage.value = String(value);
				},
			},
			CreateHttpRequest: method(
				'Context.CreateHttpRequest',
				[0],
				() => httpRequestObject(job, realm),
				realm,
			),
			GetSecret: method(
				'Context.GetSecret',
				[1],
				(name) => {
					expect('The secret name', name, 'string', realm);
					const key = /** @type {string} */ (name);
					if (Object.prototype.hasOwnProperty.call(job.secrets, key)) return job.secrets[key];
					// Not documented: what Vantage does for a name it does not hold.
					if (job.missingSecret === 'throw') throw new realm.Error(`Secret '${key}' not found`);
					return null;
				},
				realm,
			),
			LogMessage: method(
				'Context.LogMessage',
				[1],
				(text) => {
					port.postMessage({ type: 'log', runId: job.runId, message: String(text) });
				},
				realm,
			),
		},
		realm,
	);
}

/**
 * Transaction: Id, Documents (Document: DocumentId), RegistrationParameters (a dictionary of
 * Parameter: Value), all read-only (Transaction page).
 * @param {Job} job
 * @param {{ Error: ErrorConstructor, TypeError: TypeErrorConstructor, Array: ArrayConstructor }} realm
 */
function transactionObject(job, realm) {
	const documents = new realm.Array();
	for (const id of job.transaction.documentIds) {
		documents.push(strictObject('Document', { DocumentId: { get: () => id } }, realm));
	}
	/** @type {Map<string, unknown>} */
	const parameters = new Map();
	for (const { key, value } of job.transaction.registrationParameters) {
		parameters.set(key, strictObject('Parameter', { Value: { get: () => value } }, realm));
	}
	const registrationParameters = new Proxy(Object.create(null), {
		get(_target, key) {
			if (typeof key === 'symbol') return undefined;
			if (parameters.has(key)) return parameters.get(key);
			// Not documented: an absent key; a .NET dictionary's indexer throws KeyNotFoundException.
			if (job.missingRegistrationParameter === 'throw') {
				throw new realm.Error(`The given key '${key}' was not present in the dictionary.`);
			}
			return undefined;
		},
		set(_target, key) {
			throw new realm.TypeError(`RegistrationParameters is read-only (${String(key)})`);
		},
		has: (_target, key) => typeof key === 'string' && parameters.has(key),
		ownKeys: () => [...parameters.keys()],
		getOwnPropertyDescriptor: (_target, key) =>
			typeof key === 'string' && parameters.has(key)
				? { value: parameters.get(key), writable: false, enumerable: true, configurable: true }
				: undefined,
		deleteProperty(_target, key) {
			throw new realm.TypeError(`RegistrationParameters is read-only (${String(key)})`);
		},
		defineProperty(_target, key) {
			throw new realm.TypeError(`RegistrationParameters is read-only (${String(key)})`);
		},
	});
	return strictObject(
		'Transaction',
		{
			Id: { get: () => job.transaction.id },
			Documents: { get: () => documents },
			RegistrationParameters: { get: () => registrationParameters },
		},
		realm,
	);
}

/**
 * HttpRequest (HttpRequest page): Url, Method, AuthToken, AuthScheme, ThrowExceptionOnFailed
 * (default true), Timeout (minutes, default 1, at most the 600 s script limit), ResponseText,
 * ResponseType, Status; SetHeader, SetStringContent and Send as ABBYY's sample scripts call them.
 * @param {Job} job
 * @param {{ Error: ErrorConstructor, TypeError: TypeErrorConstructor }} realm
 */
function httpRequestObject(job, realm) {
	const state = {
		Url: /** @type {string | null} */ (null),
		Method: 'GET',
		AuthToken: /** @type {string | null} */ (null),
		AuthScheme: /** @type {string | null} */ (null),
		ThrowExceptionOnFailed: true,
		Timeout: 1,
		ResponseText: /** @type {string | null} */ (null),
		ResponseType: /** @type {string | null} */ (null),
		Status: 0,
		/** @type {Array<[string, string]>} */
		headers: [],
		/** @type {string | null} */
		body: null,
	};
	/** @param {'Url' | 'Method' | 'AuthToken' | 'AuthScheme'} key */
	const text = (key) => ({
		get: () => state[key],
		set: (/** @type {unknown} */ value) => {
			expect(`HttpRequest.${key}`, value, 'string', realm);
			state[key] = /** @type {string} */ (value);
		},
	});
	/** @param {'ResponseText' | 'ResponseType' | 'Status'} key */
	const readOnly = (key) => ({ get: () => state[key] });
	return strictObject(
		'HttpRequest',
		{
			Url: text('Url'),
			Method: text('Method'),
			AuthToken: text('AuthToken'),
			AuthScheme: text('AuthScheme'),
			ThrowExceptionOnFailed: {
				get: () => state.ThrowExceptionOnFailed,
				set: (value) => {
					expect('HttpRequest.ThrowExceptionOnFailed', value, 'boolean', realm);
					state.ThrowExceptionOnFailed = /** @type {boolean} */ (value);
				},
			},
			Timeout: {
				get: () => state.Timeout,
				set: (value) => {
					expect('HttpRequest.Timeout', value, 'number', realm);
					const minutes = /** @type {number} */ (value);
					if (!(minutes > 0) || minutes > 10) {
						throw new realm.Error(
							`HttpRequest.Timeout must be more than 0 and at most 10 minutes (the 600 s script limit), not ${minutes}`,
						);
					}
					state.Timeout = minutes;
				},
			},
			ResponseText: readOnly('ResponseText'),
			ResponseType: readOnly('ResponseType'),
			Status: readOnly('Status'),
			SetHeader: method(
				'HttpRequest.SetHeader',
				[2],
				(name, value) => {
					expect('A header name', name, 'string', realm);
					expect('A header value', value, 'string', realm);
					const key = /** @type {string} */ (name).toLowerCase();
					state.headers = state.headers.filter(([n]) => n.toLowerCase() !== key);
					state.headers.push([/** @type {string} */ (name), /** @type {string} */ (value)]);
				},
				realm,
			),
			SetStringContent: method(
				'HttpRequest.SetStringContent',
				[1],
				(content) => {
					expect('The content', content, 'string', realm);
					state.body = /** @type {string} */ (content);
				},
				realm,
			),
			Send: method('HttpRequest.Send', [0], () => send(job, state, realm), realm),
		},
		realm,
	);
}

/**
 * Send synchronously: the main thread sends it and answers; a connection failure, a time-out or
 * a refused address always throws; a non-2xx answer throws unless ThrowExceptionOnFailed is false.
 * @param {Job} job
 * @param {any} state
 * @param {{ Error: ErrorConstructor }} realm
 */
function send(job, state, realm) {
	if (!state.Url) throw new realm.Error('HttpRequest.Url is not set');
	/** @type {Array<[string, string]>} */
	const headers = [...state.headers];
	if (state.AuthToken) {
		headers.push([
			'Authorization',
			state.AuthScheme ? `${state.AuthScheme} ${state.AuthToken}` : state.AuthToken,
		]);
	}
	if (state.body !== null) {
		// The body is text, sent as UTF-8 with its charset named ([inferred]: .NET's StringContent
		// does so), under the media type the script set with SetHeader, else text/plain.
		const at = headers.findIndex(([n]) => n.toLowerCase() === 'content-type');
		const type = at === -1 ? 'text/plain' : headers[at][1];
		const full = /charset=/i.test(type) ? type : `${type}; charset=utf-8`;
		if (at === -1) headers.push(['Content-Type', full]);
		else headers[at] = [headers[at][0], full];
	}
	const reply = call({
		type: 'send',
		runId: job.runId,
		request: {
			url: state.Url,
			method: state.Method,
			headers,
			body: state.body,
			timeoutMinutes: state.Timeout,
		},
	});
	if ('error' in reply) throw new realm.Error(reply.error);
	state.Status = reply.status;
	state.ResponseText = reply.text;
	state.ResponseType = reply.type;
	if (state.ThrowExceptionOnFailed && (reply.status < 200 || reply.status > 299)) {
		throw new realm.Error(
			`Response status code does not indicate success: ${reply.status} (${reply.reason}).`,
		);
	}
	return undefined;
}

/**
 * Post a message to the main thread and block until its answer (same `seq`) arrives. The main
 * thread posts the answer first, then bumps the counter and wakes this thread; answers to an
 * earlier run (cut short by its runtime limit) are skipped.
 * @param {object} message
 * @returns {any}
 */
function call(message) {
	const mine = ++seq;
	port.postMessage({ ...message, seq: mine });
	for (;;) {
		const seen = Atomics.load(counter, 0);
		for (let reply = receiveMessageOnPort(replies); reply; reply = receiveMessageOnPort(replies)) {
			if (reply.message.seq === mine) return reply.message;
		}
		Atomics.wait(counter, 0, seen, 1000);
	}
}

/**
 * The Date of the script's realm with a clock that runs 1/scale times as fast as the real one,
 * read from the monotonic clock (to the microsecond: scaled, a millisecond would be a second).
 * @param {DateConstructor} RealDate
 * @param {number} scale
 */
function scaledDate(RealDate, scale) {
	const origin = RealDate.now();
	const began = performance.now();
	const now = () => Math.floor(origin + (performance.now() - began) / scale);
	return new Proxy(RealDate, {
		construct(target, args) {
			return args.length === 0 ? new target(now()) : Reflect.construct(target, args);
		},
		apply() {
			return new RealDate(now()).toString();
		},
		get(target, key) {
			return key === 'now' ? now : Reflect.get(target, key);
		},
	});
}
