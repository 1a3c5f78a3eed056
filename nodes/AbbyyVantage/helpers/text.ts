/** Words for messages and output, written once. */

/** A count with its noun: `1 file`, `3 files`, `1 batch`, `2 batches` (irregular plurals given). */
export function count(n: number, singular: string, plural = `${singular}s`): string {
	return `${n} ${n === 1 ? singular : plural}`;
}
