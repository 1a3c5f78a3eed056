import type { IDataObject } from 'n8n-workflow';

/**
 * A document's extracted data as plain JSON, from the `Json` result file of a Document skill
 * (docs.abbyy.com/vantage/getting-started/results and …/developer/output/json/json-schema):
 * ExtractedDataTransaction → Documents[] → ExtractedData → RootObject → Fields[] { Name, List[] }.
 * A simple field becomes its value, a repeating field an array, a group an object, a table an
 * array of row objects. Where the file's shape is not documented the reading is tolerant.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
	!!value && typeof value === 'object' && !Array.isArray(value);

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A field's definition from DocumentDefinition: whether it repeats, its type, its child concept. */
interface FieldDefinition {
	repeating?: boolean;
	type?: string;
	concept?: Json;
}

/**
 * A normalised value as plain JSON: Decimal fields as numbers, Boolean fields as booleans (the
 * file holds them as text); anything that does not read cleanly stays as Vantage wrote it.
 */
function typedValue(value: unknown, type: string | undefined): IDataObject[string] {
	if (type === 'Decimal' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) {
		return Number(value);
	}
	if (type === 'Boolean' && typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
		return value.trim().toLowerCase() === 'true';
	}
	return (value ?? null) as IDataObject[string];
}

/**
 * Cardinality's shape is not documented beyond "whether the field recurs": read a maximum above
 * one (or -1, unbounded) or a word such as "Multiple" as repeating.
 */
function isRepeating(cardinality: unknown): boolean | undefined {
	if (typeof cardinality === 'string') {
		if (/multi|many|unbounded|\*|n$/i.test(cardinality)) return true;
		if (/single|one|optional|required/i.test(cardinality)) return false;
		return undefined;
	}
	if (isObject(cardinality)) {
		for (const key of ['Max', 'MaxOccurs', 'Maximum', 'max']) {
			const max = cardinality[key];
			if (typeof max === 'number') return max < 0 || max > 1;
			if (max === null) return true;
		}
		if (typeof cardinality.IsMultiple === 'boolean') return cardinality.IsMultiple;
	}
	return undefined;
}

function definitionsOf(concept: unknown): Map<string, FieldDefinition> {
	const definitions = new Map<string, FieldDefinition>();
	for (const field of list(isObject(concept) ? concept.Fields : undefined)) {
		if (!isObject(field) || typeof field.Name !== 'string') continue;
		const child = list(field.ValueConcepts).find(isObject);
		definitions.set(field.Name, {
			repeating: isRepeating(field.Cardinality),
			type: typeof field.Type === 'string' ? field.Type : undefined,
			concept: child,
		});
	}
	return definitions;
}

/** An ExtractedObject (group instance or table row) inside a List entry, if it is one. */
function objectIn(entry: unknown): Json | undefined {
	if (!isObject(entry)) return undefined;
	if (isObject(entry.Value) && Array.isArray(entry.Value.Fields)) return entry.Value;
	if (Array.isArray(entry.Fields)) return entry;
	return undefined;
}

export interface FieldDetail extends IDataObject {
	value: IDataObject[string];
	confidence: number | null;
	rawValue: string | null;
	needsVerification: boolean;
	verified: boolean;
}

function detailOf(entry: unknown, type: string | undefined): FieldDetail {
	const e = isObject(entry) ? entry : {};
	const annotation = (Array.isArray(e.Annotation) ? e.Annotation[0] : e.Annotation) as
		| Json
		| undefined;
	return {
		value: typedValue(e.Value, type),
		confidence: typeof annotation?.Confidence === 'number' ? annotation.Confidence : null,
		rawValue: typeof annotation?.RawValue === 'string' ? annotation.RawValue : null,
		needsVerification: e.NeedVerification === true,
		verified: e.isVerified === true || e.IsVerified === true,
	};
}

/** `Fields[]` of an ExtractedObject as { name: value } (and the same tree of details). */
function shapeObject(
	object: Json,
	concept: unknown,
): { fields: IDataObject; details: IDataObject } {
	const definitions = definitionsOf(concept);
	const fields: IDataObject = {};
	const details: IDataObject = {};
	for (const field of list(object.Fields)) {
		if (!isObject(field) || typeof field.Name !== 'string') continue;
		const definition = definitions.get(field.Name) ?? {};
		const values: Array<IDataObject[string]> = [];
		const valueDetails: Array<IDataObject[string]> = [];
		for (const entry of list(field.List)) {
			const child = objectIn(entry);
			if (child) {
				const shaped = shapeObject(child, definition.concept);
				values.push(shaped.fields);
				valueDetails.push(shaped.details);
			} else {
				const detail = detailOf(entry, definition.type);
				values.push(detail.value);
				valueDetails.push(detail);
			}
		}
		const repeating = definition.repeating ?? values.length > 1;
		fields[field.Name] = repeating ? values : (values[0] ?? null);
		details[field.Name] = repeating ? valueDetails : (valueDetails[0] ?? null);
	}
	return { fields, details };
}

