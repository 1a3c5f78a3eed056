import { createHash } from 'node:crypto';

import { api, raw } from '../helpers/http';
import { FIXTURE } from './simulator';
import { problemOf, TRANSACTIONS, useRawSimulator } from './testkit';
import {
	addFiles,
	download,
	launch,
	multipart,
	postMultipart,
	uploadParts,
	type FileSpec,
} from './uploadkit';

const s = useRawSimulator();
const newTx = (skillId: string = FIXTURE.documentSkillId) => s.sim.createTransaction(skillId);
const errorsOf = (res: { json: unknown }) => problemOf(res).errors as Record<string, string[]>;

describe('uploads: AddFilesToTransaction', () => {
	test('200 with an empty body; files stored with size, hash and the replaced name', async () => {
		const tx = newTx();
		const data = 'InvoiceNumber: INV-1\n';
		const res = await addFiles(s.sim, s.bearer, tx, [
			{ name: "a:b/c?#[x]@!$&'()*+,;=\\.pdf", data, contentType: 'application/pdf' },
			{ name: 'plain.txt' },
		]);
		expect(res.status).toBe(200);
		expect(res.text).toBe('');
		expect(res.headers['content-length']).toBe('0');
		const files = s.sim.transaction(tx)!.files;
		expect(files[0]).toMatchObject({
			name: 'a_b_c___x______________.pdf',
			sentName: "a:b/c?#[x]@!$&'()*+,;=\\.pdf",
			size: data.length,
			sha256: createHash('sha256').update(data).digest('hex'),
			contentType: 'application/pdf',
		});
		expect(files[1].name).toBe('plain.txt');
		const info = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}`);
		expect((info.json as { sourceFiles: unknown[] }).sourceFiles).toEqual(
			files.map((f) => ({ id: f.id, name: f.name })),
		);
	});

	test('the request log holds a summary of the upload, never the bytes', async () => {
		const tx = newTx();
		await addFiles(s.sim, s.bearer, tx, [{ name: 'x#1.txt', data: 'abc' }], {
			files: [{ index: 0 }],
		});
		expect(s.sim.requestsTo('AddFilesToTransaction')[0].body).toEqual({
			model: { files: [{ index: 0 }] },
			files: [
				{
					name: 'x#1.txt',
					storedName: 'x_1.txt',
					size: 3,
					sha256: createHash('sha256').update('abc').digest('hex'),
					contentType: 'application/octet-stream',
				},
			],
		});
	});

	test("filesResponse 'list' answers the added files as [{id, name}]", async () => {
		s.sim.setFilesResponse('list');
		const tx = newTx();
		const res = await addFiles(s.sim, s.bearer, tx, [{ name: 'a&b.pdf' }]);
		expect(res.status).toBe(200);
		const file = s.sim.transaction(tx)!.files[0];
		expect(res.json).toEqual([{ id: file.id, name: 'a_b.pdf' }]);
	});

	test('Model per-file metadata is stored: index, image options, registration parameters', async () => {
		const tx = newTx(FIXTURE.processSkillId);
		const model = {
			files: [
				{
					index: 2,
					imageProcessingOptions: { autoCrop: 'No', autoOrientation: 'Yes' },
					registrationParameters: [{ key: 'Source', value: 'mail' }],
				},
				{ index: null },
			],
		};
		expect(
			(await addFiles(s.sim, s.bearer, tx, [{ name: 'a' }, { name: 'b' }], model)).status,
		).toBe(200);
		const [a, b] = s.sim.transaction(tx)!.files;
		expect(a).toMatchObject({
			index: 2,
			registrationParameters: [{ key: 'Source', value: 'mail' }],
		});
		expect(b).toMatchObject({ index: null, registrationParameters: [] });
	});

	test('a Model sent as a plain form field (no content type) is read too', async () => {
		const tx = newTx();
		const parts = [
			{ name: 'model', data: '{"files":[{"index":5}]}' },
			...uploadParts([{ name: 'a' }]),
		];
		expect(
			(await postMultipart(s.sim, s.bearer, `${TRANSACTIONS}/${tx}/files`, parts)).status,
		).toBe(200);
		expect(s.sim.transaction(tx)!.files[0].index).toBe(5);
	});

	test.each([
		['an unknown property', { files: [], extra: true }],
		['an unknown file property', { files: [{ index: 0, name: 'a' }] }],
		['registrationParameters on /files (launch only)', { registrationParameters: [] }],
		[
			'an unknown image option value',
			{ files: [{ imageProcessingOptions: { autoCrop: 'Maybe' } }] },
		],
		['a fractional index', { files: [{ index: 0.5 }] }],
		[
			'eleven file registration parameters',
			{
				files: [
					{
						registrationParameters: Array.from({ length: 11 }, (_, i) => ({
							key: `k${i}`,
							value: 'v',
						})),
					},
				],
			},
		],
		[
			'an empty parameter value',
			{ files: [{ registrationParameters: [{ key: 'k', value: '' }] }] },
		],
		['a Model that is not an object', [1, 2]],
	])('a Model with %s → 400 validation problem', async (_name, model) => {
		const tx = newTx();
		const res = await addFiles(s.sim, s.bearer, tx, [{ name: 'a' }], model);
		expect(res.status).toBe(400);
		expect(problemOf(res).title).toBe('One or more validation errors occurred.');
		expect(Object.keys(errorsOf(res)).every((k) => k.startsWith('$.Model'))).toBe(true);
		expect(s.sim.transaction(tx)!.files).toEqual([]);
	});

	test('a Model that is not JSON, or two Models → 400', async () => {
		const tx = newTx();
		const bad = [{ name: 'Model', data: '{"files": [' }, ...uploadParts([{ name: 'a' }])];
		const res = await postMultipart(s.sim, s.bearer, `${TRANSACTIONS}/${tx}/files`, bad);
		expect(res.status).toBe(400);
		expect(errorsOf(res).Model[0]).toMatch(/could not be converted/);
		const two = [
			{ name: 'Model', data: '{}' },
			{ name: 'Model', data: '{}' },
			...uploadParts([{ name: 'a' }]),
		];
		expect((await postMultipart(s.sim, s.bearer, `${TRANSACTIONS}/${tx}/files`, two)).status).toBe(
			400,
		);
	});

	test('Model.files must match the Files parts one to one', async () => {
		const tx = newTx();
		const res = await addFiles(s.sim, s.bearer, tx, [{ name: 'a' }, { name: 'b' }], {
			files: [{ index: 0 }],
		});
		expect(res.status).toBe(400);
		expect(errorsOf(res)['Model.files'][0]).toMatch(/1 entries but 2 files/);
	});

	test('no Files part, a Files part without a file name, or an empty file → 400', async () => {
		const tx = newTx();
		const none = await postMultipart(s.sim, s.bearer, `${TRANSACTIONS}/${tx}/files`, [
			{ name: 'Model', data: '{}' },
		]);
		expect(none.status).toBe(400);
		expect(errorsOf(none).Files).toEqual(['At least one file is required.']);
		const valueOnly = await postMultipart(s.sim, s.bearer, `${TRANSACTIONS}/${tx}/files`, [
			{ name: 'Files', data: 'not a file' },
		]);
		expect(valueOnly.status).toBe(400);
		const empty = await addFiles(s.sim, s.bearer, tx, [{ name: 'zero.pdf', data: '' }]);
		expect(empty.status).toBe(400);
		expect(problemOf(empty)).toMatchObject({ detail: 'The file is empty', fileName: 'zero.pdf' });
	});

	test('not multipart → 415; no boundary or a broken body → 400; not New → 400', async () => {
		const tx = newTx();
		const path = `${TRANSACTIONS}/${tx}/files`;
		expect((await api(s.sim, s.bearer, 'POST', path, { files: [] })).status).toBe(415);
		const noBoundary = await postMultipart(
			s.sim,
			s.bearer,
			path,
			uploadParts([{ name: 'a' }]),
			'multipart/form-data',
		);
		expect(noBoundary.status).toBe(400);
		expect(errorsOf(noBoundary)['']).toEqual(['Missing content-type boundary.']);
		const cut = multipart(uploadParts([{ name: 'a' }])).subarray(0, 60);
		const broken = await raw(s.sim.url + path, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${s.bearer}`,
				'content-type': 'multipart/form-data; boundary=----SimBoundary7MA4YWxkTrZu0gW',
			},
			body: cut,
		});
		expect(broken.status).toBe(400);
		expect(errorsOf(broken)[''][0]).toMatch(/Unexpected end of Stream/);
		await addFiles(s.sim, s.bearer, tx, [{ name: 'a' }]);
		expect((await api(s.sim, s.bearer, 'POST', `${path.replace('/files', '')}/start`)).status).toBe(
			200,
		);
		const late = await addFiles(s.sim, s.bearer, tx, [{ name: 'b' }]);
		expect(late.status).toBe(400);
	});

	test('unknown transaction → 404; no token → 401 (the body is not read)', async () => {
		const res = await addFiles(s.sim, s.bearer, '00000000-0000-4000-8000-000000000000', [
			{ name: 'a' },
		]);
		expect(res.status).toBe(404);
		expect(problemOf(res).detail).toBe('Transaction not found');
		const anonymous = await raw(`${s.sim.url}${TRANSACTIONS}/${newTx()}/files`, {
			method: 'POST',
			headers: { 'content-type': 'multipart/form-data; boundary=x' },
			body: Buffer.alloc(2_000_000, 'a'),
		});
		expect(anonymous.status).toBe(401);
	});
});

