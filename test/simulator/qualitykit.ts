/** Shared by the QA report tests of the simulator and of the node: a month of processing. */
import { FIXTURE, type VantageSimulator } from './simulator';

/**
 * A deterministic month of a Process skill for the QA reports (see test/simulator/processing/qa.ts
 * for how the simulator derives them). Every transaction splits its file into two documents.
 *
 * - `corrected`: 2 transactions through Manual Review, from a PDF scan: Total read unsure
 *   (confidence 55: a recognition issue), Vendor/Name located wrongly, PONumbers added (not
 *   detected), a Vendor/VatId found that the document does not have (a false positive: located
 *   wrongly, not in the document); InvoiceDate, InvoiceNumber, Currency correct; the line items
 *   rightly absent.
 * - `clean`: 1 transaction without Manual Review, from a phone photo: nothing changed.
 * - `retyped`: 1 transaction through Manual Review whose document type the reviewer changed.
 * - not in the reports: a Document skill's transaction, a failed Process transaction.
 */
export const CORRECTED_TEXT = [
	'InvoiceNumber: INV-100',
	'InvoiceDate: 03.11.2025',
	'Total: 1.250,00',
	'Confidence.Total: 55',
	'Currency: EUR',
	'Vendor.Name: ACME GmbH',
	'Review.Vendor.Name: DetectedIncorrectly',
	'Review.PONumbers: NotDetected',
	'Vendor.VatId: DE999999999',
	'Review.Vendor.VatId: DetectedIncorrectly, NotInDocument',
].join('\n');

export const CLEAN_TEXT = ['InvoiceNumber: INV-200', 'Total: 99,00', 'Currency: EUR'].join('\n');

export const RETYPED_TEXT = [
	'InvoiceNumber: INV-300',
	'Total: 10,00',
	'Review.Class: Receipt',
].join('\n');

/** When the scenario's transactions completed. */
export const COMPLETED = {
	corrected: new Date('2026-03-02T08:00:00Z'),
	clean: new Date('2026-03-10T12:00:00Z'),
	retyped: new Date('2026-03-20T16:00:00Z'),
};

export interface QualityScenario {
	corrected: string[];
	clean: string[];
	retyped: string[];
}

export function seedQualityScenario(sim: VantageSimulator): QualityScenario {
	const processSkill = FIXTURE.processSkillId;
	const corrected = sim.seedCompletedTransactions(2, {
		skillId: processSkill,
		manualReview: true,
		completedAt: COMPLETED.corrected,
		files: [{ name: 'scan 1, "March".pdf', text: CORRECTED_TEXT, contentType: 'application/pdf' }],
	});
	const clean = sim.seedCompletedTransactions(1, {
		skillId: processSkill,
		completedAt: COMPLETED.clean,
		files: [{ name: 'photo.jpg', text: CLEAN_TEXT, contentType: 'image/jpeg' }],
	});
	const retyped = sim.seedCompletedTransactions(1, {
		skillId: processSkill,
		manualReview: true,
		completedAt: COMPLETED.retyped,
		files: [{ name: 'receipt.pdf', text: RETYPED_TEXT, contentType: 'application/pdf' }],
	});
	sim.seedCompletedTransactions(1, { skillId: FIXTURE.documentSkillId, manualReview: true });
	sim.seedCompletedTransactions(1, { skillId: processSkill, status: 'Failed' });
	return { corrected, clean, retyped };
}

/**
 * A month of a Process skill as operations teams see one: most documents go through Manual
 * Review, and many of those come out unchanged. Transactions per kind (each gives two documents),
 * all completed in March 2026:
 *
 * - `clean`: no Manual Review (`HasManualReview` 0), nothing changed;
 * - `confirmed`: through Manual Review, nothing changed (a person looked, all was right);
 * - `corrected`: through Manual Review, fields corrected (as in `seedQualityScenario`);
 * - `retyped`: through Manual Review, document type changed.
 *
 * Of its 100 documents 38 % never went to Manual Review, while 56 % passed without a change.
 */
export const REVIEWED_MONTH = { clean: 19, confirmed: 9, corrected: 20, retyped: 2 };

export function seedReviewedMonth(sim: VantageSimulator): void {
	const kinds: Array<[keyof typeof REVIEWED_MONTH, string, string, string, boolean]> = [
		['clean', CLEAN_TEXT, 'photo.jpg', 'image/jpeg', false],
		['confirmed', CLEAN_TEXT, 'scan.pdf', 'application/pdf', true],
		['corrected', CORRECTED_TEXT, 'scan.pdf', 'application/pdf', true],
		['retyped', RETYPED_TEXT, 'receipt.pdf', 'application/pdf', true],
	];
	kinds.forEach(([kind, text, name, contentType, review], k) =>
		sim.seedCompletedTransactions(REVIEWED_MONTH[kind], {
			skillId: FIXTURE.processSkillId,
			manualReview: review,
			completedAt: (i) => new Date(Date.UTC(2026, 2, 1 + ((i + k * 7) % 28), 9 + k)),
			files: [{ name, text, contentType }],
		}),
	);
}

/** What `seedQualityWeek` seeds: transactions per kind (each gives two documents). */
export const QUALITY_WEEK = { corrected: 6, clean: 10, confirmed: 4, retyped: 2 };

/**
 * A week of a Process skill's processing for the demo and the real-n8n suite (the weekly quality
 * digest example reads the last seven days): transactions completed over the six days before
 * `now`, most of them through Manual Review (some corrected, some unchanged), so that fewer than
 * 85 % of the documents go straight through (the example's alert).
 */
export function seedQualityWeek(sim: VantageSimulator, now = Date.now()): void {
	const seed = (count: number, text: string, name: string, contentType: string, review: boolean) =>
		sim.seedCompletedTransactions(count, {
			skillId: FIXTURE.processSkillId,
			manualReview: review,
			completedAt: (i) => new Date(now - (6 + i * 7) * 3_600_000),
			files: [{ name, text, contentType }],
		});
	seed(QUALITY_WEEK.corrected, CORRECTED_TEXT, 'scan.pdf', 'application/pdf', true);
	seed(QUALITY_WEEK.clean, CLEAN_TEXT, 'photo.jpg', 'image/jpeg', false);
	seed(QUALITY_WEEK.confirmed, CLEAN_TEXT, 'scan.pdf', 'application/pdf', true);
	seed(QUALITY_WEEK.retyped, RETYPED_TEXT, 'receipt.pdf', 'application/pdf', true);
}
