/**
 * Results of processed documents: the result files each skill type produces, classification,
 * business rule errors, and the files' contents, in the documented result JSON shape
 * (docs.abbyy.com/vantage/getting-started/results, /vantage/developer/output/json/json-schema).
 *
 *   Document / Process: <Skill>.json (Json), <Skill>_fields.json (FieldsJson), <Skill>.pdf (Pdf),
 *     named after the Document skill that extracted (for a Process skill: its included one)
 *   Ocr: <Skill>.json (OcrJson), <Skill>.txt (Text); Classification: none, `classification` set
 *
 * A skill's export formats are its own settings in Vantage: a document whose text has a line
 * `Export: Text` is treated as one of a Document or Process skill that also exports Text, and gets
 * <Skill>.txt (Text), its plain text, after the others.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';

import type * as S from '../schemas';
import { classId, type FieldDefinition, type SkillDefinition } from '../skills';
import type { SkillsArea } from '../routes/skills';
import { extractFields, readLines, type FieldValues } from './extract';
import {
	filesOf,
	type DocumentState,
	type ResultFile,
	type SourceFile,
	type TransactionState,
} from './state';

export class Results {
	private readonly extracted = new WeakMap<DocumentState, FieldValues>();

	constructor(private readonly skills: SkillsArea) {}

	/** When a transaction is Processed: each document's result files, class and rule errors. */
	process(tx: TransactionState): void {
		const skill = this.skillOf(tx);
		const extractor = this.skills.extractor(skill);
		const classes = this.skills.classes(skill);
		for (const doc of tx.documents) {
			const files = filesOf(tx, doc);
			const text = documentText(tx, doc);
			const lines = readLines(text);
			doc.ruleErrors = lines.get('ruleerror') ?? [];
			if (classes?.length) {
				doc.classification =
					skill.type === 'Process'
						? classification(classes, classes.includes('Invoice') ? 'Invoice' : classes[0], 97)
						: classify(classes, lines, files[0]?.name ?? '');
			}
			const file = (name: string, type: S.ResultFileType): ResultFile => ({
				fileId: randomUUID(),
				fileName: name,
				type,
			});
			if (extractor) {
				doc.resultFiles = [
					file(`${extractor.name}.json`, 'Json'),
					file(`${extractor.name}_fields.json`, 'FieldsJson'),
					file(`${extractor.name}.pdf`, 'Pdf'),
				];
				const exports = (lines.get('export') ?? []).flatMap((line) =>
					line.split(',').map((s) => s.trim().toLowerCase()),
				);
				if (exports.includes('text')) doc.resultFiles.push(file(`${extractor.name}.txt`, 'Text'));
			} else if (skill.type === 'Ocr') {
				doc.resultFiles = [
					file(`${skill.name}.json`, 'OcrJson'),
					file(`${skill.name}.txt`, 'Text'),
				];
			} else doc.resultFiles = [];
		}
	}

	dto(doc: DocumentState): z.infer<typeof S.ExtractedDocumentDto> {
		return {
			id: doc.id,
			resultFiles: doc.resultFiles,
			...(doc.classification ? { classification: doc.classification } : {}),
			businessRulesErrors: doc.ruleErrors.map((message, i) => ({
				errorType: 'Condition',
				customMessage: message,
				ruleId: `rule-${i + 1}`,
				currentFieldId: 'Total',
			})),
		};
	}

	/** The bytes of a result file. */
	content(tx: TransactionState, doc: DocumentState, file: ResultFile): Buffer {
		const skill = this.skillOf(tx);
		const extractor = this.skills.extractor(skill) ?? skill;
		const files = filesOf(tx, doc);
		switch (file.type) {
			case 'Json':
				return json(resultJson(tx, doc, extractor, this.values(tx, doc, extractor), files));
			case 'FieldsJson':
				return json({
					Version: '3.0',
					Fields: fieldsObject(extractor.fields ?? [], this.values(tx, doc, extractor)),
				});
			case 'Pdf':
				return pdf(`${extractor.name} result, document ${doc.id}`);
			case 'OcrJson':
				return json({
					Version: '1.0',
					DocumentId: doc.id,
					Pages: [{ Index: 0, Text: documentText(tx, doc) }],
				});
			default:
				return Buffer.from(documentText(tx, doc), 'utf8');
		}
	}

	/** The Document skill that extracted `doc` (for a Process skill, its included one) and the values. */
	extraction(
		tx: TransactionState,
		doc: DocumentState,
	): { skill: SkillDefinition; values: FieldValues } {
		const skill = this.skills.extractor(this.skillOf(tx)) ?? this.skillOf(tx);
		return { skill, values: this.values(tx, doc, skill) };
	}

	private skillOf(tx: TransactionState): SkillDefinition {
		return this.skills.get(tx.skillId) ?? { id: tx.skillId, name: tx.skillId, type: 'Document' };
	}

	private values(tx: TransactionState, doc: DocumentState, skill: SkillDefinition): FieldValues {
		let values = this.extracted.get(doc);
		if (!values) {
			const files = filesOf(tx, doc);
			values = extractFields(
				skill.fields ?? [],
				documentText(tx, doc),
				files[0]?.name ?? '',
				doc.page,
			);
			this.extracted.set(doc, values);
		}
		return values;
	}
}

/** The text a document is read from: its own part when it was cut from its files, else theirs. */
export function documentText(tx: TransactionState, doc: DocumentState): string {
	return (
		doc.text ??
		filesOf(tx, doc)
			.map((f) => f.head.toString('utf8'))
			.join('\n')
	);
}

