/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * Needs Review's second output inside a real n8n (`n8n execute`), on every release line: Transaction
 * → Get Results with Send to Second Output reads three transactions; the one read cleanly leaves
 * on Ready, the one with a low-confidence total and a rule error and the one without a date on
 * Needs Review, each with its reasons and its text. The node's outputs are an expression of its
 * parameters, which the editor and the engine of each line resolve themselves.
 * Then examples/invoice-review.json, review with people: Process Document sends the sample invoices
 * to Ready and Needs Review (one without a VAT ID, one Vantage holds in Manual Review, with its
 * link), n8n's Send and Wait e-mails the list to a person (an SMTP server on loopback) and the run
 * waits, on every line; on n8n 2.x the review ends in Vantage, the person clicks "Reviewed: post
 * them" on a running n8n, and the run resumes, reads the reviewed invoices again and posts them.
 * Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/needsReview.ts` (E2E_N8N=1 or
 * E2E_N8N=1.85 for the 1.x lines).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { decide, importSmtpCredential } from './lib/approvals';
import { assert, check, equal } from './lib/checks';
import { hostVersions, LINE, n8n, parseRun, RUN_DIR, runOutput, writeJson } from './lib/n8n';
import { INVOICES } from './lib/samples';
import { publicApi, startServer, stopServer, type StoredExecution } from './lib/server';
import { openSession } from './lib/push';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';
import { SmtpSink } from './lib/smtp';

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
	await reviewExampleSuite(setup);
}

/** examples/invoice-review.json, as the set-up imported it (its folders this run's). */
const REVIEW_EXAMPLE = 'vaExReview001';
const PROCESS = 'Extract invoices';

/** The items a node output at its last run, on output `index`, in an execution n8n stored. */
function storedOutput(execution: StoredExecution, node: string, index = 0): Json[] {
	const runs = (
		(execution.data?.resultData as Json | undefined)?.runData as Record<string, Json[]> | undefined
	)?.[node];
	const main = (runs?.[runs.length - 1]?.data as Json | undefined)?.main as
		| Array<Array<{ json: Json }> | null>
		| undefined;
	return (main?.[index] ?? []).map((item) => item.json);
}

const invoiceNumber = (json: Json) => (json.fields as Json | undefined)?.InvoiceNumber;

/**
 * Review with people (examples/invoice-review.json): Ready and Needs Review from Process Document,
 * the e-mail and the wait on every line; the click and the resume on n8n 2.x, on a running n8n
 * started for it (the only server this suite starts).
 */
async function reviewExampleSuite(setup: Setup): Promise<void> {
	const { instance, sim } = setup;
	console.log(
		`\nexamples/invoice-review.json: invoices that need review, to a person by e-mail, on ${hostVersions().label}`,
	);
	const mailbox = new SmtpSink();
	await mailbox.start();
	try {
		await importSmtpCredential(instance, mailbox);
		// The first transaction started waits in Vantage's Manual Review until the suite ends it.
		sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 1_000_000 } });
		sim.clearLog();
		const result = await n8n(instance, ['execute', `--id=${REVIEW_EXAMPLE}`, '--rawOutput']);
		const run = parseRun(result.stdout);
		const ready = runOutput(run, PROCESS, 0).map((i) => i.json);
		const review = runOutput(run, PROCESS, 1).map((i) => i.json);
		const inReview = review.find((d) => d.waitingForManualReview === true);
		const mail = mailbox.mails[mailbox.mails.length - 1];
		await check(
			'Process Document: invoices that pass the rules leave on Ready and reach Post to ERP; the one without a VAT ID and the one Vantage holds in Manual Review leave on Needs Review, with their reasons and the review link; the run waits for a person, whom n8n e-mailed the list',
			() => {
				equal(run?.status, 'waiting', `status (exit ${result.code}: ${result.stderr.slice(-500)})`);
				assert(
					inReview !== undefined,
					`no transaction in Manual Review: ${JSON.stringify(review)}`,
				);
				equal(
					(inReview!.reviewReasons as Json[]).map((r) => r.reason),
					['manualReview'],
					'the reason of the transaction in Manual Review',
				);
				const samples = INVOICES.map((i) => i.expected.InvoiceNumber);
				const processed = [...ready, ...review].map(invoiceNumber).filter(Boolean);
				equal(processed.length + 1, samples.length, `documents: ${JSON.stringify(processed)}`);
				for (const doc of ready)
					equal(doc.needsReview, false, `Ready ${String(invoiceNumber(doc))}`);
				// INV-1002 has no VAT ID: on Needs Review for it, unless it is the one in Manual Review.
				const heldFiles = (inReview!.sourceFiles as string[] | undefined) ?? [];
				if (!heldFiles.includes('invoice-2025-1002.pdf')) {
					const inv1002 = review.find((d) => invoiceNumber(d) === 'INV-1002');
					equal(
						(inv1002?.reviewReasons as Json[] | undefined)?.map((r) => [r.reason, r.field]),
						[['requiredFieldEmpty', 'Vendor.VatId']],
						'INV-1002 (no VAT ID) on Needs Review',
					);
				}
				equal(
					runOutput(run, 'Post to ERP').map((i) => invoiceNumber(i.json)),
					ready.map(invoiceNumber),
					'Post to ERP got Ready',
				);
				assert(mail !== undefined, 'no e-mail was sent');
				equal(
					[mail.to, mail.subject],
					[['accounts-payable@example.com'], 'Invoices to review before they are posted'],
					'the e-mail',
				);
				assert(
					mail.body.includes(String(inReview!.manualReviewLink)) &&
						mail.body.includes('waits for Manual Review in ABBYY Vantage') &&
						(review.length < 2 || mail.body.includes('Vendor.VatId')),
					`the e-mail lists each invoice, the review link among them: ${mail.body.slice(0, 2000)}`,
				);
				equal(
					mail.links
						.map((link) => new URL(link).searchParams.get('approved'))
						.filter(Boolean)
						.sort(),
					['false', 'true'],
					'Reviewed and Hold back links',
				);
			},
		);
		if (LINE.id !== '2') {
			console.log(
				'  (the click on "Reviewed: post them" and the resumed run are checked on n8n 2.x: a running n8n costs a start per line)',
			);
			return;
		}
		const server = await startServer(instance);
		try {
			const { apiKey } = await openSession(server.url);
			const executionId = /\/webhook-waiting\/([^/]+)\//.exec(mail.links[0] ?? '')?.[1] ?? '';
			// The reviewer finishes in Vantage, then answers the e-mail.
			sim.completeTransaction(String(inReview!.transactionId));
			sim.clearLog();
			const answer = await decide(mail, 'approve', server.url);
			let execution: StoredExecution | undefined;
			for (let attempt = 0; attempt < 120; attempt++) {
				execution = await publicApi<StoredExecution>(
					server.url,
					apiKey,
					'GET',
					`/executions/${executionId}?includeData=true`,
				);
				if (!['waiting', 'running', 'new'].includes(execution.status)) break;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
			await check(
				'"Reviewed: post them": the run resumes, reads each invoice of Needs Review again (the one from Manual Review now Processed, with its fields) and posts them',
				() => {
					equal(answer.status, 200, 'the click answered');
					equal(execution?.status, 'success', 'status');
					const posted = storedOutput(execution!, 'Post reviewed invoices to ERP');
					equal(
						posted.map((d) => d.transactionId).sort(),
						review.map((d) => d.transactionId).sort(),
						'the invoices posted after the review',
					);
					assert(
						posted.every((d) => d.status === 'Processed' && typeof invoiceNumber(d) === 'string'),
						`posted: ${JSON.stringify(posted.map((d) => [d.status, invoiceNumber(d)]))}`,
					);
					equal(storedOutput(execution!, 'Held back').length, 0, 'held back');
				},
			);
		} finally {
			await stopServer(server);
		}
	} finally {
		await mailbox.stop();
	}
}

if (require.main === module) runAlone(needsReviewSuite, { includeE2eWorkflows: false });
