import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { checkDateOrder, optionalUtcDateTime, toUtcDateTime } from '../../../helpers/dates';
import { invalid } from '../../../helpers/errors';
import {
	describeValue,
	isBlank,
	locatorValue,
	optionalText,
	requireText,
} from '../../../helpers/validation';
import { filtersProperty, readCollection } from '../../../params/collections';
import { skillFilterProperty, skillProperty } from '../../../params/skill';

/**
 * The query parameters of the QA reports, as data: each operation declares the filters it offers
 * as a table of QaFilter rows (name, query key, parameter, type) in the order its query sends
 * them, and its parameters, its Filters collection and each item's query are made from that
 * table. The rows several operations share are below. Values as docs.abbyy.com (analytics
 * reporting) lists them.
 */

/** How a filter is shown and read. */
export type FilterType =
	| {
			kind: 'date';
			description: string;
			/** The query key of the date this one may not precede (End Date: Start Date). */
			notBefore?: string;
	  }
	| { kind: 'skill'; description: string }
	| { kind: 'choice'; values: string[]; description: string }
	| {
			/** A "changed in Manual Review" switch: "true", "false", or any. */
			kind: 'switch';
			yes: string;
			no: string;
	  };

/** One query parameter of a QA report, as an operation offers it. */
export interface QaFilter {
	/** The display name: the editor shows it, errors name it. */
	name: string;
	/** The report's query key. */
	query: string;
	/**
	 * Where it is set: a parameter of its own (required: Start Date, a report's Process Skill), or
	 * `filters.<name>`, one of the Filters collection (optional: empty means any).
	 */
	parameter: string;
	type: FilterType;
}

const FILTERS_PREFIX = 'filters.';
const inFilters = (filter: QaFilter) => filter.parameter.startsWith(FILTERS_PREFIX);
const parameterName = (filter: QaFilter) =>
	inFilters(filter) ? filter.parameter.slice(FILTERS_PREFIX.length) : filter.parameter;

/** The period every QA operation filters on. */
export const PERIOD: QaFilter[] = [
	{
		name: 'Start Date',
		query: 'startDate',
		parameter: 'startDate',
		type: {
			kind: 'date',
			description:
				'Include transactions completed at or after this time (a date alone is midnight in the workflow’s time zone). Vantage keeps 12 months of reporting data.',
		},
	},
	{
		name: 'End Date',
		query: 'endDate',
		parameter: 'filters.endDate',
		type: {
			kind: 'date',
			description: 'Include transactions completed up to this time. Empty means now.',
			notBefore: 'startDate',
		},
	},
];

/** The Process skill a report covers, when the operation asks for one. */
export const PROCESS_SKILL: QaFilter = {
	name: 'Process Skill',
	query: 'processSkillId',
	parameter: 'processSkillId',
	type: { kind: 'skill', description: 'The Process skill whose transactions the report covers' },
};

const IMAGE_TYPES = [
	'Unknown',
	'Receipt',
	'A4',
	'BusinessCard',
	'Book',
	'Id',
	'PassportRus',
	'DiscountCard',
	'BankCard',
	'NotDocument',
	'PassportPage',
];
const IMAGE_COLORITIES = ['BlackWhite', 'Gray', 'Color'];
const IMAGE_SOURCES = ['Unknown', 'Photo', 'Scan', 'Synthetic', 'Screenshot', 'Pdf'];

/** What the documents' images are: both reports and the summary filter on it. */
export const IMAGE_FILTERS: QaFilter[] = [
	{
		name: 'Image Colority',
		query: 'imageColority',
		parameter: 'filters.imageColority',
		type: {
			kind: 'choice',
			values: IMAGE_COLORITIES,
			description: 'Only documents whose first page is in color, gray or black and white',
		},
	},
	{
		name: 'Image Source',
		query: 'imageSource',
		parameter: 'filters.imageSource',
		type: {
			kind: 'choice',
			values: IMAGE_SOURCES,
			description: 'Only documents from this kind of source (scan, photo, PDF …)',
		},
	},
	{
		name: 'Image Type',
		query: 'imageType',
		parameter: 'filters.imageType',
		type: {
			kind: 'choice',
			values: IMAGE_TYPES,
			description: 'Only documents whose image is of this type (receipt, A4 page, business card …)',
		},
	},
];

/** What Manual Review did: the two reports filter on it; the summary counts it instead. */
export const MANUAL_REVIEW_FILTERS: QaFilter[] = [
	{
		name: 'Corrected in Manual Review',
		query: 'wasCorrectedInManualReview',
		parameter: 'filters.wasCorrectedInManualReview',
		type: {
			kind: 'switch',
			yes: 'Only documents whose fields were corrected in Manual Review',
			no: 'Only documents whose fields were not corrected in Manual Review',
		},
	},
	{
		name: 'Document Type Changed in Manual Review',
		query: 'wasDocumentTypeChangedInManualReview',
		parameter: 'filters.wasDocumentTypeChangedInManualReview',
		type: {
			kind: 'switch',
			yes: 'Only documents whose document type was changed in Manual Review',
			no: 'Only documents whose document type was not changed in Manual Review',
		},
	},
];

