/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console --
 * End-to-end suite, never shipped: a real n8n server restarted under waiting executions, a file
 * server on loopback, the simulator running the shipped Custom-activity script. */
/**
 * Waiting for Manual Review without holding a worker (issue 40), inside a real n8n started as a
 * server, on every release line: Process Document with On Manual Review → Resume When Vantage
 * Pushes. Proven from what n8n stored (its public API): a document that needs no review comes out
 * at once; documents in review leave their executions `waiting` in n8n's database; forged, unsigned
 * and misdirected calls of the resume URL resume nothing and read nothing from Vantage; n8n is
 * restarted while they wait, then reviews end (the shipped script, after Review, posts to each
 * transaction's n8nResumeUrl): each execution resumes once, with the fields Keep Waiting outputs,
 * and the node after it runs; n8n is stopped, reviews end while it is down (the script's pushes are
 * lost), n8n starts again: the polling ABBYY Vantage Trigger's safety net re-sends them and those
 * executions resume once too; a Wait Limit ends a wait with its items marked `waitLimitReached`;
 * a push to a finished execution is answered 409. The time from a review's end to the resumed
 * execution's end is printed (BENCHMARKS.md measures it under load: bench/durableWait.ts).
 * Run alone: `npx ts-node --transpile-only --prefer-ts-exts e2e/durableWait.ts` (E2E_N8N for a
 * 1.x line).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { fixtureCredentialData, type VantageSimulator } from '../test/simulator/simulator';
import { assert, check, equal } from './lib/checks';
import {
	AFTER_THE_WAIT,
	DOCUMENT_ARRIVES,
	documentArrivesWorkflow,
	EXTRACT_INVOICE,
	invoiceFileServer,
} from './lib/documentArrives';
import { hostVersions, importCredentials, LINE, RUN_DIR, type N8nInstance } from './lib/n8n';
import {
	activate,
	createEventSecret,
	deactivate,
	eventBody,
	FAST_POLL_TIMES,
	openSession,
	post,
	randomSecret,
	SECRET_NAME,
	signedHeaders,
	sleep,
	until,
	URL_NAME,
	type CredentialRef,
	type Session,
} from './lib/push';
import {
	publicApi,
	rest,
	startServer,
	stopServer,
	type N8nServer,
	type StoredExecution,
} from './lib/server';
import { CREDENTIAL, runAlone, type Setup } from './lib/setup';

type Json = Record<string, unknown>;

const SAFETY_NET = 'Safety net';
/**
 * An ABBYY Vantage credential whose Vantage is on another machine (nothing listens there: the node
 * refuses before it sends anything), imported by the suite.
 */
const ELSEWHERE: CredentialRef = { id: 'vaCredElsewh', name: 'ABBYY Vantage elsewhere' };
const ELSEWHERE_URL = 'https://vantage.example.com';

/** Executions waiting for review through the restarts (half end while n8n is up, half while down). */
const WAITING = 4;
/** "At once": a resumed execution ends within this of its review's end (the figures are printed). */
const WITHIN_MS = 30_000;

/**
 * Webhook (JSON `{ label, url }`) → Process Document (one transaction per item, Resume When
 * Vantage Pushes, the batch and the label as registration parameters) → No Operation.
 */
function durableWorkflow(o: {
	name: string;
	path: string;
	eventSecret: CredentialRef;
	batch: string;
	waitLimitHours?: number;
}): Json {
	return documentArrivesWorkflow({
		name: o.name,
		path: o.path,
		vantage: CREDENTIAL,
		eventSecret: o.eventSecret,
		options: {
			pollInterval: 1,
			maxPollInterval: 2,
			onManualReview: 'resume',
			...(o.waitLimitHours ? { waitLimitHours: o.waitLimitHours } : {}),
		},
		registration: [{ key: 'Batch', value: o.batch }],
		perItem: true,
		after: true,
	});
}

