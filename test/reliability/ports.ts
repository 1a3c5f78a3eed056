/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test infrastructure: a free loopback port */
import { createServer } from 'node:net';

/** A loopback TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}
