import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** Whether a raw parameter value holds an expression anywhere (a string starting with "="). */
function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * A per-item reader of the parameter at `path` that evaluates it only once when it holds no
 * expression: its value is then the same for every item, and n8n's per-item evaluation is what
 * costs most when a run reads 200 000 items. With an expression, every item is read.
 */
export function perItemReader<T>(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	path: string,
	read: (itemIndex: number) => T,
): (itemIndex: number) => T {
	const raw = path
		.split('.')
		.reduce<unknown>(
			(value, key) =>
				value !== null && typeof value === 'object' ? (value as IDataObject)[key] : undefined,
			ctx.getNode().parameters,
		);
	if (hasExpression(raw)) return read;
	let read0: { value: T } | undefined;
	return (itemIndex) => (read0 ??= { value: read(itemIndex) }).value;
}