export interface ShapedDocument {
	fields: IDataObject;
	/** The same tree with confidence, raw value and verification flags per value. */
	fieldDetails: IDataObject;
	skill?: { id: string | null; name: string | null };
}

/**
 * One document of a parsed `Json` result file: matched by id, else by its position, else the
 * only one. Undefined when the file holds no extracted data for it.
 */
export function shapeDocument(
	result: unknown,
	documentId: string | undefined,
	position: number,
): ShapedDocument | undefined {
	if (!isObject(result)) return undefined;
	const documents = list(result.Documents).filter(isObject);
	const wanted = documentId?.toLowerCase();
	const document =
		documents.find((d) => typeof d.Id === 'string' && d.Id.toLowerCase() === wanted) ??
		documents[position] ??
		(documents.length === 1 ? documents[0] : undefined);
	const data = isObject(document?.ExtractedData) ? document.ExtractedData : undefined;
	if (!data || !isObject(data.RootObject)) return undefined;
	const definition = isObject(data.DocumentDefinition)
		? data.DocumentDefinition.RootConcept
		: undefined;
	const shaped = shapeObject(data.RootObject, definition);
	return {
		fields: shaped.fields,
		fieldDetails: shaped.details,
		skill: {
			id: typeof result.SkillId === 'string' ? result.SkillId : null,
			name: typeof result.SkillName === 'string' ? result.SkillName : null,
		},
	};
}

/**
 * The files a `Json` result file says its document came from: ExtractedDataTransaction
 * `SourceFiles[]` (docs.abbyy.com/vantage/getting-started/results). The entries' shape is not
 * documented: an entry's id is looked up among the transaction's `files` (TransactionDto
 * `sourceFiles`), else its name is read (`Name`, `FileName`…), else a plain text is the name.
 * Empty when the file names none.
 */
export function namedSourceFiles(
	result: unknown,
	files: Array<{ id: string; name: string }>,
): string[] {
	if (!isObject(result)) return [];
	const byId = new Map(files.map((file) => [file.id.toLowerCase(), file.name]));
	const names = new Set<string>();
	for (const entry of list(result.SourceFiles)) {
		if (typeof entry === 'string') {
			if (entry) names.add(entry);
			continue;
		}
		if (!isObject(entry)) continue;
		const id = [entry.Id, entry.FileId, entry.id].find((v) => typeof v === 'string') as
			| string
			| undefined;
		const name =
			(id !== undefined ? byId.get(id.toLowerCase()) : undefined) ??
			[entry.Name, entry.FileName, entry.OriginalFileName, entry.name].find(
				(v): v is string => typeof v === 'string' && v !== '',
			);
		if (name) names.add(name);
	}
	return [...names];
}

/** The document's classification as { class, confidence, confident }, or null. */
export function shapeClassification(classification: unknown): IDataObject | null {
	if (!isObject(classification)) return null;
	const resultClass = isObject(classification.resultClass) ? classification.resultClass : {};
	const match = list(classification.classConfidences)
		.filter(isObject)
		.find((c) => c.classId === resultClass.id);
	return {
		class:
			typeof resultClass.name === 'string'
				? resultClass.name
				: ((resultClass.id as string) ?? null),
		classId: (resultClass.id as string) ?? null,
		confidence: typeof match?.confidence === 'number' ? match.confidence : null,
		confident: classification.isResultClassConfident === true,
	};
}

/**
 * Split a document into one entry per row of `table` (an array of row objects), the other fields
 * repeated in each; a document without rows stays one entry with the table set to null.
 */
export function splitRows(
	fields: IDataObject,
	table: string,
): Array<{ fields: IDataObject; row: number | null }> {
	const rows = fields[table];
	if (!Array.isArray(rows) || rows.length === 0) {
		return [{ fields: { ...fields, [table]: null }, row: null }];
	}
	return rows.map((row, index) => ({
		fields: { ...fields, [table]: row as IDataObject },
		row: index,
	}));
}
