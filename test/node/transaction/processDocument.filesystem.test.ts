/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: writes n8n's binary store on disk */
/**
 * Process Document with n8n's filesystem binary mode (N8N_DEFAULT_BINARY_DATA_MODE=filesystem):
 * input files live on disk and carry an `id`; the node streams them into the upload instead of
 * loading them into memory, and reads their size from n8n's metadata.
 */
import { createHash } from 'node:crypto';
import { rm, truncate, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { runNode, storeBinary } from '../../harness/n8n';
import { invoiceText } from '../../helpers/binary';
import { useSimulator } from '../../helpers/fixture';
import { processParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

// Read by n8n-core when the binary data service is first created, inside the first run.
// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));

const processFiles = () =>
	processParams(
		{ skillId: rl(FIXTURE.processSkillId), inputFiles: 'all' },
		{ uploadMethod: 'separate' },
	);

// n8n-core's own DI container (it ships its own copy), as test/harness/n8n.ts uses it.
const { Container } = createRequire(require.resolve('n8n-core'))('@n8n/di') as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};

/**
 * A binary n8n keeps on disk that really is `size` bytes long: the stored file is extended
 * (sparsely, so nothing is written) and n8n's metadata for it says so, as n8n would have written
 * it for such a file.
 */
async function bigBinary(
	size: number,
	fileName: string,
): Promise<{ binary: IBinaryData; path: string }> {
	const binary = await storeBinary(Buffer.from(invoiceText({ number: 'BIG' })), fileName);
	const service = Container.get(BinaryDataService);
	const path = service.getPath(binary.id!);
	await truncate(path, size);
	const metadata = await service.getMetadata(binary.id!);
	await writeFile(`${path}.metadata`, JSON.stringify({ ...metadata, fileSize: size }));
	return { binary, path };
}

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

	test('a file over 2 GB is refused before any request, naming the item and the field', async () => {
		const size = 2 * 1024 ** 3 + 1;
		const { binary, path } = await bigBinary(size, 'huge.pdf');
		try {
			const small = await storeBinary(Buffer.from(invoiceText({ number: 'S' })), 'small.pdf');
			const result = await runNode({
				credentials: f.store,
				items: [
					{ json: {}, binary: { data: small } },
					{ json: {}, binary: { scan: binary } },
				],
				parameters: processFiles(),
			});
			expect(result.error?.message).toBe(
				'The file in binary field "scan" (huge.pdf) is 2.00 GB (2,147,483,649 bytes), more than the 2 GB Vantage accepts in one upload [item 1]',
			);
			expect(f.sim.requests).toHaveLength(0);
		} finally {
			await rm(path, { force: true });
		}
	});

	test('files adding up to more than 2 GB in one transaction are refused before any request', async () => {
		const first = await bigBinary(1024 ** 3, 'half-1.pdf');
		const second = await bigBinary(1024 ** 3 + 10, 'half-2.pdf');
		try {
			const result = await runNode({
				credentials: f.store,
				items: [
					{ json: {}, binary: { data: first.binary } },
					{ json: {}, binary: { data: second.binary } },
				],
				parameters: { ...processFiles(), transactionMode: 'combined' },
			});
			expect(result.error?.message).toBe(
				'The 2 files add up to 2.00 GB (2,147,483,658 bytes), more than the 2 GB Vantage accepts in one upload [item 0]',
			);
			expect(f.sim.requests).toHaveLength(0);
		} finally {
			await rm(first.path, { force: true });
			await rm(second.path, { force: true });
		}
	});
});
