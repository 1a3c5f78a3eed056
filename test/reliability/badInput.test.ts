/** Bad input is refused before any request, with a message naming the parameter and the item. */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runNode, simulatorCredentials } from '../harness/n8n';
import { useSimulator } from '../helpers/fixture';
import { binaryFile, fileItem } from '../helpers/binary';
import {
	inviteParams,
	nodeParams,
	processParams,
	qaParams,
	recordDeleteParams,
	rl,
} from '../helpers/params';
import { CATALOG, cell, record } from './shared';

const f = useSimulator((sim) => sim.addCatalog(CATALOG));

interface BadCase {
	name: string;
	parameters: INodeParameters;
	items?: Array<IDataObject | INodeExecutionData>;
	credentials?: IDataObject;
	message: RegExp;
}
const badCases: BadCase[] = [
	{
		name: 'empty record ID',
		items: [{ ids: [''] }],
		parameters: recordDeleteParams(CATALOG),
		message: /^Input Field "ids": the ID at position 0 is empty/,
	},
	{
		name: 'whitespace record ID',
		items: [{ ids: ['a', ' \t '] }],
		parameters: recordDeleteParams(CATALOG),
		message: /position 1 is only whitespace/,
	},
	{
		name: 'number as record ID',
		items: [{ ids: [12] }],
		parameters: recordDeleteParams(CATALOG),
		message: /position 0 is number, not text/,
	},
	{
		name: 'boolean as record ID',
		items: [{ ids: [true] }],
		parameters: recordDeleteParams(CATALOG),
		message: /position 0 is boolean, not text/,
	},
	{
		name: 'nested array of IDs',
		items: [{ ids: [['a', 'b']] }],
		parameters: recordDeleteParams(CATALOG),
		message: /position 0 is a nested array/,
	},
	{
		name: 'null record ID',
		items: [{ ids: ['a', null] }],
		parameters: recordDeleteParams(CATALOG),
		message: /position 1 is null, not text/,
	},
	{
		name: 'object as record ID',
		items: [{ ids: [{}] }],
		parameters: recordDeleteParams(CATALOG),
		message: /position 0 is object, not text/,
	},
	{
		name: '0 IDs (empty array)',
		items: [{ ids: [] }],
		parameters: recordDeleteParams(CATALOG),
		message: /^No record IDs to delete/,
	},
	{
		name: '0 IDs (blank typed list)',
		parameters: recordDeleteParams(CATALOG, { recordIdsSource: 'list', recordIds: ' , \n ' }),
		message: /^No record IDs to delete/,
	},
	{
		name: 'missing input field',
		items: [{ other: [] }],
		parameters: recordDeleteParams(CATALOG),
		message: /^Input Field "ids" does not exist/,
	},
	{
		name: 'Record IDs expression giving a number',
		parameters: recordDeleteParams(CATALOG, { recordIdsSource: 'list', recordIds: '={{ 42 }}' }),
		message: /^Record IDs must be text or an array, not 42/,
	},
	{
		name: 'catalog exactly "."',
		items: [{ ids: ['a'] }],
		parameters: recordDeleteParams(CATALOG, { catalogId: rl('.') }),
		message: /^Catalog must not be "\." or "\.\."/,
	},
	{
		name: 'catalog exactly ".."',
		items: [{ ids: ['a'] }],
		parameters: recordDeleteParams(CATALOG, { catalogId: rl('..') }),
		message: /^Catalog must not be "\." or "\.\."/,
	},
	{
		name: 'blank catalog',
		items: [{ ids: ['a'] }],
		parameters: recordDeleteParams(CATALOG, { catalogId: rl('   ') }),
		message: /^Catalog is empty/,
	},
	{
		name: 'Batch Size 0',
		items: [{ ids: ['a'] }],
		parameters: recordDeleteParams(CATALOG, { options: { batchSize: 0 } }),
		message: /^Batch Size must be between 1 and 5000, not 0/,
	},
	{
		name: 'Batch Size 5001',
		items: [{ ids: ['a'] }],
		parameters: recordDeleteParams(CATALOG, { options: { batchSize: 5001 } }),
		message: /^Batch Size must be between 1 and 5000, not 5001/,
	},
	{
		name: 'unknown Mode value',
		items: [{ ids: ['a'] }],
		parameters: recordDeleteParams(CATALOG, { mode: '={{ "all" }}' }),
		message: /^Mode must be one of "perItem", "aggregate", not "all"/,
	},
	{
		name: 'unknown Record IDs Source value',
		items: [{ ids: ['a'] }],
		parameters: recordDeleteParams(CATALOG, { recordIdsSource: '={{ "csv" }}', recordIds: 'a' }),
		message: /^Record IDs Source must be one of "list", "field", not "csv"/,
	},
	{
		name: 'empty Request ID',
		parameters: nodeParams('report', 'getExportStatus', { requestId: '={{ "  " }}' }),
		message: /^Request ID is empty/,
	},
	{
		name: 'Request ID exactly ".."',
		parameters: nodeParams('report', 'waitForExport', { requestId: '..' }),
		message: /^Request ID must not be "\." or "\.\."/,
	},
	{
		name: 'empty Transaction ID',
		parameters: nodeParams('transactionDocument', 'add', { transactionId: '={{ "" }}' }),
		message: /^Transaction ID is empty/,
	},
	{
		name: 'Transaction ID exactly "."',
		parameters: nodeParams('transactionDocument', 'add', { transactionId: '.' }),
		message: /^Transaction ID must not be "\." or "\.\."/,
	},
	{
		name: 'negative Index',
		parameters: nodeParams('transactionDocument', 'add', {
			transactionId: 't',
			additionalFields: { index: -2 },
		}),
		message: /^Index must be between 0 and 2147483647, not -2/,
	},
	{
		name: 'fractional Index',
		parameters: nodeParams('transactionDocument', 'add', {
			transactionId: 't',
			additionalFields: { index: 0.5 },
		}),
		message: /^Index must be a whole number, not 0.5/,
	},
	{
		name: 'unknown Auto Crop value',
		parameters: nodeParams('transactionDocument', 'add', {
			transactionId: 't',
			additionalFields: { autoCrop: '={{ "Sometimes" }}' },
		}),
		message: /^Auto Crop must be one of "Default", "Yes", "No", not "Sometimes"/,
	},
	{
		name: 'invalid Start Date',
		parameters: nodeParams('report', 'createExport', { startDate: 'last Tuesday' }),
		message: /^Start Date is not a valid date/,
	},
	{
		name: 'impossible calendar date',
		parameters: nodeParams('report', 'createExport', { startDate: '2025-13-01T00:00:00' }),
		message: /^Start Date is not a valid date/,
	},
	{
		name: 'End Date before Start Date',
		parameters: nodeParams('report', 'createExport', {
			startDate: '2025-11-10T00:00:00Z',
			additionalFields: { endDate: '2025-11-09T00:00:00Z' },
		}),
		message: /^End Date \(.*\) must be at or after Start Date/,
	},
	{
		name: 'File Index negative',
		parameters: nodeParams('report', 'downloadExportFiles', {
			requestId: 'r',
			files: 'one',
			fileIndex: -1,
		}),
		message: /^File Index must be between 0 and 2147483647, not -1/,
	},
	{
		name: 'unknown Files value',
		parameters: nodeParams('report', 'downloadExportFiles', {
			requestId: 'r',
			files: '={{ "some" }}',
		}),
		message: /^Files must be one of "all", "one", not "some"/,
	},
	{
		name: 'Wait Interval below 1 s',
		parameters: nodeParams('report', 'waitForExport', {
			requestId: 'r',
			options: { pollInterval: 0.2 },
		}),
		message: /^Wait Interval must be between 1 and 86400 seconds/,
	},
	{
		name: 'Max Retries above 10',
		parameters: nodeParams('report', 'getExportStatus', {
			requestId: 'r',
			requestOptions: { maxRetries: 11 },
		}),
		message: /^Max Retries must be between 0 and 10, not 11/,
	},
	{
		name: 'Custom base URL: http to a non-loopback host',
		credentials: { baseUrl: 'http://vantage.example.com' },
		parameters: nodeParams('report', 'getExportStatus', { requestId: 'r' }),
		message: /^Credential: Base URL must use https:\/\//,
	},
	{
		name: 'Custom base URL with a query',
		credentials: { baseUrl: 'https://vantage.example.com/?a=1' },
		parameters: nodeParams('report', 'getExportStatus', { requestId: 'r' }),
		message: /^Credential: Base URL must not contain a query/,
	},
	{
		name: 'Custom base URL with credentials in it',
		credentials: { baseUrl: 'https://me:pw@vantage.example.com' },
		parameters: nodeParams('report', 'getExportStatus', { requestId: 'r' }),
		message: /^Credential: Base URL must not contain a user name or password/,
	},
	{
		name: 'Custom base URL with a fragment',
		credentials: { baseUrl: 'https://vantage.example.com/#top' },
		parameters: nodeParams('report', 'getExportStatus', { requestId: 'r' }),
		message: /^Credential: Base URL must not contain a fragment/,
	},
	{
		name: 'Process Document: binary field missing',
		items: [fileItem({ scan: binaryFile('a.pdf', 'x') })],
		parameters: processParams({ skillId: rl('invoice-skill') }),
		message: /^The input item has no binary field "data" \[item 0\]$/,
	},
	{
		name: 'Process Document: empty file',
		items: [fileItem(binaryFile('empty.pdf', ''))],
		parameters: processParams({ skillId: rl('invoice-skill') }),
		message: /is empty \[item 0\]$/,
	},
	{
		name: 'Process Document: 1001 files in one transaction',
		items: Array.from({ length: 1001 }, (_, i) => fileItem(binaryFile(`f${i}.pdf`, 'x'))),
		parameters: processParams({ skillId: rl('process-skill'), transactionMode: 'combined' }),
		message: /^1001 files are more than one transaction takes \(1000\) \[item 0\]$/,
	},
	{
		name: 'Process Document: skill parameter without a value',
		items: [fileItem(binaryFile('a.pdf', 'x'))],
		parameters: processParams(
			{ skillId: rl('invoice-skill') },
			{ skillParameters: { parameter: [{ key: 'Country', value: '' }] } },
		),
		message: /^Skill Parameters: the value of "Country" is empty \[item 0\]$/,
	},
	{
		name: 'Transaction Get: ID ".."',
		parameters: nodeParams('transaction', 'get', { transactionId: '..' }),
		message: /^Transaction ID must not be "\." or "\.\." \[item 0\]$/,
	},
	{
		name: 'Transaction Get Many: End Date before Start Date',
		parameters: nodeParams('transaction', 'getMany', {
			filters: { startDate: '2026-02-01T00:00:00Z', endDate: '2026-01-01T00:00:00Z' },
		}),
		message: /^End Date .* must be after Start Date/,
	},
	{
		name: 'Get Document Changes: Start Date that is not a date',
		parameters: qaParams('getDocumentChanges', { startDate: 'beginning of March' }),
		message: /^Start Date is not a valid date: "beginning of March" \[item 0\]$/,
	},
	{
		name: 'Get Quality Summary: 30 February',
		parameters: qaParams('getQualitySummary', { startDate: '2026-02-30' }),
		message: /^Start Date is not a valid date: "2026-02-30" \[item 0\]$/,
	},
	{
		name: 'Get Field Changes: End Date before Start Date',
		parameters: qaParams('getFieldChanges', {
			startDate: '2026-03-31T00:00:00Z',
			filters: { endDate: '2026-03-01T00:00:00Z' },
		}),
		message: /^End Date \(.*\) must be at or after Start Date/,
	},
	{
		name: 'Get Field Changes: Process Skill blank',
		parameters: qaParams('getFieldChanges', { processSkillId: rl('  ') }),
		message: /^Process Skill is empty \[item 0\]$/,
	},
	{
		name: 'Get Document Changes: Image Source not one of Vantage’s',
		parameters: qaParams('getDocumentChanges', { filters: { imageSource: '={{ "Fax" }}' } }),
		message:
			/^Image Source must be one of "Unknown", "Photo", "Scan", "Synthetic", "Screenshot", "Pdf", not "Fax"/,
	},
	{
		name: 'Get Field Changes: Corrected in Manual Review "maybe"',
		parameters: qaParams('getFieldChanges', {
			filters: { wasCorrectedInManualReview: '={{ "maybe" }}' },
		}),
		message: /^Corrected in Manual Review must be "true", "false" or empty, not "maybe"/,
	},
	{
		name: 'Create Invite: e-mail without a domain',
		parameters: inviteParams({ email: 'jo@localhost' }),
		message: /^Email "jo@localhost" is not an e-mail address \[item 0\]$/,
	},
	{
		name: 'Create Invite: Valid For 0 days',
		parameters: inviteParams({ additionalFields: { validDays: 0 } }),
		message: /^Valid For \(Days\) must be a number of days from 1 minute/,
	},
	{
		name: 'Create Invite: blank tenant name',
		parameters: inviteParams({ tenantName: '={{ " " }}' }),
		message: /^Tenant Name is empty \[item 0\]$/,
	},
	{
		name: 'Skill Get: Skill "."',
		parameters: nodeParams('skill', 'get', { skillId: rl('.') }),
		message: /^Skill must not be "\." or "\.\." \[item 0\]$/,
	},
];

describe('bad-input catalogue: refused before any request', () => {
	test.each(badCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const credentials = c.credentials ? simulatorCredentials(f.sim, c.credentials) : f.store;
		const result = await runNode({ credentials, items: c.items, parameters: c.parameters });
		const message = result.error?.message ?? '';
		record('badInput', `| ${c.name} | ${cell(message)} | ${f.sim.requests.length} |`);
		expect(message).toMatch(c.message);
		expect(message).toMatch(/(\[item \d+\]$)|^Credential:/);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('the catalogue has at least 30 cases', () => {
		expect(badCases.length).toBeGreaterThanOrEqual(30);
	});
});
