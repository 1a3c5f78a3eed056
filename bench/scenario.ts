import type { INodeParameters } from 'n8n-workflow';

/**
 * The benchmarked work, shared by the n8n-core worker, the floor and the real-n8n workflows so
 * that every client does the same thing with the same node settings.
 */
export const BENCH_CATALOG = 'Vendors';

/** Delete Records, Aggregate All Items, IDs from the `ids` field; concurrency as the node's option. */
export function recordDeleteParameters(concurrency?: number): INodeParameters {
	return {
		resource: 'catalogRecord',
		operation: 'delete',
		catalogId: { __rl: true, mode: 'id', value: BENCH_CATALOG },
		recordIdsSource: 'field',
		inputField: 'ids',
		mode: 'aggregate',
		...(concurrency === undefined ? {} : { options: { concurrency } }),
	};
}

// ------------------------------------------------------------------ Process Document

export const PROCESS = {
	documents: 200,
	skillId: 'invoice-skill',
	processingMs: 2000,
	concurrency: 8,
	pollSeconds: 1,
};

/** Transaction → Process Document, one transaction per item, polling every second. */
export function processDocumentParameters(options: Record<string, unknown> = {}): INodeParameters {
	return {
		resource: 'transaction',
		operation: 'processDocument',
		skillId: { __rl: true, mode: 'id', value: PROCESS.skillId },
		options: {
			concurrency: PROCESS.concurrency,
			pollInterval: PROCESS.pollSeconds,
			maxPollInterval: PROCESS.pollSeconds,
			...options,
		},
	} as INodeParameters;
}

/** The invoice number of document `i`: the simulator extracts it, both clients check it. */
export const invoiceNumber = (i: number) => `INV-${String(i).padStart(5, '0')}`;

// ------------------------------------------------------------------ Time to data (waits)

/**
 * Issue 26: documents Vantage finishes in 1.5 s, a 60-s job, a reindex of 1 s; the stand-in
 * answers in 50 ms. The node runs at its default settings (Concurrency Auto: 16 transactions at a
 * time; the default wait schedule); the floor polls every second, 16 documents at a time.
 */
export const TIME_TO_DATA = {
	documents: 40,
	processingMs: 1500,
	latencyMs: 50,
	floorConcurrency: 16,
	floorPollMs: 1000,
	longJobMs: 60_000,
	reindexMs: 1000,
};

/** Transaction → Process Document at its default settings: the skill and nothing else. */
export function processDocumentDefaults(): INodeParameters {
	return {
		resource: 'transaction',
		operation: 'processDocument',
		skillId: { __rl: true, mode: 'id', value: PROCESS.skillId },
	} as INodeParameters;
}

/** Catalog → Reindex at its default settings (wait for completion). */
export function reindexParameters(): INodeParameters {
	return {
		resource: 'catalog',
		operation: 'reindex',
		catalogId: { __rl: true, mode: 'id', value: BENCH_CATALOG },
	} as INodeParameters;
}

// ------------------------------------------------------------------ Upload memory

export const UPLOAD = { megabytes: 200, fileName: 'scan-200mb.pdf' };

// ------------------------------------------------------------------ QA report download

/**
 * A field changes report of 500 000 rows: 25 000 Process-skill transactions (two documents each,
 * ten Invoice fields per document), downloaded as a CSV File (binary) in filesystem mode.
 */
export const QA_REPORT = {
	rows: 500_000,
	transactions: 25_000,
	processSkillId: 'process-skill',
	path: '/api/reporting/v2/qa/process-skills/fields?startDate=2020-01-01T00:00:00.000Z&processSkillId=process-skill',
};

/** Report → Get Field Changes for the Process skill since 2020, as a CSV File. */
export function qaReportParameters(): INodeParameters {
	return {
		resource: 'report',
		operation: 'getFieldChanges',
		processSkillId: { __rl: true, mode: 'id', value: QA_REPORT.processSkillId },
		startDate: '2020-01-01T00:00:00Z',
		output: 'binary',
	} as INodeParameters;
}

// ------------------------------------------------------------------ Catalog Sync

export const SYNC = {
	catalog: 'Vendors sync',
	records: 200_000,
	/** One in a hundred records is removed, one changed, and as many are new. */
	changeEvery: 100,
	concurrency: 8,
	pageSize: 1000,
	batchSize: 5000,
};

const COUNTRIES = ['DE', 'FR', 'IT', 'ES', 'NL', 'AT', 'PL', 'SE'];

export const syncId = (i: number) => `vendor-${String(i).padStart(6, '0')}`;

/** The catalog before the sync: SYNC.records records with Name and Country. */
export function* syncCatalogRecords(): Generator<{ id: string; fields: Record<string, string[]> }> {
	for (let i = 0; i < SYNC.records; i++) {
		yield { id: syncId(i), fields: { Name: [`Vendor ${i}`], Country: [COUNTRIES[i % 8]] } };
	}
}

export interface SyncItem {
	recordId: string;
	Name: string;
	Country: string;
	[key: string]: string;
}

/**
 * The source: the catalog with 1 % removed (i % 100 = 0), 1 % changed (i % 100 = 1: another
 * country) and 1 % added (new ids after the last one). As many items as the catalog has records.
 */
export function syncSourceItems(): SyncItem[] {
	const items: SyncItem[] = [];
	for (let i = 0; i < SYNC.records; i++) {
		const slot = i % SYNC.changeEvery;
		if (slot === 0) continue;
		const country = COUNTRIES[(i + (slot === 1 ? 1 : 0)) % 8];
		items.push({ recordId: syncId(i), Name: `Vendor ${i}`, Country: country });
	}
	const added = SYNC.records / SYNC.changeEvery;
	for (let i = SYNC.records; i < SYNC.records + added; i++) {
		items.push({ recordId: syncId(i), Name: `Vendor ${i}`, Country: COUNTRIES[i % 8] });
	}
	return items;
}

