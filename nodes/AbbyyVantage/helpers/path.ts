/**
 * Why a value cannot be one URL path segment, or undefined when it can. `.` and `..` are collapsed
 * by every URL parser (percent-encoded too), so they would address another resource. Used by input
 * validation (naming the parameter) and by `pathUnder` below, the transport's last guard.
 */
export function pathSegmentProblem(value: unknown): string | undefined {
	if (typeof value !== 'string') return 'must be text';
	if (value.trim() === '') return 'must not be empty';
	if (value === '.' || value === '..') return 'must not be "." or ".."';
	return undefined;
}

/**
 * API paths with every parameter encoded as exactly one path segment. Catalog ids are catalog
 * names: they may hold spaces, `/`, `?`, `#` or `%`, all of which must travel encoded.
 * Callers validate parameters first (naming them for the user); this is the last guard.
 */
type PathTag = (strings: TemplateStringsArray, ...params: Array<string | number>) => string;

/** A path builder under `base`: pathUnder('/api')`/catalogs/${id}` → `/api/catalogs/My%2FCatalog`. */
export function pathUnder(base: string): PathTag {
	return (strings, ...params) => {
		let path = base + strings[0];
		params.forEach((param, i) => {
			const value = String(param);
			const problem = pathSegmentProblem(value);
			if (problem) throw new Error(`A path parameter ${problem}`);
			path += encodeURIComponent(value) + strings[i + 1];
		});
		return path;
	};
}
