/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n server, the packed package, the simulator running the
 * shipped Custom-activity script. */
/**
 * Vantage tells n8n (issue 39), inside a real n8n started as a server, on every release line: the
 * simulator runs the script users paste (custom-activity/n8n-events.js) in its Custom activities,
 * before and after Review, and its secrets point at the production URL of an active workflow with
 * the ABBYY Vantage Instant Trigger. Proven from what n8n stored: each transaction's states start
 * one execution each within seconds (a review and a completion when it went through review, one
 * completion when it did not, however many events announced it), with the item the polling ABBYY
 * Vantage Trigger emits for the same transaction (polled beside it, Include Results on); forged,
 * unsigned, stale, future, wrongly typed, oversized, malformed, invalid and replayed requests
 * start nothing, read nothing from Vantage and get the contract's statuses, and the script, refused,
 * does not retry and does not fail the transaction; the Event Secret rotated through Previous Secret
 * while transactions keep completing loses nothing; no secret in n8n's log or executions.
 * Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/push.ts` (E2E_N8N for a 1.x line).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { CREDENTIAL_REUSE_MS } from '../nodes/AbbyyVantage/transport/webhookCredentials';
import type { VantageSimulator } from '../test/simulator/simulator';
import { assert, check, equal } from './lib/checks';
import { hostVersions } from './lib/n8n';
import {
	activate,
	batchFilter,
	bearer,
	createEventSecret,
	deactivate,
	delivered,
	editEventSecret,
	eventBody,
	finished,
	INSTANT_NODE,
	instantWorkflow,
	launchTransaction,
	openSession,
	placeScript,
	pollNode,
	post,
	productionUrl,
	randomSecret,
	removeScript,
	signedHeaders,
	sleep,
	until,
	type Delivered,
	type Session,
} from './lib/push';
import { startServer, stopServer, storedExecutions } from './lib/server';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';

type Json = Record<string, unknown>;

/** The polling workflow's two trigger nodes (beside the Instant Trigger's, for the item shape). */
const POLLED_COMPLETED = 'Completed, polled';
const POLLED_REVIEW = 'Review, polled';
/** How long the reviewed transactions wait in Manual Review: over a poll interval (5 s). */
const REVIEW_MS = 7000;
/** "Within seconds": far below any poll interval a user would set; the figures are BENCHMARKS.md's. */
const WITHIN_MS = 30_000;

export interface PushContext {
	session: Session;
	sim: VantageSimulator;
	/** n8n's log file: no secret may be in it. */
	logFile: string;
}

/** Milliseconds from `fromIso` (or epoch ms) to `toIso`. */
const between = (from: string | number, to: string | null | undefined) =>
	Date.parse(String(to)) - (typeof from === 'number' ? from : Date.parse(from));

/**
 * The basics of the push on a running n8n (every release line): the shipped script through real
 * webhooks, refusals, rotation. Leaves the simulator without the script and its secrets.
 */
