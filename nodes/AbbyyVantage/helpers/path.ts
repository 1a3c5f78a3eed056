/**
 * Why a value cannot be one URL path segment, or undefined when it can. `.` and `..` are collapsed
 * by every URL parser (percent-encoded too), so they would address another resource. Used by input
 * validation (naming the parameter) and by the transport's path builder (its last guard).
 */
export function pathSegmentProblem(value: unknown): string | undefined {
	if (typeof value !== 'string') return 'must be text';
	if (value.trim() === '') return 'must not be empty';
	if (value === '.' || value === '..') return 'must not be "." or ".."';
	return undefined;
}