/** The same source as a Code node's JavaScript, for the real-n8n workflow. */
export function syncSourceCode(): string {
	return [
		`const countries = ${JSON.stringify(COUNTRIES)};`,
		`const id = (i) => 'vendor-' + String(i).padStart(6, '0');`,
		'const items = [];',
		`for (let i = 0; i < ${SYNC.records}; i++) {`,
		`  const slot = i % ${SYNC.changeEvery};`,
		'  if (slot === 0) continue;',
		'  items.push({ json: { recordId: id(i), Name: `Vendor ${i}`, Country: countries[(i + (slot === 1 ? 1 : 0)) % 8] } });',
		'}',
		`for (let i = ${SYNC.records}; i < ${SYNC.records + SYNC.records / SYNC.changeEvery}; i++) {`,
		'  items.push({ json: { recordId: id(i), Name: `Vendor ${i}`, Country: countries[i % 8] } });',
		'}',
		'return items;',
	].join('\n');
}

/** What a correct sync reports. */
export const SYNC_EXPECTED = {
	toAdd: SYNC.records / SYNC.changeEvery,
	toUpdate: SYNC.records / SYNC.changeEvery,
	toDelete: SYNC.records / SYNC.changeEvery,
};

/** Catalog Record → Sync, auto-mapped columns, record id from `recordId`, no reindex. */
export function syncParameters(
	concurrency: number | undefined = SYNC.concurrency,
): INodeParameters {
	return {
		resource: 'catalogRecord',
		operation: 'sync',
		catalogId: { __rl: true, mode: 'id', value: SYNC.catalog },
		columns: {
			mappingMode: 'autoMapInputData',
			value: null,
			matchingColumns: ['recordId'],
			schema: [],
		},
		options: { reindex: false, ...(concurrency === undefined ? {} : { concurrency }) },
	} as INodeParameters;
}

// ------------------------------------------------------------------ Column mappings (real n8n)

/**
 * Issue 26: Sync reading 10 000 items whose four columns (the record ID and three values) are
 * mapped with expressions, beside n8n's Edit Fields (Set) evaluating the same four expressions
 * over the same items in the same execution. The catalog already holds the same records.
 */
export const MAPPING = {
	items: 10_000,
	catalog: 'Vendors mapped',
	/** Column → the input field its expression reads. */
	columns: { Name: 'name', Country: 'country', City: 'city' } as Record<string, string>,
	idField: 'code',
};

const CITIES = ['Berlin', 'Paris', 'Rome', 'Madrid', 'Amsterdam', 'Vienna', 'Warsaw', 'Stockholm'];

/** Record `i` of the mapping catalog (and of its source). */
export function mappingRecord(i: number): { id: string; fields: Record<string, string[]> } {
	return {
		id: `map-${String(i).padStart(5, '0')}`,
		fields: { Name: [`Vendor ${i}`], Country: [COUNTRIES[i % 8]], City: [CITIES[i % 8]] },
	};
}

/** The source as a Code node's JavaScript: items { code, name, country, city }. */
export function mappingSourceCode(): string {
	return [
		`const countries = ${JSON.stringify(COUNTRIES)};`,
		`const cities = ${JSON.stringify(CITIES)};`,
		'const items = [];',
		`for (let i = 0; i < ${MAPPING.items}; i++) {`,
		"  items.push({ json: { code: 'map-' + String(i).padStart(5, '0'), name: `Vendor ${i}`, country: countries[i % 8], city: cities[i % 8] } });",
		'}',
		'return items;',
	].join('\n');
}

/** The four expressions: the record ID's and each column's, as `{{ $json.<field> }}`. */
export const mappingExpressions = (): Record<string, string> => ({
	recordId: `={{ $json.${MAPPING.idField} }}`,
	...Object.fromEntries(
		Object.entries(MAPPING.columns).map(([column, field]) => [column, `={{ $json.${field} }}`]),
	),
});

/** Catalog Record → Sync, Map Each Column Manually with the expressions, as the editor saves it. */
export function mappedSyncParameters(): INodeParameters {
	const field = (id: string, displayName: string, required: boolean) => ({
		id,
		displayName,
		required,
		defaultMatch: id === 'recordId',
		canBeUsedToMatch: true,
		display: true,
		type: 'string',
		removed: false,
	});
	return {
		resource: 'catalogRecord',
		operation: 'sync',
		catalogId: { __rl: true, mode: 'id', value: MAPPING.catalog },
		columns: {
			mappingMode: 'defineBelow',
			value: mappingExpressions(),
			matchingColumns: ['recordId'],
			schema: [
				field('recordId', 'Record ID', true),
				...Object.keys(MAPPING.columns).map((column) => field(column, column, column === 'Name')),
			],
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		},
		options: { reindex: false },
	} as INodeParameters;
}

/** Edit Fields (Set) with the same four expressions, each into a field of its own. */
export function mappedFieldsParameters(): INodeParameters {
	return {
		assignments: {
			assignments: Object.entries(mappingExpressions()).map(([name, value], i) => ({
				id: `m${i}`,
				name,
				type: 'string',
				value,
			})),
		},
		options: {},
	} as INodeParameters;
}

// ------------------------------------------------------------------ Adaptive concurrency

export const ADAPTIVE = {
	/** The floor's cap: the Auto limiter's ceiling. */
	floorConcurrency: 16,
	latencyMs: 50,
	/** The simulated service refuses (429) a request above this many in flight. */
	maxInFlight: 6,
};
