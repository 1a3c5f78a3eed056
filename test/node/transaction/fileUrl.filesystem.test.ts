/**
 * File URL with n8n's filesystem binary mode (n8n 2's default): the download streams into n8n's
 * binary store on disk and the upload streams from there; a download that stalls ends after the
 * Request Timeout without data.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { useFileServer } from '../../helpers/fileServer';
import { useSimulator } from '../../helpers/fixture';
import { processParams } from '../../helpers/params';

// Read by n8n-core when the binary data service is first created, inside the first run.
// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));
const files = useFileServer();

describe('File URL, binaries on disk', () => {
	test('a 12 MB file streams from the link through n8n’s binary store into the upload, byte for byte', async () => {
		const body = Buffer.alloc(12 * 1024 * 1024);
		for (let i = 0; i < body.length; i += 4096) body.writeUInt32BE(i, i);
		const url = files.server.serve('/large.pdf', { body });
		const result = await runNode({
			credentials: f.store,
			parameters: processParams(
				{ inputFiles: 'url', fileUrl: url, allowedInternalHosts: files.server.allowed },
				{ uploadMethod: 'separate' },
			),
		});
		expect(result.error).toBeUndefined();
		const uploaded = f.sim
			.requestsTo('AddFilesToTransaction')
			.flatMap((r) => (r.body as { files: IDataObject[] }).files);
		expect(uploaded).toEqual([
			expect.objectContaining({
				name: 'large.pdf',
				size: body.length,
				sha256: createHash('sha256').update(body).digest('hex'),
			}),
		]);
	});

	test('a download that stalls ends after the Request Timeout without data, and nothing is sent to Vantage', async () => {
		const url = files.server.serve('/stalls.pdf', { stall: true });
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/stalls\.pdf$/);
		const result = await runNode({
			credentials: f.store,
			parameters: {
				...processParams({
					inputFiles: 'url',
					fileUrl: url,
					allowedInternalHosts: files.server.allowed,
				}),
				requestOptions: { timeout: 1 },
			},
		});
		expect(result.error?.message).toMatch(
			/^File URL http:\/\/127\.0\.0\.1:\d+\/stalls\.pdf: the download broke off after \d+ bytes \(no data arrived for 1 s\) \[item 0\]$/,
		);
		expect(f.sim.requests).toHaveLength(0);
	});
});
