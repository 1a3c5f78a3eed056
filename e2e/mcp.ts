/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n server, the packed package, the simulator. */
/**
 * The ABBYY Vantage Tool over n8n's MCP Server Trigger, in a real n8n 2.x started as a server: an
 * activated workflow of the trigger and two tools (a vendor search, Process Document), and a
 * client built with the official MCP TypeScript SDK over Streamable HTTP. The client lists the
 * tools (names, descriptions, input schemas from the $fromAI arguments) and calls the search and
 * Process Document by a link on a loopback file server; what ran against the simulator is checked.
 * Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/mcp.ts`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { TOOLS } from '../nodes/AbbyyVantage/agent/tools';
import { invoiceText } from '../test/helpers/binary';
import { FileServer } from '../test/helpers/fileServer';
import { FIXTURE } from '../test/simulator/simulator';
import { answerOf, APPROVED_VENDORS } from './lib/agents';
import { assert, check, equal } from './lib/checks';
import { hostVersions, n8n, RUN_DIR, writeJson } from './lib/n8n';
import { publicApi, startServer, stopServer, type N8nServer } from './lib/server';
import { openSession } from './lib/push';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';

type Json = Record<string, unknown>;

const WORKFLOW = 'vaE2eMcp00001';
const PATH = 'abbyy-vantage-e2e';

function mcpWorkflow(): Json {
	const tool = (index: number, name: string, parameters: Json) => ({
		id: `${WORKFLOW}-t${index}`,
		name,
		type: 'n8n-nodes-abbyy-vantage.abbyyVantageTool',
		typeVersion: 1,
		position: [200 * index, 200],
		parameters,
		credentials: { abbyyVantageApi: CREDENTIAL },
	});
	return {
		id: WORKFLOW,
		name: 'e2e MCP: ABBYY Vantage tools',
		nodes: [
			{
				id: `${WORKFLOW}-1`,
				name: 'MCP Server',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '6f0c1b2a-3d4e-4f5a-8b6c-7d8e9f0a1b2c',
				parameters: { path: PATH },
			},
			tool(1, 'Find vendor', { resource: 'catalogRecord', operation: 'getMany' }),
			// The file server is on loopback (its port is not known yet): File URL refuses it unless listed.
			tool(2, 'Read document', {
				resource: 'transaction',
				operation: 'processDocument',
				allowedInternalHosts: '127.0.0.1',
			}),
		],
		connections: {
			'Find vendor': { ai_tool: [[{ node: 'MCP Server', type: 'ai_tool', index: 0 }]] },
			'Read document': { ai_tool: [[{ node: 'MCP Server', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

interface TextResult {
	content?: Array<{ type: string; text?: string }>;
	isError?: boolean;
}

const textOf = (result: unknown) =>
	((result as TextResult).content ?? []).map((c) => c.text ?? '').join('');

export async function mcpSuite(setup: Setup): Promise<void> {
	const { instance, sim } = setup;
	console.log(`\nThe ABBYY Vantage Tool over n8n's MCP Server Trigger, on ${hostVersions().label}`);
	const folder = join(RUN_DIR, 'mcp');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	writeJson(join(folder, `${WORKFLOW}.json`), mcpWorkflow());
	const imported = await n8n(instance, ['import:workflow', '--separate', `--input=${folder}`]);
	if (imported.code !== 0)
		throw new Error(`import:workflow failed:\n${imported.stdout}${imported.stderr}`);

	const files = new FileServer();
	await files.start();
	const invoiceUrl = files.serve('/share/7f3a/invoice-mcp.pdf', {
		body: invoiceText({
			number: 'INV-MCP-1',
			total: '512,00',
			vendor: 'Initech',
			extra: ['Vendor.VatId: US-11-2223334', 'Currency: USD'],
		}),
	});
	let server: N8nServer | undefined;
	let apiKey: string | undefined;
	const client = new Client({ name: 'abbyy-vantage-e2e', version: '1.0.0' });
	try {
		server = await startServer(instance);
		({ apiKey } = await openSession(server.url));
		await publicApi(server.url, apiKey, 'POST', `/workflows/${WORKFLOW}/activate`);
		const url = new URL(`${server.url}/mcp/${PATH}`);
		// The webhook is registered as the activation finishes: connect once it answers.
		let connected: Error | undefined;
		for (let attempt = 0; attempt < 30; attempt++) {
			try {
				await client.connect(new StreamableHTTPClientTransport(url));
				connected = undefined;
				break;
			} catch (error) {
				connected = error as Error;
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
		}
		if (connected) throw connected;

		const { tools } = await client.listTools();
		await check(
			'an MCP client (official SDK, Streamable HTTP) lists the two tools with their descriptions and input schemas',
			() => {
				equal(tools.map((t) => t.name).sort(), ['Find_vendor', 'Read_document'], 'tool names');
				const find = tools.find((t) => t.name === 'Find_vendor')!;
				const read = tools.find((t) => t.name === 'Read_document')!;
				equal(find.description, TOOLS['catalogRecord.getMany'].description, 'search description');
				equal(
					read.description,
					TOOLS['transaction.processDocument'].description,
					'document description',
				);
				equal(
					Object.keys(find.inputSchema.properties ?? {}).sort(),
					['catalogId', 'limit', 'search'],
					'search arguments',
				);
				equal(find.inputSchema.required ?? [], ['catalogId'], 'required search arguments');
				equal(
					Object.keys(read.inputSchema.properties ?? {}).sort(),
					['fileUrl', 'skillId'],
					'document arguments',
				);
				console.log(`      listed: ${JSON.stringify(tools).length} characters for both tools`);
			},
		);

		sim.clearLog();
		const found = await client.callTool({
			name: 'Find_vendor',
			arguments: { catalogId: APPROVED_VENDORS, search: 'US-11-2223334' },
		});
		await check('calling the search: the vendor found by its VAT ID, as text JSON', () => {
			assert(!(found as TextResult).isError, `an error: ${textOf(found)}`);
			equal(
				answerOf(textOf(found)),
				{
					returned: 1,
					results: [
						{ id: 'V-1004', fields: { Name: 'Initech', VatId: 'US-11-2223334', Country: 'US' } },
					],
				},
				'answer',
			);
			equal(
				sim.requestsTo('GetRecords').map((r) => r.params.catalogId),
				[APPROVED_VENDORS],
				'what ran against Vantage',
			);
		});

		sim.clearLog();
		const read = await client.callTool({
			name: 'Read_document',
			arguments: { fileUrl: `${invoiceUrl}?sig=e2e`, skillId: FIXTURE.documentSkillId },
		});
		await check(
			'calling Process Document with a link: the file fetched from the link, read by Vantage, its fields answered',
			() => {
				assert(!(read as TextResult).isError, `an error: ${textOf(read)}`);
				const [document] = answerOf(textOf(read)).results as Json[];
				equal(document.status, 'Processed', 'status');
				const fields = document.fields as Json;
				equal(
					[fields.InvoiceNumber, fields.Total, (fields.Vendor as Json).VatId],
					['INV-MCP-1', 512, 'US-11-2223334'],
					'fields',
				);
				equal(
					files.requests.map((r) => `${r.path}${r.query}`),
					['/share/7f3a/invoice-mcp.pdf?sig=e2e'],
					'downloads',
				);
				equal(
					sim
						.requestsTo('LaunchTransaction')
						.flatMap((r) => (r.body as { files: Json[] }).files.map((f) => f.name)),
					['invoice-mcp.pdf'],
					'uploaded',
				);
				console.log(`      answer: ${textOf(read).length} characters`);
			},
		);
	} finally {
		await client.close().catch(() => undefined);
		await files.stop();
		// Later suites start n8n on the same user folder: the MCP server must not come back with it.
		if (server && apiKey) {
			await publicApi(server.url, apiKey, 'POST', `/workflows/${WORKFLOW}/deactivate`).catch(
				() => undefined,
			);
		}
		if (server) await stopServer(server);
	}
}

if (require.main === module) runAlone(mcpSuite, { includeE2eWorkflows: false });
