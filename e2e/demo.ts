/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console --
 * The demo command, never shipped: drives a real n8n and prints to the terminal. */
/**
 * `npm run demo`: build the package, start the ABBYY Vantage simulator and a real n8n on
 * loopback, run the example workflows and tell, in a few short lines each, what they did; then
 * keep n8n's editor open at http://127.0.0.1:<port> until Ctrl-C. No account or internet needed
 * (only the npm registry, once, to install n8n into the host cache, ~/.cache/n8n-nodes-abbyy-vantage).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative } from 'node:path';

import { xlsxRecords } from './lib/files';
import { HOST, n8n, parseRun, ROOT } from './lib/n8n';
import { setUp, type Setup } from './lib/setup';
import { SYNC_CATALOG } from './lib/vendors';

/** Trigger nodes start a workflow from n8n's schedule, never from `n8n execute`. */
const POLLING_TRIGGER = 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger';
/** While the editor is open the simulator completes a transaction this often. */
const COMPLETE_EVERY_MS = 30_000;
/** The longest line the tour prints (an item's preview is cut to fit). */
const WIDTH = 96;

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
};

type Json = Record<string, unknown>;
interface Item {
	json: Json;
	binary?: Record<string, Json>;
}
interface WorkflowFile {
	nodes: Array<{ name: string; type: string; disabled?: boolean }>;
}

const say = (line = '') => console.log(line);

