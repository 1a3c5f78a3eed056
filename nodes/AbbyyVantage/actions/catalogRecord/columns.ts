import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { invalid } from '../../helpers/errors';
import { perItemReader } from '../../helpers/parameters';
import { toColumnStrings, type CatalogColumn } from '../../helpers/recordValues';
import { describeValue, isBlank } from '../../helpers/validation';
import { RECORD_ID_FIELD } from '../../methods/resourceMapping';
import type { VantageClient } from '../../transport';
import { readCatalog } from '../../vantage/catalogs';

/**
 * Add's and Sync's Columns mapper, and the input items read through it as records of the
 * catalog's columns.
 */

/**
 * Add with Map Automatically: where the record ID comes from. Shown below the mapper in that mode
 * only (n8n's own notice there speaks of the columns, not of the ID).
 */
export const recordIdNotice: INodeProperties = {
	displayName: `Each input item also needs a field named ${RECORD_ID_FIELD}: its value becomes the record’s ID`,
	name: 'recordIdNotice',
	type: 'notice',
	default: '',
	// Rooted (`/`): n8n-workflow 1.x cannot order a dependency on a nested value and refuses the whole node.
	displayOptions: { show: { '/columns.mappingMode': ['autoMapInputData'] } },
};

/** The mapper's settings shared by Add and Sync. */
const mapperOptions = {
	resourceMapperMethod: 'getCatalogColumns',
	fieldWords: { singular: 'column', plural: 'columns' },
	addAllFields: true,
	multiKeyMatch: false,
	supportAutoMap: true,
} as const;

/**
 * Add's Columns mapper: item fields → catalog columns; the record ID is the `recordId` field. Mode
 * `add`: nothing is matched, so n8n shows no "Record ID From" and labels no field "(using to
 * match)".
 */
export const columnsProperty: INodeProperties = {
	displayName: 'Columns',
	name: 'columns',
	type: 'resourceMapper',
	noDataExpression: true,
	default: { mappingMode: 'defineBelow', value: null },
	required: true,
	// Until a catalog is chosen there are no columns to show (n8n would say "No columns found").
	displayOptions: { hide: { catalogId: [''] } },
	typeOptions: {
		loadOptionsDependsOn: ['catalogId.value'],
		resourceMapper: { ...mapperOptions, mode: 'add' },
	},
};

/**
 * Sync's Columns: records are matched on the field chosen under Record ID From (its value is the
 * record ID). An update merges the mapped values into the stored record, so a column an item lacks
 * keeps its stored value (as n8n's database nodes leave unmapped columns alone): said in Sync's
 * notice, since n8n shows no hint on a mapper.
 */
export const syncColumnsProperty: INodeProperties = {
	...columnsProperty,
	typeOptions: {
		loadOptionsDependsOn: ['catalogId.value'],
		resourceMapper: {
			...mapperOptions,
			mode: 'upsert',
			matchingFieldsLabels: {
				title: 'Record ID From',
				description:
					'The field whose value is the record ID: recordId, or a column such as a vendor number',
				hint: `Records are matched on this field’s value, their ID. With Map Automatically it is the input field of this name (${RECORD_ID_FIELD} for the record ID).`,
			},
		},
	},
};

export interface CatalogRecord {
	id: string;
	fields: Record<string, string[]>;
	item: number;
	/** Input fields that are not columns of the catalog, left out (Ignore Unknown Fields). */
	ignored?: string[];
}

/** Add and Sync: whether fields that are not columns of the catalog are left out or refused. */
export const ignoreUnknownFieldsOption: INodeProperties = {
	displayName: 'Ignore Unknown Fields',
	name: 'ignoreUnknownFields',
	type: 'boolean',
	default: false,
	description:
		'Whether to leave out input fields that are not columns of the catalog and list them under "ignoredFields" in the output, instead of refusing the item',
};

export interface CatalogShape {
	columns: CatalogColumn[];
	rowCount: number;
}

/** The catalog's columns (GetCatalog), read once per catalog per execution. */
export class CatalogColumns {
	private readonly cache = new Map<string, Promise<CatalogShape>>();
	private readonly known = new Map<string, CatalogShape>();

	constructor(private readonly client: VantageClient) {}

	/** A catalog already read, without an await: 200 000 items of one catalog cost none each. */
	read(catalogId: string): CatalogShape | undefined {
		return this.known.get(catalogId);
	}

	async of(catalogId: string, itemIndex: number): Promise<CatalogShape> {
		let entry = this.cache.get(catalogId);
		if (!entry) {
			entry = readCatalog(
				this.client,
				catalogId,
				itemIndex,
				`reading the columns of catalog "${catalogId}"`,
			).then((catalog) => ({
				columns: (Array.isArray(catalog.columns) ? (catalog.columns as IDataObject[]) : [])
					.filter((c) => typeof c.name === 'string')
					.map((c) => ({
						name: c.name as string,
						type: String(c.type ?? 'Text'),
						notEmpty: c.notEmpty === true,
					})),
				rowCount: typeof catalog.rowCount === 'number' ? catalog.rowCount : 0,
			}));
			this.cache.set(catalogId, entry);
		}
		const shape = await entry;
		this.known.set(catalogId, shape);
		return shape;
	}
}

