/**
 * API paths with every parameter encoded as exactly one path segment. Catalog ids are catalog
 * names: they may hold spaces, `/`, `?`, `#` or `%`, all of which must travel encoded.
 */

/** Thrown for a path parameter no URL can carry; callers validate first and name the parameter. */
export class PathParameterError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'PathParameterError';
	}
}

/**
 * Why a value cannot be a path segment, or undefined when it can. `.` and `..` are collapsed by
 * every URL parser (percent-encoded too), so they would address another resource.
 */
export function pathSegmentProblem(value: unknown): string | undefined {
	if (typeof value !== 'string') return 'must be text';
	if (value.trim() === '') return 'must not be empty';
	if (value === '.' || value === '..') return 'must not be "." or ".."';
	return undefined;
}

/** Tagged template: apiPath`/catalogs/${id}/reindex` → `/catalogs/My%2FCatalog/reindex`. */
export function apiPath(strings: TemplateStringsArray, ...params: Array<string | number>): string {
	let path = strings[0];
	params.forEach((param, i) => {
		const value = String(param);
		const problem = pathSegmentProblem(value);
		if (problem) throw new PathParameterError(`A path parameter ${problem}`);
		path += encodeURIComponent(value) + strings[i + 1];
	});
	return path;
}
