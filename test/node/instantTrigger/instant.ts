import type { INodeParameters } from 'n8n-workflow';

import { api, raw, token } from '../../helpers/http';
import type { SimulatorFixture } from '../../helpers/fixture';
import {
	InstantTrigger,
	randomSecret,
	type EventSecrets,
	type InstantTriggerOptions,
} from '../../harness/webhook';
import { FIXTURE, type TransactionScript, type VantageSimulator } from '../../simulator/simulator';
import { buildMultipart } from '../../../nodes/AbbyyVantage/helpers/multipart';

/** Triggers started by a test, stopped after it (each waits for its webhook() runs first). */
const started: InstantTrigger[] = [];
afterEach(async () => {
	await Promise.all(started.splice(0).map(async (trigger) => await trigger.stop()));
});

/** The Event Secret of the tests: a fresh random secret per file. */
export const secrets: EventSecrets = { secret: randomSecret() };

let workflows = 0;

/** An active Instant Trigger for the fixture's simulator and credential, listening. */
export async function instantTrigger(
	f: SimulatorFixture,
	parameters: INodeParameters = {},
	options: Partial<InstantTriggerOptions> = {},
): Promise<InstantTrigger> {
	// Each its own workflow: the registry of deliveries is per workflow and per n8n process.
	const trigger = new InstantTrigger({
		workflowId: `wf-instant-${++workflows}`,
		credentials: () => f.store,
		secrets: () => secrets,
		parameters,
		...options,
	});
	started.push(trigger);
	return await trigger.start();
}

/** Wait Interval and Wait Timeout (seconds) for tests that wait for a state that never comes. */
export const shortWait = (timeout = 2): INodeParameters => ({
	options: { pollInterval: 1, timeout },
});

/**
 * A transaction started through the API (one file), following `script`: the Custom activity
 * would push while it still runs.
 */
export async function startedTransaction(
	sim: VantageSimulator,
	script: TransactionScript,
	skillId = FIXTURE.documentSkillId,
): Promise<string> {
	sim.scriptNextTransaction(script);
	const id = sim.createTransaction(skillId);
	const body = await buildMultipart({ files: [{}] }, [
		{ name: 'invoice.pdf', size: 1, streamed: false, open: async () => Buffer.from('x') },
	]);
	const bearer = await token(sim);
	const upload = await raw(`${sim.url}/api/publicapi/v1/transactions/${id}/files`, {
		method: 'POST',
		headers: { authorization: `Bearer ${bearer}`, 'content-type': body.contentType },
		body: body.body as Buffer,
	});
	if (upload.status !== 200) throw new Error(`upload answered ${upload.status}`);
	await api(sim, bearer, 'POST', `/api/publicapi/v1/transactions/${id}/start`);
	return id;
}

/** A transaction waiting in Manual Review (its first status read moves it there). */
export async function transactionInReview(sim: VantageSimulator): Promise<string> {
	const id = await startedTransaction(sim, {
		processing: { polls: 0 },
		manualReview: { polls: 1000 },
	});
	await api(sim, await token(sim), 'GET', `/api/publicapi/v1/transactions/${id}`);
	return id;
}
