/**
 * The simulator's zod schemas must agree with the vendor's published OpenAPI documents
 * (verbatim copies in test/fixtures/openapi/): same properties, required members, types,
 * nullability, enums, bounds and `additionalProperties`.
 */
import { z } from 'zod/v4';

import { openApiDocuments as documents, type Json } from '../contract/openapi';
import { inlineRequestBodies, multipartModels, openApiComponents, reportQueries } from './schemas';
import { VantageSimulator } from './simulator';

interface Shape {
	type?: string;
	nullable: boolean;
	enum?: string[];
	minLength?: number;
	minItems?: number;
	maxItems?: number;
	int32?: boolean;
	properties?: Record<string, Shape>;
	required?: string[];
	/** 'closed' for additionalProperties: false, 'open' for {} or absent, or the value shape. */
	additional?: 'closed' | 'open' | Shape;
	items?: Shape;
}

/** Normalise an OpenAPI 3.0 schema (refs resolved, `allOf: [ref]` wrappers unwrapped). */
function fromOpenApi(doc: Json, schema: Json, depth = 0): Shape {
	if (depth > 8) return { nullable: false };
	let nullable = schema.nullable === true;
	while (schema.$ref || (Array.isArray(schema.allOf) && schema.allOf.length === 1)) {
		if (schema.$ref) {
			const name = String(schema.$ref).replace('#/components/schemas/', '');
			schema = ((doc.components as Json).schemas as Json)[name] as Json;
		} else {
			schema = (schema.allOf as Json[])[0];
		}
		nullable ||= schema.nullable === true;
	}
	const shape: Shape = { nullable };
	if (schema.type) shape.type = String(schema.type);
	if (schema.enum) shape.enum = [...(schema.enum as string[])].sort();
	if (schema.minLength !== undefined) shape.minLength = schema.minLength as number;
	if (schema.minItems !== undefined) shape.minItems = schema.minItems as number;
	if (schema.maxItems !== undefined) shape.maxItems = schema.maxItems as number;
	if (schema.format === 'int32') shape.int32 = true;
	if (schema.type === 'object') {
		const props = (schema.properties ?? {}) as Record<string, Json>;
		shape.properties = Object.fromEntries(
			Object.entries(props).map(([k, v]) => [k, fromOpenApi(doc, v, depth + 1)]),
		);
		shape.required = [...((schema.required as string[]) ?? [])].sort();
		const additional = schema.additionalProperties;
		shape.additional =
			additional === false
				? 'closed'
				: additional && typeof additional === 'object' && Object.keys(additional).length
					? fromOpenApi(doc, additional as Json, depth + 1)
					: 'open';
	}
	if (schema.type === 'array') shape.items = fromOpenApi(doc, schema.items as Json, depth + 1);
	return shape;
}

/**
 * Normalise zod's JSON Schema output the same way; `$ref`s (recursive schemas such as FieldDto)
 * resolve against `root` and stop at the depth the OpenAPI side stops at.
 */
function fromZod(schema: Json, root: Json = schema, depth = 0): Shape {
	if (depth > 8) return { nullable: false };
	while (typeof schema.$ref === 'string') {
		const ref = schema.$ref;
		schema = ref === '#' ? root : ((root.$defs as Json)[ref.replace('#/$defs/', '')] as Json);
	}
	let nullable = false;
	if (Array.isArray(schema.anyOf)) {
		const flatten = (s: Json): Json[] =>
			Array.isArray(s.anyOf) ? (s.anyOf as Json[]).flatMap(flatten) : [s];
		const all = flatten(schema);
		const variants = all.filter((v) => v.type !== 'null');
		nullable = variants.length < all.length;
		// A union of string formats (date-time | date) is one string for the contract.
		schema = variants.every((v) => v.type === variants[0].type && !v.properties)
			? { ...variants[0], format: undefined }
			: variants[0];
	}
	const shape: Shape = { nullable };
	if (schema.type) shape.type = String(schema.type);
	if (schema.enum) shape.enum = [...(schema.enum as string[])].sort();
	if (schema.minLength !== undefined) shape.minLength = schema.minLength as number;
	if (schema.minItems !== undefined) shape.minItems = schema.minItems as number;
	if (schema.maxItems !== undefined) shape.maxItems = schema.maxItems as number;
	if (
		schema.type === 'integer' &&
		schema.minimum === -2147483648 &&
		schema.maximum === 2147483647
	) {
		shape.int32 = true;
	}
	if (schema.type === 'object') {
		const props = (schema.properties ?? {}) as Record<string, Json>;
		shape.properties = Object.fromEntries(
			Object.entries(props).map(([k, v]) => [k, fromZod(v, root, depth + 1)]),
		);
		shape.required = [...((schema.required as string[]) ?? [])].sort();
		const additional = schema.additionalProperties;
		shape.additional =
			additional === false
				? 'closed'
				: additional && typeof additional === 'object' && Object.keys(additional).length
					? fromZod(additional as Json, root, depth + 1)
					: 'open';
	}
	if (schema.type === 'array') shape.items = fromZod(schema.items as Json, root, depth + 1);
	return shape;
}

function zodShape(schema: z.ZodType): Shape {
	return fromZod(z.toJSONSchema(schema, { unrepresentable: 'any' }) as Json);
}

