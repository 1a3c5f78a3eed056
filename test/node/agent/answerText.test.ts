import { buildAnswer, withTextsThatFit } from '../../../nodes/AbbyyVantage/agent/answer';
import { ANSWER_MAX_CHARS } from '../../../nodes/AbbyyVantage/constants';

describe('a document’s text in the tool’s answer', () => {
	test('in a tool’s answer, texts share the room the rest leaves, so that every document fits', () => {
		const long = 'Line of the invoice text.\n'.repeat(4000);
		const documents = [
			{ documentId: 'a', fields: { Total: 1 }, text: long },
			{ documentId: 'b', fields: { Total: 2 }, text: 'short' },
			{ documentId: 'c', fields: { Total: 3 }, text: long },
		];
		const fitted = withTextsThatFit(documents);
		expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(ANSWER_MAX_CHARS - 1_000);
		expect(fitted[1]).toBe(documents[1]);
		for (const index of [0, 2]) {
			expect(fitted[index].text).toMatch(
				/\n\[… text cut here: the first [\d,]+ of 104,000 characters are above]$/,
			);
			expect(fitted[index].textNote).toBe(
				'The text was cut to fit this answer (40,000 characters for all documents); the end of the text says how much is left out.',
			);
		}
		// Documents without a text are left as they are.
		const plain = [{ documentId: 'a', fields: {} }];
		expect(withTextsThatFit(plain)).toBe(plain);
	});

	test('through the whole answer: every document listed, each text cut by its marker, never shortened afterwards', () => {
		const text = 'Zeile der Rechnung mit "Anführungszeichen".\n'.repeat(3000);
		const items = ['a', 'b', 'c', 'd'].map((documentId) => ({
			json: { transactionId: 't', documentId, status: 'Processed', fields: { Total: 1 }, text },
		}));
		const answer = buildAnswer(items, { kind: 'documents', mode: 'simplified', fields: [] });
		expect(JSON.stringify(answer).length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
		expect(answer.returned).toBe(4);
		for (const document of answer.results as Array<{ text: string }>) {
			expect(document.text).toMatch(
				/\n\[… text cut here: the first [\d,]+ of 132,000 characters are above]$/,
			);
			expect(text.startsWith(document.text.split('\n[…')[0])).toBe(true);
		}
	});
});
