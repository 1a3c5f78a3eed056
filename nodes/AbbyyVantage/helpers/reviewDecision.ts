import type { IDataObject } from 'n8n-workflow';

/**
 * Needs review, decided by the node: whether a document can go straight on (to an ERP, a
 * spreadsheet) or a person should look at it first, and why. Decided from what Vantage returns
 * for the document (docs.abbyy.com/vantage/developer/output/json/json-schema and TransactionDto
 * `documents[]`): each value's confidence and verification flags (read by ./extractedData.ts into
 * `fieldDetails`), the values themselves, the business-rule errors and the classification.
 * Pure: no parameter is read here (../params/needsReview.ts reads them).
 */

/** The rules a document is checked against; each left out is not checked. */
export interface ReviewRules {
	/** A value read with a lower confidence (0–100) needs review. */
	minConfidence?: number;
	/**
	 * Thresholds for some fields, by path ("Total", "Vendor.VatId", "LineItems.Amount"; lower
	 * case, no row indexes): the most specific path wins over a group's and over `minConfidence`.
	 */
	fieldThresholds?: Array<{ field: string; minConfidence: number }>;
	/** Paths that must have a value ("LineItems.Amount": in every row). */
	requiredFields?: string[];
	/** A business-rule error Vantage reported needs review. */
	ruleErrors?: boolean;
	/** A document type Vantage did not classify confidently needs review. */
	uncertainDocumentType?: boolean;
	/** A value Vantage marked for verification (and no person verified) needs review. */
	needsVerification?: boolean;
}

/** Why a document needs review: one shape for every reason, `message` says it in words. */
export type ReviewReasonCode =
	| 'lowConfidence'
	| 'needsVerification'
	| 'requiredFieldEmpty'
	| 'ruleError'
	| 'uncertainDocumentType'
	| 'transactionFailed'
	| 'manualReview'
	| 'moreReasons';

export interface ReviewReason extends IDataObject {
	reason: ReviewReasonCode;
	message: string;
}

export interface ReviewDecision extends IDataObject {
	needsReview: boolean;
	reviewReasons: ReviewReason[];
}

/**
 * Reasons listed per document at most; the last entry then says how many more there were. A
 * 2 000-row table read at low confidence would otherwise put thousands of reasons in one item
 * (and in the message to a reviewer), where the first ones already tell what to look at.
 */
export const MAX_REVIEW_REASONS = 50;

/** What a document is decided from. */
export interface ReviewInput {
	/** The shaped values (`fields` of the item). */
	fields: IDataObject;
	/** The same tree with confidence and flags per value (`fieldDetails`). */
	fieldDetails: IDataObject;
	/** TransactionDto `documents[].classification`, as Vantage returned it. */
	classification?: unknown;
	/** TransactionDto `documents[].businessRulesErrors`, as Vantage returned it. */
	businessRulesErrors?: unknown;
	/** Set when the transaction did not end Processed: it has no results to trust. */
	transactionError?: string | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** A leaf of `fieldDetails` (./extractedData.ts FieldDetail), told from a group by its keys. */
interface Leaf {
	value: unknown;
	confidence: number | null;
	needsVerification: boolean;
	verified: boolean;
}

const LEAF_KEYS = ['value', 'confidence', 'rawValue', 'needsVerification', 'verified'];

function isLeaf(value: unknown): value is Leaf {
	return isObject(value) && LEAF_KEYS.every((key) => key in value);
}

/**
 * The names of a field path as a user writes it: dots between names, or slashes as the QA reports
 * and the quality summary write them ("Vendor/VatId"); row indexes and spaces dropped.
 */
function pathNames(path: string): string[] {
	return path
		.replace(/\[[^\]]*\]/g, '')
		.split(/[./]/)
		.map((part) => part.trim())
		.filter(Boolean);
}

/**
 * A field path as the rules compare it: lower case, dots between names, without row indexes or
 * spaces ("LineItems[2].Amount " → "lineitems.amount", "Vendor/VatId" → "vendor.vatid").
 */
export function normalizeFieldPath(path: string): string {
	return pathNames(path)
		.map((part) => part.toLowerCase())
		.join('.');
}

