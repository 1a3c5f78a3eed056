/**
 * Reporting area, QA reports (Reporting v2, tag Report): GetDocumentsAsCsv and GetFieldsAsCsv,
 * CSV with a header row, derived row by row from the transactions the simulator processed (see
 * ../processing/qa.ts) and streamed as they are generated, so a report of any size costs the
 * simulator no memory. The query as the OpenAPI document declares it: `startDate` required,
 * `processSkillId` required on /fields; a violation is a 400 ProblemDetails as ASP.NET's model
 * binding words it.
 */
import type { z } from 'zod/v4';

import { problem, route, type Reply, type RequestContext, type Route } from '../http';
import type { Processing } from '../processing/lifecycle';
import {
	DOCUMENT_COLUMNS,
	EXAMPLE_COLUMNS,
	FIELD_COLUMNS,
	qaDocument,
	reportLines,
	type QaDocument,
} from '../processing/qa';
import * as S from '../schemas';
import type { ResolvedOptions } from '../server';
import { requireReportingRole } from './reporting';

const QA = '/api/reporting/v2/qa/process-skills';
/** Rows are sent in pieces of about this many characters. */
const PIECE = 64 * 1024;

type Report = 'documents' | 'fields';

interface Filters {
	start: number;
	end: number;
	processSkillId?: string;
	documentSkillId?: string;
	imageType?: string;
	imageColority?: string;
	imageSource?: string;
	corrected?: boolean;
	typeChanged?: boolean;
}

/** ASP.NET's binding failure for one query value. */
function invalidQuery(key: string, message: string) {
	return problem(400, 'One or more validation errors occurred.', undefined, {
		errors: { [key]: [message] },
	});
}

const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A date or date-time; without an offset it is UTC ("time should be in UTC", docs.abbyy.com). */
function readDate(key: string, value: string): number {
	const match = DATE.exec(value.trim());
	const text = value.trim().replace(' ', 'T');
	const ms = match ? Date.parse(match[1] || text.length === 10 ? text : `${text}Z`) : NaN;
	if (!Number.isFinite(ms))
		throw invalidQuery(key, `The value '${value}' is not valid for ${key}.`);
	return ms;
}

function readSwitch(key: string, value: string | undefined): boolean | undefined {
	if (value === undefined || value === '') return undefined;
	const lower = value.toLowerCase();
	if (lower === 'true' || lower === 'false') return lower === 'true';
	throw invalidQuery(key, `The value '${value}' is not valid for ${key}.`);
}

const same = (a: string, b: string | undefined) =>
	b === undefined || a.toLowerCase() === b.toLowerCase();

export class QualityReportsArea {
	readonly routes: Route[];

	constructor(
		private readonly processing: Processing,
		private readonly options: ResolvedOptions,
	) {
		const reporting = { reporting: true };
		this.routes = [
			route(
				'GetDocumentsAsCsv',
				'GET',
				`${QA}/documents`,
				(c) => this.report(c, 'documents'),
				reporting,
			),
			route('GetFieldsAsCsv', 'GET', `${QA}/fields`, (c) => this.report(c, 'fields'), reporting),
		];
	}

	private report(ctx: RequestContext, report: Report): Reply {
		requireReportingRole(ctx);
		const filters = this.filters(ctx, report);
		return {
			status: 200,
			contentType: 'text/csv',
			stream: this.lines(report, filters),
		};
	}

	/** The query, checked as the vendor's model binding would check it. */
	private filters(ctx: RequestContext, report: Report): Filters {
		// A repeated key binds its first value.
		const raw: Record<string, string> = {};
		for (const [key, value] of ctx.query) if (!(key in raw)) raw[key] = value;
		const schema = report === 'documents' ? S.GetDocumentsAsCsvQuery : S.GetFieldsAsCsvQuery;
		const parsed = schema.safeParse(raw);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			const key = String(issue.path[0] ?? '');
			throw invalidQuery(
				key,
				raw[key] === undefined
					? `The ${key} field is required.`
					: `The value '${raw[key]}' is not valid for ${key}.`,
			);
		}
		const query = parsed.data as z.infer<typeof S.GetFieldsAsCsvQuery>;
		const start = readDate('startDate', query.startDate);
		const end = query.endDate === undefined ? Infinity : readDate('endDate', query.endDate);
		if (end < start) {
			// Inferred: not documented by the vendor.
			throw invalidQuery('endDate', 'endDate must not be earlier than startDate.');
		}
		return {
			start,
			end,
			processSkillId: query.processSkillId || undefined,
			documentSkillId: query.documentSkillId || undefined,
			imageType: query.imageType || undefined,
			imageColority: query.imageColority || undefined,
			imageSource: query.imageSource || undefined,
			corrected: readSwitch('wasCorrectedInManualReview', query.wasCorrectedInManualReview),
			typeChanged: readSwitch(
				'wasDocumentTypeChangedInManualReview',
				query.wasDocumentTypeChangedInManualReview,
			),
		};
	}

	/** Documents of processed transactions of Process skills that match, by completion time. */
	private *documents(filters: Filters): Generator<QaDocument> {
		const { store, skills, results } = this.processing;
		const done = store
			.all()
			.filter(
				(tx) =>
					tx.status === 'Processed' &&
					tx.completedAt !== null &&
					tx.completedAt >= filters.start &&
					tx.completedAt <= filters.end &&
					same(tx.skillId, filters.processSkillId),
			)
			.sort((a, b) => (a.completedAt ?? 0) - (b.completedAt ?? 0));
		for (const tx of done) {
			const skill = skills.get(tx.skillId);
			if (skill?.type !== 'Process') continue;
			for (const doc of tx.documents) {
				const d = qaDocument(tx, doc, skill, results);
				if (
					!same(d.imageType, filters.imageType) ||
					!same(d.imageColority, filters.imageColority) ||
					!same(d.imageSource, filters.imageSource) ||
					!same(d.documentSkill.id, filters.documentSkillId) ||
					(filters.corrected !== undefined && filters.corrected !== d.changed > 0) ||
					(filters.typeChanged !== undefined && filters.typeChanged !== d.typeChanged)
				) {
					continue;
				}
				yield d;
			}
		}
	}

	private *lines(report: Report, filters: Filters): Generator<string> {
		const columns =
			this.options.qaColumns[report] === 'example'
				? EXAMPLE_COLUMNS[report]
				: report === 'documents'
					? DOCUMENT_COLUMNS
					: FIELD_COLUMNS;
		let piece = `${columns.join(',')}\r\n`;
		for (const d of this.documents(filters)) {
			piece += reportLines(report, d, columns);
			if (piece.length >= PIECE) {
				yield piece;
				piece = '';
			}
		}
		if (piece) yield piece;
	}
}