function json(value: unknown): Buffer {
	return Buffer.from(JSON.stringify(value, null, 2), 'utf8');
}

/** A Classification skill's class: a `Class:` line, else a class named in the file name, else Other. */
function classify(classes: string[], lines: Map<string, string[]>, fileName: string) {
	const named = lines.get('class')?.[0];
	const given = classes.find((c) => c.toLowerCase() === named?.toLowerCase());
	const confidence = Number(lines.get('confidence.class')?.[0] ?? 95);
	if (given) return classification(classes, given, confidence);
	const inName = classes.find((c) => fileName.toLowerCase().includes(c.toLowerCase()));
	if (inName) return classification(classes, inName, 90);
	return classification(classes, classes.includes('Other') ? 'Other' : classes[0], 60);
}

function classification(
	classes: string[],
	result: string,
	confidence: number,
): S.ClassificationDto {
	const others = classes.filter((c) => c !== result);
	const rest = Math.max(0, 100 - confidence);
	return {
		isResultClassConfident: confidence >= 70,
		resultClass: { id: classId(result), name: result },
		classConfidences: [
			{ classId: classId(result), className: result, confidence },
			...others.map((c, i) => ({
				classId: classId(c),
				className: c,
				confidence: Math.floor(rest / others.length) + (i < rest % others.length ? 1 : 0),
			})),
		],
	};
}

const isGroup = (f: FieldDefinition) => f.type === 'Group';

function conceptType(f: FieldDefinition): string {
	if (isGroup(f)) return 'Concept';
	if (f.textFormat === 'Date') return 'ISOdate';
	if (f.textFormat === 'Amount' || f.textFormat === 'Number') return 'Decimal';
	return 'String';
}

function conceptFields(fields: FieldDefinition[], prefix: string): unknown[] {
	return fields.map((f) => {
		const path = prefix + f.name;
		return {
			Id: `f-${path}`,
			Name: f.name,
			Type: conceptType(f),
			Cardinality: { Min: 0, Max: f.isRepeatable ? -1 : 1 },
			...(isGroup(f)
				? {
						ValueConcepts: [
							{
								Id: `c-${path}`,
								Name: f.name,
								Fields: conceptFields(f.children ?? [], `${path}.`),
							},
						],
					}
				: {}),
		};
	});
}

/** RootObject fields: `defPath` names the definition (ConceptId), `objPath` the instance (Id). */
function fieldLists(
	fields: FieldDefinition[],
	values: FieldValues,
	defPath: string,
	objPath: string,
): unknown[] {
	return fields.map((f) => ({
		Name: f.name,
		List: (values.get(f.name) ?? []).map((v, i) => {
			const id = `o-${objPath}${f.name}-${i}`;
			if (v.kind === 'simple') {
				return {
					Id: id,
					Value: v.value,
					Annotation: { Confidence: v.confidence, RawValue: v.raw, Source: 'Text' },
					NeedVerification: v.confidence < 70,
					isVerified: false,
				};
			}
			return {
				Id: id,
				Value: {
					Id: `${id}-obj`,
					Concept: f.name,
					ConceptId: `c-${defPath}${f.name}`,
					Fields: fieldLists(
						f.children ?? [],
						v.fields,
						`${defPath}${f.name}.`,
						`${objPath}${f.name}[${i}].`,
					),
				},
				NeedVerification: false,
				isVerified: false,
			};
		}),
	}));
}

function resultJson(
	tx: TransactionState,
	doc: DocumentState,
	skill: SkillDefinition,
	values: FieldValues,
	files: SourceFile[],
) {
	const c = doc.classification;
	return {
		Id: tx.id,
		SkillId: skill.id,
		SkillName: skill.name,
		SkillVersion: 1,
		Documents: [
			{
				Id: doc.id,
				ExtractedData: {
					DocumentDefinition: {
						RootConcept: {
							Id: 'c-root',
							Name: skill.name,
							Fields: conceptFields(skill.fields ?? [], ''),
						},
					},
					RootObject: {
						Id: 'o-root',
						Concept: skill.name,
						ConceptId: 'c-root',
						Fields: fieldLists(skill.fields ?? [], values, '', ''),
					},
				},
				...(c
					? {
							ClassificationResult: {
								IsResultClassConfident: c.isResultClassConfident,
								ResultClass: c.resultClass.id,
								ResultClassName: c.resultClass.name,
								ClassConfidences: c.classConfidences.map((x) => ({
									Class: x.classId,
									ClassName: x.className,
									Confidence: x.confidence,
								})),
							},
						}
					: {}),
				RuleErrors: doc.ruleErrors.map((message, i) => ({
					RuleName: `rule-${i + 1}`,
					ErrorMessage: message,
				})),
			},
		],
		SourceFiles: files.map((f) => ({ Id: f.id, Name: f.name })),
	};
}

/** FieldsJson: simple → value (null if not found), repeating → values, group → object, table → rows. */
function fieldsObject(fields: FieldDefinition[], values: FieldValues): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const f of fields) {
		const list = (values.get(f.name) ?? []).map((v) =>
			v.kind === 'simple' ? v.value : fieldsObject(f.children ?? [], v.fields),
		);
		out[f.name] = f.isRepeatable ? list : (list[0] ?? null);
	}
	return out;
}

/** A one-page PDF stand-in (valid, starts with %PDF-1.4). */
function pdf(text: string): Buffer {
	const safe = text.replace(/[()\\]/g, '');
	const content = `BT /F1 12 Tf 72 720 Td (${safe}) Tj ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let out = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((body, i) => {
		offsets.push(out.length);
		out += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = out.length;
	out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
	out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}
