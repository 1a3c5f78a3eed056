import type { IDataObject } from 'n8n-workflow';

import {
	decideReview,
	MAX_REVIEW_REASONS,
	normalizeFieldPath,
	type ReviewInput,
	type ReviewRules,
} from '../../../nodes/AbbyyVantage/helpers/reviewDecision';

/** A value of `fieldDetails` (helpers/extractedData.ts FieldDetail). */
const leaf = (
	value: IDataObject[string],
	confidence: number | null,
	flags: { needsVerification?: boolean; verified?: boolean } = {},
) => ({
	value,
	confidence,
	rawValue: value === null ? null : String(value),
	needsVerification: flags.needsVerification ?? false,
	verified: flags.verified ?? false,
});

/** An invoice as the node shapes it: simple fields, a repeating one, a group and a table. */
function invoice(): ReviewInput {
	return {
		fields: {
			InvoiceNumber: 'INV-1',
			InvoiceDate: null,
			Total: 1234.5,
			PONumbers: ['PO-1', 'PO-2'],
			Vendor: { Name: 'ACME GmbH', VatId: 'DE123' },
			LineItems: [
				{ Description: 'Bolts', Amount: 1000 },
				{ Description: 'Nuts', Amount: null },
			],
		},
		fieldDetails: {
			InvoiceNumber: leaf('INV-1', 99),
			InvoiceDate: null,
			Total: leaf(1234.5, 62),
			PONumbers: [leaf('PO-1', 95), leaf('PO-2', 40, { verified: true })],
			Vendor: {
				Name: leaf('ACME GmbH', 88),
				VatId: leaf('DE123', 71, { needsVerification: true }),
			},
			LineItems: [
				{ Description: leaf('Bolts', 55), Amount: leaf(1000, 97) },
				{ Description: leaf('Nuts', 93), Amount: null },
			],
		},
	};
}

const reasonsOf = (input: ReviewInput, rules: ReviewRules) =>
	decideReview(input, rules).reviewReasons.map((r) =>
		[r.reason, r.field ?? r.documentType ?? r.rule ?? null, r.threshold ?? null].filter(
			(part) => part !== null,
		),
	);

