import { NodeHelpers, type IDataObject, type INode } from 'n8n-workflow';

import { ANSWER_MAX_CHARS, ANSWER_MAX_RESULTS } from '../../../nodes/AbbyyVantage/constants';
import { TOOLS } from '../../../nodes/AbbyyVantage/agent/tools';
import { AbbyyVantage } from '../../../nodes/AbbyyVantage/AbbyyVantage.node';
import { runNode } from '../../harness/n8n';
import { parsedAnswer, runAgent, toolVariant, TOOL_TYPE } from '../../harness/tool';
import { invoiceText } from '../../helpers/binary';
import { FileServer, useFileServer } from '../../helpers/fileServer';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl, type ResourceName } from '../../helpers/params';
import { VENDOR_COLUMNS, vendorRow, vendorRows } from '../../helpers/vendorCatalog';
import { FIXTURE } from '../../simulator/simulator';

/**
 * The node as a tool of n8n's AI Agent, inside n8n-core's engine: what the model is offered, what
 * reaches Vantage and what the model reads back, on the v3 agent's engine path and on the supply
 * path of the older agents and the MCP Server Trigger (test/harness/tool.ts).
 */
const CATALOG = 'Vendors';
const f = useSimulator((sim) => {
	sim.addCatalog(CATALOG, VENDOR_COLUMNS);
	sim.seedCatalogRecords(CATALOG, vendorRows(200));
});

const files = useFileServer();
const PATHS = ['engine', 'supply'] as const;
const flat = (fields: Record<string, string[]>) =>
	Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]]));

/**
 * The schema keys each operation offers a model: the keys its $fromAI defaults name (read here
 * from the placeholders' text, so n8n's schema is checked against what the tool asks for).
 */
