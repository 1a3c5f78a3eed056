/**
 * QA reports broken the way proxies and gateways break them (answered 200, ended cleanly): an
 * error page after the header, zeros, a body cut inside a quote or inside a row, bytes that are
 * not UTF-8. Each is refused, naming the line, in every output; never delivered as rows, a file or
 * figures, and never asked for again (a garbled answer is no passing problem). Each test is one
 * row of RELIABILITY.md's "Garbled QA reports".
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/n8n';
import { useSimulator } from '../helpers/fixture';
import { qaParams } from '../helpers/params';
import { seedQualityScenario } from '../simulator/qualitykit';
import type { Fault, RouteId } from '../simulator/simulator';
import { cell, FAST, record, secretsIn } from './shared';

const f = useSimulator();

/** The first lines of the real report are kept: the header and two rows, then the damage. */
const KEPT = 3;

const damages: Array<{ name: string; fault: Fault; problem: (width: number) => string }> = [
	{
		name: 'an HTML error page after the header and two rows',
		fault: {
			kind: 'garble',
			afterLines: KEPT,
			text: '<!DOCTYPE html>\r\n<html><head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center></body></html>\r\n',
		},
		problem: (width) => `has 1 cell where the header has ${width}`,
	},
	{
		name: '4 KB of NUL bytes after two rows',
		fault: { kind: 'garble', afterLines: KEPT, text: '\u0000'.repeat(4096) },
		problem: () => 'has a NUL byte, which is not text',
	},
	{
		name: 'the body ends inside a quoted cell',
		fault: { kind: 'garble', afterLines: KEPT, text: 'process-skill,"Invoice Proc' },
		problem: () => 'opens a quoted cell that never closes: the file ends inside it',
	},
	{
		name: 'the body ends inside a row (a short row)',
		fault: { kind: 'garble', afterLines: KEPT, text: 'process-skill,Invoice Processing,tx' },
		problem: (width) => `has 3 cells where the header has ${width}`,
	},
	{
		name: 'bytes that are not UTF-8 (Latin-1 "Müller")',
		fault: {
			kind: 'garble',
			afterLines: KEPT,
			base64: Buffer.from('process-skill,M\u00fcller', 'latin1').toString('base64'),
		},
		problem: () => 'has bytes that are not UTF-8 text',
	},
];

const outputs: Array<{
	name: string;
	route: RouteId;
	report: string;
	/** Cells of the report's header (the simulator's full column set). */
	width: number;
	parameters: INodeParameters;
}> = [
	{
		name: 'Get Document Changes (One Item per Row)',
		route: 'GetDocumentsAsCsv',
		report: 'document changes report',
		width: 15,
		parameters: qaParams('getDocumentChanges', { returnAll: true }),
	},
	{
		name: 'Get Field Changes (CSV File)',
		route: 'GetFieldsAsCsv',
		report: 'field changes report',
		width: 14,
		parameters: qaParams('getFieldChanges', { output: 'binary' }),
	},
	{
		name: 'Get Quality Summary (the documents report)',
		route: 'GetDocumentsAsCsv',
		report: 'document changes report',
		width: 15,
		parameters: qaParams('getQualitySummary'),
	},
];

describe('garbled QA reports are refused, naming the line', () => {
	for (const output of outputs) {
		for (const damage of damages) {
			test(`${output.name}: ${damage.name}`, async () => {
				seedQualityScenario(f.sim);
				f.sim.injectFault(output.route, damage.fault);
				const result = await runNode({
					credentials: f.store,
					continueOnFail: true,
					parameters: { ...output.parameters, requestOptions: FAST },
				});
				const message = `The ${output.report} was not complete: line ${KEPT + 1} ${damage.problem(output.width)} [item 0]`;
				// One error item: no row, no file, no figure of the report came out.
				expect(result.items).toHaveLength(1);
				expect(result.items[0].binary).toBeUndefined();
				expect(result.items[0].json).toMatchObject({ error: message, line: KEPT + 1 });
				expect(Object.keys(result.items[0].json).sort()).toEqual(
					['error', 'errorDescription', 'line', 'report'].sort(),
				);
				expect(f.sim.requestsTo(output.route)).toHaveLength(1);
				expect(secretsIn(f, result)).toBe(0);
				const rowsOutput = result.items.filter((i) => i.json.error === undefined).length;
				expect(rowsOutput).toBe(0);
				record(
					'garbled',
					`| ${cell(output.name)} | ${cell(damage.name)} | ${f.sim.requestsTo(output.route).length} | ${cell(`error: ${message}`)} | ${rowsOutput} |`,
				);
			});
		}
	}
});
