/* eslint-disable no-console -- benchmark driver, never shipped: reports on the console. */
/**
 * Section 14: what the ABBYY Vantage Tool hands a model, in characters (and about a quarter as
 * many tokens), beside what the same operation outputs in a workflow: a 5 000-record vendor
 * catalog asked for whole and searched by VAT ID, and a document of 30 fields read by link. The
 * tool runs in n8n-core's engine as n8n's AI Agent v3 calls it (test/harness/tool.ts), against the
 * simulator in its own process.
 */
import type { IDataObject } from 'n8n-workflow';

import { CredentialStore, runNode } from '../test/harness/n8n';
import { parsedAnswer, runAgent } from '../test/harness/tool';
import { fileItem, binaryFile } from '../test/helpers/binary';
import { FileServer } from '../test/helpers/fileServer';
import { VENDOR_COLUMNS, vendorRow, vendorRows } from '../test/helpers/vendorCatalog';
import { fixtureCredentialData } from '../test/simulator/simulator';
import { control, fmt } from './measure';

const CATALOG = 'Vendors 5000';
const RECORDS = 5000;
const WIDE_SKILL = 'wide-invoice';
const FIELDS = 30;

/** A Document skill of 30 fields: text, dates and amounts. */
function wideSkill() {
	const fields = Array.from({ length: FIELDS }, (_, i) => {
		const name = `Field${String(i + 1).padStart(2, '0')}`;
		const textFormat = i % 5 === 3 ? 'Date' : i % 5 === 4 ? 'Amount' : 'Text';
		return { name, type: 'Text', textFormat };
	});
	return { id: WIDE_SKILL, name: 'Wide invoice', type: 'Document', fields };
}

/** The document's text: a value for every field, as the simulator reads `Name: value` lines. */
function wideDocument(): string {
	return (
		Array.from({ length: FIELDS }, (_, i) => {
			const name = `Field${String(i + 1).padStart(2, '0')}`;
			const value =
				i % 5 === 3
					? '03.11.2025'
					: i % 5 === 4
						? `${1000 + i},50`
						: `Value of field ${i + 1} on the invoice`;
			return `${name}: ${value}`;
		}).join('\n') + '\n'
	);
}

export interface AgentAnswerResult {
	rows: string;
	/** The 5 000-record catalog asked for whole: the answer's characters. */
	catalogAnswer: number;
	documentAnswer: number;
}

const chars = (n: number) => `${n.toLocaleString('en').replace(/,/g, ' ')}`;
const tokens = (n: number) => `≈ ${chars(Math.round(n / 4))}`;

export async function agentAnswerSection(simUrl: string): Promise<AgentAnswerResult> {
	await control(simUrl, 'POST', 'catalogs', {
		name: CATALOG,
		columns: VENDOR_COLUMNS,
		records: vendorRows(RECORDS),
	});
	await control(simUrl, 'POST', 'skills', wideSkill());
	await control(simUrl, 'POST', 'default-transaction-script', { processing: { polls: 0 } });
	const credentials = new CredentialStore(fixtureCredentialData(simUrl));
	const files = new FileServer();
	await files.start();
	try {
		const workflow = await runNode({
			credentials,
			parameters: {
				resource: 'catalogRecord',
				operation: 'getMany',
				catalogId: { __rl: true, mode: 'id', value: CATALOG },
				returnAll: true,
			},
		});
		const workflowChars = JSON.stringify(workflow.items.map((item) => item.json)).length;
		const vat = vendorRow(4321).fields.VatId[0];
		const lookup = await runAgent({
			path: 'engine',
			credentials,
			tools: [{ name: 'Vendors', parameters: { resource: 'catalogRecord', operation: 'getMany' } }],
			calls: [
				{ tool: 'Vendors', args: { catalogId: CATALOG, limit: 100000 } },
				{ tool: 'Vendors', args: { catalogId: CATALOG, search: vat } },
			],
		});
		const [whole, search] = lookup.answers.map((a) => a.answer ?? '');
		const wholeAnswer = parsedAnswer(lookup.answers[0]);

		const document = wideDocument();
		const link = files.serve('/inbox/wide-invoice.pdf', { body: document });
		const processed = await runNode({
			credentials,
			items: [fileItem(binaryFile('wide-invoice.pdf', document))],
			parameters: {
				resource: 'transaction',
				operation: 'processDocument',
				skillId: { __rl: true, mode: 'id', value: WIDE_SKILL },
				options: { pollInterval: 1 },
			},
		});
		const documentChars = JSON.stringify(processed.items.map((item) => item.json)).length;
		const fieldCount = Object.keys((processed.items[0]?.json.fields ?? {}) as IDataObject).length;
		const read = await runAgent({
			path: 'engine',
			credentials,
			tools: [
				{
					name: 'Read',
					parameters: {
						resource: 'transaction',
						operation: 'processDocument',
						// The file server is on loopback: File URL refuses it unless listed.
						allowedInternalHosts: files.allowed,
					},
				},
			],
			calls: [{ tool: 'Read', args: { fileUrl: link, skillId: WIDE_SKILL } }],
		});
		const documentAnswer = read.answers[0].answer ?? '';
		const rows = [
			`| Catalog Record → Get Many, ${chars(RECORDS)} records, all asked for (limit 100 000) | ${chars(workflowChars)} (${tokens(workflowChars)} tokens) | ${chars(whole.length)} (${tokens(whole.length)} tokens): ${String(wholeAnswer.returned)} of ${String(wholeAnswer.found)} listed, with how to narrow |`,
			`| The same catalog searched by one VAT ID | – | ${chars(search.length)} (${tokens(search.length)} tokens) |`,
			`| Process Document, a document of ${fieldCount} fields (by link as a tool) | ${chars(documentChars)} (${tokens(documentChars)} tokens) | ${chars(documentAnswer.length)} (${tokens(documentAnswer.length)} tokens) |`,
		].join('\n');
		console.log(
			`   tool answers: ${fmt(whole.length)} characters for ${RECORDS} records (workflow output ${fmt(workflowChars)}), ${fmt(search.length)} for a VAT ID search, ${fmt(documentAnswer.length)} for ${fieldCount} fields (workflow output ${fmt(documentChars)})`,
		);
		return { rows, catalogAnswer: whole.length, documentAnswer: documentAnswer.length };
	} finally {
		await files.stop();
		await control(simUrl, 'POST', 'default-transaction-script', {});
	}
}