const ARGUMENTS: Record<string, string[]> = Object.fromEntries(
	Object.entries(TOOLS).map(([key, spec]) => [
		key,
		[
			...new Set(
				[...JSON.stringify(spec.parameters ?? []).matchAll(/\$fromAI\('(\w+)'/g)].map((m) => m[1]),
			),
		].sort(),
	]),
);

function paramsOf(key: string, fields: IDataObject = {}) {
	const [resource, operation] = key.split('.');
	return nodeParams(resource as ResourceName, operation as never, fields);
}

describe('What a model is offered', () => {
	test('every operation a model uses: its description written for a model, and its arguments as $fromAI placeholders', async () => {
		// The keys are read from the placeholders' text: pinned for two operations.
		expect(ARGUMENTS['transaction.processDocument']).toEqual(['fileUrl', 'skillId']);
		expect(ARGUMENTS['catalogRecord.getMany']).toEqual(['catalogId', 'limit', 'search']);
		const keys = Object.keys(TOOLS);
		const run = await runAgent({
			path: 'supply',
			credentials: f.store,
			tools: keys.map((key) => ({ name: key.replace('.', ' '), parameters: paramsOf(key) })),
			calls: [],
		});
		const toolName = (key: string) => key.replace('.', '_');
		expect(run.offered.map((t) => t.name).sort()).toEqual(keys.map(toolName).sort());
		const offered = (key: string) => run.offered.find((t) => t.name === toolName(key))!;
		keys.forEach((key) => {
			const tool = offered(key);
			expect(tool.description).toBe(TOOLS[key].description);
			expect(Object.keys(tool.schema).sort()).toEqual(ARGUMENTS[key]);
			for (const argument of Object.values(tool.schema)) {
				expect(argument.description).toEqual(expect.stringMatching(/\w{3}/));
			}
		});
		const processDocument = offered('transaction.processDocument');
		expect(processDocument.schema.fileUrl).toEqual({
			type: 'string',
			description:
				'http or https link to the document (PDF or image) on a public server, e.g. a presigned storage link; the node downloads it. Links to internal addresses (localhost, private networks, cloud metadata) are refused unless the user allowed the host',
			optional: false,
		});
	});

	test('the tool-only parameters exist only in the tool: the node in a workflow keeps its parameters', () => {
		const base = new AbbyyVantage().description;
		const tool = toolVariant().description;
		const node = (type: string): INode => ({
			id: '1',
			name: 'n',
			type,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		});
		const resolved = (description: typeof base, type: string, parameters: IDataObject) =>
			NodeHelpers.getNodeParameters(
				description.properties,
				parameters as never,
				true,
				false,
				node(type),
				description,
			) as IDataObject;
		const inWorkflow = resolved(base, 'n8n-nodes-abbyy-vantage.abbyyVantage', {
			resource: 'catalogRecord',
			operation: 'getMany',
		});
		expect(Object.keys(inWorkflow).sort()).toEqual(
			[
				'authentication',
				'catalogId',
				'limit',
				'operation',
				'requestOptions',
				'resource',
				'returnAll',
				'search',
			].sort(),
		);
		expect(inWorkflow.catalogId).toEqual({ __rl: true, mode: 'list', value: '' });
		const asTool = resolved(tool, TOOL_TYPE, { resource: 'catalogRecord', operation: 'getMany' });
		expect(asTool).toMatchObject({
			toolDescription: TOOLS['catalogRecord.getMany'].description,
			toolOutput: 'simplified',
			catalogId: { __rl: true, mode: 'id', value: expect.stringContaining("$fromAI('catalogId'") },
			search: expect.stringContaining("$fromAI('search'"),
		});
		const clear = resolved(tool, TOOL_TYPE, { resource: 'catalog', operation: 'clear' });
		expect(clear).toMatchObject({ allowAsTool: false, confirm: false });
		expect(
			resolved(base, 'x.abbyyVantage', { resource: 'catalog', operation: 'clear' }),
		).not.toHaveProperty('allowAsTool');
	});
});

describe('What a model gets back', () => {
	test.each(PATHS)(
		'%s path: a vendor found by its VAT ID, with spaces as a person types it',
		async (path) => {
			const vendor = vendorRow(42);
			const vat = vendor.fields.VatId[0];
			const run = await runAgent({
				path,
				credentials: f.store,
				tools: [{ name: 'Find vendor', parameters: paramsOf('catalogRecord.getMany') }],
				calls: [
					{
						tool: 'Find_vendor',
						args: {
							catalogId: CATALOG,
							search: `${vat.slice(0, 2)} ${vat.slice(2, 5)} ${vat.slice(5)}`,
						},
					},
				],
			});
			expect(parsedAnswer(run.answers[0])).toEqual({
				returned: 1,
				results: [{ id: vendor.id, fields: flat(vendor.fields) }],
			});
		},
	);

	test('IDs as plain strings: a catalog given to a plain $fromAI (not a resource locator), a record ID the model sent as a number', async () => {
		f.sim.seedCatalogRecords(CATALOG, [{ id: '4711', fields: { Name: ['Numbered vendor'] } }]);
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [
				{
					name: 'Vendor',
					parameters: paramsOf('catalogRecord.get', {
						catalogId: "={{ $fromAI('catalog', 'The catalog name', 'string') }}",
						recordId: "={{ $fromAI('record', 'The record ID', 'number') }}",
					}),
				},
			],
			calls: [{ tool: 'Vendor', args: { catalog: CATALOG, record: 4711 } }],
		});
		expect(parsedAnswer(run.answers[0])).toEqual({
			id: '4711',
			fields: { Name: 'Numbered vendor' },
		});
		expect(f.sim.requestsTo('GetRecord').map((r) => r.params)).toEqual([
			{ catalogId: CATALOG, recordId: '4711' },
		]);
	});

	test('a 5 000-record catalog, the model asking for all of it: at most 40 000 characters, saying how to narrow the question', async () => {
		f.sim.seedCatalogRecords(CATALOG, vendorRows(5000));
		const raw = await runNode({
			credentials: f.store,
			parameters: paramsOf('catalogRecord.getMany', { catalogId: rl(CATALOG), returnAll: true }),
		});
		const rawSize = JSON.stringify(raw.items.map((item) => item.json)).length;
		expect(raw.items).toHaveLength(5000);
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [{ name: 'Vendors', parameters: paramsOf('catalogRecord.getMany') }],
			calls: [{ tool: 'Vendors', args: { catalogId: CATALOG, limit: 100000 } }],
		});
		const text = run.answers[0].answer!;
		expect(text.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
		expect(rawSize).toBeGreaterThan(text.length * 10);
		const answer = parsedAnswer(run.answers[0]);
		expect(answer.found).toBe(5000);
		expect(answer.returned).toBe(ANSWER_MAX_RESULTS);
		expect((answer.results as IDataObject[])[0]).toEqual({
			id: 'V-10000',
			fields: flat(vendorRow(0).fields),
		});
		expect(answer.note).toBe(
			`Only ${ANSWER_MAX_RESULTS} of the 5000 results fit in this answer (at most ${ANSWER_MAX_RESULTS} results and 40,000 characters). To see others, give search a text the records must contain (a VAT ID, a name, a number) instead of listing the catalog.`,
		);
	});

	test('a limit the model chose that matched exactly: it is told there may be more', async () => {
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [{ name: 'Vendors', parameters: paramsOf('catalogRecord.getMany') }],
			calls: [{ tool: 'Vendors', args: { catalogId: CATALOG, search: 'Berlin', limit: 3 } }],
		});
		const answer = parsedAnswer(run.answers[0]);
		expect(answer.returned).toBe(3);
		expect(answer.note).toMatch(
			/^There may be more than 3: this is as many as the limit asked for\./,
		);
		// Only the pages needed for three matches were read.
		expect(f.sim.requestsTo('GetRecords')).toHaveLength(1);
	});

	test('Output Raw gives the node’s items, Selected Fields only the named fields', async () => {
		const vendor = vendorRow(7);
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [
				{ name: 'Raw', parameters: paramsOf('catalogRecord.get', { toolOutput: 'raw' }) },
				{
					name: 'Some',
					parameters: paramsOf('catalogRecord.get', {
						toolOutput: 'selected',
						toolFields: 'id, fields.VatId',
					}),
				},
			],
			calls: [
				{ tool: 'Raw', args: { catalogId: CATALOG, recordId: vendor.id } },
				{ tool: 'Some', args: { catalogId: CATALOG, recordId: vendor.id } },
			],
		});
		expect(parsedAnswer(run.answers[0])).toEqual({ catalogId: CATALOG, ...vendor });
		expect(parsedAnswer(run.answers[1])).toEqual({
			id: vendor.id,
			'fields.VatId': vendor.fields.VatId,
		});
	});
});