describe('uploads: unique names and the file limit', () => {
	const DUPLICATE = 'A file with the same name already exists in the transaction';

	test('a name already in the transaction → 409, also when it only collides after replacement', async () => {
		const tx = newTx();
		await addFiles(s.sim, s.bearer, tx, [{ name: 'a_b.pdf' }]);
		const same = await addFiles(s.sim, s.bearer, tx, [{ name: 'a_b.pdf' }]);
		expect(same.status).toBe(409);
		expect(problemOf(same)).toMatchObject({ status: 409, detail: DUPLICATE, fileName: 'a_b.pdf' });
		const replaced = await addFiles(s.sim, s.bearer, tx, [{ name: 'a:b.pdf' }]);
		expect(replaced.status).toBe(409);
		const twice = await addFiles(s.sim, s.bearer, tx, [{ name: 'x?.pdf' }, { name: 'x#.pdf' }]);
		expect(twice.status).toBe(409);
		expect(s.sim.transaction(tx)!.files.map((f) => f.name)).toEqual(['a_b.pdf']);
		// Names differing in case are different names.
		expect((await addFiles(s.sim, s.bearer, tx, [{ name: 'A_B.pdf' }])).status).toBe(200);
	});

	test('launch refuses duplicates within its one request with 409', async () => {
		const res = await launch(s.sim, s.bearer, FIXTURE.processSkillId, [
			{ name: 'a+b.pdf' },
			{ name: 'a_b.pdf' },
		]);
		expect(res.status).toBe(409);
		expect(problemOf(res).detail).toBe(DUPLICATE);
		expect(s.sim.createdCounts()).toMatchObject({ transactions: 0, launches: 0, uploads: 0 });
	});

	test('at most 1000 files per transaction: /files → 400, document sourceFiles → 409', async () => {
		const tx = newTx(FIXTURE.processSkillId);
		const files: FileSpec[] = Array.from({ length: 1000 }, (_, i) => ({
			name: `f${i}.txt`,
			data: 'x',
		}));
		expect((await addFiles(s.sim, s.bearer, tx, files)).status).toBe(200);
		expect(s.sim.transaction(tx)!.files).toHaveLength(1000);
		const over = await addFiles(s.sim, s.bearer, tx, [{ name: 'one-more.txt' }]);
		expect(over.status).toBe(400);
		expect(problemOf(over)).toMatchObject({ detail: 'Max files count exceeded', limit: 1000 });
		const doc = await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, {});
		const { documentId } = doc.json as { documentId: string };
		const source = await postMultipart(
			s.sim,
			s.bearer,
			`${TRANSACTIONS}/${tx}/documents/${documentId}/sourceFiles`,
			uploadParts([{ name: 'one-more.txt' }]),
		);
		expect(source.status).toBe(409);
		expect(problemOf(source).detail).toBe('Max files count exceeded');
		expect(s.sim.createdCounts()).toMatchObject({ uploads: 1, filesUploaded: 1000 });
	});
});

