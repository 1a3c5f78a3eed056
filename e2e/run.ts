/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n, the packed package, the simulator. */
/**
 * The package inside a real n8n: `npm pack` → n8n's community-nodes folder → import the credential
 * and the example workflows → `n8n execute` each → assert on n8n's output, the files written and
 * the simulator's request log. Ends with `N passed, M failed`; exit code 1 if anything failed.
 */
import { readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';

import { FIXTURE, type RouteId, type VantageSimulator } from '../test/simulator/simulator';
import { assert, check, equal, finish } from './lib/checks';
import { sha256File, xlsxRecords } from './lib/files';
import { agentSuite } from './agent';
import { emailInvoicesSuite } from './lib/emailInvoices';
import { errorSuite } from './errors';
import { mcpSuite } from './mcp';
import {
	crashesAtExit,
	FULL_SCOPE,
	TRIGGER_APART,
	hostVersions,
	LINE,
	n8n,
	parseRun,
	runOutput,
	type N8nInstance,
} from './lib/n8n';
import { ATTACHMENTS, INVOICES, NOT_AN_INVOICE, type SampleInvoice } from './lib/samples';
import { CLEANUP_CATALOG, REPORT_FILES, setUp, type Setup } from './lib/setup';
import {
	CATALOG_BEFORE,
	EXPECTED_PLAN,
	normalised,
	recordOf,
	SOURCE_VENDORS,
	SYNC_CATALOG,
	type VendorRecord,
} from './lib/vendors';
import { oauthSuite } from './oauth';
import { pairingSuite } from './pairing';
import { durableWaitSuite } from './durableWait';
import { fileUrlSuite } from './fileUrl';
import { needsReviewSuite } from './needsReview';
import { pushSuite } from './push';
import { qualitySuite } from './quality';
import { triggerSuite } from './trigger';

type Json = Record<string, unknown>;
type Item = { json: Json; binary?: Json; pairedItem?: unknown };

function runError(run: Json | undefined): Json | undefined {
	return ((run?.data as Json)?.resultData as Json)?.error as Json | undefined;
}

async function execute(instance: N8nInstance, workflowId: string, env: NodeJS.ProcessEnv = {}) {
	const result = await n8n({ ...instance, env: { ...instance.env, ...env } }, [
		'execute',
		`--id=${workflowId}`,
		'--rawOutput',
	]);
	return { ...result, run: parseRun(result.stdout) };
}

type Execution = Awaited<ReturnType<typeof execute>>;

function succeeded(execution: Execution): void {
	const error = runError(execution.run);
	assert(
		execution.code === 0 && execution.run?.status === 'success',
		`exit code ${execution.code}, status ${execution.run?.status}${error ? `: ${error.message}` : ''}${execution.run ? '' : `\n${execution.stdout.slice(-2000)}${execution.stderr.slice(-2000)}`}`,
	);
}

/** The file name of the binary an item carries in `data` (as Read/Write Files from Disk sets it). */
function fileNameOf(item: Item): string {
	return String(((item.binary as Record<string, Json> | undefined)?.data ?? {}).fileName);
}

function sample(samples: SampleInvoice[], file: string): SampleInvoice {
	const found = samples.find((s) => s.file === file);
	assert(found, `no sample named ${file}`);
	return found;
}

/** The files of every upload request to `route`, as the simulator hashed them on arrival. */
function uploadedFiles(
	sim: VantageSimulator,
	route: 'LaunchTransaction' | 'AddFilesToTransaction',
) {
	return sim.requestsTo(route).flatMap(
		(r) =>
			(
				r.body as {
					files: Array<{ name: string; size: number; sha256: string; contentType: string }>;
				}
			).files,
	);
}

/** Each upload byte-identical to its file on disk (sha256 and size), and each file once. */
function identicalToDisk(
	uploads: Array<{ name: string; size: number; sha256: string }>,
	folder: string,
	files: string[],
): void {
	equal(uploads.map((u) => u.name).sort(), [...files].sort(), 'files uploaded');
	for (const upload of uploads) {
		const path = join(folder, upload.name);
		equal(
			[upload.size, upload.sha256],
			[readFileSync(path).length, sha256File(path)],
			`size and sha256 of ${upload.name}`,
		);
	}
}

/** The spreadsheet row the invoices example writes for a sample. */
function spreadsheetRow(invoice: SampleInvoice): Record<string, string> {
	const e = invoice.expected;
	return {
		File: invoice.file,
		'Invoice Number': e.InvoiceNumber,
		'Invoice Date': e.InvoiceDate,
		Vendor: e.Vendor.Name,
		'VAT ID': e.Vendor.VatId ?? '',
		Total: String(e.Total),
		Currency: e.Currency ?? '',
		'PO Numbers': e.PONumbers.join(', '),
		Items: e.LineItems.map((l) => `${l.Quantity} × ${l.Description}`).join('; '),
	};
}

const SPREADSHEET_COLUMNS = [
	'File',
	'Invoice Number',
	'Invoice Date',
	'Vendor',
	'VAT ID',
	'Total',
	'Currency',
	'PO Numbers',
	'Items',
	'Transaction ID',
];

/**
 * examples/invoices-to-spreadsheet.json in one binary-data mode: `default` keeps the PDFs in the
 * items (base64), `filesystem` (n8n 2's default) keeps them on disk, so the node streams them.
 */
async function invoicesExample(
	setup: Setup,
	mode: 'default' | 'filesystem',
	spreadsheetBefore?: Array<Record<string, string>>,
): Promise<{ execution: Execution; spreadsheet?: Array<Record<string, string>> }> {
	const { instance, sim, folders } = setup;
	console.log(
		mode === 'default'
			? '\nexamples/invoices-to-spreadsheet.json, binary data in memory (N8N_DEFAULT_BINARY_DATA_MODE=default)'
			: "\nexamples/invoices-to-spreadsheet.json again, binary data on disk (N8N_DEFAULT_BINARY_DATA_MODE=filesystem, n8n 2's default)",
	);
	for (const old of readdirSync(folders.spreadsheets)) rmSync(join(folders.spreadsheets, old));
	sim.clearLog();
	const execution = await execute(instance, 'vaExInvoices1', {
		N8N_DEFAULT_BINARY_DATA_MODE: mode,
	});
	const label = mode === 'default' ? 'memory' : 'filesystem';
	let spreadsheet: Array<Record<string, string>> | undefined;

	await check(
		`[${label}] runs to success; ${mode === 'default' ? 'the PDFs were held in the items (base64)' : 'the PDFs stayed on disk (binary IDs), so the node streamed them'}`,
		() => {
			succeeded(execution);
			const read = runOutput<Item>(execution.run, 'Read invoice PDFs');
			equal(
				read.map(fileNameOf).sort(),
				INVOICES.map((i) => i.file).sort(),
				'files read (*.pdf only)',
			);
			for (const item of read) {
				const binary = (item.binary as Record<string, Json>).data;
				if (mode === 'default') {
					assert(
						typeof binary.data === 'string' && binary.data.length > 20 && !binary.id,
						`in-memory binary: ${JSON.stringify(binary)}`,
					);
				} else {
					assert(String(binary.id).startsWith('filesystem'), `binary id ${binary.id}`);
				}
			}
		},
	);
	await check(
		`[${label}] one item per invoice, with the fields of its own file, paired with it`,
		() => {
			const read = runOutput<Item>(execution.run, 'Read invoice PDFs');
			const items = runOutput<Item>(execution.run, 'Extract invoice data');
			equal(items.length, INVOICES.length, 'items');
			for (const item of items) {
				const paired = (item.pairedItem as { item: number }).item;
				const file = fileNameOf(read[paired]);
				const invoice = sample(INVOICES, file);
				const json = item.json;
				equal(json.fields, invoice.expected, `fields of ${file}`);
				equal(
					[json.status, json.sourceFiles, json.uploadMethod, (json.skill as Json | null)?.id],
					['Processed', [file], 'launch', FIXTURE.documentSkillId],
					`status, source file, upload method, skill of ${file}`,
				);
				assert(
					typeof json.transactionId === 'string' && typeof json.documentId === 'string',
					'ids',
				);
			}
			equal(
				new Set(items.map((i) => i.json.transactionId)).size,
				INVOICES.length,
				'one transaction per file',
			);
		},
	);
	await check(
		`[${label}] one launch per file, and Vantage received each file byte for byte`,
		() => {
			const launches = sim.requestsTo('LaunchTransaction');
			equal(launches.length, INVOICES.length, 'LaunchTransaction requests');
			equal(
				launches.map((r) => [r.status, r.query.skillId]),
				INVOICES.map(() => [201, FIXTURE.documentSkillId]),
				'status and skill of each launch',
			);
			const uploads = uploadedFiles(sim, 'LaunchTransaction');
			identicalToDisk(
				uploads,
				folders.invoices,
				INVOICES.map((i) => i.file),
			);
			assert(!uploads.some((u) => u.name === NOT_AN_INVOICE.file), 'notes.txt was not sent');
			equal(sim.requestsTo('CreateTransaction').length, 0, 'no separate create for single files');
		},
	);
	await check(
		`[${label}] the spreadsheet (.xlsx) on disk: one row per invoice, columns as mapped${spreadsheetBefore ? ', same rows as in memory' : ''}`,
		() => {
			const saved = runOutput<Item>(execution.run, 'Save spreadsheet');
			equal(saved.length, 1, 'files written');
			const path = String(saved[0].json.fileName);
			equal(
				path.startsWith(`${folders.spreadsheets}/invoices-`) && path.endsWith('.xlsx'),
				true,
				`path ${path}`,
			);
			equal(readdirSync(folders.spreadsheets), [basename(path)], 'files in the output folder');
			const { header, records } = xlsxRecords(path);
			equal(header, SPREADSHEET_COLUMNS, 'header');
			const transactions = new Map(
				runOutput<Item>(execution.run, 'Extract invoice data').map((i) => [
					(i.json.sourceFiles as string[])[0],
					i.json.transactionId,
				]),
			);
			const byFile = [...records].sort((a, b) => a.File.localeCompare(b.File));
			equal(
				byFile,
				INVOICES.map((invoice) => ({
					...spreadsheetRow(invoice),
					'Transaction ID': String(transactions.get(invoice.file)),
				})),
				'rows',
			);
			// Transaction IDs differ between runs; everything else must not.
			spreadsheet = byFile.map((row) =>
				Object.fromEntries(Object.entries(row).filter(([column]) => column !== 'Transaction ID')),
			);
			if (spreadsheetBefore) equal(spreadsheet, spreadsheetBefore, 'rows of the in-memory run');
		},
	);
	return { execution, spreadsheet };
}

/** A catalog's records normalised (./lib/vendors.ts) and sorted by id. */
function catalogOf(records: VendorRecord[]): VendorRecord[] {
	return records.map(normalised).sort((a, b) => a.id.localeCompare(b.id));
}

const WRITES: RouteId[] = ['AddRecords', 'DeleteRecords', 'StartCatalogReindex', 'ClearCatalog'];

/** Requests that change a catalog, by route. */
function writes(sim: VantageSimulator): Record<string, number> {
	return Object.fromEntries(WRITES.map((route) => [route, sim.requestsTo(route).length]));
}

const NO_WRITES = Object.fromEntries(WRITES.map((route) => [route, 0]));

/**
 * examples/catalog-sync.json and its e2e variants against the seeded `Vendors` catalog
 * (./lib/vendors.ts): the example as shipped (Dry Run on), the sync applied, the same sync again,
 * a partial source refused, then Catalog Record → Add with a row Vantage rejects.
 */
async function catalogSync(setup: Setup): Promise<Execution[]> {
	const { instance, sim } = setup;
	const expectedCatalog = catalogOf(SOURCE_VENDORS.map(recordOf));

	console.log('\nexamples/catalog-sync.json as shipped: Dry Run on');
	sim.clearLog();
	const dry = await execute(instance, 'vaExSync00001');
	await check(
		'Dry Run outputs the plan (3 to add, 3 to update, 2 to delete, 5 unchanged) with the IDs of each',
		() => {
			succeeded(dry);
			const items = runOutput<Item>(dry.run, 'Sync Vendors catalog');
			equal(items.length, 1, 'items');
			equal(
				items[0].json,
				{
					catalogId: SYNC_CATALOG,
					dryRun: true,
					sourceRecords: 11,
					duplicatesRemoved: { count: 0, ids: [], items: [] },
					currentRecords: 10,
					toAdd: 3,
					toUpdate: 3,
					toDelete: 2,
					unchanged: 5,
					deleteLimitExceeded: false,
					plan: {
						add: EXPECTED_PLAN.add,
						update: EXPECTED_PLAN.update,
						delete: EXPECTED_PLAN.delete,
						idsListedPerAction: 100,
					},
				},
				'summary',
			);
			equal(
				items[0].pairedItem,
				SOURCE_VENDORS.map((_, item) => ({ item })),
				'pairedItem',
			);
			equal(
				runOutput<Item>(dry.run, 'Sync summary')[0].json,
				{
					Catalog: SYNC_CATALOG,
					Summary:
						'Dry run, nothing changed: would add 3, update 3, delete 2, 5 unchanged (11 vendors in the export, 10 records in the catalog before)',
					Failed: 0,
					Index: 'Not reindexed (dry run)',
				},
				'readable summary',
			);
		},
	);
	await check(
		'Dry Run writes nothing: no add, delete, reindex or clear request; the catalog is as seeded',
		() => {
			equal(writes(sim), NO_WRITES, 'write requests');
			assert(sim.requestsTo('GetRecords').length >= 1, 'the catalog was read');
			equal(sim.catalogRecords(SYNC_CATALOG), CATALOG_BEFORE, 'records (ids, fields, order)');
		},
	);

	// The rest is Sync's own logic, the same in any n8n: the 1.x lines stop at the dry run.
	if (!FULL_SCOPE) return [dry];

	console.log(
		'\nexamples/catalog-sync.json with Dry Run off (e2e/workflows/catalog-sync-apply.json)',
	);
	sim.clearLog();
	const first = await execute(instance, 'vaE2eSyncApp1');
	await check(
		'runs to success: one summary with exact counts (3 added, 3 updated, 2 deleted, 5 unchanged, 0 failed)',
		() => {
			succeeded(first);
			const parsed = runOutput<Item>(first.run, 'Parse CSV');
			equal(
				parsed.map((i) => i.json),
				// Extract from File leaves an empty cell out of its row.
				SOURCE_VENDORS.map((v) =>
					Object.fromEntries(Object.entries(v).filter(([, value]) => value !== '')),
				),
				'rows of the vendor export (quotes, commas, umlauts intact)',
			);
			const items = runOutput<Item>(first.run, 'Sync Vendors catalog');
			equal(items.length, 1, 'items');
			const { reindex, ...json } = items[0].json;
			equal(
				json,
				{
					catalogId: SYNC_CATALOG,
					dryRun: false,
					sourceRecords: 11,
					duplicatesRemoved: { count: 0, ids: [], items: [] },
					currentRecords: 10,
					toAdd: 3,
					toUpdate: 3,
					toDelete: 2,
					unchanged: 5,
					added: 3,
					updated: 3,
					deleted: 2,
					failed: 0,
					failures: [],
					failedBatches: [],
				},
				'summary',
			);
			assert(reindex, 'a reindex in the summary');
			equal(
				runOutput<Item>(first.run, 'Sync summary')[0].json,
				{
					Catalog: SYNC_CATALOG,
					Summary:
						'Added 3, updated 3, deleted 2, 5 unchanged (11 vendors in the export, 10 records in the catalog before)',
					Failed: 0,
					Index: 'Reindex Completed',
				},
				'readable summary',
			);
		},
	);
	await check('afterwards the catalog equals the export: the same IDs with the same fields', () => {
		equal(catalogOf(sim.catalogRecords(SYNC_CATALOG)), expectedCatalog, 'records');
	});
	await check(
		'the add and delete requests held only what changed: 3 updated + 3 new records, 2 removed IDs',
		() => {
			const added = sim.requestsTo('AddRecords').flatMap((r) => r.body as VendorRecord[]);
			const byId = new Map(SOURCE_VENDORS.map((v) => [v.VendorNo, recordOf(v)]));
			equal(
				added,
				[...EXPECTED_PLAN.update, ...EXPECTED_PLAN.add].map((id) => byId.get(id)),
				'AddRecords bodies',
			);
			equal(
				sim.requestsTo('DeleteRecords').map((r) => r.body),
				[EXPECTED_PLAN.delete],
				'DeleteRecords bodies',
			);
			equal(
				sim.requestsTo('DeleteRecords').map((r) => r.params.catalogId),
				[SYNC_CATALOG],
				'catalog',
			);
		},
	);
	await check(
		'Reindex After Sync started one reindex after the writes and waited until it completed',
		() => {
			const reindex = runOutput<Item>(first.run, 'Sync Vendors catalog')[0].json.reindex as Json;
			equal([reindex.catalogId, reindex.currentState], [SYNC_CATALOG, 'Completed'], 'reindex');
			const started = sim.requestsTo('StartCatalogReindex');
			equal(started.length, 1, 'reindexes started');
			const lastWrite = Math.max(
				...sim.requestsTo('AddRecords').map((r) => r.seq),
				...sim.requestsTo('DeleteRecords').map((r) => r.seq),
			);
			assert(started[0].seq > lastWrite, 'the reindex started after the last write');
			const polls = sim.requestsTo('GetReindexOperation');
			assert(polls.length >= 1, 'the reindex was polled');
			equal(
				polls.map((r) => r.params.operationId),
				polls.map(() => reindex.operationId),
				'polled operation',
			);
		},
	);

	console.log('\nthe same sync again, nothing changed in the export');
	sim.clearLog();
	const again = await execute(instance, 'vaE2eSyncApp1');
	await check(
		'the second run changes nothing: 0 to add, update or delete, 11 unchanged, no write requests, no reindex',
		() => {
			succeeded(again);
			const json = runOutput<Item>(again.run, 'Sync Vendors catalog')[0].json;
			equal(
				[
					json.currentRecords,
					json.toAdd,
					json.toUpdate,
					json.toDelete,
					json.unchanged,
					json.reindex,
				],
				[11, 0, 0, 0, 11, undefined],
				'counts and reindex',
			);
			equal(writes(sim), NO_WRITES, 'write requests');
			equal(
				runOutput<Item>(again.run, 'Sync summary')[0].json.Index,
				'Not reindexed (nothing changed)',
				'readable summary',
			);
			equal(catalogOf(sim.catalogRecords(SYNC_CATALOG)), expectedCatalog, 'records');
		},
	);

	console.log('\na partial source (e2e/workflows/catalog-sync-partial-source.json)');
	sim.clearLog();
	const partial = await execute(instance, 'vaE2eSyncPart');
	await check(
		'a source missing 8 of 11 vendors is refused by Max Share to Delete with a readable error; nothing is written',
		() => {
			assert(partial.code !== 0, 'exit code');
			const error = runError(partial.run);
			equal(
				error?.message,
				'Sync would delete 8 of the 11 records in catalog "Vendors" (73 %), more than Max Share to Delete (50 %) [item 0]',
				'message',
			);
			assert(
				String(error?.description).includes('raise Max Share to Delete'),
				`description: ${error?.description}`,
			);
			equal(writes(sim), NO_WRITES, 'write requests');
			equal(catalogOf(sim.catalogRecords(SYNC_CATALOG)), expectedCatalog, 'records');
		},
	);

	console.log(
		'\nCatalog Record → Add, a row Vantage rejects (e2e/workflows/catalog-add-rejected*.json)',
	);
	sim.addCatalog('Suppliers');
	sim.clearLog();
	const addContinue = await execute(instance, 'vaE2eAddRej01');
	await check(
		'with Continue On Fail: the empty-Name row is failed with "CannotBeEmpty Column: Name", the others are added; the field that is no column is named as ignored',
		() => {
			succeeded(addContinue);
			const items = runOutput<Item>(addContinue.run, 'Add suppliers');
			equal(
				items.map((i) => [i.json, i.pairedItem]),
				[
					[
						{
							catalogId: 'Suppliers',
							id: 'S-1',
							status: 'added',
							fields: { Name: ['Northwind Traders'], Country: ['US'] },
							ignoredFields: ['buyer'],
						},
						{ item: 0 },
					],
					[
						{
							catalogId: 'Suppliers',
							id: 'S-2',
							status: 'failed',
							reasons: ['CannotBeEmpty Column: Name'],
							error: 'CannotBeEmpty Column: Name',
							ignoredFields: ['buyer'],
						},
						{ item: 1 },
					],
					[
						{
							catalogId: 'Suppliers',
							id: 'S-3',
							status: 'added',
							fields: { Name: ['Contoso Ltd'], Country: [] },
							ignoredFields: ['buyer'],
						},
						{ item: 2 },
					],
				],
				'items and pairing',
			);
		},
	);
	await check(
		'auto-mapped: one AddRecords request with the three rows and only the catalog’s columns; Vantage holds the two good ones',
		() => {
			equal(
				sim.requestsTo('AddRecords').map((r) => r.body),
				[
					[
						{ id: 'S-1', fields: { Name: ['Northwind Traders'], Country: ['US'] } },
						{ id: 'S-2', fields: { Name: [], Country: ['DE'] } },
						{ id: 'S-3', fields: { Name: ['Contoso Ltd'], Country: [] } },
					],
				],
				'AddRecords bodies',
			);
			equal(
				catalogOf(sim.catalogRecords('Suppliers')),
				[
					{ id: 'S-1', fields: { Country: ['US'], Name: ['Northwind Traders'] } },
					{ id: 'S-3', fields: { Name: ['Contoso Ltd'] } },
				],
				'records',
			);
		},
	);
	sim.addCatalog('Suppliers');
	sim.clearLog();
	const addStop = await execute(instance, 'vaE2eAddRej02');
	await check(
		'without Continue On Fail the run stops with an error naming the rejected row and its reason; the others are added',
		() => {
			assert(addStop.code !== 0, 'exit code');
			equal(
				runError(addStop.run)?.message,
				'Added 2 of 3 records to catalog "Suppliers"; 1 failed, e.g. "S-2": CannotBeEmpty Column: Name [item 1]',
				'message',
			);
			equal(sim.recordIds('Suppliers'), ['S-1', 'S-3'], 'records');
		},
	);
	return [dry, first, again, partial, addContinue, addStop];
}

/**
 * Several attachments of one e-mail, several items in one Process-skill transaction, and a wait
 * that stops at Manual Review (n8n 2.x only: the node's own logic, the same inside any n8n).
 */
async function severalFilesAndReview(setup: Setup): Promise<Execution[]> {
	const { instance, sim, folders } = setup;
	console.log('\nexamples/email-attachments.json');
	sim.clearLog();
	const email = await execute(instance, 'vaExEmail0001');
	await check('the manual path runs to success; the disabled e-mail trigger does not run', () => {
		succeeded(email);
		const runData = ((email.run?.data as Json).resultData as Json).runData as Json;
		assert(!('New e-mail' in runData), 'the e-mail trigger ran');
		const joined = runOutput<Item>(email.run, 'One e-mail, several files');
		equal(joined.length, 1, 'one item holding the attachments');
		equal(Object.keys(joined[0].binary ?? {}).length, ATTACHMENTS.length, 'binary fields');
	});
	await check(
		'all attachments in one Process-skill transaction: two documents per file, readable summary',
		() => {
			const items = runOutput<Item>(email.run, 'Process attachments');
			equal(items.length, ATTACHMENTS.length * 2, 'documents');
			equal(new Set(items.map((i) => i.json.transactionId)).size, 1, 'transactions');
			equal(
				items.map((i) => i.pairedItem),
				items.map(() => ({ item: 0 })),
				'pairedItem',
			);
			const order = runOutput<Item>(email.run, 'One e-mail, several files')[0].json
				.attachments as string[];
			const expected = order.flatMap((file) => {
				const { expected: e } = sample(ATTACHMENTS, file);
				return [e, { ...e, InvoiceNumber: `${e.InvoiceNumber}-2` }];
			});
			equal(
				items.map((i) => i.json.fields),
				expected,
				'fields per document',
			);
			equal(
				runOutput<Item>(email.run, 'Invoice summary').map((i) => i.json),
				items.map((item, index) => ({
					'Invoice Number': expected[index].InvoiceNumber,
					Total: `${expected[index].Total} ${expected[index].Currency}`,
					Vendor: expected[index].Vendor.Name,
					Class: 'Invoice',
					'Transaction ID': item.json.transactionId,
				})),
				'summary',
			);
		},
	);
	await check(
		'the simulator got one create (with the registration parameter), one upload of both files, one start',
		() => {
			equal(sim.requestsTo('LaunchTransaction').length, 0, 'launches');
			const created = sim.requestsTo('CreateTransaction');
			equal(
				created.map((r) => r.body),
				[
					{
						skillId: FIXTURE.processSkillId,
						registrationParameters: [{ key: 'Source', value: 'e-mail' }],
					},
				],
				'create body',
			);
			equal(sim.requestsTo('AddFilesToTransaction').length, 1, 'upload requests');
			identicalToDisk(
				uploadedFiles(sim, 'AddFilesToTransaction'),
				folders.attachments,
				ATTACHMENTS.map((a) => a.file),
			);
			equal(sim.requestsTo('StartTransaction').length, 1, 'starts');
		},
	);

	console.log('\nProcess skill, several input items in one transaction');
	sim.clearLog();
	const combined = await execute(instance, 'vaE2eProc001');
	await check(
		'one item per document (two per file), each paired with the input item its file came from',
		() => {
			succeeded(combined);
			const read = runOutput<Item>(combined.run, 'Read files');
			const items = runOutput<Item>(combined.run, 'Process together');
			equal(items.length, INVOICES.length * 2, 'documents');
			const expected = read.flatMap((item) => {
				const { expected: e } = sample(INVOICES, fileNameOf(item));
				return [e.InvoiceNumber, `${e.InvoiceNumber}-2`];
			});
			equal(
				items.map((i) => (i.json.fields as Json).InvoiceNumber),
				expected,
				'invoice numbers in upload order',
			);
			equal(
				items.map((i) => [i.pairedItem, i.json.sourceFiles]),
				read.flatMap((item, index) => [
					[{ item: index }, [fileNameOf(item)]],
					[{ item: index }, [fileNameOf(item)]],
				]),
				'pairedItem and source files of each document',
			);
			equal(new Set(items.map((i) => i.json.transactionId)).size, 1, 'transactions');
			equal(new Set(items.map((i) => i.json.documentId)).size, items.length, 'distinct documents');
			equal(
				[...new Set(items.map((i) => i.json.uploadMethod))],
				['separateCalls'],
				'upload method',
			);
		},
	);
	await check('create, one upload of all files (byte-identical), start', () => {
		equal(
			(
				[
					'CreateTransaction',
					'AddFilesToTransaction',
					'StartTransaction',
					'LaunchTransaction',
				] as RouteId[]
			).map((route) => sim.requestsTo(route).length),
			[1, 1, 1, 0],
			'requests',
		);
		identicalToDisk(
			uploadedFiles(sim, 'AddFilesToTransaction'),
			folders.invoices,
			INVOICES.map((i) => i.file),
		);
	});

	console.log('\nmanual review');
	sim.clearLog();
	sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 1000 } });
	const review = await execute(instance, 'vaE2eRevw001');
	await check(
		'On Manual Review = output: one item with the transaction ID and the review link',
		() => {
			succeeded(review);
			const items = runOutput<Item>(review.run, 'Process until review');
			equal(items.length, 1, 'items');
			const json = items[0].json;
			const id = String(json.transactionId);
			const tx = sim.transaction(id);
			assert(tx, `transaction ${id} exists`);
			equal(
				[json.status, json.waitingForManualReview, json.manualReviewLink, items[0].pairedItem],
				['Processing', true, tx.manualReviewLink, { item: 0 }],
				'item',
			);
			assert(String(json.manualReviewLink).includes(id), `link ${json.manualReviewLink}`);
			equal(tx.status, 'Processing', 'the transaction still waits for review');
			equal(sim.requestsTo('GetTransactionInfo').length, 1, 'polls');
			equal(sim.requestsTo('DownloadFile').length, 0, 'no results read');
		},
	);
	return [email, combined, review];
}