/** Process Document as a tool, its file server on loopback let through as a fixed value. */
const readDocument = (fields: IDataObject = {}) =>
	paramsOf('transaction.processDocument', {
		allowedInternalHosts: files.server.allowed,
		...fields,
	});

describe('A document a model knows by its link', () => {
	test.each(PATHS)(
		'%s path: Process Document reads the linked invoice and answers its fields, without the bookkeeping',
		async (path) => {
			f.sim.setDefaultTransactionScript({ processing: { polls: 0 } });
			const link = files.server.serve('/inbox/invoice-77.pdf', {
				body: invoiceText({
					number: 'INV-77',
					total: '1.190,00',
					vendor: 'ACME GmbH',
					extra: ['Vendor.VatId: DE123456789'],
				}),
			});
			const run = await runAgent({
				path,
				credentials: f.store,
				tools: [{ name: 'Read document', parameters: readDocument() }],
				calls: [
					{ tool: 'Read_document', args: { fileUrl: link, skillId: FIXTURE.documentSkillId } },
				],
			});
			const answer = parsedAnswer(run.answers[0]);
			expect(Object.keys(answer)).toEqual(['returned', 'results']);
			const [document] = answer.results as IDataObject[];
			expect(Object.keys(document)).toEqual(['transactionId', 'documentId', 'status', 'fields']);
			expect(document).toMatchObject({
				status: 'Processed',
				fields: expect.objectContaining({
					InvoiceNumber: 'INV-77',
					Total: 1190,
					Vendor: expect.objectContaining({ Name: 'ACME GmbH', VatId: 'DE123456789' }),
				}),
			});
			expect(f.sim.transaction(String(document.transactionId))?.status).toBe('Processed');
		},
	);

	test('a document waiting for Manual Review: the model gets the review link at once instead of a wait', async () => {
		f.sim.scriptNextTransaction({ processing: { polls: 0 }, manualReview: { polls: 1000 } });
		const link = files.server.serve('/inbox/unclear.pdf', {
			body: invoiceText({ number: 'INV-78' }),
		});
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [{ name: 'Read document', parameters: readDocument() }],
			calls: [{ tool: 'Read_document', args: { fileUrl: link, skillId: FIXTURE.documentSkillId } }],
		});
		const [document] = parsedAnswer(run.answers[0]).results as IDataObject[];
		expect(document).toEqual({
			transactionId: expect.any(String),
			status: 'Processing',
			waitingForManualReview: true,
			manualReviewLink: f.sim.transaction(String(document.transactionId))?.manualReviewLink,
		});
	});

	test('a link that is not http or https: refused before any request, as an answer', async () => {
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [{ name: 'Read document', parameters: paramsOf('transaction.processDocument') }],
			calls: [
				{
					tool: 'Read_document',
					args: { fileUrl: 'file:///etc/passwd', skillId: FIXTURE.documentSkillId },
				},
			],
		});
		expect(parsedAnswer(run.answers[0])).toEqual({
			error: 'File URL must be an http or https link, not file',
			whatToDo:
				'Give a link that starts with http:// or https://, e.g. a presigned storage link. Other schemes (file, ftp, data…) are never fetched. Correct the arguments the error names and call the tool again.',
		});
		expect(f.sim.requests).toHaveLength(0);
		expect(files.server.requests).toHaveLength(0);
	});
});

