/**
 * The transport's endpoints (nodes/AbbyyVantage/transport/endpoints.ts) are the vendor's
 * operations: each is named after its OpenAPI operationId (first letter lower case) and sends the
 * method and path template the document declares. The two documents declare 36 operations; each
 * has its endpoint, and there is no endpoint for anything else.
 */
import { endpoints, type Endpoint } from '../../nodes/AbbyyVantage/transport/endpoints';
import { openApiOperations, type OpenApiOperation } from './openapi';

type EndpointName = keyof typeof endpoints;
type Build = (...args: string[]) => Endpoint;

const operationIdOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const endpointNameOf = (operationId: string) =>
	(operationId.charAt(0).toLowerCase() + operationId.slice(1)) as EndpointName;

/**
 * What `build` sends, written as the document writes it: `build` is called with a placeholder
 * for each path parameter the document declares, and the placeholder at position i is written
 * back as the document's i-th `{name}`. A parameter left out, moved or added shows in the path
 * or in the count.
 */
function sent(build: Build, declared: OpenApiOperation) {
	const names = [...declared.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
	// Unreserved characters only, so the endpoint's encoding leaves them as they are.
	const placeholder = (i: number) => `__param${i}__`;
	const endpoint = build(...names.map((_, i) => placeholder(i)));
	return {
		method: endpoint.method,
		path: names.reduce((path, name, i) => path.replace(placeholder(i), `{${name}}`), endpoint.path),
		pathParameters: build.length,
	};
}

function declaredAs(declared: OpenApiOperation) {
	return {
		method: declared.method,
		path: declared.path,
		pathParameters: declared.path.match(/\{[^}]+\}/g)?.length ?? 0,
	};
}

describe('the transport endpoints are the operations of the vendor OpenAPI documents', () => {
	test('the two documents declare 36 operations, each operationId once', () => {
		expect(openApiOperations).toHaveLength(36);
		expect(new Set(openApiOperations.map((op) => op.operationId)).size).toBe(36);
	});

	test('every operation has its endpoint, and every endpoint is an operation (none missing, none extra)', () => {
		const declared = openApiOperations.map((op) => op.operationId);
		const named = Object.keys(endpoints).map(operationIdOf);
		expect({
			missing: declared.filter((id) => !named.includes(id)),
			extra: named.filter((id) => !declared.includes(id)),
		}).toEqual({ missing: [], extra: [] });
		expect(named).toHaveLength(36);
	});

	test.each(openApiOperations.map((op) => [op.operationId, op] as const))(
		'%s: the method and path template of the document',
		(operationId, declared) => {
			const build = endpoints[endpointNameOf(operationId)] as unknown as Build | undefined;
			expect(typeof build).toBe('function');
			expect(sent(build as Build, declared)).toEqual(declaredAs(declared));
		},
	);

	test('a drifted endpoint is caught (the comparison is not vacuous)', () => {
		const declared = openApiOperations.find((op) => op.operationId === 'GetTransactionDocument');
		expect(declared).toBeDefined();
		const op = declared as OpenApiOperation;
		expect(sent(endpoints.getTransactionDocument, op)).toEqual(declaredAs(op));
		// Parameters swapped, a parameter left out, another method.
		const swapped: Build = (transactionId, documentId) =>
			endpoints.getTransactionDocument(documentId, transactionId);
		const oneParameter: Build = (transactionId) => endpoints.getTransactionDocuments(transactionId);
		const deleted: Build = (transactionId, documentId) =>
			endpoints.deleteTransactionDocument(transactionId, documentId);
		for (const drifted of [swapped, oneParameter, deleted]) {
			expect(sent(drifted, op)).not.toEqual(declaredAs(op));
		}
	});
});