describe('needs review, decided from what Vantage returned for a document', () => {
	test('no rule broken: needsReview false and no reasons', () => {
		expect(decideReview(invoice(), { minConfidence: 30 })).toEqual({
			needsReview: false,
			reviewReasons: [],
		});
	});

	test.each<[string, ReviewRules, unknown[]]>([
		[
			'Minimum Confidence: every value below it, by its place (row and entry indexes), verified and empty values skipped',
			{ minConfidence: 80 },
			[
				['lowConfidence', 'Total', 80],
				['lowConfidence', 'Vendor.VatId', 80],
				['lowConfidence', 'LineItems[0].Description', 80],
			],
		],
		[
			'a field’s own threshold wins over the general one, either way',
			{
				minConfidence: 80,
				fieldThresholds: [
					{ field: 'Total', minConfidence: 50 },
					{ field: 'Vendor.Name', minConfidence: 90 },
				],
			},
			[
				['lowConfidence', 'Vendor.Name', 90],
				['lowConfidence', 'Vendor.VatId', 80],
				['lowConfidence', 'LineItems[0].Description', 80],
			],
		],
		[
			'a group’s or table’s threshold reaches its fields and columns; the most specific wins; names ignore case and row indexes',
			{
				fieldThresholds: [
					{ field: 'lineitems', minConfidence: 96 },
					{ field: ' LineItems[].Amount ', minConfidence: 0 },
					{ field: 'VENDOR', minConfidence: 75 },
				],
			},
			[
				['lowConfidence', 'Vendor.VatId', 75],
				['lowConfidence', 'LineItems[0].Description', 96],
				['lowConfidence', 'LineItems[1].Description', 96],
			],
		],
		[
			'Required Fields: an empty value, a table column empty in one row, a name the result lacks',
			{
				requiredFields: [
					'InvoiceNumber',
					'InvoiceDate',
					'LineItems.Amount',
					'Vendor.Iban',
					'Dueate',
				],
			},
			[
				['requiredFieldEmpty', 'InvoiceDate'],
				['requiredFieldEmpty', 'LineItems[1].Amount'],
				['requiredFieldEmpty', 'Vendor.Iban'],
				['requiredFieldEmpty', 'Dueate'],
			],
		],
		[
			'Flag Values Marked for Verification: Vantage’s own flag',
			{ needsVerification: true },
			[['needsVerification', 'Vendor.VatId']],
		],
	])('%s', (_name, rules, expected) => {
		expect(reasonsOf(invoice(), rules)).toEqual(expected);
	});

	test('each reason names the field, its value, its confidence and the threshold in words', () => {
		const { reviewReasons } = decideReview(invoice(), {
			minConfidence: 70,
			requiredFields: ['InvoiceDate', 'Dueate'],
		});
		expect(reviewReasons).toEqual([
			{
				reason: 'requiredFieldEmpty',
				field: 'InvoiceDate',
				message: 'InvoiceDate is required, and it is empty',
			},
			{
				reason: 'requiredFieldEmpty',
				field: 'Dueate',
				message:
					'Dueate is required, and the result has no such field (not found by Vantage, or not a field of this skill: check the name)',
			},
			{
				reason: 'lowConfidence',
				field: 'Total',
				value: 1234.5,
				confidence: 62,
				threshold: 70,
				message: 'Total 1234.5 was read with 62 % confidence, below the threshold of 70 %',
			},
			{
				reason: 'lowConfidence',
				field: 'LineItems[0].Description',
				value: 'Bolts',
				confidence: 55,
				threshold: 70,
				message:
					'LineItems[0].Description "Bolts" was read with 55 % confidence, below the threshold of 70 %',
			},
		]);
	});

	test('rule errors as Vantage reported them (TransactionDto businessRulesErrors), only when flagged', () => {
		const input = {
			...invoice(),
			businessRulesErrors: [
				{
					errorType: 'Condition',
					customMessage: 'Total differs from the sum of the lines',
					ruleId: 'r-1',
					currentFieldId: 'f-total',
				},
				{ errorType: 'Check', ruleId: 'r-2' },
				'not an object',
			],
		};
		expect(decideReview(input, { ruleErrors: false }).needsReview).toBe(false);
		expect(decideReview(input, { ruleErrors: true }).reviewReasons).toEqual([
			{
				reason: 'ruleError',
				rule: 'r-1',
				errorType: 'Condition',
				fieldId: 'f-total',
				message:
					'Vantage reported a rule error on f-total: Total differs from the sum of the lines',
			},
			{
				reason: 'ruleError',
				rule: 'r-2',
				errorType: 'Check',
				fieldId: null,
				message: 'Vantage reported a rule error: Check rule r-2 failed',
			},
		]);
	});

	test.each([
		['not confident', false, true],
		['confident', true, false],
		['no word on it', undefined, false],
	])('a document type Vantage classified %s', (_name, confident, flagged) => {
		const input = {
			...invoice(),
			classification: {
				...(confident === undefined ? {} : { isResultClassConfident: confident }),
				resultClass: { id: 'invoice', name: 'Invoice' },
				classConfidences: [
					{ classId: 'receipt', className: 'Receipt', confidence: 40 },
					{ classId: 'invoice', className: 'Invoice', confidence: 55 },
				],
			},
		};
		const { reviewReasons } = decideReview(input, { uncertainDocumentType: true });
		expect(reviewReasons).toEqual(
			flagged
				? [
						{
							reason: 'uncertainDocumentType',
							documentType: 'Invoice',
							confidence: 55,
							message:
								'Vantage did not classify the document type confidently: Invoice at 55 % confidence',
						},
					]
				: [],
		);
		// A document skill's documents have no classification: nothing to flag.
		expect(decideReview(invoice(), { uncertainDocumentType: true }).needsReview).toBe(false);
	});

	test('a transaction that did not end Processed always needs review, whatever the rules', () => {
		const failed = { fields: {}, fieldDetails: {}, transactionError: 'The file is damaged' };
		expect(decideReview(failed, {})).toEqual({
			needsReview: true,
			reviewReasons: [
				{
					reason: 'transactionFailed',
					message: 'The transaction has no results to trust: The file is damaged',
				},
			],
		});
	});

	test(`at most ${MAX_REVIEW_REASONS} reasons, the last saying how many more`, () => {
		const rows = Array.from({ length: 120 }, (_, i) => ({ Amount: leaf(i, 10) }));
		const { needsReview, reviewReasons } = decideReview(
			{ fields: {}, fieldDetails: { LineItems: rows } },
			{ minConfidence: 50 },
		);
		expect(needsReview).toBe(true);
		expect(reviewReasons).toHaveLength(MAX_REVIEW_REASONS);
		expect(reviewReasons[MAX_REVIEW_REASONS - 2].field).toBe(
			`LineItems[${MAX_REVIEW_REASONS - 2}].Amount`,
		);
		expect(reviewReasons[MAX_REVIEW_REASONS - 1]).toEqual({
			reason: 'moreReasons',
			count: 120 - (MAX_REVIEW_REASONS - 1),
			message: `${120 - (MAX_REVIEW_REASONS - 1)} more reasons are not listed: the first ${MAX_REVIEW_REASONS - 1} are`,
		});
	});

	test('field paths are compared without case, spaces or row indexes; slashes work as dots', () => {
		expect(normalizeFieldPath(' LineItems[3]. Amount ')).toBe('lineitems.amount');
		expect(normalizeFieldPath('Vendor.VatId')).toBe('vendor.vatid');
		// As the QA reports and the quality summary name fields.
		expect(normalizeFieldPath('Vendor/VatId')).toBe('vendor.vatid');
		expect(reasonsOf(invoice(), { requiredFields: ['Vendor/Iban'] })).toEqual([
			['requiredFieldEmpty', 'Vendor.Iban'],
		]);
	});
});
