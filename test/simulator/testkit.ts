/** Shared by the simulator's own tests: a fresh simulator and a token for the fixture user. */
import { token } from '../helpers/http';
import { VantageSimulator } from './simulator';

export const EXPORTS = '/api/reporting/v2/exports/transaction-steps';
export const CATALOGS = '/api/publicapi/v1/catalogs';
export const TRANSACTIONS = '/api/publicapi/v1/transactions';

export interface RawFixture {
	sim: VantageSimulator;
	bearer: string;
}

export function useRawSimulator(): RawFixture {
	const fixture = {} as RawFixture;
	beforeEach(async () => {
		fixture.sim = new VantageSimulator();
		await fixture.sim.start();
		fixture.bearer = await token(fixture.sim);
		fixture.sim.clearLog();
	});
	afterEach(async () => await fixture.sim.stop());
	return fixture;
}

export function problemOf(res: { json: unknown }): Record<string, unknown> {
	return res.json as Record<string, unknown>;
}

/** A well-formed id that no resource has. */
export function randomId(): string {
	return '11111111-2222-4333-8444-555555555555';
}
