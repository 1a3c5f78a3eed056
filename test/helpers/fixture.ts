import { simulatorCredentials, type CredentialStore } from '../harness/n8n';
import {
	VantageSimulator,
	type LoggedRequest,
	type SimulatorOptions,
} from '../simulator/simulator';

export interface SimulatorFixture {
	sim: VantageSimulator;
	store: CredentialStore;
}

/**
 * A fresh simulator and stored credential for every test of the calling file. The returned object
 * is filled in before each test; read its fields inside tests, not at module load.
 */
export function useSimulator(
	setup: (sim: VantageSimulator) => void = () => {},
	options: SimulatorOptions = {},
): SimulatorFixture {
	const fixture = {} as SimulatorFixture;
	beforeEach(async () => {
		fixture.sim = new VantageSimulator(options);
		await fixture.sim.start();
		fixture.store = simulatorCredentials(fixture.sim);
		setup(fixture.sim);
	});
	afterEach(async () => await fixture.sim.stop());
	return fixture;
}

/** The most requests of `log` that were in flight at the same moment (from the simulator's log). */
export function maxInFlight(log: LoggedRequest[]): number {
	const events = log.flatMap((r) => [
		{ at: r.at, delta: 1 },
		{ at: r.finishedAt ?? r.at, delta: -1 },
	]);
	// At equal times, count a finish before a start: touching is not overlapping.
	events.sort((a, b) => a.at - b.at || a.delta - b.delta);
	let current = 0;
	let max = 0;
	for (const event of events) {
		current += event.delta;
		max = Math.max(max, current);
	}
	return max;
}

/**
 * The pauses between the status polls of one wait, from the simulator's log, beside the schedule
 * every wait follows (docs/reliability-and-speed.md, "Waits"): a poll at once, then pauses of Wait Interval until 40 % of
 * the time waited so far is longer, never more than Wait Interval Limit. `expected[i]` is the pause
 * the schedule asks for before poll i + 1 (from when poll i arrived); the node measures the time
 * waited after the answer, so a pause may run a few milliseconds over.
 */
export function pollPauses(
	polls: LoggedRequest[],
	{ intervalMs = 1000, maxIntervalMs = 30_000 } = {},
): { actual: number[]; expected: number[] } {
	const at = polls.map((r) => r.at);
	const actual = at.slice(1).map((t, i) => t - at[i]);
	const expected = at
		.slice(0, -1)
		.map((t) => Math.max(intervalMs, Math.min(maxIntervalMs, 0.4 * (t - at[0]))));
	return { actual, expected };
}

/**
 * Each pause of `pauses` is the one the schedule asks for: never shorter (the promise to Vantage),
 * at most `slackMs` longer (a loaded machine's event loop runs late: a second of slack keeps the
 * check about the schedule, not about the machine).
 */
export function expectSchedule(pauses: { actual: number[]; expected: number[] }, slackMs = 1000) {
	pauses.actual.forEach((pause, i) => {
		expect(pause).toBeGreaterThanOrEqual(pauses.expected[i] - 5);
		expect(pause).toBeLessThanOrEqual(pauses.expected[i] + slackMs);
	});
}
