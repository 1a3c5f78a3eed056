/* eslint-disable no-console -- a command-line demo */
/**
 * Runs every operation of the ABBYY Vantage node through n8n's execution engine (n8n-core)
 * against the bundled simulator, and prints what each one output. No account or network needed.
 */
import { runNode, simulatorCredentials, type RunResult } from '../test/harness/n8n';
import { FIXTURE, VantageSimulator } from '../test/simulator/simulator';

function show(title: string, result: RunResult): void {
	console.log(
		`\n### ${title}: ${result.status}${result.error ? ` — ${result.error.message}` : ''}`,
	);
	for (const item of result.items) {
		const binary = item.binary
			? ` + binary ${Object.entries(item.binary)
					.map(([k, b]) => `${k}=${b.fileName} (${b.mimeType})`)
					.join(', ')}`
			: '';
		console.log(`  ${JSON.stringify(item.json)}${binary}`);
	}
}

async function main(): Promise<void> {
	const sim = new VantageSimulator();
	await sim.start();
	const credentials = simulatorCredentials(sim);
	console.log(`ABBYY Vantage simulator on ${sim.url}`);

	sim.scriptNextExport({
		path: ['Processing', 'Succeeded'],
		files: [
			'SkillId,Status\r\ninvoices,FinishedSuccessfully\r\n',
			'SkillId,Status\r\nreceipts,FinishedSuccessfully\r\n',
		],
	});
	const created = await runNode({
		credentials,
		parameters: {
			resource: 'report',
			operation: 'createExport',
			startDate: '2026-11-01T00:00:00Z',
		},
	});
	show('Report → Create Export', created);
	const requestId = created.items[0].json.requestId as string;
	show(
		'Report → Wait For Export',
		await runNode({
			credentials,
			parameters: {
				resource: 'report',
				operation: 'waitForExport',
				requestId,
				options: { pollInterval: 1 },
			},
		}),
	);
	show(
		'Report → Download Export Files',
		await runNode({
			credentials,
			parameters: { resource: 'report', operation: 'downloadExportFiles', requestId },
		}),
	);

	const transactionId = sim.createTransaction(FIXTURE.processSkillId);
	show(
		'Transaction Document → Add',
		await runNode({
			credentials,
			parameters: {
				resource: 'transactionDocument',
				operation: 'add',
				transactionId,
				additionalFields: { index: 0, autoCrop: 'Yes' },
			},
		}),
	);

	const catalog = 'Vendors / EU 2026';
	sim.addCatalog(catalog);
	sim.seedRecords(
		catalog,
		Array.from({ length: 12345 }, (_, i) => `vendor-${i}`),
	);
	show(
		'Catalog → Delete Records (12 345 IDs over 3 items, aggregated)',
		await runNode({
			credentials,
			items: [0, 1, 2].map((part) => ({
				ids: Array.from({ length: 4115 }, (_, i) => `vendor-${part * 4115 + i}`),
			})),
			parameters: {
				resource: 'catalog',
				operation: 'deleteRecords',
				catalogId: { __rl: true, mode: 'id', value: catalog },
				recordIdsSource: 'field',
				inputField: 'ids',
				mode: 'aggregate',
				options: { reindexAfterDelete: true, waitForReindex: true },
			},
		}),
	);
	console.log(
		`\nThe simulator received ${sim.requestsTo().length} requests, ${sim.requestsTo('Token').length} of them for a token.`,
	);
	await sim.stop();
}

void main();
