/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- e2e data, never shipped: the scripted model takes any key. */
/**
 * What the AI-agent example and suites need besides n8n: the catalog the example's agent looks
 * vendors up in, the OpenAI credential that points n8n's OpenAI Chat Model at the scripted model
 * (./openai.ts), and the example's scenario: the decisions a model would take for the sample
 * invoices (./samples.ts).
 */
import type { Scenario, StepContext } from './openai';

/** The catalog examples/invoice-agent.json looks vendors up in. */
export const APPROVED_VENDORS = 'Approved vendors';
export const APPROVED_VENDOR_COLUMNS = [
	{ name: 'Name', type: 'Text' as const, notEmpty: true },
	{ name: 'VatId', type: 'Text' as const, notEmpty: false },
	{ name: 'Country', type: 'Text' as const, notEmpty: false },
];
/** ACME (INV-1001) is approved; Globex (INV-1003) is not in the catalog; INV-1002 has no VAT ID. */
export const APPROVED_VENDOR_RECORDS = [
	{ id: 'V-1001', fields: { Name: ['ACME GmbH'], VatId: ['DE123456789'], Country: ['DE'] } },
	{ id: 'V-1004', fields: { Name: ['Initech'], VatId: ['US-11-2223334'], Country: ['US'] } },
	{ id: 'V-1007', fields: { Name: ['Soylent Oy'], VatId: ['FI12345678'], Country: ['FI'] } },
];

export const OPENAI_CREDENTIAL = { id: 'vaCredOpenAI1', name: 'OpenAI account' };
/** What the scripted model accepts as a key: any; not a secret. */
export const SCRIPTED_MODEL_API_KEY = 'sk-e2e-scripted-model';

/** The example's tool, as n8n names it from the node "Find vendor by VAT ID". */
export const FIND_VENDOR_TOOL = 'Find_vendor_by_VAT_ID';

const decision = (value: string, vendorId: string | null, reason: string) => ({
	content: JSON.stringify({ decision: value, vendorId, reason }),
});

/** What the tool answered, parsed as the model reads it: the first item's json. */
export function answerOf(content: string): Record<string, unknown> {
	const parsed = JSON.parse(content) as unknown;
	return (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
}

/**
 * The example's model: looks the VAT ID in the prompt up with the tool, then approves a known
 * vendor's invoice of at most 10 000, and sends anything else to a person.
 */
export const INVOICE_SCENARIO: Scenario = [
	({ prompt }: StepContext) => {
		const vat = /VAT ID: (\S+?),/.exec(prompt)?.[1];
		if (!vat || vat === 'none') {
			return decision('ask a person', null, 'The invoice has no VAT ID to check the vendor by.');
		}
		return { calls: [{ name: FIND_VENDOR_TOOL, arguments: { search: vat } }] };
	},
	({ prompt, results }: StepContext) => {
		const answer = answerOf(results[results.length - 1].content);
		const found = (answer.results as Array<{ id: string }> | undefined) ?? [];
		const total = Number(/total ([\d.]+)/.exec(prompt)?.[1]);
		if (found.length !== 1) {
			return decision('ask a person', null, 'The vendor is not in the Approved vendors catalog.');
		}
		if (!(total <= 10000)) {
			return decision('ask a person', found[0].id, 'The total is above 10 000.');
		}
		return decision('approve', found[0].id, 'Known vendor, total within the limit.');
	},
];
