import type { IDataObject } from 'n8n-workflow';

import { ANSWER_MAX_CHARS } from '../../../nodes/AbbyyVantage/constants';
import { parsedAnswer, runAgent } from '../../harness/tool';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';

const f = useSimulator();

/** A document whose skill exports Text, 60 000 characters of it: more than an answer holds. */
const TEXT = `InvoiceNumber: T-7\nTotal: 70,00\nExport: Text\n${'Terms and conditions, line of text.\n'.repeat(1660)}`;

describe('Get Results as a tool: the document text for a model', () => {
	test('the model asks for the text (includeText): it comes cut to fit the answer, saying so; without it, no text and no extra download', async () => {
		const [id] = f.sim.seedCompletedTransactions(1, { files: [{ name: 't.pdf', text: TEXT }] });
		const tools = [{ name: 'Results', parameters: nodeParams('transaction', 'getResults') }];
		f.sim.clearLog();
		const run = await runAgent({
			path: 'engine',
			credentials: f.store,
			tools,
			calls: [
				{ tool: 'Results', args: { transactionId: id, includeText: true } },
				{ tool: 'Results', args: { transactionId: id } },
			],
		});
		expect(run.offered[0].schema.includeText).toMatchObject({ type: 'boolean', optional: true });
		const [withText, without] = run.answers.map((a) => parsedAnswer(a));
		expect(run.answers[0].answer!.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
		const [document] = withText.results as IDataObject[];
		expect(document.fields).toMatchObject({ InvoiceNumber: 'T-7', Total: 70 });
		expect(TEXT.startsWith((document.text as string).split('\n[… text cut here')[0])).toBe(true);
		expect(document.text).toMatch(
			/\n\[… text cut here: the first [\d,]+ of 59,805 characters are above]$/,
		);
		expect(document.textNote).toMatch(/^The text was cut to fit this answer/);
		const [plain] = without.results as IDataObject[];
		expect(plain).not.toHaveProperty('text');
		// Json and Text for the first call, Json alone for the second.
		expect(f.sim.requestsTo('DownloadFile')).toHaveLength(3);
	});
});
