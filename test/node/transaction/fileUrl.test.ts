import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { invoiceText } from '../../helpers/binary';
import { useFileServer } from '../../helpers/fileServer';
import { useSimulator } from '../../helpers/fixture';
import { addFilesParams, processParams } from '../../helpers/params';

/**
 * Process Document and Add Files with Input Files → File URL: the document comes from a link (a
 * presigned storage link in real life), fetched through n8n's own HTTP helper from a file server
 * on loopback, and uploaded to the simulator byte for byte. Loopback is internal: every test lets
 * exactly its file server through with Allowed Internal Hosts (links refused:
 * fileUrl.ssrf.test.ts).
 */
const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));
const files = useFileServer();

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const INVOICE = invoiceText({ number: 'INV-URL-1', total: '99,50', vendor: 'ACME GmbH' });

function launched() {
	return f.sim
		.requestsTo('LaunchTransaction')
		.flatMap((r) => (r.body as { files: IDataObject[] }).files);
}

const byUrl = (fileUrl: string, fields: IDataObject = {}) =>
	processParams({
		inputFiles: 'url',
		fileUrl,
		allowedInternalHosts: files.server.allowed,
		...fields,
	});

describe('File URL: a document given by its link', () => {
	test('Process Document downloads the link and Vantage receives the file byte for byte, named by Content-Disposition', async () => {
		const url = files.server.serve('/bucket/obj-1', {
			body: INVOICE,
			headers: { 'content-disposition': `attachment; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf` },
		});
		const result = await runNode({
			credentials: f.store,
			parameters: byUrl(`${url}?X-Amz-Signature=secret-signature`),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			status: 'Processed',
			sourceFiles: ['Rechnung März.pdf'],
			fields: expect.objectContaining({ InvoiceNumber: 'INV-URL-1', Total: 99.5 }),
		});
		expect(launched()).toEqual([
			expect.objectContaining({
				name: 'Rechnung März.pdf',
				size: Buffer.byteLength(INVOICE),
				sha256: sha256(INVOICE),
			}),
		]);
		// The link was fetched once, with its query, and never with the Vantage token.
		expect(files.server.requests).toHaveLength(1);
		expect(files.server.requests[0].query).toBe('?X-Amz-Signature=secret-signature');
		expect(files.server.requests[0].headers.authorization).toBeUndefined();
	});

	test('without Content-Disposition the name is the link’s last path segment; relative redirects are followed', async () => {
		files.server.serve('/share/abc', { redirect: '/files/Invoice%204711.pdf' });
		files.server.serve('/files/Invoice%204711.pdf', { body: INVOICE });
		const result = await runNode({
			credentials: f.store,
			parameters: byUrl(files.server.url('/share/abc')),
		});
		expect(result.error).toBeUndefined();
		expect(launched().map((file) => file.name)).toEqual(['Invoice 4711.pdf']);
		expect(files.server.requests.map((r) => r.path)).toEqual([
			'/share/abc',
			'/files/Invoice%204711.pdf',
		]);
	});

	test('more than five redirects, or a redirect to another scheme, is refused and nothing reaches Vantage', async () => {
		for (let i = 0; i < 7; i++) files.server.serve(`/r${i}`, { redirect: `/r${i + 1}` });
		files.server.serve('/to-ftp', { redirect: 'ftp://files.example.com/invoice.pdf' });
		const loop = await runNode({
			credentials: f.store,
			parameters: byUrl(files.server.url('/r0')),
		});
		expect(loop.error?.message).toBe(
			`File URL ${files.server.url('/r0')}: redirected more than 5 times [item 0]`,
		);
		expect(files.server.requests).toHaveLength(6);
		const ftp = await runNode({
			credentials: f.store,
			parameters: byUrl(files.server.url('/to-ftp')),
		});
		expect(ftp.error?.message).toBe(
			`File URL ${files.server.url('/to-ftp')}: redirected to a ftp link; only http and https are fetched [item 0]`,
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('a link that is not http or https is refused, naming the item, before any download or upload', async () => {
		const good = files.server.serve('/ok.pdf', { body: INVOICE });
		for (const [bad, why] of [
			['file:///etc/passwd', 'must be an http or https link, not file'],
			['ftp://files.example.com/a.pdf', 'must be an http or https link, not ftp'],
			['invoice.pdf', 'is not a URL (it must start with http:// or https://)'],
		]) {
			const result = await runNode({
				credentials: f.store,
				items: [{ link: good }, { link: bad }],
				parameters: byUrl('={{ $json.link }}'),
			});
			expect(result.error?.message).toBe(`File URL ${why} [item 1]`);
		}
		expect(files.server.requests).toHaveLength(0);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('a file over Max File Size is refused: by its Content-Length before reading, or once the stream passes the limit', async () => {
		const announced = files.server.serve('/big.pdf', { body: Buffer.alloc(3 * 1024 * 1024, 1) });
		const streamed = files.server.serve('/stream.pdf', { size: 50 * 1024 * 1024 });
		const one = await runNode({
			credentials: f.store,
			parameters: byUrl(announced, { maxFileSizeMb: 2 }),
		});
		expect(one.error?.message).toBe(
			`File URL ${announced}: the file is 3.0 MB, more than Max File Size (2.0 MB) [item 0]`,
		);
		const two = await runNode({
			credentials: f.store,
			parameters: byUrl(streamed, { maxFileSizeMb: 1 }),
		});
		expect(two.error?.message).toBe(
			`File URL ${streamed}: the file is larger than Max File Size (1.0 MB) [item 0]`,
		);
		expect(f.sim.requests).toHaveLength(0);
	});

	test('an expired presigned link (403) says so, without the link’s query in the message', async () => {
		const url = files.server.serve('/expired.pdf', { status: 403, body: 'AccessDenied' });
		const result = await runNode({
			credentials: f.store,
			parameters: byUrl(`${url}?X-Amz-Signature=do-not-show&X-Amz-Credential=AKIA`),
		});
		expect(result.error?.message).toBe(
			`File URL ${url} (query not shown): answered HTTP 403 [item 0]`,
		);
		expect(result.error?.description).toBe(
			'The link may have expired (presigned links do) or need a sign-in: get a fresh link.',
		);
		// (n8n keeps the node's parameters with the error, as it does in any stored workflow.)
		expect(`${result.error?.message} ${result.error?.description}`).not.toContain('Amz');
		expect(f.sim.requests).toHaveLength(0);
	});

	test('Add Files takes a link too', async () => {
		const transactionId = f.sim.createTransaction('Invoice');
		const url = files.server.serve('/scan.pdf', { body: INVOICE });
		const result = await runNode({
			credentials: f.store,
			parameters: addFilesParams(transactionId, {
				inputFiles: 'url',
				fileUrl: url,
				allowedInternalHosts: files.server.allowed,
			}),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			transactionId,
			files: [{ name: 'scan.pdf', size: Buffer.byteLength(INVOICE) }],
		});
		const uploaded = f.sim
			.requestsTo('AddFilesToTransaction')
			.flatMap((r) => (r.body as { files: IDataObject[] }).files);
		expect(uploaded).toEqual([
			expect.objectContaining({ name: 'scan.pdf', sha256: sha256(INVOICE) }),
		]);
	});
});
