/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end infrastructure, never shipped. */
/**
 * One set-up shared by the e2e suite and the demo: pack the package, give a fresh n8n user folder
 * the tarball, start the simulator with the data the examples expect, write the sample documents
 * and the vendor export (./samples.ts, ./vendors.ts), import the credential and the workflows
 * (parameterised for this run: the examples' folders become folders of this run's files folder).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import {
	FIXTURE,
	fixtureCredentialData,
	sampleCsv,
	VantageSimulator,
} from '../../test/simulator/simulator';
import { seedQualityWeek } from '../../test/simulator/qualitykit';
import {
	ensureHost,
	freshInstance,
	importCredentials,
	n8n,
	packPackage,
	ROOT,
	RUN_DIR,
	writeJson,
	type N8nInstance,
} from './n8n';
import {
	APPROVED_VENDOR_COLUMNS,
	APPROVED_VENDOR_RECORDS,
	APPROVED_VENDORS,
	INVOICE_SCENARIO,
	OPENAI_CREDENTIAL,
	SCRIPTED_MODEL_API_KEY,
} from './agents';
import { finish } from './checks';
import { ScriptedModel } from './openai';
import { EXAMPLE_FOLDERS, writeSamples, type SampleFolder } from './samples';
import { CATALOG_BEFORE, SYNC_CATALOG } from './vendors';

export const PACKAGE = 'n8n-nodes-abbyy-vantage';
export const CREDENTIAL = { id: 'vaCred000001', name: 'ABBYY Vantage account' };
export const CLEANUP_CATALOG = 'Vendors / EU 2026';
/** The transaction id the add-document example carries; replaced by a simulator transaction. */
const EXAMPLE_TRANSACTION_ID = '00000000-0000-4000-8000-000000000000';
/** Where the report example writes its CSV files; replaced by the run's files folder. */
const EXAMPLE_OUTPUT_DIR = '/tmp/vantage-reports/';

export const REPORT_FILES = [
	sampleCsv(3, 'week'),
	'SkillId,Status\r\nInvoices,FinishedSuccessfully\r\nÄrzte,Zürich ✓\r\n',
];

export interface Setup {
	instance: N8nInstance;
	sim: VantageSimulator;
	/** The model behind n8n's OpenAI Chat Model (the OpenAI credential's Base URL): a script. */
	model: ScriptedModel;
	transactionId: string;
	/** The run's folders standing in for the examples' input and output folders. */
	folders: Record<SampleFolder, string>;
	/** Workflow files imported, by id. */
	workflows: Array<{ id: string; name: string; file: string }>;
}

function pack(): string {
	console.log('[e2e] building and packing the package');
	return packPackage(RUN_DIR);
}

export async function setUp(options: {
	includeE2eWorkflows: boolean;
	simulatorPort?: number;
}): Promise<Setup> {
	await ensureHost();
	const instance = await freshInstance(pack(), PACKAGE);

	const sim = new VantageSimulator({ port: options.simulatorPort ?? 0 });
	await sim.start();
	console.log(`[e2e] simulator on ${sim.url}; n8n user folder ${instance.userFolder}`);
	sim.addCatalog(CLEANUP_CATALOG);
	sim.seedRecords(
		CLEANUP_CATALOG,
		Array.from({ length: 12400 }, (_, i) => `vendor-${i}`),
	);
	// The catalog-sync example's Vendors: added, changed, removed and unchanged vendors mixed.
	sim.seedCatalogRecords(SYNC_CATALOG, CATALOG_BEFORE);
	sim.setDefaultExportScript({ path: ['Queued', 'Processing', 'Succeeded'], files: REPORT_FILES });
	// The quality digest example's week of a Process skill (QA reports).
	seedQualityWeek(sim);
	// The AI-agent example looks vendors up here by VAT ID.
	sim.addCatalog(APPROVED_VENDORS, APPROVED_VENDOR_COLUMNS);
	sim.seedCatalogRecords(APPROVED_VENDORS, APPROVED_VENDOR_RECORDS);
	const model = new ScriptedModel({ invoice: INVOICE_SCENARIO }, 'invoice');
	await model.start();
	const transactionId = sim.createTransaction(FIXTURE.processSkillId);
	const folders = writeSamples(instance.filesDir);

	await importCredentials(instance, join(RUN_DIR, 'credentials.json'), [
		{
			...CREDENTIAL,
			type: 'abbyyVantageApi',
			data: fixtureCredentialData(sim.url),
		},
		{
			...OPENAI_CREDENTIAL,
			type: 'openAiApi',
			data: { apiKey: SCRIPTED_MODEL_API_KEY, url: model.baseUrl },
		},
	]);

	const dir = join(RUN_DIR, 'workflows');
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const workflowFolders = options.includeE2eWorkflows
		? ['examples', join('e2e', 'workflows')]
		: ['examples'];
	const workflows: Setup['workflows'] = [];
	const replacements: Array<[string, string]> = [
		[EXAMPLE_OUTPUT_DIR, `${instance.filesDir}/`],
		[EXAMPLE_TRANSACTION_ID, transactionId],
		...(Object.keys(EXAMPLE_FOLDERS) as SampleFolder[]).map((key): [string, string] => [
			EXAMPLE_FOLDERS[key],
			`${folders[key]}/`,
		]),
	];
	for (const folder of workflowFolders) {
		for (const file of readdirSync(join(ROOT, folder)).filter((f) => f.endsWith('.json'))) {
			const workflow = JSON.parse(readFileSync(join(ROOT, folder, file), 'utf8')) as {
				id: string;
				name: string;
				nodes: Array<{ type: string; parameters: unknown }>;
			};
			// Parameters point at this run's folders; sticky notes keep the folders the example names.
			for (const node of workflow.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')) {
				let text = JSON.stringify(node.parameters);
				for (const [from, to] of replacements) text = text.split(from).join(to);
				node.parameters = JSON.parse(text);
			}
			writeJson(join(dir, file), workflow);
			workflows.push({ id: workflow.id, name: workflow.name, file: join(folder, file) });
		}
	}
	const imported = await n8n(instance, ['import:workflow', '--separate', `--input=${dir}`]);
	if (imported.code !== 0)
		throw new Error(`import:workflow failed:\n${imported.stdout}${imported.stderr}`);
	console.log(`[e2e] imported the credential and ${workflows.length} workflows`);
	return { instance, sim, model, transactionId, folders, workflows };
}

/**
 * Run one suite alone (`npx ts-node --transpile-only --prefer-ts-exts e2e/<suite>.ts`): set up,
 * run, stop the simulator, print the closing line; a crash counts as a failure.
 */
export function runAlone(
	suite: (setup: Setup) => Promise<void>,
	options: { includeE2eWorkflows: boolean },
): void {
	void (async () => {
		let setup: Setup | undefined;
		try {
			setup = await setUp(options);
			await suite(setup);
		} catch (error) {
			console.error(error);
			await setup?.sim.stop();
			await setup?.model.stop();
			finish(1);
		}
		await setup!.sim.stop();
		await setup!.model.stop();
		finish();
	})();
}
