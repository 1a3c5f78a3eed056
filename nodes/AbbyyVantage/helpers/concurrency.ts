/**
 * Run `task` over `inputs` with at most `limit` in flight; results keep the input order.
 * Every task runs to completion even if another fails, so nothing is left half-reported.
 */
export async function mapConcurrent<T, R>(
	inputs: readonly T[],
	limit: number,
	task: (input: T, index: number) => Promise<R>,
): Promise<Array<PromiseSettledResult<R>>> {
	const results: Array<PromiseSettledResult<R>> = new Array(inputs.length);
	let next = 0;
	const worker = async () => {
		while (next < inputs.length) {
			const index = next++;
			try {
				results[index] = { status: 'fulfilled', value: await task(inputs[index], index) };
			} catch (reason) {
				results[index] = { status: 'rejected', reason };
			}
		}
	};
	const workers = Math.max(1, Math.min(Math.floor(limit) || 1, inputs.length));
	await Promise.all(Array.from({ length: workers }, worker));
	return results;
}