function cut(text: string, width = WIDTH): string {
	return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function scalar(value: unknown): string | undefined {
	if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
		return String(value);
	if (Array.isArray(value)) return `[${value.length}]`;
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

function nodeOutputs(run: Json | undefined): Array<[string, Item[], Json | undefined, number]> {
	const runData = (((run?.data as Json)?.resultData as Json)?.runData ?? {}) as Record<
		string,
		Json[]
	>;
	return Object.entries(runData).map(([node, tasks]) => {
		const task = tasks[0];
		const items = (((task.data as Json)?.main as Item[][]) ?? [])[0] ?? [];
		// A model or a tool of an AI agent: one run per call, on its ai_* output.
		const calls = tasks.filter((t) =>
			Object.keys((t.data as Json | undefined) ?? {}).some((key) => key.startsWith('ai_')),
		).length;
		return [node, items, task.error as Json | undefined, calls];
	});
}

function printRun(file: string, workflow: WorkflowFile, run: Json | undefined, code: number): void {
	const skipped = new Set(
		workflow.nodes.filter((n) => n.disabled || n.type.endsWith('stickyNote')).map((n) => n.name),
	);
	const status = run?.status === 'success' ? '✓' : `✗ ${String(run?.status ?? `exit ${code}`)}`;
	say(`\n${status} ${file}`);
	say(`  ${STORIES[file] ?? ''}`);
	for (const [node, items, error, calls] of nodeOutputs(run)) {
		if (skipped.has(node)) continue;
		if (error) {
			say(cut(`  · ${node}: error: ${String(error.message)}`));
			continue;
		}
		if (calls && !items.length) {
			say(`  · ${node}: called ${calls} time${calls === 1 ? '' : 's'} by the agent`);
			continue;
		}
		say(`  · ${node}: ${items.length} item${items.length === 1 ? '' : 's'}`);
		const isVantage = workflow.nodes.some(
			(n) => n.name === node && n.type.startsWith('n8n-nodes-abbyy-vantage'),
		);
		if (!isVantage) continue;
		for (const item of items.slice(0, 4)) say(cut(`      ${preview(item)}`));
		if (items.length > 4) say(`      … and ${items.length - 4} more`);
	}
	const disabled = workflow.nodes.filter((n) => n.disabled).map((n) => n.name);
	if (disabled.length)
		say(`  (${disabled.join(', ')}: disabled until you add its credential in the editor)`);
	const error = ((run?.data as Json)?.resultData as Json)?.error as Json | undefined;
	if (error) say(cut(`  ✗ ${String(error.message)}`));
}

/** What the examples left behind, told briefly. */
function printExtras(file: string, run: Json | undefined, setup: Setup): void {
	const out = new Map(nodeOutputs(run).map(([node, items]) => [node, items]));
	if (file === 'email-attachments.json') {
		const scans = readdirSync(setup.folders.attachments).length;
		const invoices = out.get('Process attachments')?.length ?? 0;
		say(`  Why ${scans} scans became ${invoices} invoices: the simulated Process skill finds two`);
		say('  documents in every file, as a real one does when a scan holds two invoices.');
	}
	if (file === 'invoices-to-spreadsheet.json') {
		for (const name of readdirSync(setup.folders.spreadsheets)) {
			const path = join(setup.folders.spreadsheets, name);
			const { header, records } = xlsxRecords(path);
			say(`  The spreadsheet (${name}), first columns:`);
			const columns = header.slice(0, 4);
			say(cut(`      ${columns.join(' | ')}`));
			for (const record of records) say(cut(`      ${columns.map((c) => record[c]).join(' | ')}`));
		}
	}
	if (file === 'catalog-sync.json') {
		const plan = out.get('Sync Vendors catalog')?.[0]?.json;
		if (plan?.dryRun === true) {
			say(
				`  The plan: add ${String(plan.toAdd)}, update ${String(plan.toUpdate)}, delete ${String(plan.toDelete)}, leave ${String(plan.unchanged)} alone.`,
			);
			say(
				`  Dry Run is on as shipped, so ${SYNC_CATALOG} still holds ${setup.sim.catalogRecords(SYNC_CATALOG).length} records: turn it off to apply.`,
			);
		}
	}
	if (file === 'invoice-agent.json') {
		for (const node of ['Post to ERP', 'Ask a person']) {
			for (const { json } of out.get(node) ?? []) {
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
	if (file === 'report-to-files.json') {
		const written = (out.get('Save to disk') ?? []).length;
		if (written)
			say(
				`  ${written} CSV files (export-<request ID>-<index>.csv) written to ${relative(ROOT, setup.instance.filesDir)}`,
			);
	}
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
	const reword = (line: string): string | undefined => {
		const text = line.replace(/^\[e2e\] /, '');
		if (text === line) return line;
		if (text.startsWith('reusing n8n host')) return `· n8n is installed already (${shown(HOST)})`;
		if (text.startsWith('installing n8n ')) {
			return `· ${text.replace(/ \(.*\)$/, '')} into ${shown(HOST)}: the first run only, a few minutes`;
		}
		// ensureHost's progress every 15 s: "installing n8n: 812 of 2351 packages in place, 45 s so far".
		if (/ so far$/.test(text)) return `    … ${text}`;
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
	say(`\nRunning the ${workflows.length} examples (examples/*.json) with \`n8n execute\`:`);
	const triggered: string[] = [];
	for (const workflow of workflows) {
		const file = basename(workflow.file);
		const definition = JSON.parse(readFileSync(join(ROOT, workflow.file), 'utf8')) as WorkflowFile;
		if (definition.nodes.some((node) => node.type === POLLING_TRIGGER)) {
			// `n8n execute` would hand the trigger's empty start item to the next node instead of
			// polling: such a workflow runs once activated, in the editor below.
			triggered.push(file);
			say(`\n○ ${file}`);
			say(`  ${STORIES[file] ?? ''}`);
			say('  Starts from the ABBYY Vantage Trigger: try it in the editor (below).');
			continue;
		}
		const result = await n8n(instance, ['execute', `--id=${workflow.id}`, '--rawOutput']);
		const run = parseRun(result.stdout);
		printRun(file, definition, run, result.code);
		printExtras(file, run, setup);
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
		say(`Stopped. \`npm run demo\` again reuses the n8n in ${shown(HOST)} and starts afresh.`);
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
	server.on('exit', (code) => {
		if (stopping) return;
		say(`n8n exited (${code}); stopping the simulator.`);
		void Promise.all([sim.stop(), setup.model.stop()]).then(() => process.exit(code ?? 0));
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
	if (triggered.length)
		say(`  · ${triggered.join(', ')}: the simulator finishes a transaction every ${COMPLETE_EVERY_MS / 1000} s;
    "Fetch Test Event" shows the latest, or publish the workflow (it then polls every minute)`);
	say(`
That was the tour: files to data, a catalog kept in sync, reports to disk. Ctrl-C stops n8n.`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
