/**
 * The Custom-activity runner as Vantage's script engine: only documented members (anything else
 * fails the run, naming the member), Send() synchronous, HTTPS only, Timeout in minutes, the
 * request and runtime limits per page, GetSecret from the secrets given, LogMessage lines kept, and
 * an uncaught exception, a syntax error or a Context.ErrorMessage assignment failing the run.
 */
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions --
 * Tests, never shipped: an HTTPS server with certificates the openssl command makes. */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import { Receiver } from './receiver';
import { ScriptRunner, type RunOptions, type ScriptInput, type ScriptResult } from './runner';

let runner: ScriptRunner;
let server: Receiver;
beforeAll(() => (runner = new ScriptRunner(2)));
afterAll(async () => await runner.stop());
beforeEach(async () => {
	server = new Receiver(200);
	await server.start();
});
afterEach(async () => await server.stop());

const LOOPBACK: RunOptions = { allowPlainHttpOnLoopback: true };

async function run(
	source: string,
	more: Partial<Omit<ScriptInput, 'source'>> = {},
): Promise<ScriptResult> {
	return await runner.run({
		source,
		transaction: {
			id: 'tx-1',
			documentIds: ['doc-1', 'doc-2'],
			registrationParameters: [{ key: 'Customer', value: 'ACME' }],
		},
		secrets: { token: 's3cret' },
		pages: 2,
		options: LOOPBACK,
		...more,
	});
}

/** A script that POSTs `body` to the test server (`path`) and logs what Send() left. */
const post = (path: string, extra = '') => `
	var r = Context.CreateHttpRequest();
	r.Url = ${JSON.stringify(`URL${path}`)};
	r.Method = "POST";
	${extra}
	r.SetHeader("Content-Type", "application/json");
	r.SetStringContent('{"a":1}');
	r.Send();
	Context.LogMessage(r.Status + " " + r.ResponseType + " " + r.ResponseText);`;
const at = (script: string) => script.split('URL').join(server.url);

describe('the object model: documented members only', () => {
	test('reads the transaction, its documents and registration parameters; logs lines in order', async () => {
		const result = await run(`
			var t = Context.Transaction;
			Context.LogMessage(t.Id);
			Context.LogMessage(t.Documents.length + ": " + t.Documents[0].DocumentId + ", " + t.Documents[1].DocumentId);
			Context.LogMessage(t.RegistrationParameters["Customer"].Value);
			Context.LogMessage(String(t.RegistrationParameters["Absent"]));
			Context.LogMessage(Context.GetSecret("token"));`);
		expect(result).toMatchObject({
			outcome: 'completed',
			log: ['tx-1', '2: doc-1, doc-2', 'ACME', 'undefined', 's3cret'],
		});
	});

	test.each([
		['Context.Foo', 'Context.Foo is not a documented member of Context'],
		['Context.InputData', 'Context.InputData is not a documented member'],
		[
			'Context.CreateMultipartFormDataRequest()',
			'Context.CreateMultipartFormDataRequest is not a documented',
		],
		['Context.Transaction.Status', 'Transaction.Status is not a documented member of Transaction'],
		[
			'Context.Transaction.Documents[0].GetField("Total")',
			'Document.GetField is not a documented member',
		],
		['Context.Transaction.Documents[0].Fields', 'Document.Fields is not a documented member'],
		[
			'Context.Transaction.RegistrationParameters["Customer"].Key',
			'Parameter.Key is not a documented',
		],
		['Context.CreateHttpRequest().StatusCode', 'HttpRequest.StatusCode is not a documented member'],
		[
			'Context.CreateHttpRequest().SetUrlFormEncodedContent({})',
			'HttpRequest.SetUrlFormEncodedContent is not',
		],
		['Context.Transaction = null', 'Context.Transaction is read-only'],
		['Context.Transaction.Id = "x"', 'Transaction.Id is read-only'],
		['Context.Bar = 1', 'Context.Bar is not a documented member'],
		['Context.CreateHttpRequest().Status = 200', 'HttpRequest.Status is read-only'],
		[
			'Context.CreateHttpRequest().Timeout = "1"',
			'HttpRequest.Timeout must be a number, not string',
		],
		['Context.CreateHttpRequest().Timeout = 11', 'at most 10 minutes'],
		['Context.LogMessage()', 'Context.LogMessage takes 1 argument(s), not 0'],
		['delete Context.Transaction', 'Context.Transaction cannot be deleted'],
	])('%s fails the run, naming the member', async (code, message) => {
		const result = await run(code);
		expect(result.outcome).toBe('failed');
		expect(result.error).toContain(message);
	});

	test('JSON.stringify shows the documented members (and reads only those)', async () => {
		const result = await run('Context.LogMessage(JSON.stringify(Context.Transaction.Documents));');
		expect(result.log).toEqual(['[{"DocumentId":"doc-1"},{"DocumentId":"doc-2"}]']);
	});

	test('a script that catches its own error completes; the member error is an Error of its realm', async () => {
		const result = await run(`
			try { Context.Nope; } catch (e) { Context.LogMessage((e instanceof TypeError) + " " + e.message); }`);
		expect(result.outcome).toBe('completed');
		expect(result.log[0]).toMatch(/^true Context\.Nope is not a documented member/);
	});

	test('GetSecret of a name the tenant lacks: throws by default, or null', async () => {
		expect((await run('Context.GetSecret("nope")')).error).toBe("Secret 'nope' not found");
		const lenient = await run('Context.LogMessage(String(Context.GetSecret("nope")))', {
			options: { missingSecret: 'null' },
		});
		expect(lenient.log).toEqual(['null']);
	});

	test('an absent registration parameter: undefined by default, or the .NET dictionary error', async () => {
		const result = await run('Context.Transaction.RegistrationParameters["n8nResumeUrl"]', {
			options: { missingRegistrationParameter: 'throw' },
		});
		expect(result.error).toBe("The given key 'n8nResumeUrl' was not present in the dictionary.");
	});
});