describe('A link from a model reaches only what the user allows', () => {
	const REFUSED =
		'Do not call the tool again with this link, another spelling of its address or another internal address. Ask the user for a link to the document on a public server (e.g. a presigned storage link), or ask them to have a person list the host in Allowed Internal Hosts of the ABBYY Vantage node, as a fixed value.';
	const ADVICE =
		'Documents are not fetched from internal addresses: a link to one may be an attempt to make n8n read its own network (server-side request forgery). Use a link to the file on a public server (e.g. a presigned storage link); if the file really is on an internal server, list that host in Allowed Internal Hosts, e.g. files.corp.example.com, 10.20.0.5:8080 or 10.20.0.0/16.';

	test.each(PATHS)(
		'%s path: a metadata address and a mapped-IPv6 loopback link are refused as answers that tell the model to stop, and nothing reaches the target',
		async (path) => {
			const stub = new FileServer();
			await stub.start('::');
			try {
				stub.serve('/a.pdf', { body: invoiceText({ number: 'INV-SECRET' }) });
				const mapped = `http://[::ffff:127.0.0.1]:${stub.port}/a.pdf`;
				const run = await runAgent({
					path,
					credentials: f.store,
					tools: [{ name: 'Read document', parameters: readDocument() }],
					calls: [
						{
							tool: 'Read_document',
							args: {
								fileUrl: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
								skillId: FIXTURE.documentSkillId,
							},
						},
						{ tool: 'Read_document', args: { fileUrl: mapped, skillId: FIXTURE.documentSkillId } },
					],
				});
				expect(run.answers.map((a) => a.thrown)).toEqual([undefined, undefined]);
				expect(run.answers.map(parsedAnswer)).toEqual([
					{
						error:
							'File URL http://169.254.169.254/latest/meta-data/iam/security-credentials/ was not fetched: its host is a link-local address, where cloud metadata services answer',
						refused: true,
						whatToDo: `${ADVICE} ${REFUSED}`,
					},
					{
						error: `File URL http://[::ffff:7f00:1]:${stub.port}/a.pdf was not fetched: its host is a loopback address (n8n’s own machine), written as IPv4-mapped IPv6 (127.0.0.1)`,
						refused: true,
						whatToDo: `${ADVICE} ${REFUSED}`,
					},
				]);
				expect(stub.requests).toEqual([]);
				expect(f.sim.requests).toEqual([]);
			} finally {
				await stub.stop();
			}
		},
	);

	test('Allowed Internal Hosts set by an expression does not count in a tool: the model could fill it', async () => {
		const link = files.server.serve('/inbox/a.pdf', { body: invoiceText({ number: 'INV-1' }) });
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [
				{
					name: 'Read document',
					parameters: readDocument({ allowedInternalHosts: `={{ '${files.server.allowed}' }}` }),
				},
			],
			calls: [{ tool: 'Read_document', args: { fileUrl: link, skillId: FIXTURE.documentSkillId } }],
		});
		expect(parsedAnswer(run.answers[0])).toEqual({
			error: `File URL ${link} was not fetched: its host is a loopback address (n8n’s own machine)`,
			refused: true,
			whatToDo: `${ADVICE} (Allowed Internal Hosts is set by an expression, which does not count when the node runs as a tool: the model could fill it. A person must write the hosts in the node as a fixed value.) ${REFUSED}`,
		});
		expect(files.server.requests).toEqual([]);
	});

	test('a fixed Allowed Internal Hosts the node cannot read: the model is told it is the user’s setting, not its arguments', async () => {
		const link = files.server.serve('/inbox/a.pdf', { body: invoiceText({ number: 'INV-1' }) });
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [
				{ name: 'Read document', parameters: readDocument({ allowedInternalHosts: 'files/8' }) },
			],
			calls: [{ tool: 'Read_document', args: { fileUrl: link, skillId: FIXTURE.documentSkillId } }],
		});
		expect(parsedAnswer(run.answers[0])).toEqual({
			error:
				'Allowed Internal Hosts: "files/8" is not a CIDR range (e.g. 10.20.0.0/16 or fd00::/8)',
			whatToDo:
				'List host names (files.corp.example.com), wildcards (*.corp.example.com), IP addresses (10.20.0.5) or CIDR ranges (10.20.0.0/16), each optionally with :port, separated by commas. Do not retry: this is a setting of the node, not an argument. Tell the user that Allowed Internal Hosts in the ABBYY Vantage node must be corrected.',
		});
		expect(files.server.requests).toEqual([]);
	});
});

