/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * Needs Review's second output inside a real n8n (`n8n execute`), on every release line: Transaction
 * → Get Results with Send to Second Output reads three transactions; the one read cleanly leaves
 * on Ready, the one with a low-confidence total and a rule error and the one without a date on
 * Needs Review, each with its reasons and its text. The node's outputs are an expression of its
 * parameters, which the editor and the engine of each line resolve themselves.
 * Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/needsReview.ts` (E2E_N8N=1 or
 * E2E_N8N=1.85 for the 1.x lines).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { assert, check, equal } from './lib/checks';
import { hostVersions, n8n, parseRun, RUN_DIR, runOutput, writeJson } from './lib/n8n';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';

type Json = Record<string, unknown>;

const WORKFLOW = 'vaE2eReview02';

/** Manual Trigger → the transactions' ids → Get Results (two outputs) → Ready / Needs review. */
function workflow(ids: string[]): Json {
	const node = (n: number, name: string, type: string, parameters: Json, extra: Json = {}) => ({
		id: `${WORKFLOW}-${n}`,
		name,
		type,
		typeVersion: 1,
		position: [n * 220, 0],
		parameters,
		...extra,
	});
	return {
		id: WORKFLOW,
		name: 'e2e: Needs Review, a second output',
		nodes: [
			node(0, 'Run now', 'n8n-nodes-base.manualTrigger', {}),
			{
				...node(1, 'Transactions', 'n8n-nodes-base.code', {
					jsCode: `return ${JSON.stringify(ids.map((id) => ({ json: { id } })))};`,
				}),
				typeVersion: 2,
			},
			node(
				2,
				'Read results',
				'n8n-nodes-abbyy-vantage.abbyyVantage',
				{
					resource: 'transaction',
					operation: 'getResults',
					transactionId: '={{ $json.id }}',
					needsReview: {
						minConfidence: 80,
						requiredFields: 'InvoiceNumber, InvoiceDate',
						ruleErrors: true,
						secondOutput: true,
					},
					options: { includeDocumentText: true },
				},
				{ credentials: { abbyyVantageApi: CREDENTIAL } },
			),
			node(3, 'Ready', 'n8n-nodes-base.noOp', {}),
			node(4, 'Needs review', 'n8n-nodes-base.noOp', {}),
		],
		connections: {
			'Run now': { main: [[{ node: 'Transactions', type: 'main', index: 0 }]] },
			Transactions: { main: [[{ node: 'Read results', type: 'main', index: 0 }]] },
			'Read results': {
				main: [
					[{ node: 'Ready', type: 'main', index: 0 }],
					[{ node: 'Needs review', type: 'main', index: 0 }],
				],
			},
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

export async function needsReviewSuite(setup: Setup): Promise<void> {
	const { instance, sim } = setup;
	console.log(
		`\nNeeds Review's second output (Transaction → Get Results), on ${hostVersions().label}`,
	);
	const seed = (name: string, text: string) =>
		sim.seedCompletedTransactions(1, { files: [{ name, text }] })[0];
	const clean = seed(
		'clean.pdf',
		'InvoiceNumber: R-1\nInvoiceDate: 05.01.2026\nTotal: 10,00\nExport: Text\n',
	);
	const low = seed(
		'low.pdf',
		'InvoiceNumber: R-2\nInvoiceDate: 06.01.2026\nTotal: 20,00\nConfidence.Total: 52\nRuleError: Total differs from the lines\nExport: Text\n',
	);
	const undated = seed('undated.pdf', 'InvoiceNumber: R-3\nTotal: 30,00\n');
	const folder = join(RUN_DIR, 'needs-review');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	writeJson(join(folder, `${WORKFLOW}.json`), workflow([clean, low, undated]));
	const imported = await n8n(instance, ['import:workflow', '--separate', `--input=${folder}`]);
	if (imported.code !== 0)
		throw new Error(`import:workflow failed:\n${imported.stdout}${imported.stderr}`);

	const result = await n8n(instance, ['execute', `--id=${WORKFLOW}`, '--rawOutput']);
	const run = parseRun(result.stdout);
	await check(
		'the document read cleanly leaves on Ready; the one with a low-confidence total and a rule error and the one without a date on Needs Review, with their reasons and texts',
		() => {
			equal(run?.status, 'success', `status (exit ${result.code}: ${result.stderr.slice(-500)})`);
			const ready = runOutput(run, 'Ready').map((i) => i.json);
			const review = runOutput(run, 'Needs review').map((i) => i.json);
			equal(
				ready.map((d) => [d.transactionId, d.needsReview]),
				[[clean, false]],
				'Ready',
			);
			equal(
				review.map((d) => [
					d.transactionId,
					(d.reviewReasons as Json[]).map(
						(r) => `${String(r.reason)} ${String(r.field ?? r.rule)}`,
					),
				]),
				[
					[low, ['ruleError rule-1', 'lowConfidence Total']],
					[undated, ['requiredFieldEmpty InvoiceDate']],
				],
				'Needs Review and the reasons',
			);
			assert(
				String(ready[0].text).startsWith('InvoiceNumber: R-1') && review[1].text === null,
				`texts: ${JSON.stringify([ready[0].text, review[1].text, review[1].textNote])}`,
			);
			// The node's own run data: two outputs, as the canvas draws them.
			equal(
				[0, 1].map((index) => runOutput(run, 'Read results', index).length),
				[1, 2],
				'items per output of the ABBYY Vantage node',
			);
		},
	);
}

if (require.main === module) runAlone(needsReviewSuite, { includeE2eWorkflows: false });
