import { POLL_GROWTH } from '../../../nodes/AbbyyVantage/constants';
import { nextPollDelay, type PollSettings } from '../../../nodes/AbbyyVantage/helpers/polling';

/** Every wait's defaults: checks every second at first, pauses of at most 30 s (60 s for exports). */
const DEFAULTS: PollSettings = { intervalMs: 1000, maxIntervalMs: 30_000, timeoutMs: 600_000 };

/**
 * The checks of a wait on a job that is done `durationMs` after the wait began, with answers
 * that take no time: when each check happens, the last one seeing the job done.
 */
function checks(durationMs: number, settings = DEFAULTS): number[] {
	const at = [0];
	while (at[at.length - 1] < durationMs) {
		const now = at[at.length - 1];
		at.push(now + nextPollDelay(now, settings));
	}
	return at;
}

describe('the wait schedule (nextPollDelay)', () => {
	test('a short job is checked every Wait Interval: a 1.5-s job is noticed at 2 s, as by a client polling every second', () => {
		expect(checks(1500)).toEqual([0, 1000, 2000]);
		expect(checks(3000)).toEqual([0, 1000, 2000, 3000]);
	});

	test('later pauses grow to POLL_GROWTH of the time waited so far, so a long job costs few checks', () => {
		expect(POLL_GROWTH).toBe(0.4);
		const sixty = checks(60_000);
		expect(sixty.map((t) => Math.round(t))).toEqual([
			0, 1000, 2000, 3000, 4200, 5880, 8232, 11525, 16135, 22589, 31624, 44274, 61983,
		]);
		// 13 status requests, where a client that checks again a second after each answer costs 58
		// (BENCHMARKS.md, section 11b).
		expect(sixty).toHaveLength(13);
	});

	test('a job is noticed at most POLL_GROWTH of its duration late, or one Wait Interval', () => {
		for (let duration = 100; duration <= 120_000; duration += 337) {
			const at = checks(duration);
			const late = at[at.length - 1] - duration;
			expect(late).toBeLessThanOrEqual(Math.max(1000, POLL_GROWTH * duration));
		}
	});

	test('never closer than one second, never longer than Wait Interval Limit', () => {
		const fast: PollSettings = { intervalMs: 200, maxIntervalMs: 500, timeoutMs: 60_000 };
		expect(nextPollDelay(0, fast)).toBe(1000);
		expect(nextPollDelay(600_000, fast)).toBe(1000);
		expect(nextPollDelay(3_600_000, DEFAULTS)).toBe(30_000);
		const at = checks(600_000);
		const gaps = at.slice(1).map((t, i) => t - at[i]);
		expect(Math.min(...gaps)).toBe(1000);
		expect(Math.max(...gaps)).toBe(30_000);
	});

	test('a longer Wait Interval is the least pause until the growth passes it', () => {
		const slow: PollSettings = { intervalMs: 5000, maxIntervalMs: 30_000, timeoutMs: 600_000 };
		expect(checks(20_000, slow)).toEqual([0, 5000, 10_000, 15_000, 21_000]);
	});
});
