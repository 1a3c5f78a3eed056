/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * End-to-end infrastructure, never shipped: writes the sample documents the examples read. */
/**
 * The sample documents the document examples read, written into the run's files folder (the one
 * folder n8n may read and write, `N8N_RESTRICT_FILE_ACCESS_TO`): text "PDFs" with the
 * `Name: value` lines the simulator extracts from (test/simulator/processing/extract.ts), and
 * what each should come out as; and the vendor export the catalog-sync example reads (./vendors.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { invoiceText } from '../../test/helpers/binary';
import { VENDORS_FILE, vendorsCsv } from './vendors';

/**
 * Folders the examples name, replaced per run by folders under the run's files folder (a user
 * replaces them with their own). The report example's `/tmp/vantage-reports/` is replaced too.
 */
export const EXAMPLE_FOLDERS = {
	invoices: '/tmp/vantage-invoices/',
	spreadsheets: '/tmp/vantage-spreadsheets/',
	attachments: '/tmp/vantage-attachments/',
	vendors: '/tmp/vantage-vendors/',
} as const;

export type SampleFolder = keyof typeof EXAMPLE_FOLDERS;

/** One sample invoice: its file and what the Invoice skill reads from it, as the node outputs it. */
export interface SampleInvoice {
	file: string;
	text: string;
	expected: {
		InvoiceNumber: string;
		InvoiceDate: string;
		Total: number;
		Currency: string | null;
		PONumbers: string[];
		Vendor: { Name: string; VatId: string | null };
		LineItems: Array<{ Description: string; Quantity: number; Amount: number }>;
	};
}

function invoice(
	file: string,
	fields: {
		number: string;
		date: string;
		total: string;
		currency: string;
		vendor: string;
		vatId?: string;
		poNumbers?: string[];
		lines: Array<[string, string, string]>;
	},
	expected: SampleInvoice['expected'],
): SampleInvoice {
	const extra = [`Currency: ${fields.currency}`];
	if (fields.vatId) extra.push(`Vendor.VatId: ${fields.vatId}`);
	return {
		file,
		text: invoiceText({ ...fields, extra }),
		expected,
	};
}

/** Read by the invoices example (and the Process-skill and manual-review e2e workflows). */
export const INVOICES: SampleInvoice[] = [
	invoice(
		'invoice-2025-1001.pdf',
		{
			number: 'INV-1001',
			date: '03.11.2025',
			total: '1.250,00',
			currency: 'EUR',
			vendor: 'ACME GmbH',
			vatId: 'DE123456789',
			poNumbers: ['PO-7', 'PO-8'],
			lines: [
				['Standing desk', '2', '1.000,00'],
				['Office chair', '1', '250,00'],
			],
		},
		{
			InvoiceNumber: 'INV-1001',
			InvoiceDate: '2025-11-03',
			Total: 1250,
			Currency: 'EUR',
			PONumbers: ['PO-7', 'PO-8'],
			Vendor: { Name: 'ACME GmbH', VatId: 'DE123456789' },
			LineItems: [
				{ Description: 'Standing desk', Quantity: 2, Amount: 1000 },
				{ Description: 'Office chair', Quantity: 1, Amount: 250 },
			],
		},
	),
	invoice(
		'invoice-2025-1002.pdf',
		{
			// A comma and umlauts: the spreadsheet must quote the cell and keep UTF-8.
			number: 'INV-1002',
			date: '15.11.2025',
			total: '89,90',
			currency: 'EUR',
			vendor: 'Müller, Schmidt & Söhne',
			lines: [['Paper "A4", 10 packs', '10', '89,90']],
		},
		{
			InvoiceNumber: 'INV-1002',
			InvoiceDate: '2025-11-15',
			Total: 89.9,
			Currency: 'EUR',
			PONumbers: [],
			Vendor: { Name: 'Müller, Schmidt & Söhne', VatId: null },
			LineItems: [{ Description: 'Paper "A4", 10 packs', Quantity: 10, Amount: 89.9 }],
		},
	),
	invoice(
		'invoice-2025-1003.pdf',
		{
			number: 'INV-1003',
			date: '28.11.2025',
			total: '4.020,50',
			currency: 'USD',
			vendor: 'Globex Corporation',
			vatId: 'US-98-7654321',
			poNumbers: ['PO-9'],
			lines: [
				['Laptop', '1', '3.500,00'],
				['Docking station', '2', '520,50'],
			],
		},
		{
			InvoiceNumber: 'INV-1003',
			InvoiceDate: '2025-11-28',
			Total: 4020.5,
			Currency: 'USD',
			PONumbers: ['PO-9'],
			Vendor: { Name: 'Globex Corporation', VatId: 'US-98-7654321' },
			LineItems: [
				{ Description: 'Laptop', Quantity: 1, Amount: 3500 },
				{ Description: 'Docking station', Quantity: 2, Amount: 520.5 },
			],
		},
	),
];

/** Lies next to the invoices and must not be read: the example reads `*.pdf` only. */
export const NOT_AN_INVOICE = { file: 'notes.txt', text: 'InvoiceNumber: NOT-AN-INVOICE\n' };

/** The "attachments of one e-mail" the e-mail example's manual path reads. */
export const ATTACHMENTS: SampleInvoice[] = [
	invoice(
		'scan-supplier-a.pdf',
		{
			number: 'INV-2001',
			date: '01.12.2025',
			total: '310,00',
			currency: 'EUR',
			vendor: 'Initech',
			lines: [['Printer toner', '2', '310,00']],
		},
		{
			InvoiceNumber: 'INV-2001',
			InvoiceDate: '2025-12-01',
			Total: 310,
			Currency: 'EUR',
			PONumbers: [],
			Vendor: { Name: 'Initech', VatId: null },
			LineItems: [{ Description: 'Printer toner', Quantity: 2, Amount: 310 }],
		},
	),
	invoice(
		'scan-supplier-b.pdf',
		{
			number: 'INV-2002',
			date: '02.12.2025',
			total: '75,25',
			currency: 'GBP',
			vendor: 'Umbrella Ltd',
			lines: [['Cables', '5', '75,25']],
		},
		{
			InvoiceNumber: 'INV-2002',
			InvoiceDate: '2025-12-02',
			Total: 75.25,
			Currency: 'GBP',
			PONumbers: [],
			Vendor: { Name: 'Umbrella Ltd', VatId: null },
			LineItems: [{ Description: 'Cables', Quantity: 5, Amount: 75.25 }],
		},
	),
];

/** The run's folders that stand in for EXAMPLE_FOLDERS. */
export function sampleFolders(filesDir: string): Record<SampleFolder, string> {
	return {
		invoices: join(filesDir, 'invoices'),
		spreadsheets: join(filesDir, 'spreadsheets'),
		attachments: join(filesDir, 'attachments'),
		vendors: join(filesDir, 'vendors'),
	};
}

/** Create the folders and write the sample documents; returns the folders. */
export function writeSamples(filesDir: string): Record<SampleFolder, string> {
	const folders = sampleFolders(filesDir);
	for (const folder of Object.values(folders)) mkdirSync(folder, { recursive: true });
	for (const sample of [...INVOICES, NOT_AN_INVOICE])
		writeFileSync(join(folders.invoices, sample.file), sample.text);
	for (const sample of ATTACHMENTS)
		writeFileSync(join(folders.attachments, sample.file), sample.text);
	writeFileSync(join(folders.vendors, VENDORS_FILE), vendorsCsv());
	return folders;
}
