/**
 * The vendor data of the catalog-sync example: what the `Vendors` catalog holds before the sync
 * (seeded by ./setup.ts) and the ERP export the example reads (`vendors.csv`), with added, changed,
 * removed and unchanged vendors mixed, and what the sync must make of them.
 */

/** A catalog record as the simulator stores it: column → values. */
export interface VendorRecord {
	id: string;
	fields: Record<string, string[]>;
}

/** One row of the ERP export. */
export interface SourceVendor {
	VendorNo: string;
	Name: string;
	Country: string;
}

/** The catalog the example syncs (FIXTURE.catalogId: columns Name, Text notEmpty; Country, Text). */
export const SYNC_CATALOG = 'Vendors';

/** The file the example reads, in EXAMPLE_FOLDERS.vendors. */
export const VENDORS_FILE = 'vendors.csv';

/** The `Vendors` catalog before the sync: 10 records. */
export const CATALOG_BEFORE: VendorRecord[] = [
	{ id: 'V-1001', fields: { Name: ['ACME GmbH'], Country: ['DE'] } },
	{ id: 'V-1002', fields: { Name: ['Müller, Schmidt & Söhne'], Country: ['DE'] } },
	{ id: 'V-1003', fields: { Name: ['Globex Corp.'], Country: ['US'] } },
	{ id: 'V-1004', fields: { Name: ['Initech'], Country: ['US'] } },
	{ id: 'V-1005', fields: { Name: ['Umbrella Ltd'], Country: ['GB'] } },
	{ id: 'V-1006', fields: { Name: ['Hooli'], Country: ['US'] } },
	{ id: 'V-1007', fields: { Name: ['Soylent Oy'], Country: ['FI'] } },
	// No Country stored; the export's empty Country is the same: unchanged.
	{ id: 'V-1008', fields: { Name: ['Stark Industries'] } },
	{ id: 'V-1009', fields: { Name: ['Wayne Enterprises'], Country: ['US'] } },
	// No Country stored; the export now has one: changed.
	{ id: 'V-1010', fields: { Name: ['Tyrell Corporation'] } },
];

/** The ERP export: 11 vendors. */
export const SOURCE_VENDORS: SourceVendor[] = [
	{ VendorNo: 'V-1001', Name: 'ACME GmbH', Country: 'DE' },
	{ VendorNo: 'V-1002', Name: 'Müller, Schmidt & Söhne', Country: 'DE' },
	{ VendorNo: 'V-1003', Name: 'Globex Corporation', Country: 'US' },
	{ VendorNo: 'V-1004', Name: 'Initech', Country: 'US' },
	{ VendorNo: 'V-1005', Name: 'Umbrella Ltd', Country: 'IE' },
	{ VendorNo: 'V-1007', Name: 'Soylent Oy', Country: 'FI' },
	{ VendorNo: 'V-1008', Name: 'Stark Industries', Country: '' },
	{ VendorNo: 'V-1010', Name: 'Tyrell Corporation', Country: 'US' },
	{ VendorNo: 'V-1011', Name: 'Cyberdyne Systems', Country: 'US' },
	{ VendorNo: 'V-1012', Name: 'Łódź Logistics Sp. z o.o.', Country: 'PL' },
	{ VendorNo: 'V-1013', Name: 'Ōkami "Wolf" KK', Country: 'JP' },
];

/** What the sync must plan for CATALOG_BEFORE and SOURCE_VENDORS. */
export const EXPECTED_PLAN = {
	add: ['V-1011', 'V-1012', 'V-1013'],
	update: ['V-1003', 'V-1005', 'V-1010'],
	delete: ['V-1006', 'V-1009'],
	unchanged: ['V-1001', 'V-1002', 'V-1004', 'V-1007', 'V-1008'],
};

/** A vendor as the catalog record the sync writes (an empty Country is no value). */
export function recordOf(vendor: SourceVendor): VendorRecord {
	return {
		id: vendor.VendorNo,
		fields: { Name: [vendor.Name], Country: vendor.Country ? [vendor.Country] : [] },
	};
}

/** Fields without empty columns, keys sorted: stored `Country: []` and no Country are the same. */
export function normalised(record: VendorRecord): VendorRecord {
	const fields: Record<string, string[]> = {};
	for (const key of Object.keys(record.fields).sort()) {
		if (record.fields[key].length) fields[key] = record.fields[key];
	}
	return { id: record.id, fields };
}

function csvCell(value: string): string {
	return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The export as the ERP writes it: UTF-8, CRLF, quoted where needed. */
export function vendorsCsv(vendors: SourceVendor[] = SOURCE_VENDORS): string {
	const rows = vendors.map((v) => [v.VendorNo, v.Name, v.Country].map(csvCell).join(','));
	return ['VendorNo,Name,Country', ...rows].join('\r\n') + '\r\n';
}
