/**
 * Run `task` over the values `source` gives, with at most `limit` in flight; results keep the
 * order the values came in. A value is taken from `source` only when a task can start on it, so
 * the work of producing values (e.g. removing duplicate ids) runs while earlier tasks wait for
 * their answers. Every task runs to completion even if another fails, so nothing is left
 * half-reported.
 */
export async function mapConcurrentFrom<T, R>(
	source: Iterator<T>,
	limit: number,
	task: (input: T, index: number) => Promise<R>,
): Promise<Array<PromiseSettledResult<R>>> {
	const results: Array<PromiseSettledResult<R>> = [];
	let taken = 0;
	let exhausted = false;
	const worker = async () => {
		while (!exhausted) {
			const next = source.next();
			if (next.done) {
				exhausted = true;
				break;
			}
			const index = taken++;
			try {
				results[index] = { status: 'fulfilled', value: await task(next.value, index) };
			} catch (reason) {
				results[index] = { status: 'rejected', reason };
			}
		}
	};
	const workers = Math.max(1, Math.floor(limit) || 1);
	await Promise.all(Array.from({ length: workers }, worker));
	return results;
}

/** `mapConcurrentFrom` over an array; never starts more workers than there are inputs. */
export async function mapConcurrent<T, R>(
	inputs: readonly T[],
	limit: number,
	task: (input: T, index: number) => Promise<R>,
): Promise<Array<PromiseSettledResult<R>>> {
	const results = await mapConcurrentFrom(
		inputs[Symbol.iterator](),
		Math.min(limit, inputs.length),
		task,
	);
	results.length = inputs.length;
	return results;
}
