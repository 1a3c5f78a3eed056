/**
 * The editor check's screens (e2e/editor.ts, `npm run test:editor`): for each operation of the
 * node, the labels n8n's editor must show and those it must hide once the Resource and Operation
 * are chosen (and, for a variant, one more option). Screens written below say what a screen must
 * show; an operation that has none gets one made from the node's description: the labels its
 * parameters show with their defaults, the common labels hidden. So every operation is opened
 * in the editor, and test/contract/editorScreens.test.ts checks every screen against the
 * description before the slow check runs.
 */
import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { AbbyyVantage } from '../../nodes/AbbyyVantage/AbbyyVantage.node';

export interface Screen {
	resource: string;
	operation: string;
	/** Field labels that must be visible. */
	shown: string[];
	/** Field labels that must not be visible. */
	hidden: string[];
	/** Chosen before the labels are read: an option (its name) of a parameter (its `name`). */
	choose?: { parameter: string; option: string };
	slug: string;
}

const COMMON_HIDDEN = [
	'Start Date',
	'Request ID',
	'Transaction ID',
	'Catalog',
	'Record IDs Source',
	'Wait For Completion',
	'Skill',
	'Document ID',
	'File ID',
	'Input Files',
	'Input Binary Fields',
	'Transactions',
	'Return All',
	'Record ID',
	'Delete All Records',
	'Output',
	'Dry Run',
	'Needs Review',
];

function hiddenExcept(...shown: string[]): string[] {
	return COMMON_HIDDEN.filter((label) => !shown.includes(label));
}