describe('Errors a model can act on', () => {
	test.each(PATHS)(
		'%s path: an unknown record ID is an answer with what to do next (no [item 0]), and the agent goes on',
		async (path) => {
			const vendor = vendorRow(3);
			const run = await runAgent({
				path,
				credentials: f.store,
				tools: [{ name: 'Vendor', parameters: paramsOf('catalogRecord.get') }],
				calls: [
					{ tool: 'Vendor', args: { catalogId: CATALOG, recordId: 'V-99999' } },
					{ tool: 'Vendor', args: { catalogId: CATALOG, recordId: vendor.id } },
				],
			});
			expect(run.answers.map((a) => a.thrown)).toEqual([undefined, undefined]);
			const failed = parsedAnswer(run.answers[0]);
			expect(failed).toEqual({
				error: 'ABBYY Vantage could not find it: Record not found',
				httpStatus: 404,
				whatToDo:
					'While reading record "V-99999" of catalog "Vendors". No record with this ID in the catalog (or no such catalog: its ID is its name). Vantage knows no such ID: check the ID (look it up with a list or search tool rather than guessing) and try again with the right one.',
			});
			expect(run.answers[0].answer).not.toContain('[item');
			expect(parsedAnswer(run.answers[1])).toEqual({ id: vendor.id, fields: flat(vendor.fields) });
		},
	);

	test('a role Vantage refuses (403) and a bad argument: answers that say not to retry, or what to correct', async () => {
		f.sim.injectFault(
			'GetCatalog',
			{ kind: 'status', status: 403, body: { detail: 'Forbidden' } },
			1,
		);
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [
				{ name: 'Catalog', parameters: paramsOf('catalog.get') },
				{ name: 'Vendor', parameters: paramsOf('catalogRecord.get') },
			],
			calls: [
				{ tool: 'Catalog', args: { catalogId: CATALOG } },
				{ tool: 'Vendor', args: { catalogId: CATALOG, recordId: '   ' } },
			],
		});
		expect(parsedAnswer(run.answers[0])).toEqual({
			error: 'ABBYY Vantage denied access: Forbidden',
			httpStatus: 403,
			whatToDo:
				'While reading catalog "Vendors". Access depends on the Vantage role of the credential’s user. The Vantage user this tool signs in as may not do this: do not retry; tell the user which role is needed.',
		});
		expect(parsedAnswer(run.answers[1])).toEqual({
			error: 'Record ID is empty',
			whatToDo: 'Correct the arguments the error names and call the tool again.',
		});
		const everything = JSON.stringify(run.run);
		for (const secret of [FIXTURE.password, FIXTURE.clientSecret, ...f.sim.issuedTokens()]) {
			expect(everything).not.toContain(secret);
		}
	});
});

