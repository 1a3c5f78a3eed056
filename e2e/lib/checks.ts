/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console --
 * End-to-end tooling, never shipped. */

/** Named checks of an end-to-end script, counted for its closing `N passed, M failed` line. */
const tally = { passed: 0, failed: 0 };

export async function check(name: string, body: () => void | Promise<void>): Promise<void> {
	try {
		await body();
		tally.passed++;
		console.log(`  ✓ ${name}`);
	} catch (error) {
		tally.failed++;
		console.log(`  ✗ ${name}\n      ${(error as Error).message.split('\n').join('\n      ')}`);
	}
}

/** Print the closing line and exit, 1 if anything failed; `extraFailures` counts a crash. */
export function finish(extraFailures = 0): never {
	const failed = tally.failed + extraFailures;
	console.log(`${tally.passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

export function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

/** Equal as JSON, or a failure naming `what` with both values. */
export function equal(actual: unknown, expected: unknown, what: string): void {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	assert(a === e, `${what}: expected ${e}, got ${a}`);
}
