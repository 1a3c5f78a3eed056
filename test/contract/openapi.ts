/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the vendor's OpenAPI fixtures */
/**
 * The vendor's OpenAPI documents (verbatim copies in test/fixtures/openapi/), read once for every
 * test that compares something with them, and the operations they declare.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Json = Record<string, unknown>;

function load(name: string): Json {
	return JSON.parse(
		readFileSync(join(__dirname, '..', 'fixtures', 'openapi', name), 'utf8'),
	) as Json;
}

export const openApiDocuments = {
	processing: load('vantage-processing-v1.json'),
	reporting: load('vantage-reporting-v2.json'),
};

/** One operation of a document: its operationId, HTTP method and path template. */
export interface OpenApiOperation {
	document: keyof typeof openApiDocuments;
	operationId: string;
	/** Upper case, as `Endpoint.method`. */
	method: string;
	/** With `{name}` for each path parameter, as the document writes it. */
	path: string;
}

/** A path item's members that are operations (OpenAPI 3.0; `parameters` and `summary` are not). */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation of both documents, in document order. */
export const openApiOperations: OpenApiOperation[] = (
	Object.entries(openApiDocuments) as Array<[keyof typeof openApiDocuments, Json]>
).flatMap(([document, doc]) =>
	Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
		Object.entries(item)
			.filter(([method]) => METHODS.has(method))
			.map(([method, operation]) => ({
				document,
				operationId: String((operation as Json).operationId),
				method: method.toUpperCase(),
				path,
			})),
	),
);
