/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console --
 * Command-line entry of the test simulator: reads argv, prints where it listens. */
/**
 * Start the ABBYY Vantage simulator alone:
 *   npm run simulator -- --port 4567 [--latency 20] [--token-lifetime 3600] [--quiet-log]
 *     [--files-response empty|list] [--delete-grace 100] [--max-records-per-catalog 500000]
 *     [--record-upsert replace|reject] [--max-in-flight 8 [--retry-after 1]]
 *     [--custom-activity beforeReview,afterReview [--custom-activity-allow-http]]
 * `--custom-activity` places the shipped Custom-activity script (custom-activity/n8n-events.js)
 * before and/or after Review in every skill's flow; `--custom-activity-allow-http` lets it call
 * plain http:// on loopback (a test-only deviation). Secrets and the rest: the control API
 * (`POST /__simulator/secrets`, `POST /__simulator/custom-activity`, see ./control.ts).
 * Prints one line `listening <url>` once ready; stop it with Ctrl-C (SIGINT) or SIGTERM.
 */
import { FIXTURE, VantageSimulator, type Placement } from './simulator';

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? undefined : process.argv[i + 1];
}

async function main(): Promise<void> {
	const simulator = new VantageSimulator({
		port: Number(arg('port') ?? 4567),
		host: arg('host') ?? '127.0.0.1',
		latencyMs: Number(arg('latency') ?? 0),
		tokenLifetimeSeconds: Number(arg('token-lifetime') ?? 2592000),
		logBodies: !process.argv.includes('--quiet-log'),
		filesResponse: arg('files-response') === 'list' ? 'list' : 'empty',
		deleteGraceMs: Number(arg('delete-grace') ?? 100),
		maxRecordsPerCatalog: Number(arg('max-records-per-catalog') ?? 500_000),
		recordUpsert: arg('record-upsert') === 'reject' ? 'reject' : 'replace',
	});
	const maxInFlight = arg('max-in-flight');
	if (maxInFlight !== undefined) {
		const retryAfter = arg('retry-after');
		simulator.setRateLimit({
			maxInFlight: Number(maxInFlight),
			...(retryAfter !== undefined ? { retryAfter } : {}),
		});
	}
	const placements = arg('custom-activity');
	if (placements !== undefined) {
		simulator.configureCustomActivity({
			placements: placements.split(',').map((p) => p.trim() as Placement),
			allowPlainHttpOnLoopback: process.argv.includes('--custom-activity-allow-http'),
		});
	}
	const url = await simulator.start();
	console.log(`listening ${url}`);
	console.log(
		`credentials: client id ${FIXTURE.clientId}, username ${FIXTURE.username} (secrets in test/simulator/simulator.ts FIXTURE)`,
	);
	const stop = () => {
		void simulator.stop().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
