/**
 * n8n's filesystem binary mode (N8N_DEFAULT_BINARY_DATA_MODE=filesystem): input files live on disk
 * and carry an `id`; the node streams them into the upload instead of loading them into memory.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { runNode, storeBinary } from '../../harness/n8n';
import { invoiceText } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

// Read by n8n-core when the binary data service is first created, inside the first run.
// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

const processFiles = () =>
	nodeParams('transaction', 'processDocument', {
		skillId: rl(FIXTURE.processSkillId),
		inputFiles: 'all',
		options: { pollInterval: 1, uploadMethod: 'separate' },
	});

describe('Process Document with binary data kept on disk', () => {
	test('files stored on disk are uploaded byte for byte, streamed from their binary ids', async () => {
		const big = Buffer.concat([
			Buffer.from(invoiceText({ number: 'FS-1' })),
			Buffer.alloc(5 * 1024 * 1024, 7),
		]);
		const small = Buffer.from(invoiceText({ number: 'FS-2' }));
		const first = await storeBinary(big, 'big.pdf');
		const second = await storeBinary(small, 'small.pdf');
		expect(first.id).toMatch(/^filesystem/);
		const result = await runNode({
			credentials: f.store,
			items: [{ json: {}, binary: { first, second } }],
			parameters: processFiles(),
		});
		expect(result.error).toBeUndefined();
		const [upload] = f.sim.requestsTo('AddFilesToTransaction');
		const files = (upload.body as { files: IDataObject[] }).files;
		const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
		expect(files.map((file) => [file.name, file.size, file.sha256])).toEqual([
			['big.pdf', big.length, sha(big)],
			['small.pdf', small.length, sha(small)],
		]);
		expect(result.items.map((i) => (i.json.fields as IDataObject).InvoiceNumber).sort()).toEqual([
			'FS-1',
			'FS-1-2',
			'FS-2',
			'FS-2-2',
		]);
	});

	test('a 401 on the streamed upload: n8n signs in again, the node builds the stream again and sends it once more', async () => {
		// n8n does not resend a stream it has consumed; Vantage refused the request unhandled.
		f.sim.injectFault('AddFilesToTransaction', { kind: 'status', status: 401 }, 1);
		const bytes = Buffer.from(invoiceText({ number: 'FS-3' }));
		const stored = await storeBinary(bytes, 'after-expiry.pdf');
		const result = await runNode({
			credentials: f.store,
			items: [{ json: {}, binary: { data: stored } }],
			parameters: processFiles(),
		});
		expect(result.error).toBeUndefined();
		const attempts = f.sim.requestsTo('AddFilesToTransaction');
		expect(attempts.map((r) => r.status)).toEqual([401, 200]);
		expect((attempts[1].body as { files: IDataObject[] }).files[0].sha256).toBe(
			createHash('sha256').update(bytes).digest('hex'),
		);
		expect(f.sim.createdCounts()).toMatchObject({ transactions: 1, uploads: 1 });
		// One sign-in for the run, one after the 401.
		expect(f.sim.requestsTo('Token')).toHaveLength(2);
	});
});