describe('Destructive operations are the user’s decision, not the model’s', () => {
	const clear = (fields: IDataObject) => ({
		name: 'Clear catalog',
		parameters: paramsOf('catalog.clear', fields),
	});
	const modelSaysYes = [
		{ tool: 'Clear_catalog', args: { catalogId: CATALOG, allow: true, confirm: true } },
	];
	const fromAi = (key: string) => `={{ $fromAI('${key}', 'Whether to go ahead', 'boolean') }}`;

	test.each([
		['as configured by default', {}, 'Allow When Used as a Tool and Delete All Records', false],
		[
			'with both switches set by $fromAI and the model saying yes',
			{ allowAsTool: fromAi('allow'), confirm: fromAi('confirm') },
			'Allow When Used as a Tool and Delete All Records',
			true,
		],
		[
			'allowed, but Delete All Records set by $fromAI',
			{ allowAsTool: true, confirm: fromAi('confirm') },
			'Delete All Records',
			true,
		],
	])(
		'a model asking for Clear %s is refused, and the catalog is untouched',
		async (_, fields, labels, expression) => {
			const catalogId = `={{ $fromAI('catalogId', 'The catalog', 'string') }}`;
			const run = await runAgent({
				path: 'engine',
				credentials: f.store,
				tools: [clear({ catalogId: rl(catalogId), ...fields })],
				calls: modelSaysYes,
			});
			expect(parsedAnswer(run.answers[0])).toEqual({
				error:
					'Refused: this tool may not clear a catalog (delete all its records); the user has not allowed it.',
				refused: true,
				whatToDo: `Do not try again, and do not try to reach the same result another way. Tell the user that a person must switch on ${labels} in the ABBYY Vantage node, as a fixed setting${expression ? ' (it is set by an expression now, which does not count: the model could fill it)' : ''}, if this should be allowed.`,
			});
			expect(f.sim.requests).toHaveLength(0);
			expect(f.sim.recordIds(CATALOG)).toHaveLength(200);
		},
	);

	test('switched on as fixed settings by the user, the model may clear the catalog', async () => {
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [
				clear({
					catalogId: rl(`={{ $fromAI('catalogId', 'The catalog', 'string') }}`),
					allowAsTool: true,
					confirm: true,
				}),
			],
			calls: modelSaysYes,
		});
		expect(parsedAnswer(run.answers[0])).toEqual({
			catalogId: CATALOG,
			cleared: true,
			recordsRemoved: 200,
		});
		expect(f.sim.recordIds(CATALOG)).toHaveLength(0);
	});

	test.each([
		[
			'catalogRecord.delete',
			{ catalogId: rl(CATALOG), recordIdsSource: 'field', inputField: 'ids' },
		],
		[
			'catalogRecord.sync',
			{ catalogId: rl(CATALOG), columns: { mappingMode: 'autoMapInputData', value: null } },
		],
		['transaction.delete', { transactionId: `={{ $fromAI('transactionId') }}` }],
		[
			'transactionDocument.delete',
			{ transactionId: 'x', documentId: `={{ $fromAI('documentId') }}` },
		],
		['tenant.createInvite', {}],
	])('%s as a tool is refused by default, before any request', async (key, fields) => {
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools: [{ name: 'Tool', parameters: paramsOf(key, fields) }],
			calls: [{ tool: 'Tool', args: { ids: ['V-10000'], transactionId: 't', documentId: 'd' } }],
			input: { ids: ['V-10000'] },
		});
		expect(parsedAnswer(run.answers[0])).toMatchObject({ refused: true });
		expect(f.sim.requests).toHaveLength(0);
		expect(f.sim.recordIds(CATALOG)).toHaveLength(200);
	});
});
