/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator, two file servers. */
/**
 * File URL refuses internal addresses inside a real n8n (`n8n execute`), on every release line
 * (issue 43; the refusal is the package's own, before any request, so it must hold on n8n 1.85.4
 * as on 2.41.1, which alone has n8n's SSRF protection to add): Process Document reads five links.
 * The one on the file server Allowed Internal Hosts lists is processed; loopback written as
 * IPv4-mapped IPv6, loopback in hexadecimal, a cloud metadata address, and a redirect from the
 * allowed server to another loopback port are each refused with the item and the parameter
 * named; the target stub answers on every local address and receives nothing, and Vantage
 * receives one document. Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/fileUrl.ts`
 * (E2E_N8N=1 or E2E_N8N=1.85 for the 1.x lines).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { invoiceText } from '../test/helpers/binary';
import { FileServer } from '../test/helpers/fileServer';
import { FIXTURE } from '../test/simulator/simulator';
import { assert, check, equal } from './lib/checks';
import { hostVersions, n8n, parseRun, RUN_DIR, runOutput, writeJson } from './lib/n8n';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';

type Json = Record<string, unknown>;

const WORKFLOW = 'vaE2eFileUrl01';
const PROCESS = 'Process linked documents';

function workflow(links: string[], allowed: string): Json {
	return {
		id: WORKFLOW,
		name: 'e2e: File URL refuses internal addresses',
		nodes: [
			{
				id: `${WORKFLOW}-0`,
				name: 'Run now',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: `${WORKFLOW}-1`,
				name: 'Links',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return ${JSON.stringify(links.map((url) => ({ json: { url } })))};`,
				},
			},
			{
				id: `${WORKFLOW}-2`,
				name: PROCESS,
				type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
				typeVersion: 1,
				position: [440, 0],
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'transaction',
					operation: 'processDocument',
					skillId: { __rl: true, mode: 'id', value: FIXTURE.documentSkillId },
					inputFiles: 'url',
					fileUrl: '={{ $json.url }}',
					allowedInternalHosts: allowed,
					options: { pollInterval: 1 },
				},
				credentials: { abbyyVantageApi: CREDENTIAL },
			},
		],
		connections: {
			'Run now': { main: [[{ node: 'Links', type: 'main', index: 0 }]] },
			Links: { main: [[{ node: PROCESS, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

export async function fileUrlSuite(setup: Setup): Promise<void> {
	const { instance, sim } = setup;
	console.log(`\nFile URL and internal addresses (Process Document), on ${hostVersions().label}`);
	const files = new FileServer();
	await files.start();
	// On every local address (0.0.0.0 and ::): any spelling of loopback would reach it.
	const stub = new FileServer();
	await stub.start('::');
	try {
		stub.serve('/secret.pdf', { body: invoiceText({ number: 'INV-SECRET' }) });
		const links = [
			files.serve('/inbox/invoice-43.pdf', { body: invoiceText({ number: 'INV-43' }) }),
			`http://[::ffff:127.0.0.1]:${stub.port}/secret.pdf`,
			`http://0x7f000001:${stub.port}/secret.pdf`,
			'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
			files.serve('/inbox/moved.pdf', {
				redirect: `http://127.0.0.1:${stub.port}/secret.pdf`,
			}),
		];
		const folder = join(RUN_DIR, 'file-url');
		rmSync(folder, { recursive: true, force: true });
		mkdirSync(folder, { recursive: true });
		writeJson(join(folder, `${WORKFLOW}.json`), workflow(links, files.allowed));
		const imported = await n8n(instance, ['import:workflow', '--separate', `--input=${folder}`]);
		if (imported.code !== 0)
			throw new Error(`import:workflow failed:\n${imported.stdout}${imported.stderr}`);
		sim.clearLog();
		const result = await n8n(instance, ['execute', `--id=${WORKFLOW}`, '--rawOutput']);
		const run = parseRun(result.stdout);
		await check(
			'the allowed file server’s document is processed; IPv4-mapped IPv6 and hexadecimal loopback, a metadata address and a redirect to another loopback port are refused, item and parameter named; nothing reaches the stub, Vantage gets one document',
			() => {
				equal(run?.status, 'success', `status (exit ${result.code}: ${result.stderr.slice(-500)})`);
				const out = runOutput(run, PROCESS).map((i) => i.json);
				equal(out.length, links.length, 'items');
				assert(
					out[0].error === undefined && JSON.stringify(out[0]).includes('INV-43'),
					`the allowed document: ${JSON.stringify(out[0]).slice(0, 500)}`,
				);
				const errors = out.slice(1).map((json) => String(json.error ?? ''));
				const expected: Array<[number, RegExp]> = [
					[1, /loopback address .*IPv4-mapped IPv6/],
					[2, /loopback address/],
					[3, /link-local address/],
					[4, /redirect|loopback address/i],
				];
				for (const [n, pattern] of expected) {
					const message = errors[n - 1];
					assert(
						message.includes('File URL') && pattern.test(message),
						`item ${n}: ${message}`,
					);
				}
				equal(stub.requests.length, 0, 'requests that reached the stub');
				equal(
					files.requests.map((r) => r.path),
					['/inbox/invoice-43.pdf', '/inbox/moved.pdf'],
					'requests to the allowed file server',
				);
				equal(
					sim.requestsTo('LaunchTransaction').length + sim.requestsTo('CreateTransaction').length,
					1,
					'transactions created in Vantage',
				);
			},
		);
	} finally {
		await files.stop();
		await stub.stop();
	}
}

if (require.main === module) runAlone(fileUrlSuite, { includeE2eWorkflows: false });