describe('simulator schemas agree with the vendor OpenAPI documents', () => {
	for (const [docName, components] of Object.entries(openApiComponents)) {
		const doc = documents[docName as keyof typeof documents];
		const declared = (doc.components as Json).schemas as Json;
		test.each(Object.keys(components))(`${docName}: %s`, (name) => {
			expect(declared[name]).toBeDefined();
			const schema = components[name as keyof typeof components] as z.ZodType;
			expect(zodShape(schema)).toEqual(fromOpenApi(doc, { $ref: `#/components/schemas/${name}` }));
		});
	}

	test.each(Object.entries(inlineRequestBodies.processing))(
		'processing: request body of POST %s',
		(path, schema) => {
			const op = ((documents.processing.paths as Json)[path] as Json).post as Json;
			const body = ((op.requestBody as Json).content as Json)['application/json'] as Json;
			expect(zodShape(schema)).toEqual(fromOpenApi(documents.processing, body.schema as Json));
		},
	);

	test.each(Object.entries(multipartModels))(
		'processing: multipart Model part of POST %s',
		(path, schema) => {
			const op = ((documents.processing.paths as Json)[path] as Json).post as Json;
			const form = ((op.requestBody as Json).content as Json)['multipart/form-data'] as Json;
			const model = ((form.schema as Json).properties as Json).Model as Json;
			expect(zodShape(schema)).toEqual(fromOpenApi(documents.processing, model));
		},
	);

	test.each(Object.entries(reportQueries))('reporting: query of GET %s', (path, schema) => {
		// Query parameters are no schema component: compare name, required and type one by one.
		const op = ((documents.reporting.paths as Json)[path] as Json).get as Json;
		const declared = (op.parameters as Json[]).filter((p) => p.in === 'query');
		const shape = zodShape(schema);
		expect(Object.keys(shape.properties ?? {}).sort()).toEqual(
			declared.map((p) => String(p.name)).sort(),
		);
		expect(shape.required).toEqual(
			declared
				.filter((p) => p.required === true)
				.map((p) => String(p.name))
				.sort(),
		);
		for (const p of declared) {
			expect([p.name, shape.properties?.[String(p.name)]]).toEqual([
				p.name,
				fromOpenApi(documents.reporting, p.schema as Json),
			]);
		}
	});

	test('every reporting operation is a route of the simulator', () => {
		const operationIds = Object.values(documents.reporting.paths as Record<string, Json>)
			.flatMap((ops) => Object.values(ops) as Json[])
			.map((op) => String(op.operationId));
		expect(operationIds).toHaveLength(6);
		const routeIds = new Set<string>(new VantageSimulator().routeIds());
		expect(operationIds.filter((id) => !routeIds.has(id))).toEqual([]);
	});

	test('every operation of both documents is a route of the simulator (36)', () => {
		const operationIds = Object.values(documents)
			.flatMap((doc) => Object.values(doc.paths as Record<string, Json>))
			.flatMap((ops) => Object.values(ops) as Json[])
			.map((op) => String(op.operationId));
		expect(operationIds).toHaveLength(36);
		const routeIds = new Set<string>(new VantageSimulator().routeIds());
		expect(operationIds.filter((id) => !routeIds.has(id))).toEqual([]);
	});

	test('every skill and transaction operation is a route of the simulator', () => {
		const operationIds = Object.entries(documents.processing.paths as Record<string, Json>)
			.filter(([path]) => /\/(skills|transactions)\b/.test(path))
			.flatMap(([, ops]) => Object.values(ops) as Json[])
			.map((op) => String(op.operationId));
		const sim = new VantageSimulator();
		const routeIds = new Set<string>(sim.routeIds());
		expect(operationIds).toHaveLength(20);
		expect(operationIds.filter((id) => !routeIds.has(id))).toEqual([]);
	});

	test('every catalog and catalog record operation is a route of the simulator', () => {
		const operationIds = Object.entries(documents.processing.paths as Record<string, Json>)
			.filter(([path]) => path.includes('/catalogs'))
			.flatMap(([, ops]) => Object.values(ops) as Json[])
			.map((op) => String(op.operationId))
			.sort();
		expect(operationIds).toEqual(
			[
				'GetCatalogs',
				'GetCatalog',
				'ClearCatalog',
				'StartCatalogReindex',
				'GetReindexOperation',
				'AddRecords',
				'GetRecords',
				'GetRecord',
				'DeleteRecords',
			].sort(),
		);
		const routeIds = new Set<string>(new VantageSimulator().routeIds());
		expect(operationIds.filter((id) => !routeIds.has(id))).toEqual([]);
	});

	test('every catalog schema is checked against its component', () => {
		const checked = new Set(Object.keys(openApiComponents.processing));
		const declared = Object.keys((documents.processing.components as Json).schemas as Json);
		expect(declared.filter((n) => n.includes('.Catalogs.') && !checked.has(n))).toEqual([]);
		expect(Object.keys(inlineRequestBodies.processing).sort()).toEqual([
			'/api/publicapi/v1/catalogs/{catalogId}/records',
			'/api/publicapi/v1/catalogs/{catalogId}/records/delete',
		]);
	});

	test('a drifted schema is caught (the comparison is not vacuous)', () => {
		const name =
			'Abbyy.Vantage.PublicApi.Contract.Transactions.Requests.TransactionDocumentCreateRequest';
		const drifted = z.strictObject({ index: z.number().optional() });
		expect(zodShape(drifted)).not.toEqual(
			fromOpenApi(documents.processing, { $ref: `#/components/schemas/${name}` }),
		);
	});
});