async function main(): Promise<void> {
	const started = Date.now();
	const setup = await setUp({ includeE2eWorkflows: true });
	const { instance, sim, transactionId } = setup;
	console.log(
		`\n[e2e] ${hostVersions().label}${FULL_SCOPE ? '' : ': the checks that differ between n8n versions (E2E_SCOPE=full runs all)'}`,
	);

	console.log('\nexamples/catalog-cleanup.json');
	const cleanup = await execute(instance, 'vaExCleanup01');
	await check('runs to success inside n8n', () => {
		equal(cleanup.code, 0, 'exit code');
		equal(cleanup.run?.status, 'success', 'status');
	});
	await check(
		'one summary item: 12 600 IDs requested, 12 200 unique, 400 duplicates, all deleted',
		() => {
			const items = runOutput<Item>(cleanup.run, 'Delete stale vendors');
			equal(items.length, 1, 'items');
			const json = items[0].json;
			equal(
				[json.idsRequested, json.uniqueIdsSent, json.batchesSent, json.idsDeleted, json.idsFailed],
				[12600, 12200, 3, 12200, 0],
				'summary',
			);
			// Items 1 and 2 repeat 200 IDs each of the item before: the first 100 are listed.
			const listed = Array.from({ length: 100 }, (_, i) => `vendor-${4000 + i}`);
			equal(
				json.duplicatesRemoved,
				{ count: 400, ids: listed, items: listed.map((id) => ({ item: 1, id, keptItem: 0 })) },
				'duplicatesRemoved',
			);
			equal(items[0].pairedItem, [{ item: 0 }, { item: 1 }, { item: 2 }], 'pairedItem');
		},
	);
	await check(
		'the simulator got ceil(12 200 / 5000) = 3 delete requests holding every ID once',
		() => {
			const bodies = sim.requestsTo('DeleteRecords').map((r) => r.body as string[]);
			equal(
				bodies.map((b) => b.length),
				[5000, 5000, 2200],
				'batch sizes',
			);
			equal(new Set(bodies.flat()).size, 12200, 'unique IDs sent');
			equal(
				sim.requestsTo('DeleteRecords')[0].params.catalogId,
				CLEANUP_CATALOG,
				'catalog as one segment',
			);
			equal(
				sim.recordIds(CLEANUP_CATALOG),
				['vendor-12200', ...Array.from({ length: 199 }, (_, i) => `vendor-${12201 + i}`)],
				'records left',
			);
		},
	);
	await check('reindex after delete was started and waited for', () => {
		const reindex = runOutput<Item>(cleanup.run, 'Delete stale vendors')[0].json.reindex as Json;
		equal(reindex.currentState, 'Completed', 'reindex state');
		assert(sim.requestsTo('GetReindexOperation').length >= 1, 'reindex polled');
	});
	await check(
		'the token came from the credential’s preAuthentication (form-encoded password grant)',
		() => {
			const tokens = sim.requestsTo('Token');
			equal(tokens.length, 1, 'token requests');
			equal(tokens[0].headers['content-type'], 'application/x-www-form-urlencoded', 'content type');
			equal((tokens[0].body as Json).grant_type, 'password', 'grant type');
		},
	);

	console.log('\nexamples/report-to-files.json');
	const report = await execute(instance, 'vaExReport001');
	await check('create → wait → download runs to success', () => {
		equal(report.code, 0, 'exit code');
		equal(report.run?.status, 'success', 'status');
		const waited = runOutput<Item>(report.run, 'Wait for export')[0].json;
		equal(
			[waited.status, waited.totalFileCount, waited.fileIndexes],
			['Succeeded', 2, [0, 1]],
			'wait output',
		);
	});
	await check('the export was created with UTC date-times for the last seven days', () => {
		const body = sim.requestsTo('CreateTransactionStepsExportRequest')[0].body as Json;
		const filters = body.filters as Json;
		assert(
			/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(String(filters.startDate)),
			`startDate ${filters.startDate}`,
		);
		const days =
			(Date.parse(String(filters.endDate)) - Date.parse(String(filters.startDate))) / 86400000;
		assert(days > 6.9 && days < 7.1, `range ${days} days`);
	});
	await check('two binary CSV items, written to disk with exactly the bytes served', () => {
		const items = runOutput<Item>(report.run, 'Download CSV files');
		equal(items.length, 2, 'items');
		const requestId = sim.exportIds()[0];
		const expected = REPORT_FILES;
		items.forEach((item, index) => {
			const binary = (item.binary as Record<string, Json>).data;
			equal(
				[binary.fileName, binary.mimeType],
				[`export-${requestId}-${index}.csv`, 'text/csv'],
				'binary metadata',
			);
			const file = join(instance.filesDir, `export-${requestId}-${index}.csv`);
			assert(existsSync(file), `${file} written`);
			equal(readFileSync(file, 'utf8'), expected[index], `bytes of file ${index}`);
		});
	});
	await check('the second execution reused the stored token', () => {
		equal(sim.requestsTo('Token').length, 1, 'token requests over two executions');
	});

	console.log('\nexamples/add-document.json');
	const added = await execute(instance, 'vaExDocument1');
	await check('the document was added with exactly the configured fields', () => {
		equal(added.run?.status, 'success', 'status');
		const json = runOutput<Item>(added.run, 'Add document')[0].json;
		equal(json.transactionId, transactionId, 'transaction id');
		equal(
			sim.requestsTo('CreateTransactionDocument')[0].body,
			{
				index: 0,
				imageProcessingOptions: { autoCrop: 'Yes', autoOrientation: 'Default' },
			},
			'request body',
		);
		equal(
			sim.transaction(transactionId)?.documents.map((d) => d.id),
			[json.documentId],
			'stored document',
		);
	});

	console.log('\ntoken expiry');
	sim.revokeTokens();
	sim.clearLog();
	const refreshed = await execute(instance, 'vaExDocument1');
	await check('a revoked token → 401 → one refresh through preAuthentication → success', () => {
		equal(refreshed.run?.status, 'success', 'status');
		equal(
			sim.requests.map((r) => `${r.route}:${r.status}`),
			['CreateTransactionDocument:401', 'Token:200', 'CreateTransactionDocument:201'],
			'requests',
		);
	});

	const catalogRuns = await catalogSync(setup);

	const inMemory = await invoicesExample(setup, 'default');
	const onDisk = await invoicesExample(setup, 'filesystem', inMemory.spreadsheet);

	// Several files per item, one transaction for many items, manual review: the node's own logic.
	const logic = FULL_SCOPE ? await severalFilesAndReview(setup) : [];
	// E-mail attachments to a spreadsheet: as shipped on every line, through Dovecot on n8n 2.x.
	await emailInvoicesSuite(setup);

	console.log('\nfailures');
	sim.scriptNextExport({ path: ['Processing', 'Failed'] });
	const failing = await execute(instance, 'vaE2eFail001');
	await check('a failing export stops the workflow with a readable error', () => {
		assert(failing.code !== 0, 'exit code');
		assert(runError(failing.run), 'an error is recorded');
		const error = runError(failing.run);
		assert(
			/^Export [0-9a-f-]{36} ended with status Failed \(correlation ID [0-9a-f-]{36}\) \[item 0\]$/.test(
				String(error?.message),
			),
			`message: ${error?.message}`,
		);
	});
	sim.scriptNextExport({ path: ['Processing', 'Failed'] });
	const failingContinue = await execute(instance, 'vaE2eFail002');
	await check(
		'with Continue On Fail the error item carries status, correlation ID and pairedItem',
		() => {
			equal(failingContinue.run?.status, 'success', 'status');
			const [item] = runOutput<Item>(failingContinue.run, 'Wait for export');
			equal(
				[item.json.status, typeof item.json.correlationId, item.pairedItem],
				['Failed', 'string', { item: 0 }],
				'error item',
			);
			assert(
				String(item.json.error).includes('ended with status Failed'),
				`error ${item.json.error}`,
			);
		},
	);
	sim.clearLog();
	const bad = await execute(instance, 'vaE2eBad0001');
	await check(
		'bad record IDs give a readable error naming the field, the position and the item, and send nothing',
		() => {
			assert(bad.code !== 0, 'exit code');
			equal(
				runError(bad.run)?.message,
				'Input Field "recordIds": the ID at position 1 is only whitespace ("   ") [item 1]',
				'message',
			);
			equal(sim.requestsTo('DeleteRecords').length, 0, 'delete requests');
		},
	);
	const badContinue = await execute(instance, 'vaE2eBad0002');
	await check(
		'with Continue On Fail, the bad item is an error item paired with its input; the good one is deleted',
		() => {
			equal(badContinue.run?.status, 'success', 'status');
			const items = runOutput<Item>(badContinue.run, 'Delete records');
			equal(
				items.map((i) => i.pairedItem),
				[{ item: 0 }, { item: 1 }],
				'pairing',
			);
			equal(items[0].json.idsDeleted, 2, 'first item deleted');
			assert(
				String(items[1].json.error).includes('position 1 is only whitespace'),
				`error ${items[1].json.error}`,
			);
		},
	);

	console.log('\nsecrets');
	await check(
		'no password, client secret or token in the stored executions or the CLI output',
		() => {
			const secrets = [FIXTURE.password, FIXTURE.clientSecret, ...sim.issuedTokens()];
			const dbDir = join(instance.userFolder, '.n8n');
			const stored = readdirSync(dbDir)
				.filter((f) => f.startsWith('database.sqlite'))
				.map((f) => readFileSync(join(dbDir, f)).toString('latin1'))
				.join('\n');
			assert(stored.includes('vaE2eBad0002'), 'executions were stored');
			const outputs = [
				cleanup,
				report,
				added,
				refreshed,
				inMemory.execution,
				onDisk.execution,
				...logic,
				failing,
				failingContinue,
				bad,
				badContinue,
				...catalogRuns,
			]
				.map((r) => r.stdout + r.stderr)
				.join('\n');
			for (const secret of secrets) {
				assert(!stored.includes(secret), `a secret (${secret.slice(0, 3)}…) is in the database`);
				assert(!outputs.includes(secret), `a secret (${secret.slice(0, 3)}…) is in the CLI output`);
			}
		},
	);

	await errorSuite(setup);
	// The node as a tool of n8n's AI Agent on n8n 2.x and 1.123 (n8n 1.85's n8n-workflow knows no
	// `@tool`: there n8n describes the tool itself, docs/ai-agents.md); over the MCP Server Trigger
	// on n8n 2.x.
	if (LINE.id !== '1.85') await agentSuite(setup);
	if (LINE.id === '2') await mcpSuite(setup);
	await qualitySuite(setup);
	// Needs Review's second output: the outputs are an expression each line resolves (./needsReview.ts).
	await needsReviewSuite(setup);
	// File URL refuses internal addresses: the package's own check, the same on every line (./fileUrl.ts).
	await fileUrlSuite(setup);
	// Process Document waiting for Manual Review in n8n's database, across restarts (./durableWait.ts).
	await durableWaitSuite(setup);
	// Pairing is computed by the node from Vantage's answers, the same inside any n8n: n8n 2.x only.
	if (FULL_SCOPE) await pairingSuite(setup);
	// The trigger inside n8n started as a server, on the same user folder (./trigger.ts); CI runs
	// it apart, beside the rest (E2E_TRIGGER=apart here, `npm run test:e2e:trigger` there). The
	// Instant Trigger's basics (./push.ts) run in the trigger suite's n8n, or, when that suite runs
	// apart, in an n8n of their own.
	if (TRIGGER_APART) {
		console.log('\n[e2e] the trigger suite runs apart: npm run test:e2e:trigger');
		await pushSuite(setup);
	} else await triggerSuite(setup, { pushBasics: true });
	// Last: it expires every token and revokes the refresh tokens on the simulator (./oauth.ts).
	await oauthSuite(setup);

	await sim.stop();
	await setup.model.stop();
	console.log(`\n[e2e] finished in ${Math.round((Date.now() - started) / 1000)} s`);
	if (crashesAtExit.length)
		console.log(
			`[e2e] n8n crashed (SIGSEGV) after printing its run in ${crashesAtExit.length} of its executions: ${crashesAtExit.join('; ')}`,
		);
	finish();
}

main().catch((error) => {
	console.error(error);
	finish(1);
});