describe('uploads: downloads of what was uploaded', () => {
	test('a source file downloads byte for byte through DownloadFile', async () => {
		const tx = newTx();
		const data = Buffer.from([0, 1, 2, 255, 13, 10, 45, 45]);
		await addFiles(s.sim, s.bearer, tx, [{ name: 'bin.dat', data }]);
		const res = await download(s.sim, s.bearer, tx, s.sim.transaction(tx)!.files[0].id);
		expect(res.status).toBe(200);
		expect(res.contentType).toBe('application/octet-stream');
		expect(res.body.equals(data)).toBe(true);
	});

	test('a file over 8 MB keeps its size and hash but downloads only its first 64 KB', async () => {
		const tx = newTx();
		const data = Buffer.alloc(9 * 1024 * 1024);
		for (let i = 0; i < data.length; i += 4096) data[i] = i % 251;
		await addFiles(s.sim, s.bearer, tx, [{ name: 'big.bin', data }]);
		const file = s.sim.transaction(tx)!.files[0];
		expect(file.size).toBe(data.length);
		expect(file.sha256).toBe(createHash('sha256').update(data).digest('hex'));
		const res = await raw(`${s.sim.url}${TRANSACTIONS}/${tx}/files/${file.id}/download`, {
			headers: { authorization: `Bearer ${s.bearer}` },
		});
		expect(res.headers).toMatchObject({
			'x-simulator-truncated': 'true',
			'x-simulator-size': String(data.length),
			'x-simulator-sha256': file.sha256,
			'content-length': String(64 * 1024),
		});
	});
});
