/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- developer command, never shipped */
/**
 * Install this line's n8n host into the host cache, or check the cached one (E2E_N8N picks the
 * line). CI runs it while the unit suite runs, so the e2e steps start at once.
 */
import { ensureHost, hostVersions } from './lib/n8n';

ensureHost()
	.then(() => console.log(`[e2e] host ready: ${hostVersions().label}`))
	.catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