describe('what fails the transaction', () => {
	test('an uncaught exception: failed, with its message', async () => {
		expect(await run('Context.LogMessage("before"); throw new Error("boom");')).toMatchObject({
			outcome: 'failed',
			error: 'boom',
			log: ['before'],
		});
		expect((await run('throw "plain text";')).error).toBe('plain text');
		expect((await run('null.x;')).error).toMatch(/^TypeError: Cannot read properties of null/);
	});

	test('a syntax error: failed before anything runs', async () => {
		const result = await run('Context.LogMessage("x"); var = ;');
		expect(result.outcome).toBe('failed');
		expect(result.error).toMatch(/^Syntax error in the script: SyntaxError/);
		expect(result.log).toEqual([]);
	});

	test('assigning Context.ErrorMessage: failed with that message, though the script went on', async () => {
		const result = await run(
			'Context.ErrorMessage = "Rejected by the ERP"; Context.LogMessage("after");',
		);
		expect(result).toMatchObject({
			outcome: 'failed',
			error: 'Rejected by the ERP',
			log: ['after'],
		});
	});

	test('the runtime limit (600 s × pages, here scaled): interrupted, failed', async () => {
		const result = await run('Context.LogMessage("start"); while (true) {}', {
			pages: 1,
			options: { timeScale: 0.0002 },
		});
		expect(result).toMatchObject({
			outcome: 'failed',
			error: 'The script ran longer than its runtime limit',
		});
		expect(result.finishedAt - result.startedAt).toBeGreaterThanOrEqual(110);
	});
});

