/* eslint-disable no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * Process Document's pairing inside a real n8n (`n8n execute`): e2e/workflows/
 * process-skill-splitting.json sends three e-mails' attachments to one transaction of a Process
 * skill that splits one file into two documents and merges two files (of two e-mails) into one.
 * The documents' ids are not those Vantage lists for the transaction: each is paired with its
 * e-mails by its result JSON's SourceFiles, and n8n keeps that pairing.
 * Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/pairing.ts`.
 */
import { splittingSkill } from '../test/simulator/simulator';
import { check, equal } from './lib/checks';
import { n8n, parseRun, runOutput, type N8nInstance } from './lib/n8n';
import { runAlone, type Setup } from './lib/setup';

/** e2e/workflows/process-skill-splitting.json */
const WORKFLOW = 'vaE2ePair001';
const NODE = 'Process together';

type Json = Record<string, unknown>;
type Item = { json: Json; binary?: Record<string, Json>; pairedItem?: unknown };

async function execute(instance: N8nInstance, workflowId: string) {
	const result = await n8n(instance, ['execute', `--id=${workflowId}`, '--rawOutput']);
	return { ...result, run: parseRun(result.stdout) };
}

/** The pairing suite, on the instance and simulator of `setup` (its workflows imported). */
export async function pairingSuite(setup: Setup): Promise<void> {
	const { instance, sim } = setup;
	console.log(
		'\nProcess skill that splits and merges files, one transaction for three e-mails (e2e/workflows/process-skill-splitting.json)',
	);
	sim.defineSkill(splittingSkill());
	sim.clearLog();
	const run = await execute(instance, WORKFLOW);
	await check(
		'each document is paired with the e-mails its files came from, by its result JSON’s SourceFiles: two from the first, one from the second and third',
		() => {
			equal(run.run?.status, 'success', `status (exit ${run.code}: ${run.stderr.slice(-300)})`);
			const items = runOutput<Item>(run.run, NODE);
			equal(
				items.map((i) => [
					(i.json.fields as Json).InvoiceNumber,
					i.json.sourceFiles,
					i.json.pairing,
					i.pairedItem,
				]),
				[
					['P-1', ['two-invoices.txt'], 'resultJson', { item: 0 }],
					['P-2', ['two-invoices.txt'], 'resultJson', { item: 0 }],
					['P-3', ['first-page.txt', 'second-page.txt'], 'resultJson', [{ item: 1 }, { item: 2 }]],
				],
				'invoice number, source files, pairing and pairedItem of each document',
			);
			equal(new Set(items.map((i) => i.json.transactionId)).size, 1, 'transactions');
			equal(
				((items[2].json.fields as Json).LineItems as unknown[]).length,
				1,
				'line items of the merged document (from the second page)',
			);
		},
	);
	await check(
		'the documents’ ids are not those Vantage lists for the transaction, and that list was not needed',
		() => {
			const items = runOutput<Item>(run.run, NODE);
			const id = String(items[0]?.json.transactionId);
			const listed = sim.transaction(id)?.files.map((f) => f.name);
			equal(listed, ['two-invoices.txt', 'first-page.txt', 'second-page.txt'], 'uploaded files');
			equal(sim.requestsTo('GetTransactionDocuments').length, 0, 'GetTransactionDocuments');
			equal(
				[
					sim.requestsTo('CreateTransaction').length,
					sim.requestsTo('AddFilesToTransaction').length,
				],
				[1, 1],
				'one transaction, one upload',
			);
		},
	);
	await check(
		'the result JSON files are named after their source file and document: unique, nothing overwrites another',
		() => {
			equal(
				runOutput<Item>(run.run, NODE).map((i) => i.binary?.json?.fileName),
				[
					'two-invoices-doc1-Invoice.json',
					'two-invoices-doc2-Invoice.json',
					'first-page-doc3-Invoice.json',
				],
				'file names',
			);
		},
	);
}

if (require.main === module) runAlone(pairingSuite, { includeE2eWorkflows: true });