const WRITTEN: Screen[] = [
	{
		slug: 'report-create-export',
		resource: 'Report',
		operation: 'Create Export',
		shown: ['Start Date', 'Additional Fields', 'Options', 'Request Options'],
		hidden: hiddenExcept('Start Date'),
	},
	{
		slug: 'report-get-export-status',
		resource: 'Report',
		operation: 'Get Export Status',
		shown: ['Request ID', 'Options'],
		hidden: hiddenExcept('Request ID'),
	},
	{
		slug: 'report-wait-for-export',
		resource: 'Report',
		operation: 'Wait For Export',
		shown: ['Request ID', 'Options'],
		hidden: hiddenExcept('Request ID'),
	},
	{
		slug: 'report-download-all',
		resource: 'Report',
		operation: 'Download Export Files',
		shown: ['Request ID', 'Files', 'Put Output File in Field', 'Options'],
		hidden: [...hiddenExcept('Request ID'), 'File Index'],
	},
	{
		slug: 'report-download-one',
		resource: 'Report',
		operation: 'Download Export Files',
		shown: ['Request ID', 'Files', 'File Index', 'Put Output File in Field'],
		hidden: hiddenExcept('Request ID'),
		choose: { parameter: 'files', option: 'One File' },
	},
	{
		slug: 'report-get-document-changes',
		resource: 'Report',
		operation: 'Get Document Changes',
		shown: ['Start Date', 'Output', 'Return All', 'Limit', 'Filters', 'Options'],
		hidden: [
			...hiddenExcept('Start Date', 'Output', 'Return All'),
			'Process Skill',
			'Put Output File in Field',
		],
	},
	{
		slug: 'report-get-document-changes-csv',
		resource: 'Report',
		operation: 'Get Document Changes',
		shown: ['Start Date', 'Output', 'Put Output File in Field', 'Filters'],
		hidden: [...hiddenExcept('Start Date', 'Output'), 'Limit', 'Process Skill'],
		choose: { parameter: 'output', option: 'CSV File' },
	},
	{
		slug: 'report-get-field-changes',
		resource: 'Report',
		operation: 'Get Field Changes',
		shown: ['Process Skill', 'Start Date', 'Output', 'Return All', 'Filters', 'Options'],
		hidden: [...hiddenExcept('Start Date', 'Output', 'Return All'), 'Put Output File in Field'],
		choose: { parameter: 'output', option: 'One Item per Row' },
	},
	{
		slug: 'report-get-quality-summary',
		resource: 'Report',
		operation: 'Get Quality Summary',
		shown: ['Process Skill', 'Start Date', 'Summarize', 'Filters', 'Options'],
		hidden: [...hiddenExcept('Start Date'), 'Limit', 'Put Output File in Field'],
	},
	{
		slug: 'tenant-create-invite',
		resource: 'Tenant',
		operation: 'Create Invite',
		shown: ['Email', 'Tenant Name', 'Additional Fields'],
		hidden: [...hiddenExcept(), 'Process Skill', 'Limit'],
	},
	{
		slug: 'skill-get-many',
		resource: 'Skill',
		operation: 'Get Many',
		shown: ['Return All', 'Limit'],
		hidden: hiddenExcept('Return All'),
	},
	{
		slug: 'skill-get',
		resource: 'Skill',
		operation: 'Get',
		shown: ['Skill', 'Options'],
		hidden: [...hiddenExcept('Skill'), 'Limit'],
	},
	{
		slug: 'transaction-process-document',
		resource: 'Transaction',
		operation: 'Process Document',
		shown: [
			'Skill',
			'Input Files',
			'Input Binary Fields',
			'Transactions',
			'Needs Review',
			'Options',
		],
		hidden: hiddenExcept(
			'Skill',
			'Input Files',
			'Input Binary Fields',
			'Transactions',
			'Needs Review',
		),
	},
	{
		slug: 'transaction-process-document-all-files',
		resource: 'Transaction',
		operation: 'Process Document',
		shown: ['Skill', 'Input Files', 'Transactions', 'Needs Review', 'Options'],
		hidden: hiddenExcept('Skill', 'Input Files', 'Transactions', 'Needs Review'),
		choose: { parameter: 'inputFiles', option: 'All Binary Fields' },
	},
	{
		slug: 'transaction-create',
		resource: 'Transaction',
		operation: 'Create',
		shown: ['Skill', 'Options'],
		hidden: hiddenExcept('Skill'),
	},
	{
		slug: 'transaction-add-files',
		resource: 'Transaction',
		operation: 'Add Files',
		shown: ['Transaction ID', 'Input Files', 'Input Binary Fields', 'Options'],
		hidden: hiddenExcept('Transaction ID', 'Input Files', 'Input Binary Fields'),
	},
	{
		slug: 'transaction-start',
		resource: 'Transaction',
		operation: 'Start',
		shown: ['Transaction ID', 'Options'],
		hidden: hiddenExcept('Transaction ID'),
	},
	{
		slug: 'transaction-get',
		resource: 'Transaction',
		operation: 'Get',
		shown: ['Transaction ID', 'Options'],
		hidden: hiddenExcept('Transaction ID'),
	},
	{
		slug: 'transaction-wait-for-transaction',
		resource: 'Transaction',
		operation: 'Wait For Transaction',
		shown: ['Transaction ID', 'Options'],
		hidden: hiddenExcept('Transaction ID'),
	},
	{
		slug: 'transaction-get-results',
		resource: 'Transaction',
		operation: 'Get Results',
		shown: ['Transaction ID', 'Needs Review', 'Options'],
		hidden: hiddenExcept('Transaction ID', 'Needs Review'),
	},
	{
		slug: 'transaction-download-file',
		resource: 'Transaction',
		operation: 'Download File',
		shown: ['Transaction ID', 'File ID', 'Put Output File in Field', 'Options'],
		hidden: hiddenExcept('Transaction ID', 'File ID'),
	},
	{
		slug: 'transaction-get-many',
		resource: 'Transaction',
		operation: 'Get Many',
		shown: ['Transactions', 'Return All', 'Limit', 'Filters'],
		hidden: hiddenExcept('Transactions', 'Return All'),
	},
	{
		slug: 'transaction-delete',
		resource: 'Transaction',
		operation: 'Delete',
		shown: ['Transaction ID', 'Options'],
		hidden: hiddenExcept('Transaction ID'),
	},
	{
		slug: 'transaction-get-registration-parameters',
		resource: 'Transaction',
		operation: 'Get Registration Parameters',
		shown: ['Transaction ID', 'Options'],
		hidden: hiddenExcept('Transaction ID'),
	},
	{
		slug: 'transaction-get-skill-parameters',
		resource: 'Transaction',
		operation: 'Get Skill Parameters',
		shown: ['Transaction ID', 'Options'],
		hidden: hiddenExcept('Transaction ID'),
	},
	{
		slug: 'transaction-generate-mobile-input-link',
		resource: 'Transaction',
		operation: 'Generate Mobile Input Link',
		shown: ['Transaction ID', 'Options'],
		hidden: hiddenExcept('Transaction ID'),
	},
	{
		slug: 'transaction-document-add',
		resource: 'Transaction Document',
		operation: 'Add',
		shown: ['Transaction ID', 'Additional Fields', 'Options'],
		hidden: hiddenExcept('Transaction ID'),
	},
	{
		slug: 'transaction-document-get',
		resource: 'Transaction Document',
		operation: 'Get',
		shown: ['Transaction ID', 'Document ID', 'Options'],
		hidden: [...hiddenExcept('Transaction ID', 'Document ID'), 'Additional Fields'],
	},
	{
		slug: 'transaction-document-get-many',
		resource: 'Transaction Document',
		operation: 'Get Many',
		shown: ['Transaction ID', 'Return All', 'Limit', 'Options'],
		hidden: hiddenExcept('Transaction ID', 'Return All'),
	},
	{
		slug: 'transaction-document-delete',
		resource: 'Transaction Document',
		operation: 'Delete',
		shown: ['Transaction ID', 'Document ID', 'Options'],
		hidden: [...hiddenExcept('Transaction ID', 'Document ID'), 'Additional Fields'],
	},
	{
		slug: 'transaction-document-download-source-file',
		resource: 'Transaction Document',
		operation: 'Download Source File',
		shown: ['Transaction ID', 'Document ID', 'File ID', 'Put Output File in Field', 'Options'],
		hidden: hiddenExcept('Transaction ID', 'Document ID', 'File ID'),
	},
	{
		slug: 'catalog-record-add',
		resource: 'Catalog Record',
		operation: 'Add',
		shown: ['Catalog', 'Mode', 'Options'],
		hidden: hiddenExcept('Catalog'),
	},
	{
		slug: 'catalog-record-get',
		resource: 'Catalog Record',
		operation: 'Get',
		shown: ['Catalog', 'Record ID', 'Options'],
		hidden: hiddenExcept('Catalog', 'Record ID'),
	},
	{
		slug: 'catalog-record-get-many',
		resource: 'Catalog Record',
		operation: 'Get Many',
		shown: ['Catalog', 'Return All', 'Limit'],
		hidden: hiddenExcept('Catalog', 'Return All'),
	},
	{
		slug: 'catalog-record-sync',
		resource: 'Catalog Record',
		operation: 'Sync',
		shown: ['Catalog', 'Dry Run', 'Options'],
		hidden: hiddenExcept('Catalog', 'Dry Run'),
	},
	{
		slug: 'catalog-record-delete-list',
		resource: 'Catalog Record',
		operation: 'Delete',
		shown: ['Catalog', 'Record IDs Source', 'Record IDs', 'Mode', 'Options'],
		hidden: [...hiddenExcept('Catalog', 'Record IDs Source'), 'Input Field'],
	},
	{
		slug: 'catalog-record-delete-field',
		resource: 'Catalog Record',
		operation: 'Delete',
		shown: ['Catalog', 'Record IDs Source', 'Input Field', 'Mode'],
		hidden: [...hiddenExcept('Catalog', 'Record IDs Source'), 'Record IDs'],
		choose: { parameter: 'recordIdsSource', option: 'From Input Field' },
	},
	{
		slug: 'catalog-get-many',
		resource: 'Catalog',
		operation: 'Get Many',
		shown: ['Return All', 'Limit'],
		hidden: hiddenExcept('Return All'),
	},
	{
		slug: 'catalog-get',
		resource: 'Catalog',
		operation: 'Get',
		shown: ['Catalog', 'Options'],
		hidden: [...hiddenExcept('Catalog'), 'Limit'],
	},
	{
		slug: 'catalog-clear',
		resource: 'Catalog',
		operation: 'Clear',
		shown: ['Catalog', 'Delete All Records'],
		hidden: [...hiddenExcept('Catalog', 'Delete All Records'), 'Options'],
	},
	{
		slug: 'catalog-reindex',
		resource: 'Catalog',
		operation: 'Reindex',
		shown: ['Catalog', 'Wait For Completion', 'Options'],
		hidden: hiddenExcept('Catalog', 'Wait For Completion'),
	},
];