/**
 * Reads input items as catalog records: the item's mapped values once, then the id from them (so
 * a failed item can still name it), then the record from the same values.
 */
export interface RecordReader {
	/**
	 * The item's mapped values: each column's mapping (an expression, say) evaluated once for the
	 * item, or the item's own fields under Map Automatically.
	 */
	values(itemIndex: number): IDataObject;
	/** The record id in the item's values; an empty one is refused, naming the item. */
	id(itemIndex: number, values: IDataObject): string;
	/**
	 * The item's record from its values: values the catalog cannot hold are refused, naming item
	 * and column, and so are fields that are not columns of the catalog unless `ignoreUnknownFields`.
	 */
	record(
		itemIndex: number,
		values: IDataObject,
		id: string,
		catalogId: string,
		columns: CatalogColumn[],
	): CatalogRecord;
}

/**
 * Input items as catalog records, from the Columns mapper: values mapped below, or the item's own
 * fields (auto-map). Only the catalog's columns are sent; the id is the `recordId` field's value
 * (Add), or with `matched` the value of the field chosen under Record ID From (Sync). A field
 * with a value that is neither (an extra input field under Map Automatically, a mapped column the
 * catalog no longer has) is refused, as n8n's database nodes refuse a column the table lacks, or
 * with `ignoreUnknownFields` left out and named in the record. The mapping's settings are read
 * once when they hold no expression; the values once per item (n8n's getNodeParameter evaluates
 * every expression of `columns.value` at each call).
 */
export function recordReader(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	{ ignoreUnknownFields = false, matched = false } = {},
): RecordReader {
	const mappingModeOf = perItemReader(ctx, 'columns.mappingMode', (i) =>
		ctx.getNodeParameter('columns.mappingMode', i, 'defineBelow'),
	);
	const valuesOf = perItemReader(
		ctx,
		'columns.value',
		(i) => (ctx.getNodeParameter('columns.value', i, {}) ?? {}) as IDataObject,
	);
	const idFieldOf = matched
		? perItemReader(ctx, 'columns.matchingColumns', (i) => {
				const matching = ctx.getNodeParameter('columns.matchingColumns', i, [RECORD_ID_FIELD]);
				return Array.isArray(matching) && typeof matching[0] === 'string'
					? matching[0]
					: RECORD_ID_FIELD;
			})
		: () => RECORD_ID_FIELD;
	const timeZone = ctx.getTimezone();
	return {
		values: (itemIndex) =>
			mappingModeOf(itemIndex) === 'autoMapInputData' ? items[itemIndex].json : valuesOf(itemIndex),
		id(itemIndex, values) {
			const idField = idFieldOf(itemIndex);
			const rawId = values[idField];
			const id =
				typeof rawId === 'string'
					? rawId.trim()
					: typeof rawId === 'number' && Number.isFinite(rawId)
						? String(rawId)
						: '';
			if (!id) {
				throw invalid(
					ctx,
					itemIndex,
					`The record ID ("${idField}") is empty: ${describeValue(rawId)}`,
					matched
						? 'Map a value to the field chosen under Record ID From.'
						: `Map a value to ${RECORD_ID_FIELD}.`,
				);
			}
			return id;
		},
		record(itemIndex, values, id, catalogId, columns) {
			const names = columnNames(columns);
			const idField = idFieldOf(itemIndex);
			const unknown = Object.keys(values).filter(
				(key) => !names.has(key) && key !== idField && !isBlank(values[key]),
			);
			if (unknown.length && !ignoreUnknownFields) {
				const quoted = unknown.map((key) => JSON.stringify(key)).join(', ');
				throw invalid(
					ctx,
					itemIndex,
					unknown.length === 1
						? `Field ${quoted} is not a column of catalog "${catalogId}"`
						: `Fields ${quoted} are not columns of catalog "${catalogId}"`,
					`The catalog's columns: ${columns.map((c) => c.name).join(', ') || 'none'}. Map only those (remove the fields from the input, e.g. with an Edit Fields node), or turn on the option Ignore Unknown Fields to leave them out and list them in the output.`,
				);
			}
			const fields: Record<string, string[]> = {};
			for (const column of columns) {
				if (!(column.name in values)) continue;
				const strings = toColumnStrings(values[column.name], column, timeZone);
				if (!Array.isArray(strings)) {
					throw invalid(
						ctx,
						itemIndex,
						`Column "${column.name}" of record "${id}" ${strings.problem}`,
					);
				}
				fields[column.name] = strings;
			}
			return unknown.length
				? { id, fields, item: itemIndex, ignored: unknown }
				: { id, fields, item: itemIndex };
		},
	};
}

/** Column names as a set, built once per catalog read (200 000 items share one). */
const columnSets = new WeakMap<CatalogColumn[], Set<string>>();
function columnNames(columns: CatalogColumn[]): Set<string> {
	let names = columnSets.get(columns);
	if (!names) {
		names = new Set(columns.map((c) => c.name));
		columnSets.set(columns, names);
	}
	return names;
}
