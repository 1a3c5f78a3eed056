/**
 * A vendor catalog as an ERP fills one: vendor number as record ID, name, VAT ID, country, city,
 * street, IBAN. Deterministic, so answers can be asserted and sized.
 */
export interface VendorRow {
	id: string;
	fields: Record<string, string[]>;
}

export const VENDOR_COLUMNS = [
	{ name: 'Name', type: 'Text' as const, notEmpty: true },
	{ name: 'VatId', type: 'Text' as const, notEmpty: false },
	{ name: 'Country', type: 'Text' as const, notEmpty: false },
	{ name: 'City', type: 'Text' as const, notEmpty: false },
	{ name: 'Street', type: 'Text' as const, notEmpty: false },
	{ name: 'Iban', type: 'Text' as const, notEmpty: false },
];

const CITIES = ['Berlin', 'München', 'Hamburg', 'Köln', 'Frankfurt am Main', 'Stuttgart'];

/** Vendor `n` (0-based): V-10000 + n, VAT ID DE + nine digits. */
export function vendorRow(n: number): VendorRow {
	const number = 10000 + n;
	const digits = String(100000000 + n * 7919).slice(-9);
	return {
		id: `V-${number}`,
		fields: {
			Name: [`Vendor ${number} Handelsgesellschaft mbH`],
			VatId: [`DE${digits}`],
			Country: ['DE'],
			City: [CITIES[n % CITIES.length]],
			Street: [`Industriestraße ${(n % 180) + 1}`],
			Iban: [`DE89 3704 0044 ${String(5320130000 + n).padStart(10, '0')}`],
		},
	};
}

export function vendorRows(count: number): VendorRow[] {
	return Array.from({ length: count }, (_, n) => vendorRow(n));
}
