/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * End-to-end infrastructure, never shipped: a file server on loopback. */
/**
 * The workflow the durable-wait suites and benchmark run (e2e/durableWait.ts,
 * e2e/durableWaitQueue.ts, bench/durableWait.ts): a document arrives at a Webhook as a link, and
 * Process Document extracts it; and the loopback file server its links point at.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { FIXTURE } from '../../test/simulator/simulator';
import type { CredentialRef } from './push';

type Json = Record<string, unknown>;

/** The Webhook's name. */
export const DOCUMENT_ARRIVES = 'Document arrives';
/** Process Document's name. */
export const EXTRACT_INVOICE = 'Extract invoice';
/** The No Operation node after Process Document, when the workflow has one. */
export const AFTER_THE_WAIT = 'After the wait';

/** A loopback file server: each path `/<label>.txt` answers a text invoice numbered `<label>`. */
export async function invoiceFileServer(vendor: string): Promise<{ url: string; server: Server }> {
	const server = createServer((req, res) => {
		const label = decodeURIComponent((req.url ?? '/').slice(1).replace(/\.txt$/, ''));
		res.writeHead(200, { 'content-type': 'text/plain' });
		res.end(
			`InvoiceNumber: ${label}\nInvoiceDate: 03.11.2025\nTotal: 1.250,00\nVendor.Name: ${vendor}\n`,
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * Webhook (POST `path`, JSON `{ label, url }`) → Process Document (the file from the link on
 * loopback, `options`, the label as the registration parameter Label after `registration`) → No
 * Operation when `after`.
 */
export function documentArrivesWorkflow(o: {
	name: string;
	path: string;
	vantage: CredentialRef;
	eventSecret: CredentialRef;
	/** Process Document's Options, but for its Registration Parameters. */
	options: Json;
	/** Registration parameters before Label. */
	registration?: Array<{ key: string; value: string }>;
	/** One transaction per item (the default sends the items' files in one). */
	perItem?: boolean;
	after?: boolean;
}): Json {
	const nodes: Json[] = [
		{
			id: `${o.path}-webhook`,
			name: DOCUMENT_ARRIVES,
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: o.path, responseMode: 'onReceived', options: {} },
		},
		{
			id: `${o.path}-process`,
			name: EXTRACT_INVOICE,
			type: 'n8n-nodes-abbyy-vantage.abbyyVantage',
			typeVersion: 1,
			position: [240, 0],
			parameters: {
				resource: 'transaction',
				operation: 'processDocument',
				skillId: { __rl: true, mode: 'id', value: FIXTURE.documentSkillId },
				inputFiles: 'url',
				fileUrl: '={{ $json.body.url }}',
				allowedInternalHosts: '127.0.0.1',
				...(o.perItem ? { transactionMode: 'perItem' } : {}),
				options: {
					...o.options,
					registrationParameters: {
						parameter: [
							...(o.registration ?? []),
							{ key: 'Label', value: '={{ $json.body.label }}' },
						],
					},
				},
			},
			credentials: { abbyyVantageApi: o.vantage, abbyyVantageEventSecretApi: o.eventSecret },
		},
	];
	const connections: Json = {
		[DOCUMENT_ARRIVES]: { main: [[{ node: EXTRACT_INVOICE, type: 'main', index: 0 }]] },
	};
	if (o.after) {
		nodes.push({
			id: `${o.path}-after`,
			name: AFTER_THE_WAIT,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [480, 0],
			parameters: {},
		});
		connections[EXTRACT_INVOICE] = {
			main: [[{ node: AFTER_THE_WAIT, type: 'main', index: 0 }]],
		};
	}
	return { name: o.name, nodes, connections, settings: { executionOrder: 'v1' } };
}
