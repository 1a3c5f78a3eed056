/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console --
 * The demo command, never shipped: drives a real n8n and prints to the terminal. */
/**
 * `npm run demo`: build the package, start the ABBYY Vantage simulator and a real n8n on
 * loopback, run the example workflows and tell, in a few short lines each, what they did; then
 * keep n8n's editor open at http://127.0.0.1:<port> until Ctrl-C (`npm run demo -- --exit`: stop once
 * it is ready, for scripts and timing). No account or internet needed
 * (only the npm registry, once, to install n8n into the host cache, ~/.cache/n8n-nodes-abbyy-vantage).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative } from 'node:path';

import {
	decisionLink,
	examplesScenario,
	importSmtpCredential,
	isCatalogRequest,
	REVIEW_NODE,
} from './lib/approvals';
import { xlsxRecords } from './lib/files';
import { InstallWatch } from './lib/installProgress';
import { HOST, n8n, parseRun, ROOT } from './lib/n8n';
import type { ChatRequest } from './lib/openai';
import { setUp, type Setup } from './lib/setup';
import { SmtpSink, type Mail } from './lib/smtp';
import { SYNC_CATALOG } from './lib/vendors';

/** Trigger nodes start a workflow from n8n's schedule, never from `n8n execute`. */
const POLLING_TRIGGER = 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger';
/** While the editor is open the simulator completes a transaction this often. */
const COMPLETE_EVERY_MS = 30_000;
/** The longest line the tour prints (an item's preview is cut to fit). */
const WIDTH = 96;
/** What the first run's install of n8n costs, as measured cold on 2 cores (README says the same). */
const FIRST_INSTALL =
	'about 4.5 minutes on 2 cores, longer on a busy machine: npm, then compiling sqlite3';
/** `npm run demo -- --exit`: run the tour, start the editor, then stop (scripts, timing). */
const EXIT_WHEN_READY = process.argv.includes('--exit');

const OWNER = {
	email: 'demo@example.com',
	password: 'Demo-n8n-2026',
	firstName: 'Demo',
	lastName: 'User',
};

/** What each example does, in one line, by file. */
const STORIES: Record<string, string> = {
	'invoices-to-spreadsheet.json':
		'PDFs from a folder → Process Document (Invoice skill, one transaction per file) → an Excel row per invoice',
	'email-invoices-to-spreadsheet.json':
		'new e-mails’ attachments → Process Document → a spreadsheet row per invoice (Google Sheets, or an Excel file)',
	'email-attachments.json':
		'the attachments of one e-mail → Process Document (a Process skill, one transaction) → an item per invoice',
	'catalog-sync.json':
		'a vendor export → Catalog Record → Sync: the Vendors catalog made equal to the export',
	'catalog-cleanup.json':
		'stale vendor IDs → Catalog Record → Delete (Aggregate All Items), then a reindex',
	'report-to-files.json':
		'Create Export → Wait For Export → Download Export Files → CSV files on disk',
	'add-document.json': 'a document added to an existing transaction of a Process skill',
	'quality-digest.json':
		'a week of QA reports → Get Quality Summary → a spreadsheet, and an IF on the straight-through rate',
	'transaction-completed.json':
		'ABBYY Vantage Trigger → each finished transaction’s fields → a CSV file',
	'invoice-agent.json':
		'invoices → Process Document → an AI Agent looks each vendor up by VAT ID (ABBYY Vantage Tool) and decides',
	'catalog-agent.json':
		'a chat request → an AI Agent deletes a vendor record only after a person approved it by e-mail (n8n’s human review for tools)',
	'invoice-review.json':
		'invoices → Process Document with Needs Review: Ready goes to the ERP, Needs Review to a person by e-mail (Send and Wait), posted once reviewed',
};

/** examples/invoice-review.json: its Process Document node, whose outputs are Ready and Needs Review. */
const REVIEW_FILE = 'invoice-review.json';
const REVIEW_PROCESS = 'Extract invoices';
/** How long the simulated Manual Review of the review example lasts (the person's click comes later). */
const REVIEW_MS = 60_000;