export async function pushChecks(ctx: PushContext): Promise<void> {
	const { session, sim } = ctx;
	const started = Date.now();
	const batch = `e2e-push-${started}`;
	const [s1, s2, wrong] = [randomSecret(), randomSecret(), randomSecret()];
	const token = await bearer(sim);
	const eventSecret = await createEventSecret(session, 'ABBYY Vantage events (e2e)', s1);
	const instant = instantWorkflow({
		name: 'e2e: pushed events (both events, Include Results)',
		vantage: CREDENTIAL,
		eventSecret,
		events: ['transactionCompleted', 'manualReview'],
		includeResults: true,
	});
	const instantId = await activate(session, instant.workflow);
	const url = productionUrl(session.url, instant.webhookId);
	const polledId = await activate(session, {
		name: 'e2e: the same transactions, polled every 5 s',
		nodes: [
			pollNode(POLLED_COMPLETED, CREDENTIAL, {
				event: 'transactionCompleted',
				includeResults: true,
				...batchFilter(batch),
			}),
			pollNode(POLLED_REVIEW, CREDENTIAL, { event: 'manualReview' }, 1),
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	const ours = new Set<string>();
	const instantNow = async () => await delivered(session, instantId);
	const ownKeys = (d: Delivered) => [...d.byKey.keys()].filter((k) => ours.has(k.split(':')[1]));
	try {
		// The polling workflow's first polls (one per node) mark what is there already.
		await until(
			async () => [
				sim.requestsTo('GetActiveTransactions').length,
				sim
					.requestsTo('GetCompletedTransactions')
					.filter((r) => r.query['TransactionParameters[0].Value'] === batch).length,
			],
			(counts) => counts.every((n) => n > 0),
			30_000,
		);
		placeScript(sim, ['beforeReview', 'afterReview'], { secret: s1, url });

		console.log(
			`\nThe Instant Trigger through the shipped script (before and after Review), ${hostVersions().label}`,
		);
		const reviewed: string[] = [];
		const straight: string[] = [];
		for (let i = 0; i < 2; i++)
			reviewed.push(
				await launchTransaction(sim, token, `PUSH-R${i}`, { batch, reviewMs: REVIEW_MS }),
			);
		for (let i = 0; i < 3; i++)
			straight.push(await launchTransaction(sim, token, `PUSH-S${i}`, { batch }));
		const phaseA = [...reviewed, ...straight];
		phaseA.forEach((id) => ours.add(id));
		const wanted = [
			...reviewed.map((id) => `review:${id}`),
			...phaseA.map((id) => `completed:${id}`),
		];
		await finished(sim, phaseA);
		const pushedA = await until(instantNow, (d) => wanted.every((k) => d.byKey.has(k)), 30_000);
		const polledA = await until(
			async () => await delivered(session, polledId, [POLLED_COMPLETED, POLLED_REVIEW]),
			(d) => wanted.every((k) => d.byKey.has(k)),
			30_000,
		);
		// A duplicate would come from a confirmation still running: give it a moment.
		await sleep(2000);
		const afterA = await instantNow();
		const runsA = phaseA.flatMap((id) => sim.customActivityRuns(id));

		await check(
			`${reviewed.length} transactions through Manual Review start two executions each (review, then completion), ${straight.length} without review one each, whatever announced them: each within seconds, in webhook mode`,
			() => {
				equal(ownKeys(afterA).sort(), [...wanted].sort(), 'states delivered');
				for (const key of wanted) equal(afterA.byKey.get(key), 1, `executions of ${key}`);
				equal(afterA.executions.length, wanted.length, 'executions of the workflow');
				equal(
					[...new Set(afterA.executions.map((e) => `${e.mode} ${e.status}`))],
					['webhook success'],
					'mode and status',
				);
				const latency = afterA.executions.map((execution) => {
					const json = (execution.data ? nodeJson(execution, INSTANT_NODE) : undefined) ?? {};
					const id = String(json.transactionId);
					const tx = sim.transaction(id)!;
					// Completed: when the simulator finished it. Review: when it entered review (the
					// script before Review returned).
					const review = json.status === 'Processing';
					const from = review
						? (sim.customActivityRuns(id).find((r) => r.placement === 'beforeReview')?.finishedAt ??
							NaN)
						: Date.parse(String(tx.completedUtc));
					return between(from, execution.startedAt);
				});
				console.log(
					`      from the transaction's state in Vantage to its execution's start: ${latency.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`,
				);
				assert(
					latency.every((ms) => Number.isFinite(ms) && ms < WITHIN_MS),
					`not within ${WITHIN_MS / 1000} s: ${latency.join(', ')} ms`,
				);
			},
		);
		await check(
			'each item is the polling ABBYY Vantage Trigger’s for the same transaction: Transaction Completed with Include Results (the extracted fields, one item per document) and Transaction Awaiting Manual Review (its review link)',
			() => {
				for (const key of wanted) {
					const pushed = pushedA.items.get(key) ?? afterA.items.get(key);
					const polled = polledA.items.get(key);
					assert(pushed && polled, `${key}: pushed ${!!pushed}, polled ${!!polled}`);
					equal(pushed, polled, `items of ${key}`);
				}
				const [completed] = afterA.items.get(`completed:${straight[0]}`)!;
				equal(
					(completed.fields as Json | undefined)?.InvoiceNumber,
					'PUSH-S0',
					'Include Results: the invoice number extracted',
				);
				const [review] = afterA.items.get(`review:${reviewed[0]}`)!;
				assert(
					String(review.manualReviewLink).includes(reviewed[0]),
					`review link ${review.manualReviewLink}`,
				);
			},
		);
		await check(
			'the script sent each event once (n8n answered 202, or 409 for a state another event was delivering) and every transaction ended Processed',
			() => {
				equal(runsA.length, phaseA.length * 2, 'script runs (before and after Review)');
				const answers = runsA.map((r) => r.requests.map((q) => q.status ?? q.error).join(','));
				assert(
					answers.every((a) => a === '202' || a === '409'),
					`answers per run: ${answers.join(' | ')}`,
				);
				for (const id of reviewed) {
					equal(
						sim.customActivityRuns(id).map((r) => r.requests[0]?.status),
						[202, 202],
						`answers for reviewed ${id}`,
					);
				}
				equal(
					runsA.map((r) => r.outcome),
					runsA.map(() => 'completed'),
					'script outcomes',
				);
				equal(
					phaseA.map((id) => sim.transaction(id)?.status),
					phaseA.map(() => 'Processed'),
					'transaction statuses',
				);
				assert(
					runsA.every((r) => r.log.some((line) => /: (accepted|already delivered)/.test(line))),
					`logs: ${runsA.map((r) => r.log.join(' / ')).join(' | ')}`,
				);
			},
		);

		// --- requests the script never sends
		console.log('\nforged, stale, replayed, oversized and malformed requests');
		sim.clearLog();
		const crafted: string[] = [];
		const craftedId = () => {
			const id = randomUUID();
			crafted.push(id);
			return id;
		};
		const signedBy = (secret: string, body: Json, atMs?: number) =>
			[JSON.stringify(body), signedHeaders(body, secret, atMs)] as const;
		const answers: Record<string, { status: number; text: string }> = {};
		const send = async (what: string, body: string, headers: Record<string, string>) =>
			(answers[what] = await post(url, body, headers));
		{
			const [body, headers] = signedBy(wrong, eventBody(craftedId()));
			await send('forged (another secret)', body, headers);
		}
		{
			const body = eventBody(craftedId());
			await send('unsigned', JSON.stringify(body), { 'content-type': 'application/json' });
		}
		{
			const [body, headers] = signedBy(s1, eventBody(craftedId()), Date.now() - 6 * 60_000);
			await send('stale (6 minutes old)', body, headers);
		}
		{
			const [body, headers] = signedBy(s1, eventBody(craftedId()), Date.now() + 3 * 60_000);
			await send('from the future (3 minutes ahead)', body, headers);
		}
		{
			const [body, headers] = signedBy(s1, eventBody(craftedId()));
			await send('not JSON (text/plain)', body, { ...headers, 'content-type': 'text/plain' });
		}
		{
			const [body, headers] = signedBy(
				s1,
				eventBody(craftedId(), 'transaction.processed', { padding: 'x'.repeat(17 * 1024) }),
			);
			await send('oversized (17 KiB)', body, headers);
		}
		{
			const headers = signedHeaders(eventBody(craftedId()), s1);
			await send('malformed JSON', '{"specVersion": 1, "transactionId": ', headers);
		}
		{
			const [body, headers] = signedBy(
				s1,
				eventBody(craftedId(), 'transaction.processed', { specVersion: 2 }),
			);
			await send('signed, specVersion 2', body, headers);
		}
		{
			const [body, headers] = signedBy(s1, eventBody('not-a-uuid'));
			await send('signed, transactionId not a UUID', body, headers);
		}
		// A request the script sent, captured (the runs log keeps its headers and body) and sent again.
		const captured = sim.customActivityRuns(straight[0]).find((r) => r.placement === 'afterReview')!
			.requests[0];
		await send('replayed (a captured request sent again)', captured.body!, captured.headers);
		// The script itself refused: Vantage's secret is not n8n's.
		placeScript(sim, ['afterReview'], { secret: wrong, url });
		const refusedTx = await launchTransaction(sim, token, 'PUSH-F0', { batch });
		ours.add(refusedTx);
		await finished(sim, [refusedTx]);
		await sleep(2000);
		const afterB = await instantNow();
		const expected: Record<string, number> = {
			'forged (another secret)': 401,
			unsigned: 401,
			'stale (6 minutes old)': 401,
			'from the future (3 minutes ahead)': 401,
			'not JSON (text/plain)': 415,
			'oversized (17 KiB)': 413,
			// n8n parses an application/json body before any node runs (docs/instant-trigger.md).
			'malformed JSON': 422,
			'signed, specVersion 2': 400,
			'signed, transactionId not a UUID': 400,
			'replayed (a captured request sent again)': 409,
		};
		await check(
			`refused with the contract's statuses: ${Object.entries(expected)
				.map(([what, status]) => `${what} ${status}`)
				.join(', ')}`,
			() => {
				equal(
					Object.fromEntries(Object.entries(answers).map(([w, a]) => [w, a.status])),
					expected,
					'statuses',
				);
				assert(
					/received before/.test(answers['replayed (a captured request sent again)'].text),
					`replay answered ${answers['replayed (a captured request sent again)'].text}`,
				);
			},
		);
		await check(
			'they started nothing and read nothing from Vantage; the script, refused (401), did not retry, logged why, and its transaction ended Processed',
			() => {
				equal(afterB.executions.length, afterA.executions.length, 'executions of the workflow');
				const reads = sim.requests.filter((r) =>
					[...crafted, 'not-a-uuid'].some((id) => r.path.includes(id)),
				);
				equal(
					reads.map((r) => `${r.route} ${r.path}`),
					[],
					'Vantage requests for the crafted events',
				);
				const [run] = sim.customActivityRuns(refusedTx);
				equal(
					run?.requests.map((r) => r.status),
					[401],
					'the script’s attempts',
				);
				assert(
					run.log.some((line) => /refused with 401, not retried/.test(line)),
					`log: ${run.log.join(' / ')}`,
				);
				equal(
					[run.outcome, sim.transaction(refusedTx)?.status],
					['completed', 'Processed'],
					'script outcome, transaction status',
				);
				assert(!afterB.byKey.has(`completed:${refusedTx}`), 'an execution for the refused push');
			},
		);

		// --- rotation: Previous Secret
		console.log('\nthe Event Secret rotated (Previous Secret) while transactions complete');
		const rotation: Array<{ step: string; ids: string[] }> = [];
		const step = async (name: string) => {
			const ids: string[] = [];
			for (let i = 0; i < 2; i++)
				ids.push(await launchTransaction(sim, token, `PUSH-${rotation.length}${i}`, { batch }));
			ids.forEach((id) => ours.add(id));
			await finished(sim, ids);
			rotation.push({ step: name, ids });
		};
		placeScript(sim, ['afterReview'], { secret: s1, url });
		await editEventSecret(session, eventSecret, { secret: s2, previousSecret: s1 });
		await step('n8n: new Secret, old one as Previous Secret; Vantage still signs with the old');
		placeScript(sim, ['afterReview'], { secret: s2, url });
		await step('Vantage signs with the new secret');
		await editEventSecret(session, eventSecret, { secret: s2 });
		// The trigger reads its credentials once every CREDENTIAL_REUSE_MS per node: the old secret
		// is refused from at most that long after the edit (docs/instant-trigger.md).
		await sleep(CREDENTIAL_REUSE_MS + 500);
		await step('n8n: Previous Secret cleared');
		const oldAgain = eventBody(craftedId());
		const lateOld = await post(url, JSON.stringify(oldAgain), signedHeaders(oldAgain, s1));
		const rotated = rotation.flatMap((r) => r.ids);
		const afterC = await until(
			instantNow,
			(d) => rotated.every((id) => d.byKey.has(`completed:${id}`)),
			30_000,
		);
		await check(
			`rotation loses nothing: ${rotation.map((r) => `${r.step}: ${r.ids.length} delivered`).join('; ')}; then an event signed with the old secret is refused (401)`,
			() => {
				for (const id of rotated)
					equal(afterC.byKey.get(`completed:${id}`), 1, `executions of ${id}`);
				equal(
					rotated.map((id) => sim.customActivityRuns(id).map((r) => r.requests[0]?.status)),
					rotated.map(() => [202]),
					'the script’s answers',
				);
				equal(lateOld.status, 401, 'the old secret after Previous Secret was cleared');
				equal(
					afterC.executions.length,
					afterA.executions.length + rotated.length,
					'executions of the workflow',
				);
			},
		);
		await check(
			'no Event Secret and no signature in n8n’s log or in the stored executions',
			async () => {
				const stored = JSON.stringify(
					await storedExecutions(session.url, session.apiKey, instantId, true),
				);
				const log = readFileSync(ctx.logFile, 'utf8');
				const signatures = sim
					.customActivityRuns()
					.flatMap((r) => r.requests.map((q) => q.headers['X-Vantage-Signature'] ?? ''))
					.filter(Boolean)
					.map((s) => s.replace(/^v1=/, ''));
				for (const secret of [s1, s2, wrong, ...signatures]) {
					assert(
						!log.includes(secret),
						`n8n's log holds a secret or signature (${secret.slice(0, 4)}…)`,
					);
					assert(
						!stored.includes(secret),
						`an execution holds a secret or signature (${secret.slice(0, 4)}…)`,
					);
				}
			},
		);
	} finally {
		removeScript(sim);
		await deactivate(session, instantId);
		await deactivate(session, polledId);
		console.log(`[e2e] push checks finished in ${Math.round((Date.now() - started) / 1000)} s`);
	}
}

/** The first item the node output in a stored execution. */
function nodeJson(execution: { data?: Json }, node: string): Json | undefined {
	const runData = ((execution.data?.resultData as Json | undefined)?.runData ?? {}) as Record<
		string,
		Json[]
	>;
	const main = (runData[node]?.[0]?.data as Json | undefined)?.main as
		| Array<Array<{ json: Json }>>
		| undefined;
	return main?.[0]?.[0]?.json;
}

/**
 * The push suite on the instance of `setup`: n8n started as a server on its user folder (no other
 * n8n may use it meanwhile), the checks, n8n stopped.
 */
export async function pushSuite(setup: Setup): Promise<void> {
	const started = Date.now();
	const server = await startServer(setup.instance);
	const onExit = () => server.child.kill('SIGKILL');
	process.once('exit', onExit);
	try {
		await pushChecks({
			session: await openSession(server.url),
			sim: setup.sim,
			logFile: server.logFile,
		});
	} finally {
		await stopServer(server);
		process.removeListener('exit', onExit);
		console.log(
			`[e2e] push suite (n8n started and stopped) finished in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	}
}

if (require.main === module) runAlone(pushSuite, { includeE2eWorkflows: false });