/** The polling trigger, Transaction Completed of the batch, with its safety net (no grace). */
function safetyNetWorkflow(o: {
	vantage: CredentialRef;
	eventSecret: CredentialRef;
	batch: string;
}): Json {
	return {
		name: 'e2e: durable waits, safety net',
		nodes: [
			{
				id: 'durable-safety-net',
				name: SAFETY_NET,
				type: 'n8n-nodes-abbyy-vantage.abbyyVantageTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: FAST_POLL_TIMES,
					event: 'transactionCompleted',
					transactionParameters: { parameter: [{ key: 'Batch', value: o.batch }] },
					options: { safetyNet: true, gracePeriodMinutes: 0 },
				},
				credentials: { abbyyVantageApi: o.vantage, abbyyVantageEventSecretApi: o.eventSecret },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** The items a node output in a stored execution's last run. */
function lastItems(execution: StoredExecution, node: string): Json[] {
	const runData = ((execution.data?.resultData as Json | undefined)?.runData ?? {}) as Record<
		string,
		Json[]
	>;
	const runs = runData[node] ?? [];
	const task = runs[runs.length - 1];
	return (
		(((task?.data as Json | undefined)?.main as Array<Array<{ json: Json }>>) ?? [])[0] ?? []
	).map((i) => i.json);
}

/**
 * The executions of `workflowId` with their run data. The editor's list (n8n's REST API) names
 * them, waiting ones included (n8n 1.x keeps a waiting execution among its active ones, which its
 * public API leaves out of every list); the public API gives each one's data.
 */
async function executionsOf(session: Session, workflowId: string): Promise<StoredExecution[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = await rest<{ results?: Array<{ id: string }> }>(
		session.url,
		session.cookie,
		'GET',
		// n8n's REST list takes at most 100 a page; a suite's workflow has fewer executions.
		`/executions?filter=${filter}&limit=100`,
	);
	// n8n 1.x lists the executions under way and the finished ones in two queries: one that ends
	// between them may come twice (seen once on 1.123.81: "executions of DW-3: expected 1, got 2").
	const ids = [...new Set((page.results ?? []).map(({ id }) => id))];
	return await Promise.all(
		ids.map(
			async (id) =>
				await publicApi<StoredExecution>(
					session.url,
					session.apiKey,
					'GET',
					`/executions/${id}?includeData=true`,
				).then((e) => ({
					...e,
					// n8n 1.85's public API gives no status: a finished run succeeded, a stopped one failed.
					status:
						e.status ??
						(e.finished
							? 'success'
							: (e as { waitTill?: unknown }).waitTill
								? 'waiting'
								: e.stoppedAt
									? 'error'
									: 'running'),
				})),
		),
	);
}

/** The label the webhook received in a stored execution. */
function labelOf(execution: StoredExecution): string | undefined {
	const [item] = lastItems(execution, DOCUMENT_ARRIVES);
	return ((item?.body as Json | undefined)?.label as string | undefined) ?? undefined;
}

export interface DurableContext {
	session: Session;
	sim: VantageSimulator;
	/** n8n's log file: no secret may be in it. */
	logFile: string;
	/** Stop n8n (SIGTERM), run `whileDown`, start it again on the same user folder: the new session. */
	restart: (whileDown?: () => Promise<void>) => Promise<Session>;
}

/**
 * The durable wait on a running n8n (every release line). Leaves the simulator without the script
 * and its secrets, its default transaction script as it was ({}).
 */
export async function durableWaitChecks(ctx: DurableContext): Promise<void> {
	const { sim } = ctx;
	let { session } = ctx;
	const started = Date.now();
	const batch = `e2e-durable-${started}`;
	const secret = randomSecret();
	const files = await invoiceFileServer('Durable GmbH');
	const eventSecret = await createEventSecret(
		session,
		'ABBYY Vantage events (durable e2e)',
		secret,
	);
	const path = `durable-${started}`;
	const limitPath = `durable-limit-${started}`;
	const workflowIds: string[] = [];
	// Documents wait in Manual Review until a test ends the review; the script runs after Review.
	sim.setDefaultTransactionScript({ processing: { ms: 300 }, manualReview: { ms: 3600_000 } });
	sim.configureCustomActivity({ placements: ['afterReview'], allowPlainHttpOnLoopback: true });
	sim.setSecrets({ [SECRET_NAME]: secret, [URL_NAME]: null });
	const call = async (to: string, label: string) => {
		// n8n 2.x publishes an activated workflow from an outbox, a moment after the API answered:
		// until then its webhook answers 404 and runs nothing, so asking again is safe.
		for (let attempt = 0; ; attempt++) {
			const res = await fetch(`${session.url}/webhook/${to}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ label, url: `${files.url}/${label}.txt` }),
				signal: AbortSignal.timeout(60_000),
			});
			await res.arrayBuffer();
			if (res.status !== 404 || attempt === 40) return res.status;
			await sleep(500);
		}
	};
	try {
		console.log(`\nDurable waits for Manual Review, ${hostVersions().label}`);
		const durableId = await activate(
			session,
			durableWorkflow({ name: 'e2e: durable wait', path, eventSecret, batch }),
		);
		const limitId = await activate(
			session,
			durableWorkflow({
				name: 'e2e: durable wait, short Wait Limit',
				path: limitPath,
				eventSecret,
				batch,
				// 36 s: n8n's WaitTracker looks for due executions every minute.
				waitLimitHours: 0.01,
			}),
		);
		const netId = await activate(
			session,
			safetyNetWorkflow({ vantage: CREDENTIAL, eventSecret, batch }),
		);
		workflowIds.push(durableId, limitId, netId);
		const byLabel = async (workflowId: string) => {
			const executions = await executionsOf(session, workflowId);
			const map = new Map<string, StoredExecution[]>();
			for (const e of executions) {
				const label = labelOf(e);
				if (label) map.set(label, [...(map.get(label) ?? []), e]);
			}
			return map;
		};
		const transactionOf = (execution: StoredExecution) =>
			String(lastItems(execution, EXTRACT_INVOICE)[0]?.transactionId ?? '');

		// --- n8n's resume URLs name its own machine here (WEBHOOK_URL http://127.0.0.1:…/): with
		// Vantage on another machine the node refuses before it sends anything
		const elsewherePath = `durable-elsewhere-${started}`;
		const elsewhereId = await activate(
			session,
			documentArrivesWorkflow({
				name: 'e2e: durable wait, Vantage elsewhere',
				path: elsewherePath,
				vantage: ELSEWHERE,
				eventSecret,
				options: { onManualReview: 'resume' },
			}),
		);
		workflowIds.push(elsewhereId);
		equal(await call(elsewherePath, `DW-ELSEWHERE-${started}`), 200, 'webhook answer (elsewhere)');
		await check(
			`Vantage at ${ELSEWHERE_URL}, n8n's resume URL on 127.0.0.1: refused before any upload, naming WEBHOOK_URL`,
			async () => {
				const [run] = await until(
					async () => await executionsOf(session, elsewhereId),
					(list) => list[0]?.status === 'error',
					60_000,
				);
				equal(run?.status, 'error', 'execution status');
				const error = (run?.data?.resultData as Json | undefined)?.error as Json | undefined;
				assert(
					String(error?.message).includes(
						'names n8n’s own machine, which ABBYY Vantage at vantage.example.com cannot reach',
					),
					`error: ${String(error?.message)}`,
				);
				assert(
					String(error?.description).includes('WEBHOOK_URL'),
					`description: ${String(error?.description)}`,
				);
			},
		);

		// --- the limit first: n8n ends it in a minute or two, while the rest runs
		const limitLabel = `DW-LIMIT-${started}`;
		equal(await call(limitPath, limitLabel), 200, 'webhook answer (limit)');
		// Scripts are taken by transactions in start order: its transaction first.
		const limitWaiting = await until(
			async () => await byLabel(limitId),
			(m) => m.get(limitLabel)?.[0]?.status === 'waiting',
			60_000,
		);
		assert(
			limitWaiting.get(limitLabel)?.[0]?.status === 'waiting',
			'the limit’s execution does not wait',
		);

		// --- no review: out at once
		sim.scriptNextTransaction({ processing: { ms: 300 } });
		const straight = `DW-S-${started}`;
		equal(await call(path, straight), 200, 'webhook answer');
		// The webhook answers before its execution runs: the queued script goes to whichever
		// transaction starts next, so the others start once this one has come out.
		await until(
			async () => await byLabel(durableId),
			(m) => m.get(straight)?.[0]?.status === 'success',
			60_000,
		);
		// Then the executions that wait.
		const labels = Array.from({ length: WAITING }, (_, i) => `DW-${i}-${started}`);
		for (const label of labels) equal(await call(path, label), 200, `webhook answer (${label})`);
		const waiting = await until(
			async () => await byLabel(durableId),
			(m) =>
				m.get(straight)?.[0]?.status === 'success' &&
				labels.every((l) => m.get(l)?.[0]?.status === 'waiting'),
			60_000,
		);
		await check(
			`a document that needs no review comes out at once (the node after it ran); ${WAITING} in review leave their executions waiting in n8n's database, each having shown its transaction waiting for review`,
			() => {
				const done = waiting.get(straight)?.[0];
				assert(done, 'no execution for the document without review');
				equal(done.status, 'success', 'its status');
				const [out] = lastItems(done, AFTER_THE_WAIT);
				equal(
					[out?.status, (out?.fields as Json | undefined)?.InvoiceNumber],
					['Processed', straight],
					'its fields, after the node',
				);
				for (const label of labels) {
					const [execution] = waiting.get(label) ?? [];
					assert(execution, `no execution for ${label}`);
					equal(execution.status, 'waiting', `status of ${label}`);
					const [shown] = lastItems(execution, EXTRACT_INVOICE);
					equal(
						[shown?.status, shown?.waitingForManualReview, typeof shown?.manualReviewLink],
						['Processing', true, 'string'],
						`${label} while it waits`,
					);
					equal(lastItems(execution, AFTER_THE_WAIT), [], `${label}: nothing ran after the node`);
				}
			},
		);
		const txOf = new Map(labels.map((l) => [l, transactionOf(waiting.get(l)![0])]));
		const resumeUrlOf = (label: string) =>
			String(
				sim
					.transaction(txOf.get(label)!)
					?.registrationParameters.find((p) => p.key === 'n8nResumeUrl')?.value ?? '',
			);

		// --- the resume URL is guarded
		const target = labels[0];
		const resumeUrl = resumeUrlOf(target);
		const own = txOf.get(target)!;
		const [other] = sim.seedCompletedTransactions(1);
		sim.clearLog();
		const signedFor = (id: string, key = secret) => {
			const body = eventBody(id);
			return { body: JSON.stringify(body), headers: signedHeaders(body, key) };
		};
		const attempts: Array<
			[string, string, { body: string; headers: Record<string, string> }, number[]]
		> = [
			[
				'unsigned',
				resumeUrl,
				{ body: JSON.stringify(eventBody(own)), headers: { 'content-type': 'application/json' } },
				[401],
			],
			['signed with another secret', resumeUrl, signedFor(own, randomSecret()), [401]],
			['signed, for a transaction it does not wait for', resumeUrl, signedFor(other), [404]],
			...(LINE.id === '2'
				? ([
						['signed, without n8n’s token', resumeUrl.split('?')[0], signedFor(own), [401]],
						[
							'signed, with a forged token',
							resumeUrl.replace(/signature=[^&]+/, `signature=${'0'.repeat(64)}`),
							signedFor(own),
							[401],
						],
					] as Array<[string, string, { body: string; headers: Record<string, string> }, number[]]>)
				: []),
		];
		const answers: string[] = [];
		for (const [what, url, request, statuses] of attempts) {
			const answer = await post(url, request.body, request.headers);
			answers.push(`${what}: ${answer.status}`);
			assert(
				statuses.includes(answer.status),
				`${what}: answered ${answer.status} ${answer.text.slice(0, 200)}`,
			);
		}
		await sleep(1500);
		const afterForged = await byLabel(durableId);
		await check(
			`the resume URL refuses what Vantage did not sign for it (${answers.join('; ')}): nothing resumed, nothing read from Vantage${LINE.id === '2' ? ' (n8n checks its token first)' : ' (n8n 1.x puts no token in resume URLs: the signature is the guard)'}`,
			() => {
				equal(afterForged.get(target)?.[0]?.status, 'waiting', 'the execution');
				equal(
					sim.requests
						.filter((r) => r.path.includes(own) || r.path.includes(other))
						.map((r) => r.route),
					[],
					'Vantage requests for the refused calls',
				);
			},
		);

		// --- restart while they wait, then two reviews end
		session = await ctx.restart();
		const up = labels.slice(0, WAITING / 2);
		const endedAt = new Map<string, number>();
		for (const label of up) {
			endedAt.set(label, Date.now());
			sim.completeTransaction(txOf.get(label)!);
		}
		const afterUp = await until(
			async () => await byLabel(durableId),
			(m) => up.every((l) => m.get(l)?.[0]?.status === 'success'),
			90_000,
		);
		const latency = (m: Map<string, StoredExecution[]>, list: string[]) =>
			list.map((l) => Date.parse(String(m.get(l)?.[0]?.stoppedAt)) - endedAt.get(l)!);
		const upLatency = latency(afterUp, up);
		await check(
			`n8n restarted while ${WAITING} executions waited; ${up.length} reviews end: the script's push resumes each once, with the fields Keep Waiting outputs, and the node after it runs (review end → execution end: ${upLatency.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')})`,
			() => {
				for (const label of up) {
					const executions = afterUp.get(label) ?? [];
					equal(executions.length, 1, `executions of ${label}`);
					equal(executions[0].status, 'success', `status of ${label}`);
					const [out] = lastItems(executions[0], AFTER_THE_WAIT);
					equal(
						[
							out?.transactionId,
							out?.status,
							(out?.fields as Json | undefined)?.InvoiceNumber,
							out?.uploadMethod,
						],
						[txOf.get(label), 'Processed', label, 'launch'],
						`${label} after the wait`,
					);
					equal(
						sim.customActivityRuns(txOf.get(label)!).map((r) => r.requests.map((q) => q.status)),
						[[202]],
						`the script's push for ${label}`,
					);
				}
				assert(
					upLatency.every((ms) => ms >= 0 && ms < WITHIN_MS),
					`latency ${upLatency.join(', ')} ms`,
				);
			},
		);

		// --- n8n down while two reviews end: the pushes are lost; the safety net re-sends them
		const down = labels.slice(WAITING / 2);
		session = await ctx.restart(async () => {
			for (const label of down) {
				endedAt.set(label, Date.now());
				sim.completeTransaction(txOf.get(label)!);
			}
			await sim.customActivitiesSettled();
		});
		const afterDown = await until(
			async () => await byLabel(durableId),
			(m) => down.every((l) => m.get(l)?.[0]?.status === 'success'),
			120_000,
		);
		await check(
			`n8n was down while ${down.length} reviews ended (the script tried ${[...new Set(down.flatMap((l) => sim.customActivityRuns(txOf.get(l)!).map((r) => r.requests.length)))].join('/')} times, and gave up): after the restart the safety net re-sent each push and each execution resumed once, with its fields`,
			() => {
				for (const label of down) {
					const run = sim.customActivityRuns(txOf.get(label)!)[0];
					assert(
						run &&
							run.requests.length > 0 &&
							run.requests.every((r) => r.status === undefined && r.error),
						`${label}: the script reached n8n (${JSON.stringify(run?.requests.map((r) => r.status ?? r.error))})`,
					);
					const executions = afterDown.get(label) ?? [];
					equal(executions.length, 1, `executions of ${label}`);
					equal(executions[0].status, 'success', `status of ${label}`);
					const [out] = lastItems(executions[0], AFTER_THE_WAIT);
					equal(
						[out?.transactionId, (out?.fields as Json | undefined)?.InvoiceNumber],
						[txOf.get(label), label],
						`${label} after the wait`,
					);
				}
				const log = readFileSync(ctx.logFile, 'utf8');
				for (const label of down) {
					assert(
						log.includes(
							`re-sent the push of transaction ${txOf.get(label)} to its waiting execution: 202`,
						),
						`n8n's log does not say the push of ${label} was re-sent`,
					);
				}
			},
		);

		// --- once: pushes after the resume change nothing
		const first = sim.customActivityRuns(own)[0]?.requests[0];
		const replay = first
			? await post(resumeUrl, String(first.body), Object.fromEntries(Object.entries(first.headers)))
			: { status: -1, text: '' };
		const late = signedFor(own);
		const again = await post(resumeUrl, late.body, late.headers);
		await sleep(1500);
		const final = await byLabel(durableId);
		await check(
			`a push to a resumed execution (the script's own request replayed: ${replay.status}; a new event: ${again.status}) is refused by n8n (409); every execution ran once`,
			() => {
				equal([replay.status, again.status], [409, 409], 'answers');
				for (const label of [straight, ...labels])
					equal(final.get(label)?.length, 1, `executions of ${label}`);
			},
		);

		// --- the Wait Limit
		const limited = await until(
			async () => await byLabel(limitId),
			(m) => m.get(limitLabel)?.[0]?.status === 'success',
			150_000,
		);
		await check(
			'the Wait Limit ends a wait without a push: the node outputs its transaction as it was, marked waitLimitReached, and the workflow goes on',
			() => {
				const [execution] = limited.get(limitLabel) ?? [];
				assert(execution, 'no execution for the limit');
				equal(execution.status, 'success', 'its status');
				const [out] = lastItems(execution, AFTER_THE_WAIT);
				equal(
					[
						out?.status,
						out?.waitingForManualReview,
						out?.waitLimitReached,
						typeof out?.waitLimitAt,
					],
					['Processing', true, true, 'string'],
					'the item after the limit',
				);
			},
		);
		await check('no Event Secret and no n8n resume token in n8n’s log', () => {
			const log = readFileSync(ctx.logFile, 'utf8');
			assert(!log.includes(secret), 'the Event Secret is in n8n’s log');
			const token = /signature=([^&]+)/.exec(resumeUrl)?.[1];
			if (token) assert(!log.includes(token), 'a resume token is in n8n’s log');
		});
	} finally {
		for (const id of workflowIds) await deactivate(session, id);
		sim.configureCustomActivity({ placements: [] });
		sim.setSecrets({ [SECRET_NAME]: null, [URL_NAME]: null });
		sim.setDefaultTransactionScript({});
		files.server.close();
		console.log(
			`[e2e] durable-wait checks finished in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	}
}

/** n8n started as a server on `instance`, its resume URLs on 127.0.0.1 (the simulator posts there). */
async function serve(instance: N8nInstance): Promise<{ server: N8nServer; session: Session }> {
	const server = await startServer(instance, {
		WEBHOOK_URL: `http://127.0.0.1:${instance.env.N8N_PORT}/`,
	});
	return { server, session: await openSession(server.url) };
}

/**
 * The durable-wait suite on the instance of `setup`: n8n started as a server on its user folder
 * (no other n8n may use it meanwhile), the checks (which restart it twice), n8n stopped.
 */
export async function durableWaitSuite(setup: Setup): Promise<void> {
	const started = Date.now();
	await importCredentials(setup.instance, join(RUN_DIR, 'credential-elsewhere.json'), [
		{ ...ELSEWHERE, type: 'abbyyVantageApi', data: fixtureCredentialData(ELSEWHERE_URL) },
	]);
	let current = await serve(setup.instance);
	const onExit = () => current.server.child.kill('SIGKILL');
	process.once('exit', onExit);
	try {
		await durableWaitChecks({
			session: current.session,
			sim: setup.sim,
			logFile: current.server.logFile,
			restart: async (whileDown) => {
				await stopServer(current.server);
				await whileDown?.();
				current = await serve(setup.instance);
				return current.session;
			},
		});
	} finally {
		await stopServer(current.server);
		process.removeListener('exit', onExit);
		console.log(
			`[e2e] durable-wait suite (n8n started, restarted twice, stopped) finished in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	}
}

if (require.main === module) runAlone(durableWaitSuite, { includeE2eWorkflows: false });
