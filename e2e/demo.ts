/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console --
 * The demo command, never shipped: drives a real n8n and prints to the terminal. */
/**
 * `npm run demo`: build the package, start the ABBYY Vantage simulator and a real n8n on
 * loopback, run the example workflows, print what each node produced, then keep n8n's editor open
 * at http://127.0.0.1:<port> until Ctrl-C. No account or internet needed (only the npm registry,
 * once, to install n8n into e2e/.work/host).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { xlsxRecords } from './lib/files';
import { n8n, parseRun, ROOT } from './lib/n8n';
import { setUp } from './lib/setup';
import { SYNC_CATALOG } from './lib/vendors';

/** examples/catalog-sync.json */
const SYNC_WORKFLOW = 'vaExSync00001';
/** Trigger nodes start a workflow from n8n's schedule, never from `n8n execute`. */
const POLLING_TRIGGER = 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger';
/** While the editor is open the simulator completes a transaction this often. */
const COMPLETE_EVERY_MS = 30_000;

const OWNER = {
	email: 'demo@example.com',
	password: 'Demo-n8n-2026',
	firstName: 'Demo',
	lastName: 'User',
};

type Json = Record<string, unknown>;

/** Long arrays (thousands of record IDs) shortened for the terminal. */
function compact(value: unknown): string {
	return JSON.stringify(value, (_key, v: unknown) =>
		Array.isArray(v) && v.length > 4 ? [...v.slice(0, 3), `… ${v.length} in all`] : v,
	);
}

function printRun(name: string, run: Json | undefined, exitCode: number): void {
	const resultData = (run?.data as Json)?.resultData as Json | undefined;
	const runData = (resultData?.runData ?? {}) as Record<string, Json[]>;
	console.log(`\n━━ ${name} — ${run?.status ?? `exit code ${exitCode}`}`);
	for (const [node, tasks] of Object.entries(runData)) {
		const task = tasks[0];
		const items =
			(((task.data as Json)?.main as Array<Array<{ json: Json; binary?: Record<string, Json> }>>) ??
				[])[0] ?? [];
		const error = task.error as Json | undefined;
		console.log(
			`  ▸ ${node}: ${error ? `error — ${error.message}` : `${items.length} item${items.length === 1 ? '' : 's'}`}`,
		);
		for (const item of items.slice(0, 5)) {
			const files = item.binary
				? `  + file ${Object.values(item.binary)
						.map((b) => `${b.fileName} (${b.mimeType}, ${b.fileSize})`)
						.join(', ')}`
				: '';
			console.log(`      ${compact(item.json)}${files}`);
		}
		if (items.length > 5) console.log(`      … ${items.length - 5} more`);
	}
	const error = resultData?.error as Json | undefined;
	if (error) console.log(`  ✗ ${error.message}`);
}

/** The catalog-sync example's readable summary and the catalog it left behind. */
function printSync(
	run: Json | undefined,
	records: Array<{ id: string; fields: Record<string, string[]> }>,
): void {
	const runData = ((run?.data as Json)?.resultData as Json)?.runData as
		| Record<string, Json[]>
		| undefined;
	const summary = (((runData?.['Sync summary']?.[0]?.data as Json)?.main as Array<
		Array<{ json: Json }>
	>) ?? [])[0]?.[0]?.json;
	console.log('\nThe nightly catalog sync (examples/catalog-sync.json):');
	if (!summary) {
		console.log('    the sync produced no summary (see its run above)');
		return;
	}
	console.log(
		`    ${summary.Catalog}: ${summary.Summary}; ${summary.Index}; ${summary.Failed} failed`,
	);
	console.log(`    the catalog now holds ${records.length} records:`);
	for (const record of records) {
		const fields = Object.entries(record.fields)
			.filter(([, values]) => values.length)
			.map(([column, values]) => `${column}=${values.join('|')}`)
			.join(', ');
		console.log(`      ${record.id}  ${fields}`);
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

async function main(): Promise<void> {
	const { instance, sim, workflows, folders } = await setUp({ includeE2eWorkflows: false });
	console.log(
		`[e2e] sample documents: ${readdirSync(folders.invoices).join(', ')} in ${folders.invoices}; ${readdirSync(folders.attachments).join(', ')} in ${folders.attachments}; ${readdirSync(folders.vendors).join(', ')} in ${folders.vendors}`,
	);
	const runs = new Map<string, Json | undefined>();
	const triggered: string[] = [];
	for (const workflow of workflows) {
		const nodes = (JSON.parse(readFileSync(join(ROOT, workflow.file), 'utf8')) as { nodes: Json[] })
			.nodes;
		if (nodes.some((node) => node.type === POLLING_TRIGGER)) {
			// `n8n execute` would hand the trigger's empty start item to the next node instead of
			// polling: such a workflow runs once activated, in the editor below.
			triggered.push(`${workflow.name}  (${workflow.file})`);
			console.log(
				`\n━━ ${workflow.name}  (${workflow.file}) — not run here: it starts from the ABBYY Vantage Trigger; activate it in the editor`,
			);
			continue;
		}
		const result = await n8n(instance, ['execute', `--id=${workflow.id}`, '--rawOutput']);
		const run = parseRun(result.stdout);
		runs.set(workflow.id, run);
		printRun(`${workflow.name}  (${workflow.file})`, run, result.code);
	}
	console.log(
		`\nThe simulator received ${sim.requestsTo().length} requests, ${sim.requestsTo('Token').length} of them for a token.`,
	);
	printSync(runs.get(SYNC_WORKFLOW), sim.catalogRecords(SYNC_CATALOG));
	console.log(`CSV files written by the report example: ${instance.filesDir}`);
	for (const file of readdirSync(folders.spreadsheets)) {
		const path = join(folders.spreadsheets, file);
		console.log(`Spreadsheet written by the invoices example: ${path}`);
		const { header, records } = xlsxRecords(path);
		console.log(`    ${header.join(' | ')}`);
		for (const record of records) console.log(`    ${header.map((c) => record[c]).join(' | ')}`);
	}

	const port = (await portIsFree(5678)) ? 5678 : Number(instance.env.N8N_PORT);
	const url = `http://127.0.0.1:${port}`;
	console.log(`\nStarting n8n's editor on ${url} …`);
	const server = spawn('n8n', ['start'], {
		env: { ...instance.env, N8N_PORT: String(port), N8N_LOG_LEVEL: 'warn' },
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const stop = async () => {
		server.kill('SIGTERM');
		await sim.stop();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
	server.on('exit', (code) => {
		console.log(`n8n exited (${code})`);
		void sim.stop().then(() => process.exit(code ?? 0));
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
	console.log(`
Open ${url} and sign in as ${OWNER.email} / ${OWNER.password}.
The ${workflows.length} example workflows and the executions above are there; the ABBYY Vantage node talks to
the simulator at ${sim.url}, so "Execute workflow" works in the editor too.${
		triggered.length
			? `

Trigger example${triggered.length === 1 ? '' : 's'}: ${triggered.join(', ')}.
The simulator completes a transaction every ${COMPLETE_EVERY_MS / 1000} s: open the workflow, click "Fetch Test Event"
on the ABBYY Vantage Trigger to see the latest one, or activate the workflow (it polls every minute)
and watch one execution per completed transaction appear under Executions.`
			: ''
	}

Press Ctrl-C here to stop n8n and the simulator.`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
