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
