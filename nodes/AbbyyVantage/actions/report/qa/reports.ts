import type { IDataObject, IExecuteFunctions, NodeOperationError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CsvFormatError } from '../../../helpers/csv';
import { operationError } from '../../../helpers/errors';
import { endpoints, type Endpoint, type VantageClient } from '../../../transport';
import { readStreamed, type StreamedBody } from '../../../transport/stream';
import { REPORT_ACCESS_HINTS } from '../../../vantage/exports';
import { readSkill } from '../../../vantage/skills';

/**
 * The QA reports of the Analytics Reporting Warehouse (Reporting API v2): GetDocumentsAsCsv, one
 * row per document of a Process skill's transactions, and GetFieldsAsCsv, one row per extracted
 * field. Both are CSV with a header row, filtered by the query (./filters.ts), and read as they
 * stream in.
 */

/** One QA report: how messages and files name it, and where it is downloaded. */
export interface QaReport {
	/** "document changes report": errors and actions name the report so. */
	name: string;
	/** A CSV File output's name begins so. */
	file: string;
	/** What one row is. */
	row: string;
	endpoint: () => Endpoint;
}

export const DOCUMENTS_REPORT: QaReport = {
	name: 'document changes report',
	file: 'document-changes',
	row: 'document',
	endpoint: endpoints.getDocumentsAsCsv,
};

export const FIELDS_REPORT: QaReport = {
	name: 'field changes report',
	file: 'field-changes',
	row: 'field',
	endpoint: endpoints.getFieldsAsCsv,
};

/**
 * Read one report as it streams in (see transport/stream.ts), sent again if it breaks off. A body
 * that is not a whole CSV report (helpers/csv.ts: a row of another width, a quote never closed,
 * bytes that are not text) fails the item, naming the line: nothing of it is output, neither rows
 * nor a file nor figures.
 */
export async function readQaReport<T>(
	ctx: IExecuteFunctions,
	client: VantageClient,
	report: QaReport,
	query: IDataObject,
	itemIndex: number,
	consume: (body: StreamedBody) => Promise<T>,
): Promise<T> {
	try {
		return await readStreamed(
			ctx.getNode(),
			client,
			{
				...report.endpoint(),
				qs: query,
				itemIndex,
				action: `downloading the ${report.name}`,
				hints: REPORT_ACCESS_HINTS,
			},
			consume,
		);
	} catch (error) {
		// Anything else is the transport's NodeApiError or n8n's own error already.
		throw error instanceof CsvFormatError ? incompleteReport(ctx, report, itemIndex, error) : error;
	}
}

function incompleteReport(
	ctx: IExecuteFunctions,
	report: QaReport,
	itemIndex: number,
	error: CsvFormatError,
): NodeOperationError {
	return operationError(
		ctx.getNode(),
		itemIndex,
		`The ${report.name} was not complete: ${error.message}`,
		{
			description:
				'What came from ABBYY Vantage is not a whole CSV report (a proxy or gateway on the way may have cut it or put an error page into it), so nothing of it was output. Run the node again; if it fails again, check the proxy or gateway between n8n and Vantage, or ask your Vantage administrator.',
			output: { report: report.name, line: error.line },
		},
	);
}

/**
 * A report without rows for a Process skill: say so when the skill does not exist (a mistyped
 * ID) or is not a Process skill, which explains the empty report. Only then, since a skill
 * deleted since keeps its reporting data. Anything else the check meets leaves the empty report
 * as it is.
 */
export async function explainEmptyReport(
	ctx: IExecuteFunctions,
	client: VantageClient,
	skillId: unknown,
	itemIndex: number,
): Promise<void> {
	if (typeof skillId !== 'string' || skillId === '') return;
	let skill: IDataObject | undefined;
	try {
		skill = await readSkill(
			client,
			skillId,
			itemIndex,
			`checking the Process skill "${skillId}" of an empty report`,
		);
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '404') {
			throw operationError(
				ctx.getNode(),
				itemIndex,
				`Process Skill "${skillId}" was not found, and the report has no rows for it`,
				{
					description:
						'Pick the Process skill from the list, or check its ID. Vantage finds only published skills.',
					output: { processSkillId: skillId, rows: 0 },
				},
			);
		}
		return;
	}
	const type = skill?.type;
	if (typeof type === 'string' && type !== 'Process') {
		throw operationError(
			ctx.getNode(),
			itemIndex,
			`Skill "${skillId}" is a ${type} skill: the QA reports cover the transactions of Process skills`,
			{
				description:
					'Choose the Process skill that runs your documents; its Document skills are its document types.',
				output: { processSkillId: skillId, rows: 0 },
			},
		);
	}
}