/** "BusinessCard" → "Business Card", "A4" stays. */
const spaced = (value: string) => value.replace(/([a-z])([A-Z])/g, '$1 $2');

const NAMES: Record<string, string> = { BlackWhite: 'Black and White', Id: 'ID', Pdf: 'PDF' };

function choiceOptions(values: string[]): INodePropertyOptions[] {
	return [
		{ name: 'Any', value: '' },
		...values.map((value) => ({ name: NAMES[value] ?? spaced(value), value })),
	];
}

/** A filter as the editor shows it. */
function property(filter: QaFilter): INodeProperties {
	const { name: displayName, type } = filter;
	const name = parameterName(filter);
	const required = !inFilters(filter);
	switch (type.kind) {
		case 'date':
			return {
				displayName,
				name,
				type: 'dateTime',
				...(required ? { required } : {}),
				default: '',
				description: type.description,
			};
		case 'skill':
			return required
				? { ...skillProperty, displayName, name, description: type.description }
				: { ...skillFilterProperty(name, type.description), displayName };
		case 'choice':
			return {
				displayName,
				name,
				type: 'options',
				options: choiceOptions(type.values),
				default: '',
				description: type.description,
			};
		case 'switch':
			return {
				displayName,
				name,
				type: 'options',
				options: [
					{ name: 'Any', value: '' },
					{ name: 'Yes', value: 'true', description: type.yes },
					{ name: 'No', value: 'false', description: type.no },
				],
				default: '',
			};
	}
}

/** Parameters of their own lead the operation's: the skill the report covers, then the period. */
const OWN_ORDER: Array<FilterType['kind']> = ['skill', 'date', 'choice', 'switch'];

/** The filters that are parameters of their own, for the top of an operation's parameters. */
export function qaParameters(filters: QaFilter[]): INodeProperties[] {
	return filters
		.filter((filter) => !inFilters(filter))
		.sort((a, b) => OWN_ORDER.indexOf(a.type.kind) - OWN_ORDER.indexOf(b.type.kind))
		.map(property);
}

/** The Filters collection of an operation: the optional filters of its table. */
export function qaFilters(filters: QaFilter[]): INodeProperties {
	return filtersProperty(filters.filter(inFilters).map(property));
}

/** One of `allowed`, matched regardless of case and given in Vantage's spelling; empty: any. */
function readChoice(
	ctx: IExecuteFunctions,
	itemIndex: number,
	displayName: string,
	value: unknown,
	allowed: string[],
): string | undefined {
	if (isBlank(value)) return undefined;
	const found =
		typeof value === 'string'
			? allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase())
			: undefined;
	if (found) return found;
	throw invalid(
		ctx,
		itemIndex,
		`${displayName} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, not ${describeValue(value)}`,
	);
}

/** A "changed in Manual Review" switch: "true", "false", or undefined for any. */
function readSwitch(
	ctx: IExecuteFunctions,
	itemIndex: number,
	displayName: string,
	value: unknown,
): string | undefined {
	if (isBlank(value)) return undefined;
	if (value === true || value === 'true') return 'true';
	if (value === false || value === 'false') return 'false';
	throw invalid(
		ctx,
		itemIndex,
		`${displayName} must be "true", "false" or empty, not ${describeValue(value)}`,
	);
}

/**
 * The query of one item's report request, from the operation's filters in their order, checked
 * before any request: dates as ISO 8601 UTC (read in the workflow's time zone), End Date at or
 * after Start Date, skills as one id each, choices in Vantage's spelling.
 */
export function readQaQuery(
	ctx: IExecuteFunctions,
	itemIndex: number,
	filters: QaFilter[],
): IDataObject {
	const set = readCollection(ctx, itemIndex, 'filters');
	const query: IDataObject = {};
	for (const filter of filters) {
		const value = readFilter(ctx, itemIndex, filter, set);
		const { type } = filter;
		if (type.kind === 'date' && type.notBefore !== undefined) {
			const start = filters.find((f) => f.query === type.notBefore)!;
			checkDateOrder(
				ctx,
				itemIndex,
				{ displayName: start.name, value: query[start.query] as string | undefined },
				{ displayName: filter.name, value },
				{ allowEqual: true },
			);
		}
		if (value) query[filter.query] = value;
	}
	return query;
}

/** One filter's value for the query, or undefined for any; `set` is the Filters collection. */
function readFilter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	filter: QaFilter,
	set: IDataObject,
): string | undefined {
	const { name, type } = filter;
	const own = !inFilters(filter);
	const value = own
		? ctx.getNodeParameter(filter.parameter, itemIndex, '', {
				extractValue: type.kind === 'skill',
			})
		: set[parameterName(filter)];
	switch (type.kind) {
		case 'date':
			return own
				? toUtcDateTime(ctx, itemIndex, name, value)
				: optionalUtcDateTime(ctx, itemIndex, name, value);
		case 'skill':
			return own
				? requireText(ctx, itemIndex, name, value)
				: optionalText(ctx, itemIndex, name, locatorValue(value));
		case 'choice':
			return readChoice(ctx, itemIndex, name, value, type.values);
		case 'switch':
			return readSwitch(ctx, itemIndex, name, value);
	}
}