/** A value as a reason shows it: short, whatever its type. */
function shown(value: unknown): string {
	const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
	return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function isEmptyValue(value: unknown): boolean {
	if (value === null || value === undefined) return true;
	if (typeof value === 'string') return value.trim() === '';
	if (Array.isArray(value)) return value.every(isEmptyValue);
	if (isObject(value)) return Object.values(value).every(isEmptyValue);
	return false;
}

/** The child of a group by name: exactly, else ignoring case. */
function childOf(group: Json, name: string): { key: string; value: unknown } | undefined {
	if (name in group) return { key: name, value: group[name] };
	const key = Object.keys(group).find((k) => k.toLowerCase() === name.toLowerCase());
	return key === undefined ? undefined : { key, value: group[key] };
}

/**
 * Every value leaf of `details` with its path as shown ("LineItems[2].Amount") and as compared
 * ("lineitems.amount").
 */
function leaves(details: IDataObject): Array<{ path: string; schemaPath: string; leaf: Leaf }> {
	const out: Array<{ path: string; schemaPath: string; leaf: Leaf }> = [];
	const visit = (node: unknown, path: string, schemaPath: string) => {
		if (isLeaf(node)) out.push({ path, schemaPath, leaf: node });
		else if (Array.isArray(node))
			node.forEach((entry, i) => visit(entry, `${path}[${i}]`, schemaPath));
		else if (isObject(node)) {
			for (const [name, child] of Object.entries(node)) {
				visit(
					child,
					path ? `${path}.${name}` : name,
					schemaPath ? `${schemaPath}.${name.toLowerCase()}` : name.toLowerCase(),
				);
			}
		}
	};
	visit(details, '', '');
	return out;
}

/** The threshold for a field: its own, else its nearest group's, else the general one. */
function thresholdFor(
	schemaPath: string,
	own: Map<string, number>,
	general: number | undefined,
): number | undefined {
	for (let path = schemaPath; path; path = path.slice(0, Math.max(0, path.lastIndexOf('.')))) {
		const threshold = own.get(path);
		if (threshold !== undefined) return threshold;
	}
	return general;
}

function confidenceReasons(details: IDataObject, rules: ReviewRules): ReviewReason[] {
	const reasons: ReviewReason[] = [];
	const own = new Map(
		(rules.fieldThresholds ?? []).map((t) => [normalizeFieldPath(t.field), t.minConfidence]),
	);
	for (const { path, schemaPath, leaf } of leaves(details)) {
		// A value a person verified (Manual Review) has been checked already; an empty one is
		// Required Fields' matter; one without a confidence cannot be judged by it.
		if (leaf.verified || isEmptyValue(leaf.value)) continue;
		const threshold = thresholdFor(schemaPath, own, rules.minConfidence);
		if (
			threshold !== undefined &&
			typeof leaf.confidence === 'number' &&
			leaf.confidence < threshold
		) {
			reasons.push({
				reason: 'lowConfidence',
				field: path,
				value: leaf.value as IDataObject[string],
				confidence: leaf.confidence,
				threshold,
				message: `${path} ${shown(leaf.value)} was read with ${leaf.confidence} % confidence, below the threshold of ${threshold} %`,
			});
		}
		if (rules.needsVerification && leaf.needsVerification) {
			reasons.push({
				reason: 'needsVerification',
				field: path,
				value: leaf.value as IDataObject[string],
				confidence: leaf.confidence,
				message: `${path} ${shown(leaf.value)} is marked for verification by Vantage`,
			});
		}
	}
	return reasons;
}

/**
 * The empty places of a required path in the values: the path itself, or each table row whose
 * column is empty ("LineItems[1].Amount"). `missing` when a name is not among the fields at all.
 */
function emptyPlaces(
	value: unknown,
	segments: string[],
	path: string,
): Array<{ path: string; missing: boolean }> {
	if (!segments.length) return isEmptyValue(value) ? [{ path, missing: false }] : [];
	if (Array.isArray(value)) {
		if (!value.length) return [{ path: [path, ...segments].join('.'), missing: false }];
		return value.flatMap((entry, i) => emptyPlaces(entry, segments, `${path}[${i}]`));
	}
	if (!isObject(value)) return [{ path: [path, ...segments].join('.'), missing: false }];
	const [name, ...rest] = segments;
	const child = childOf(value, name);
	const childPath = path ? `${path}.${child?.key ?? name}` : (child?.key ?? name);
	if (!child) return [{ path: [childPath, ...rest].join('.'), missing: true }];
	return emptyPlaces(child.value, rest, childPath);
}

function requiredReasons(fields: IDataObject, required: string[]): ReviewReason[] {
	const reasons: ReviewReason[] = [];
	for (const wanted of required) {
		const segments = pathNames(wanted);
		if (!segments.length) continue;
		for (const place of emptyPlaces(fields, segments, '')) {
			reasons.push({
				reason: 'requiredFieldEmpty',
				field: place.path,
				message: place.missing
					? `${place.path} is required, and the result has no such field (not found by Vantage, or not a field of this skill: check the name)`
					: `${place.path} is required, and it is empty`,
			});
		}
	}
	return reasons;
}

function ruleErrorReasons(errors: unknown): ReviewReason[] {
	if (!Array.isArray(errors)) return [];
	return errors.filter(isObject).map((error) => {
		const text = (key: string) =>
			typeof error[key] === 'string' && error[key] !== '' ? (error[key] as string) : null;
		const custom = text('customMessage');
		const rule = text('ruleId');
		const errorType = text('errorType');
		const fieldId = text('currentFieldId');
		const what = custom ?? `${errorType ?? 'A'} rule${rule ? ` ${rule}` : ''} failed`;
		return {
			reason: 'ruleError',
			rule,
			errorType,
			fieldId,
			message: `Vantage reported a rule error${fieldId ? ` on ${fieldId}` : ''}: ${what}`,
		};
	});
}

/**
 * Only a classification Vantage itself calls unconfident counts (`isResultClassConfident:
 * false`): a document skill has none, and Vantage's own threshold decided it.
 */
function classificationReasons(classification: unknown): ReviewReason[] {
	if (!isObject(classification) || classification.isResultClassConfident !== false) return [];
	const resultClass = isObject(classification.resultClass) ? classification.resultClass : {};
	const name =
		typeof resultClass.name === 'string'
			? resultClass.name
			: typeof resultClass.id === 'string'
				? resultClass.id
				: null;
	const match = (
		Array.isArray(classification.classConfidences) ? classification.classConfidences : []
	)
		.filter(isObject)
		.find((c) => c.classId === resultClass.id);
	const confidence = typeof match?.confidence === 'number' ? match.confidence : null;
	return [
		{
			reason: 'uncertainDocumentType',
			documentType: name,
			confidence,
			message: `Vantage did not classify the document type confidently: ${name ?? 'no type'}${confidence !== null ? ` at ${confidence} % confidence` : ''}`,
		},
	];
}

/** The decision for one document. */
export function decideReview(input: ReviewInput, rules: ReviewRules): ReviewDecision {
	const reasons: ReviewReason[] = [];
	if (input.transactionError) {
		reasons.push({
			reason: 'transactionFailed',
			message: `The transaction has no results to trust: ${input.transactionError}`,
		});
	}
	if (rules.ruleErrors) reasons.push(...ruleErrorReasons(input.businessRulesErrors));
	if (rules.uncertainDocumentType) reasons.push(...classificationReasons(input.classification));
	if (rules.requiredFields?.length) {
		reasons.push(...requiredReasons(input.fields, rules.requiredFields));
	}
	if (
		rules.minConfidence !== undefined ||
		rules.fieldThresholds?.length ||
		rules.needsVerification
	) {
		reasons.push(...confidenceReasons(input.fieldDetails, rules));
	}
	if (reasons.length > MAX_REVIEW_REASONS) {
		const more = reasons.length - (MAX_REVIEW_REASONS - 1);
		reasons.splice(MAX_REVIEW_REASONS - 1, Infinity, {
			reason: 'moreReasons',
			count: more,
			message: `${more} more reasons are not listed: the first ${MAX_REVIEW_REASONS - 1} are`,
		});
	}
	return { needsReview: reasons.length > 0, reviewReasons: reasons };
}

/**
 * The decision for a transaction Vantage itself stopped for Manual Review (Process Document with
 * On Manual Review → Output the Link, or waiting durably): it has no results yet, a person must
 * look at it in Vantage (TransactionDto `manualReviewLink`, valid 168 h), whatever the rules.
 */
export function manualReviewDecision(transactionId: string, link: unknown): ReviewDecision {
	return {
		needsReview: true,
		reviewReasons: [
			{
				reason: 'manualReview',
				message:
					typeof link === 'string' && link
						? `Transaction ${transactionId} waits for Manual Review in Vantage: open manualReviewLink`
						: `Transaction ${transactionId} waits for Manual Review in Vantage`,
			},
		],
	};
}