/** The approver's mailbox of examples/catalog-agent.json, on loopback. */
const mailbox = new SmtpSink();
/** Approval e-mails the tour's runs sent, to print their links once the editor runs. */
const approvals: Array<{ file: string; mail: Mail }> = [];

type Json = Record<string, unknown>;
interface Item {
	json: Json;
	binary?: Record<string, Json>;
}
interface WorkflowDefinition {
	nodes: Array<{ name: string; type: string; disabled?: boolean; parameters?: Json }>;
	connections?: Record<string, { main?: Array<Array<{ node: string }> | null> }>;
}

const say = (line = '') => console.log(line);

function cut(text: string, width = WIDTH): string {
	return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function isPlain(value: unknown): boolean {
	return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** A value as one short text: plain values as they are, a list of plain values as its entries. */
function scalar(value: unknown): string | undefined {
	if (isPlain(value)) return String(value);
	if (Array.isArray(value)) {
		if (!value.every(isPlain)) return `${value.length} entr${value.length === 1 ? 'y' : 'ies'}`;
		const shownEntries = value.slice(0, 4).map(String);
		return `[${shownEntries.join(', ')}${value.length > 4 ? `, … ${value.length - 4} more` : ''}]`;
	}
	return undefined;
}

/** One short line for an output item: its document or its first plain values, and its files. */
function preview(item: Item): string {
	const { json } = item;
	let text: string;
	const fields = json.fields as Json | undefined;
	if (fields && typeof fields === 'object' && 'transactionId' in json) {
		const number = fields.InvoiceNumber ?? json.documentId;
		const from = Array.isArray(json.sourceFiles) ? ` from ${json.sourceFiles.join(', ')}` : '';
		text = `${String(number)}${from} (${Object.keys(fields).length} fields, pairing ${String(json.pairing)})`;
	} else {
		// Plain values first, IDs only when there is nothing else to show.
		const entries = Object.entries(json)
			.map(([key, value]) => [key, scalar(value)] as const)
			.filter(([, value]) => value !== undefined && value !== '');
		const plain = entries.filter(([key, value]) => !/Id$/.test(key) && value!.length <= 36);
		text = (plain.length ? plain : entries)
			.slice(0, 5)
			.map(([key, value]) => `${key}: ${value}`)
			.join(', ');
	}
	const files = Object.values(item.binary ?? {}).map((b) => `${String(b.fileName)}`);
	return `${text}${files.length ? `  + ${files.join(', ')}` : ''}`;
}

interface NodeRun {
	node: string;
	/** The items of each output (an IF node has two: true, false). */
	outputs: Item[][];
	error?: Json;
	/** How often an AI agent called it (a model or a tool: one run per call, on an ai_* output). */
	calls: number;
}

function nodeRuns(run: Json | undefined): NodeRun[] {
	const runData = (((run?.data as Json)?.resultData as Json)?.runData ?? {}) as Record<
		string,
		Json[]
	>;
	return Object.entries(runData).map(([node, tasks]) => {
		const task = tasks[0];
		const calls = tasks.filter((t) =>
			Object.keys((t.data as Json | undefined) ?? {}).some((key) => key.startsWith('ai_')),
		).length;
		const outputs = ((task.data as Json)?.main as Item[][] | undefined) ?? [];
		return {
			node,
			outputs: outputs.map((o) => o ?? []),
			error: task.error as Json | undefined,
			calls,
		};
	});
}

/** The items a node output on its first output (or on output `index`) in this run. */
function outputOf(run: Json | undefined, node: string, index = 0): Item[] {
	return nodeRuns(run).find((r) => r.node === node)?.outputs[index] ?? [];
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Each output of a node with several (IF: true, false), as the editor names them. */
function branches(type: string, outputs: Item[][]): string {
	const names =
		{
			'n8n-nodes-base.if': ['true', 'false'],
			'n8n-nodes-base.filter': ['kept', 'discarded'],
			'n8n-nodes-abbyy-vantage.abbyyVantage': ['Ready', 'Needs Review'],
		}[type] ?? [];
	return outputs
		.map(
			(items, index) => `${names[index] ?? `output ${index + 1}`} → ${count(items.length, 'item')}`,
		)
		.join(', ');
}

function printRun(
	file: string,
	workflow: WorkflowDefinition,
	run: Json | undefined,
	code: number,
): void {
	const skipped = new Set(
		workflow.nodes.filter((n) => n.disabled || n.type.endsWith('stickyNote')).map((n) => n.name),
	);
	const status =
		run?.status === 'success'
			? '✓'
			: run?.status === 'waiting'
				? '⏸ waiting for a person:'
				: `✗ ${String(run?.status ?? `exit ${code}`)}`;
	say(`\n${status} ${file}`);
	say(`  ${STORIES[file] ?? ''}`);
	for (const { node, outputs, error, calls } of nodeRuns(run)) {
		if (skipped.has(node)) continue;
		const items = outputs[0] ?? [];
		if (error) {
			say(cut(`  · ${node}: error: ${String(error.message)}`));
			continue;
		}
		if (calls && !items.length) {
			say(`  · ${node}: called ${count(calls, 'time')} by the agent`);
			continue;
		}
		const type = workflow.nodes.find((n) => n.name === node)?.type ?? '';
		say(
			`  · ${node}: ${outputs.length > 1 ? branches(type, outputs) : count(items.length, 'item')}`,
		);
		if (!type.startsWith('n8n-nodes-abbyy-vantage')) continue;
		for (const item of items.slice(0, 4)) say(cut(`      ${preview(item)}`));
		if (items.length > 4) say(`      … and ${items.length - 4} more`);
	}
	const disabled = workflow.nodes.filter((n) => n.disabled).map((n) => n.name);
	if (disabled.length)
		say(`  (${disabled.join(', ')}: disabled until you add its credential in the editor)`);
	const error = ((run?.data as Json)?.resultData as Json)?.error as Json | undefined;
	if (error) say(cut(`  ✗ ${String(error.message)}`));
}

/** Columns of the spreadsheet a run wrote (the path its write node output); its rows. */
function printSpreadsheet(
	run: Json | undefined,
	node: string,
	columns?: string[],
): Array<Record<string, string>> {
	const all: Array<Record<string, string>> = [];
	for (const { json } of outputOf(run, node)) {
		const path = String(json.fileName);
		const { header, records } = xlsxRecords(path);
		const shownColumns = columns ?? header.slice(0, 4);
		say(
			`  The spreadsheet it wrote (${basename(path)}), ${count(records.length, 'row')} of ${count(header.length, 'column')}, among them:`,
		);
		say(cut(`      ${shownColumns.join(' | ')}`));
		for (const record of records)
			say(cut(`      ${shownColumns.map((c) => record[c]).join(' | ')}`));
		all.push(...records);
	}
	return all;
}

/** Documents per source file in a Process Document output, e.g. "2 in a.pdf and 2 in b.pdf". */
function documentsPerFile(items: Item[]): string {
	const perFile = new Map<string, number>();
	for (const { json } of items) {
		for (const file of (json.sourceFiles as string[] | undefined) ?? [])
			perFile.set(file, (perFile.get(file) ?? 0) + 1);
	}
	const parts = [...perFile].map(([file, n]) => `${n} in ${file}`);
	return parts.length > 1
		? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
		: parts.join('');
}

const transactionsOf = (items: Item[]) => new Set(items.map((i) => i.json.transactionId)).size;

/**
 * What the run produced beyond the node counts, read from its execution (and what it wrote):
 * why numbers change between nodes, which branch an IF took and why.
 */
function printExtras(
	file: string,
	definition: WorkflowDefinition,
	run: Json | undefined,
	setup: Setup,
): void {
	if (file === 'email-attachments.json' || file === 'email-invoices-to-spreadsheet.json') {
		const [read, process] =
			file === 'email-attachments.json'
				? ['Read sample attachments', 'Process attachments']
				: ['Read sample attachments', 'Extract invoices'];
		const scans = outputOf(run, read).length;
		const documents = outputOf(run, process);
		if (scans && documents.length) {
			say(
				`  ${count(scans, 'attachment')} in ${count(transactionsOf(documents), 'transaction')} gave ${count(documents.length, 'invoice')}: the simulated Process skill found`,
			);
			say(cut(`  ${documentsPerFile(documents)},`));
			say('  as a real one does when a scan holds two invoices.');
		}
	}
	if (file === 'email-invoices-to-spreadsheet.json') {
		const rows = printSpreadsheet(run, 'Save spreadsheet', [
			'Invoice Number',
			'Vendor',
			'Total',
			'Currency',
			'File',
			'From',
		]);
		const started = nodeRuns(run).some((r) => r.node === 'Run now');
		if (rows.length && rows.every((row) => !row.From))
			say(
				`  From, Subject and Received are empty: this run ${started ? 'started from Run now, not from an e-mail' : 'had no e-mail headers'}.`,
			);
	}
	if (file === 'invoices-to-spreadsheet.json') {
		const documents = outputOf(run, 'Extract invoice data');
		say(
			`  ${count(outputOf(run, 'Read invoice PDFs').length, 'PDF')} → ${count(transactionsOf(documents), 'transaction')} → ${count(documents.length, 'invoice')}`,
		);
		printSpreadsheet(run, 'Save spreadsheet');
	}
	if (file === 'catalog-sync.json') {
		const plan = outputOf(run, 'Sync Vendors catalog')[0]?.json;
		if (plan) {
			say(
				`  The plan: add ${String(plan.toAdd)}, update ${String(plan.toUpdate)}, delete ${String(plan.toDelete)}, leave ${String(plan.unchanged)} alone.`,
			);
			if (plan.dryRun === true)
				say(
					`  Dry Run is on as shipped, so ${SYNC_CATALOG} still holds ${setup.sim.catalogRecords(SYNC_CATALOG).length} records: turn it off to apply.`,
				);
		}
	}
	if (file === 'invoice-agent.json') {
		for (const node of ['Post to ERP', 'Ask a person']) {
			for (const { json } of outputOf(run, node)) {
				say(
					cut(`  ${String(json.invoiceNumber)}: ${String(json.decision)} (${String(json.reason)})`),
				);
			}
		}
		const answers = setup.model.of('invoice').flatMap((r) => r.results.slice(-1));
		if (answers.length) {
			say(
				`  The model is a script on loopback (${setup.model.baseUrl}); the tool answered it ${answers.map((a) => `${a.content.length}`).join(' and ')} characters.`,
			);
		}
	}
	if (file === 'catalog-agent.json') printHeldCall(file, run, setup);
	if (file === REVIEW_FILE) printReview(file, run);
	if (file === 'report-to-files.json') {
		const waited = outputOf(run, 'Wait for export')[0]?.json;
		if (waited)
			say(
				`  The export ended ${String(waited.status)} after ${count(Number(waited.polls), 'status check')}, with ${count(Number(waited.totalFileCount), 'file')} (indexes ${scalar(waited.fileIndexes)}).`,
			);
		const written = outputOf(run, 'Save to disk').map((i) => basename(String(i.json.fileName)));
		if (written.length) {
			say(`  Written to ${relative(ROOT, setup.instance.filesDir)}:`);
			for (const name of written) say(cut(`      ${name}`));
		}
	}
	if (file === 'quality-digest.json') printQualityBranch(definition, run);
}

/**
 * The human-review example, told from its run: what the model did and asked for, where n8n holds
 * the call, and the approval e-mail the mailbox on loopback received for it.
 */
function printHeldCall(file: string, run: Json | undefined, setup: Setup): void {
	const promptOf = (request: ChatRequest) => {
		const messages = (request.body.messages ?? []) as Array<{ role: string; content?: unknown }>;
		const content = messages.find((m) => m.role === 'user')?.content;
		return typeof content === 'string' ? content : JSON.stringify(content ?? '');
	};
	const asked = setup.model.requests
		.filter((request) => isCatalogRequest(promptOf(request)))
		.flatMap((request) => ('calls' in request.reply ? request.reply.calls : []));
	for (const call of asked) {
		const args = (call.arguments.toolParameters ?? call.arguments) as Json;
		say(
			cut(
				`  The model called ${call.name}${Object.keys(args).length ? ` with ${JSON.stringify(args)}` : ''}.`,
			),
		);
	}
	const resultData = (run?.data as Json | undefined)?.resultData as Json | undefined;
	if (run?.status !== 'waiting') return;
	say(
		cut(
			`  n8n holds the last call at ${String(resultData?.lastNodeExecuted ?? REVIEW_NODE)}: nothing is deleted until a person decides.`,
		),
	);
	const mail = mailbox.mails[mailbox.mails.length - 1];
	if (!mail) return;
	approvals.push({ file, mail });
	say(cut(`  n8n e-mailed ${mail.to.join(', ')} (a mailbox on loopback here):`));
	say(cut(`  "${mail.subject}", with Approve and Decline links`));
	say('  (below, once the editor runs).');
}

/**
 * The review example, told from its run: which invoices went on Ready and which need a person, why,
 * and the e-mail n8n sent them (its links printed once the editor runs).
 */
function printReview(file: string, run: Json | undefined): void {
	const name = (json: Json) =>
		String((json.fields as Json | undefined)?.InvoiceNumber ?? (json.sourceFiles as string[])?.[0]);
	const ready = outputOf(run, REVIEW_PROCESS, 0).map((i) => i.json);
	const review = outputOf(run, REVIEW_PROCESS, 1).map((i) => i.json);
	if (ready.length) say(cut(`  Ready, posted: ${ready.map(name).join(', ')}.`));
	for (const json of review) {
		const reasons = ((json.reviewReasons as Json[] | undefined) ?? []).map((r) =>
			r.reason === 'manualReview' ? 'Vantage holds it in Manual Review' : String(r.message),
		);
		say(cut(`  Needs Review: ${name(json)}: ${reasons.join('; ')}`));
	}
	if (run?.status !== 'waiting') return;
	const mail = mailbox.mails[mailbox.mails.length - 1];
	if (!mail) return;
	approvals.push({ file, mail });
	say(cut(`  n8n e-mailed ${mail.to.join(', ')} the list (a mailbox on loopback here):`));
	say(cut(`  "${mail.subject}". The simulated Manual Review ends within ${REVIEW_MS / 1000} s;`));
	say('  then answer the e-mail (its links below, once the editor runs).');
}

/**
 * The quality digest's IF, explained from the run: the week's straight-through rate (the summary's
 * total item), the threshold the IF compares it with (read from the workflow), and the branch taken.
 */
function printQualityBranch(definition: WorkflowDefinition, run: Json | undefined): void {
	const total = outputOf(run, 'Quality summary').find((i) => i.json.level === 'total')?.json;
	const gate = definition.nodes.find((n) => n.type === 'n8n-nodes-base.if');
	if (!total || !gate) return;
	const conditions =
		((gate.parameters?.conditions as Json | undefined)?.conditions as Array<Json> | undefined) ??
		[];
	const threshold = conditions.find((c) =>
		String(c.leftValue).includes('straightThroughPercent'),
	)?.rightValue;
	const alerted = outputOf(run, gate.name, 0).length;
	const rest = outputOf(run, gate.name, 1).length;
	const rate = total.straightThroughPercent;
	say(
		`  The week: ${count(Number(total.documents), 'document')}, ${String(total.straightThrough)} straight through without Manual Review (${String(rate)} %).`,
	);
	const after = (definition.connections?.[gate.name]?.main?.[0] ?? []).map((c) => {
		const disabled = definition.nodes.find((n) => n.name === c.node)?.disabled;
		return `${c.node}${disabled ? ' (disabled as shipped: enable it with your credential)' : ''}`;
	});
	const then = after.length ? ` → ${after.join('; ')}` : '';
	const levels = (items: Item[]) => [...new Set(items.map((i) => String(i.json.level)))].join(', ');
	const falseItems = outputOf(run, gate.name, 1);
	if (alerted) {
		say(
			`  ${String(rate)} % is below the IF's ${String(threshold)} %, so the total took the true branch:`,
		);
		say(cut(`  the alert${then}.`));
	} else
		say(
			cut(
				`  ${String(rate)} % is not below the IF's ${String(threshold)} %, so no item took the true branch: no alert.`,
			),
		);
	say(
		cut(
			`  ${alerted ? 'The other ' : ''}${count(rest, 'item')} (level ${levels(falseItems)}) went to false: it alerts on the total only.`,
		),
	);
}

async function portIsFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

async function waitForReady(url: string, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		try {
			const res = await fetch(`${url}/healthz/readiness`);
			if (res.ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 500));
	}
	throw new Error(`n8n did not become ready at ${url}`);
}

/** A folder as the tour shows it: relative to the project, or under `~`. */
function shown(path: string): string {
	const inProject = relative(ROOT, path);
	if (!inProject.startsWith('..') && !isAbsolute(inProject)) return inProject;
	const home = homedir();
	return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}

/**
 * The shared set-up speaks in the e2e suite's voice (`[e2e] …`); the tour rewords its lines while
 * it runs and, while n8n is installed (the first run only), shows how far the install got.
 */
async function quietSetUp(): Promise<Setup> {
	const log = console.log;
	let watch: InstallWatch | undefined;
	const reword = (line: string): string | undefined => {
		const text = line.replace(/^\[e2e\] /, '');
		if (text === line) return line;
		if (text.startsWith('reusing n8n host')) return `· n8n is installed already (${shown(HOST)})`;
		if (text.startsWith('installing n8n ')) {
			watch = new InstallWatch(`${HOST}.partial-${process.pid}`);
			return `· ${text.replace(/ \(.*\)$/, '')} into ${shown(HOST)}: the first run only (${FIRST_INSTALL})`;
		}
		// ensureHost's progress every 15 s ("installing n8n: 812 of 2351 packages in place, 45 s so
		// far", "compiling sqlite3: 15 s so far"), told as what the install is doing.
		const tick = /^(.+?): (?:.*, )?(\d+) s so far$/.exec(text);
		if (tick) return `    … ${tick[2]} s: ${watch ? watch.describe(tick[1]) : text}`;
		if (text.startsWith('installed in')) {
			return `· ${text.replace('compiling sqlite3 for its Node', 'building sqlite3 for that Node (prebuilt, or compiled: needs a C/C++ compiler)')}`;
		}
		if (text.startsWith('n8n host ready')) return `· ${text.replace(/ \(.*\)$/, '')}`;
		if (text.startsWith('building and packing')) return '· building and packing the package';
		if (text.startsWith('simulator on'))
			return `· ABBYY Vantage simulator: ${text.split(';')[0].slice(13)}`;
		if (text.startsWith('imported the credential'))
			return `· ${text.replace('imported the credential and', 'imported a credential and')} into n8n`;
		return `· ${text}`;
	};
	console.log = (...args: unknown[]) => {
		const line = reword(args.map(String).join(' '));
		if (line !== undefined) log(line);
	};
	try {
		return await setUp({ includeE2eWorkflows: false });
	} finally {
		console.log = log;
	}
}

async function main(): Promise<void> {
	const started = Date.now();
	say('ABBYY Vantage for n8n: a tour of the example workflows, in a real n8n, against a simulator');
	say('(no Vantage account needed). Setting up:');
	const setup = await quietSetUp();
	const { instance, sim, workflows } = setup;
	// The human-review example: its approver's mailbox, and the model's script for its requests.
	await mailbox.start();
	await importSmtpCredential(instance, mailbox);
	setup.model.addScenarios({ invoice: examplesScenario() });
	say(`\nRunning the ${workflows.length} examples (examples/*.json) with \`n8n execute\`:`);
	const triggered: string[] = [];
	for (const workflow of workflows) {
		const file = basename(workflow.file);
		const definition = JSON.parse(
			readFileSync(join(ROOT, workflow.file), 'utf8'),
		) as WorkflowDefinition;
		if (definition.nodes.some((node) => node.type === POLLING_TRIGGER)) {
			// `n8n execute` would hand the trigger's empty start item to the next node instead of
			// polling: such a workflow runs once activated, in the editor below.
			triggered.push(file);
			say(`\n○ ${file}`);
			say(`  ${STORIES[file] ?? ''}`);
			say('  Starts from the ABBYY Vantage Trigger: try it in the editor (below).');
			continue;
		}
		// The review example: the first invoice waits in Vantage's Manual Review for a while.
		if (file === REVIEW_FILE)
			sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { ms: REVIEW_MS } });
		const result = await n8n(instance, ['execute', `--id=${workflow.id}`, '--rawOutput']);
		const run = parseRun(result.stdout);
		printRun(file, definition, run, result.code);
		printExtras(file, definition, run, setup);
	}
	const requests = sim.requestsTo().length;
	const tokens = sim.requestsTo('Token').length;
	say(
		`\nThe simulator answered ${requests} requests; n8n signed in ${tokens === 1 ? 'once' : `${tokens} times`} for all of them.`,
	);

	const port = (await portIsFree(5678)) ? 5678 : Number(instance.env.N8N_PORT);
	const url = `http://127.0.0.1:${port}`;
	say(`\nStarting n8n's editor on ${url} …`);
	const server = spawn('n8n', ['start'], {
		env: { ...instance.env, N8N_PORT: String(port), N8N_LOG_LEVEL: 'warn' },
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		say('\nStopping n8n and the simulator …');
		server.kill('SIGTERM');
		await new Promise((resolve) => {
			if (server.exitCode !== null) resolve(undefined);
			else server.once('exit', resolve);
		});
		await sim.stop();
		await setup.model.stop();
		await mailbox.stop();
		say(`Stopped. \`npm run demo\` again reuses the n8n in ${shown(HOST)} and starts afresh.`);
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
	server.on('exit', (code) => {
		if (stopping) return;
		say(`n8n exited (${code}); stopping the simulator.`);
		void Promise.all([sim.stop(), setup.model.stop(), mailbox.stop()]).then(() =>
			process.exit(code ?? 0),
		);
	});
	await waitForReady(url, 120_000);
	// Something for the trigger examples to find: finished transactions now and every 30 s.
	sim.seedCompletedTransactions(2);
	const completing = setInterval(() => sim.seedCompletedTransactions(1), COMPLETE_EVERY_MS);
	completing.unref();
	await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	say(`
Ready in ${Math.round((Date.now() - started) / 1000)} s. Open ${url} and sign in as ${OWNER.email} / ${OWNER.password}:
  · the examples and their executions are there; "Execute workflow" works in the editor too
    (the credential points at the simulator, ${sim.url}; the OpenAI credential at a scripted
    model, ${setup.model.baseUrl})`);
	for (const { file, mail } of approvals) {
		// The links n8n signed name the address the tour's run had; the signature covers only the
		// path and query, so they work on the editor's address.
		const on = (decision: 'approve' | 'decline') => {
			const link = decisionLink(mail, decision);
			return `${url}${link.pathname}${link.search}`;
		};
		const [yes, no] = file === REVIEW_FILE ? ['Reviewed', 'Hold back'] : ['Approve', 'Decline'];
		say(`  · ${file} waits for a person: open one of these links in your browser, then see the
    execution finish in the editor (Executions):
      ${yes}: ${on('approve')}
      ${no}: ${on('decline')}`);
	}
	if (triggered.length)
		say(`  · ${triggered.join(', ')}: the simulator finishes a transaction every ${COMPLETE_EVERY_MS / 1000} s;
    "Fetch Test Event" shows the latest, or publish the workflow (it then polls every minute)`);
	say(`
That was the tour: files to data, invoices that need a person sent to one, a catalog kept in
sync, reports to disk, an agent's deletion held for a person. Ctrl-C stops n8n.`);
	if (EXIT_WHEN_READY) await stop();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