describe('HttpRequest.Send(): synchronous, as in Vantage', () => {
	test('the answer is there when Send returns; requests go one after the other', async () => {
		server.answer(
			{ status: 201, body: '{"first":true}', delayMs: 50 },
			{ status: 200, body: 'second' },
		);
		const result = await run(at(`${post('/one')} ${post('/two').replace('var r', 'r')}`));
		expect(result.log).toEqual([
			'201 application/json {"first":true}',
			'200 application/json second',
		]);
		expect(server.requests.map((r) => r.path)).toEqual(['/one', '/two']);
		expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(45);
		expect(server.requests[0]).toMatchObject({
			method: 'POST',
			body: '{"a":1}',
			headers: expect.objectContaining({ 'content-type': 'application/json; charset=utf-8' }),
		});
		expect(result.requests.map((r) => [r.url, r.status])).toEqual([
			[`${server.url}/one`, 201],
			[`${server.url}/two`, 200],
		]);
	});

	test('without a Content-Type the text goes as text/plain; AuthScheme and AuthToken make Authorization', async () => {
		await run(
			at(`var r = Context.CreateHttpRequest(); r.Url = "URL/x"; r.Method = "PUT";
			r.AuthScheme = "Bearer"; r.AuthToken = "t0k"; r.SetStringContent("hé"); r.Send();`),
		);
		expect(server.requests[0]).toMatchObject({ method: 'PUT', body: 'hé' });
		expect(server.requests[0].headers).toMatchObject({
			'content-type': 'text/plain; charset=utf-8',
			authorization: 'Bearer t0k',
		});
	});

	test('ThrowExceptionOnFailed (default true): a non-2xx answer throws; false: Status tells', async () => {
		server.answer(503, 503);
		const thrown = await run(at(post('/a')));
		expect(thrown).toMatchObject({
			outcome: 'failed',
			error: 'Response status code does not indicate success: 503 (Service Unavailable).',
		});
		const quiet = await run(at(post('/b', 'r.ThrowExceptionOnFailed = false;')));
		expect(quiet).toMatchObject({ outcome: 'completed', log: ['503 application/json '] });
	});

	test('a connection failure always throws, whatever ThrowExceptionOnFailed says', async () => {
		const gone = new Receiver();
		const url = await gone.start();
		await gone.stop();
		const result = await run(
			`var r = Context.CreateHttpRequest(); r.Url = "${url}/x"; r.ThrowExceptionOnFailed = false; r.Send();`,
		);
		expect(result).toMatchObject({
			outcome: 'failed',
			error: expect.stringMatching(/^The connection failed: /),
		});
	});

	test('Timeout in minutes (scaled here): no answer → Send throws when it ends; Date runs scaled too', async () => {
		server.answer('hang');
		const result = await run(
			at(`var r = Context.CreateHttpRequest(); r.Url = "URL/slow"; r.Timeout = 2;
			var t = Date.now();
			try { r.Send(); } catch (e) { Context.LogMessage(e.message); }
			Context.LogMessage(String(Math.round((Date.now() - t) / 1000)));`),
			{ options: { ...LOOPBACK, timeScale: 0.001 } },
		);
		expect(result.log[0]).toBe(
			'The request was canceled due to the configured Timeout of 2 minute(s) elapsing',
		);
		// Two minutes of the script's clock: 120 s, give or take the test machine's scheduling.
		expect(Number(result.log[1])).toBeGreaterThanOrEqual(119);
		expect(result.requests[0].ms).toBeGreaterThanOrEqual(115);
	});

	test('HTTPS only: plain http is refused (loopback too unless allowed), so is a relative URL', async () => {
		const refused = await run(at(post('/x')), { options: {} });
		expect(refused.error).toBe(
			`Only HTTPS addresses can be called from a Custom activity, not http://${server.url.slice(7)}`,
		);
		const internet = await run(post('/x').replace('URL/x', 'http://n8n.example.com/x'));
		expect(internet.error).toMatch(/^Only HTTPS addresses can be called/);
		expect((await run(post('/x').replace('URL/x', '/relative'))).error).toMatch(/^Invalid URI/);
		expect((await run('Context.CreateHttpRequest().Send()')).error).toBe(
			'HttpRequest.Url is not set',
		);
		expect(server.requests).toHaveLength(0);
	});

	test('the request limit (200 × pages): the next request fails the run, even when caught', async () => {
		const loop = (n: number) =>
			at(
				`for (var i = 0; i < ${n}; i++) { try { var r = Context.CreateHttpRequest(); r.Url = "URL/n"; r.Send(); } catch (e) { Context.LogMessage(e.message); } }`,
			);
		const within = await run(loop(200), { pages: 1 });
		expect(within.outcome).toBe('completed');
		const over = await run(loop(201), { pages: 1 });
		expect(over).toMatchObject({
			outcome: 'failed',
			error: 'The script sent more than 200 HTTP requests (200 per page)',
			log: ['The script sent more than 200 HTTP requests (200 per page)'],
		});
		expect(server.requests).toHaveLength(400);
	});
});

/** A self-signed certificate for 127.0.0.1 with an RSA key of `bits`, made by openssl. */
function certificate(bits: number): { key: string; cert: string } {
	const pem = execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			`rsa:${bits}`,
			'-nodes',
			'-keyout',
			'-',
			'-out',
			'-',
			'-days',
			'2',
			'-subj',
			'/CN=127.0.0.1',
			'-addext',
			'subjectAltName=IP:127.0.0.1',
		],
		{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
	);
	return {
		key: /-----BEGIN PRIVATE KEY-----[^]+?-----END PRIVATE KEY-----/.exec(pem)![0],
		cert: /-----BEGIN CERTIFICATE-----[^]+?-----END CERTIFICATE-----/.exec(pem)![0],
	};
}

const openssl = (() => {
	try {
		execFileSync('openssl', ['version'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
})();

// Skipped only where the openssl command is missing (it makes the certificates).
(openssl ? test : test.skip)(
	'HTTPS: a trusted certificate of security level 2 is called; an untrusted or weak one is not',
	async () => {
		const calls = async (pair: { key: string; cert: string }, trusted: string[]) => {
			const https = createServer(pair, (_req, res) => res.writeHead(204).end());
			await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
			const url = `https://127.0.0.1:${(https.address() as AddressInfo).port}/hook`;
			try {
				return await run(
					`var r = Context.CreateHttpRequest(); r.Url = "${url}"; r.Send();
					Context.LogMessage(String(r.Status));`,
					{ options: { trustedCertificates: trusted } },
				);
			} finally {
				await new Promise((resolve) => https.close(resolve));
			}
		};
		const strong = certificate(2048);
		expect(await calls(strong, [strong.cert])).toMatchObject({
			outcome: 'completed',
			log: ['204'],
		});
		expect((await calls(strong, [])).error).toMatch(
			/^The connection failed: self[- ]signed certificate/,
		);
		// An RSA key under 2048 bits is below OpenSSL's security level 2.
		const weak = certificate(1024);
		expect((await calls(weak, [weak.cert])).error).toMatch(
			/^The connection failed: .*key too (weak|small)/i,
		);
	},
);