/** Parameters every operation has, whose labels the editor check reads elsewhere or not at all. */
const NODE_WIDE = new Set(['authentication', 'resource', 'operation']);
/** Parameter types without a label of their own, or whose label waits on a choice (the mapper). */
const UNLABELLED = new Set(['notice', 'hidden', 'resourceMapper', 'callout']);

const optionsOf = (property: INodeProperties | undefined): INodePropertyOptions[] =>
	(property?.options ?? []).filter((o): o is INodePropertyOptions => 'value' in o);

/**
 * The labels of the parameters `description` shows for `resource` and `operation` (their
 * values) with every other parameter at its default, after `choose` (an option's name).
 */
export function describedLabels(
	description: INodeTypeDescription,
	resource: string,
	operation: string,
	choose?: Screen['choose'],
): string[] {
	const node = { typeVersion: 1 };
	const values: INodeParameters = { resource, operation };
	const settle = () =>
		NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ??
		{};
	let settled = settle();
	if (choose) {
		const property = description.properties.find(
			(p) =>
				p.name === choose.parameter && NodeHelpers.displayParameter(settled, p, node, description),
		);
		const option = optionsOf(property).find((o) => o.name === choose.option);
		if (!option) throw new Error(`no option "${choose.option}" of ${choose.parameter}`);
		values[choose.parameter] = option.value;
		settled = settle();
	}
	const labels = description.properties
		.filter((p) => !NODE_WIDE.has(p.name) && !UNLABELLED.has(p.type))
		.filter((p) => NodeHelpers.displayParameter(settled, p, node, description))
		.map((p) => p.displayName);
	return [...new Set(labels)];
}

/** "Get Many Exports" → "get-many-exports". */
const slugOf = (...names: string[]) =>
	names
		.join(' ')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-');

/**
 * Every screen of the editor check, in the order it opens them: the written ones, then a screen
 * made from `description` for each operation none of them opens.
 */
export function editorScreens(
	description: INodeTypeDescription = new AbbyyVantage().description,
): Screen[] {
	const resources = optionsOf(description.properties.find((p) => p.name === 'resource'));
	const made: Screen[] = [];
	for (const resource of resources) {
		const picker = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const operation of optionsOf(picker)) {
			if (WRITTEN.some((s) => s.resource === resource.name && s.operation === operation.name)) {
				continue;
			}
			const shown = describedLabels(description, String(resource.value), String(operation.value));
			made.push({
				slug: slugOf(resource.name, operation.name),
				resource: resource.name,
				operation: operation.name,
				shown,
				hidden: hiddenExcept(...shown),
			});
		}
	}
	return [...WRITTEN, ...made];
}
