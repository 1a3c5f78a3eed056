import { api, raw } from '../helpers/http';
import { FIXTURE, splittingSkill } from './simulator';
import { problemOf, randomId, TRANSACTIONS, useRawSimulator } from './testkit';
import {
	addFiles,
	download,
	info,
	postMultipart,
	resultJson,
	settle,
	uploadParts,
} from './uploadkit';

const s = useRawSimulator();

async function newDocument(tx: string, body: unknown = {}): Promise<string> {
	const res = await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/documents`, body);
	expect(res.status).toBe(201);
	return (res.json as { documentId: string }).documentId;
}

async function addSourceFiles(tx: string, doc: string, names: string[], model?: unknown) {
	return await postMultipart(
		s.sim,
		s.bearer,
		`${TRANSACTIONS}/${tx}/documents/${doc}/sourceFiles`,
		uploadParts(
			names.map((name) => ({ name, data: `source ${name}` })),
			model,
		),
	);
}

describe('transaction documents', () => {
	test('source files of a document: upload (200 empty), list, read, download', async () => {
		const tx = s.sim.createTransaction(FIXTURE.processSkillId);
		const doc = await newDocument(tx, { index: 1 });
		const up = await addSourceFiles(tx, doc, ['p1.tif', 'p2.tif'], {
			files: [{ index: 1, registrationParameters: [{ key: 'Page', value: '1' }] }, { index: 2 }],
		});
		expect(up.status).toBe(200);
		expect(up.text).toBe('');
		const files = s.sim.transaction(tx)!.files;
		const expected = {
			documentId: doc,
			sourceFiles: files.map((f) => ({ id: f.id, name: f.name })),
		};
		const list = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}/documents`);
		expect(list.json).toEqual([expected]);
		const one = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}/documents/${doc}`);
		expect(one.json).toEqual(expected);
		expect(files[0].registrationParameters).toEqual([{ key: 'Page', value: '1' }]);

		const res = await raw(
			`${s.sim.url}${TRANSACTIONS}/${tx}/documents/${doc}/sourceFiles/${files[1].id}/download`,
			{ headers: { authorization: `Bearer ${s.bearer}` } },
		);
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('application/octet-stream');
		expect(res.text).toBe('source p2.tif');
	});

	test('a document sourceFiles Model is strict: no image options per file', async () => {
		const tx = s.sim.createTransaction(FIXTURE.processSkillId);
		const doc = await newDocument(tx);
		const res = await addSourceFiles(tx, doc, ['a'], {
			files: [{ imageProcessingOptions: { autoCrop: 'Yes' } }],
		});
		expect(res.status).toBe(400);
		expect(Object.keys(problemOf(res).errors as object)[0]).toMatch(/^\$\.Model/);
	});

	test('document errors: unknown document 404, duplicate name 409, not New 400', async () => {
		const tx = s.sim.createTransaction(FIXTURE.processSkillId);
		const doc = await newDocument(tx);
		const missing = await api(
			s.sim,
			s.bearer,
			'GET',
			`${TRANSACTIONS}/${tx}/documents/${randomId()}`,
		);
		expect(missing.status).toBe(404);
		expect(problemOf(missing).detail).toBe('Transaction document not found');
		expect((await addSourceFiles(tx, randomId(), ['a'])).status).toBe(404);
		await addFiles(s.sim, s.bearer, tx, [{ name: 'a&b.pdf' }]);
		expect((await addSourceFiles(tx, doc, ['in-doc.pdf'])).status).toBe(200);
		const duplicate = await addSourceFiles(tx, doc, ['a_b.pdf']);
		expect(duplicate.status).toBe(409);
		expect(problemOf(duplicate).detail).toBe(
			'A file with the same name already exists in the transaction',
		);
		await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/start`);
		expect((await addSourceFiles(tx, doc, ['late.pdf'])).status).toBe(400);
		const remove = await api(s.sim, s.bearer, 'DELETE', `${TRANSACTIONS}/${tx}/documents/${doc}`);
		expect(remove.status).toBe(400);
	});

	test('delete a document: 200 empty, its files go too', async () => {
		const tx = s.sim.createTransaction(FIXTURE.processSkillId);
		const keep = await newDocument(tx);
		const drop = await newDocument(tx);
		await addSourceFiles(tx, keep, ['keep.pdf']);
		await addSourceFiles(tx, drop, ['drop.pdf']);
		const res = await api(s.sim, s.bearer, 'DELETE', `${TRANSACTIONS}/${tx}/documents/${drop}`);
		expect(res.status).toBe(200);
		expect(res.text).toBe('');
		expect(s.sim.transaction(tx)!.documents.map((d) => d.id)).toEqual([keep]);
		expect(s.sim.transaction(tx)!.files.map((f) => f.name)).toEqual(['keep.pdf']);
		expect(
			(await api(s.sim, s.bearer, 'DELETE', `${TRANSACTIONS}/${tx}/documents/${drop}`)).status,
		).toBe(404);
	});

	test('start: a Process skill makes two documents per file (by index); empty documents go', async () => {
		const tx = s.sim.createTransaction(FIXTURE.processSkillId);
		const explicit = await newDocument(tx, { index: 0 });
		await newDocument(tx, { index: 1 }); // stays empty: dropped at start
		await addSourceFiles(tx, explicit, ['bundle.pdf']);
		await addFiles(s.sim, s.bearer, tx, [{ name: 'second.pdf' }, { name: 'first.pdf' }], {
			files: [{ index: 2 }, { index: 1 }],
		});
		await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/start`);
		const record = s.sim.transaction(tx)!;
		const byName = Object.fromEntries(record.files.map((f) => [f.name, f.documentIds]));
		expect(record.documents).toHaveLength(5);
		expect(record.documents[0].id).toBe(explicit);
		expect(byName['bundle.pdf']).toEqual([explicit]);
		expect(byName['first.pdf']).toEqual([record.documents[1].id, record.documents[2].id]);
		expect(byName['second.pdf']).toEqual([record.documents[3].id, record.documents[4].id]);
		const docs = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}/documents`);
		expect((docs.json as unknown[]).length).toBe(5);
	});

	test('start: other skills put all files into their one document', async () => {
		const loose = s.sim.createTransaction(FIXTURE.documentSkillId);
		await addFiles(s.sim, s.bearer, loose, [{ name: 'p1' }, { name: 'p2' }]);
		await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${loose}/start`);
		const one = s.sim.transaction(loose)!;
		expect(one.documents).toHaveLength(1);
		expect(one.files.map((f) => f.documentIds)).toEqual([
			[one.documents[0].id],
			[one.documents[0].id],
		]);

		const mixed = s.sim.createTransaction(FIXTURE.documentSkillId);
		const doc = await newDocument(mixed);
		await addSourceFiles(mixed, doc, ['in-doc']);
		await addFiles(s.sim, s.bearer, mixed, [{ name: 'loose' }]);
		await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${mixed}/start`);
		const res = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${mixed}/documents`);
		const files = s.sim.transaction(mixed)!.files;
		expect(res.json).toEqual([
			{ documentId: doc, sourceFiles: files.map((f) => ({ id: f.id, name: f.name })) },
		]);
	});

	test('a splitting Process skill cuts the files into documents with new ids; each Json names its own SourceFiles', async () => {
		s.sim.defineSkill(splittingSkill());
		const tx = s.sim.createTransaction(FIXTURE.splittingSkillId);
		await addFiles(s.sim, s.bearer, tx, [
			{ name: 'two.txt', data: 'InvoiceNumber: S-1\nTotal: 10\nInvoiceNumber: S-2\nTotal: 20' },
			{ name: 'one.txt', data: 'InvoiceNumber: S-3' },
			{ name: 'page2.txt', data: 'Continued: yes\nLineItem: Desk; 1; 5' },
		]);
		const listedBefore = await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}/documents`);
		expect(listedBefore.json).toEqual([]);
		await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/start`);
		const dto = await settle(s.sim, s.bearer, tx);
		expect(dto.status).toBe('Processed');
		// Three documents: S-1 and S-2 cut from two.txt, S-3 from one.txt and page2.txt.
		expect(dto.documents).toHaveLength(3);
		const names = new Map(dto.sourceFiles.map((f) => [f.id, f.name]));
		const sources = [];
		const numbers = [];
		for (let i = 0; i < 3; i++) {
			const json = await resultJson(s.sim, s.bearer, dto, i);
			const files = json.SourceFiles as Array<{ Id: string; Name: string }>;
			for (const file of files) expect(names.get(file.Id)).toBe(file.Name);
			sources.push(files.map((f) => f.Name));
			const fields = (await resultJson(s.sim, s.bearer, dto, i, 'FieldsJson')).Fields as Record<
				string,
				unknown
			>;
			numbers.push([fields.InvoiceNumber, fields.Total, (fields.LineItems as unknown[]).length]);
		}
		expect(sources).toEqual([['two.txt'], ['two.txt'], ['one.txt', 'page2.txt']]);
		expect(numbers).toEqual([
			['S-1', '10.00', 0],
			['S-2', '20.00', 0],
			['S-3', null, 1],
		]);
		// GetTransactionDocuments lists the documents as uploaded, one per file, with other ids.
		const listed = (await api(s.sim, s.bearer, 'GET', `${TRANSACTIONS}/${tx}/documents`))
			.json as Array<{ documentId: string; sourceFiles: Array<{ name: string }> }>;
		expect(listed.map((d) => d.sourceFiles.map((f) => f.name))).toEqual([
			['two.txt'],
			['one.txt'],
			['page2.txt'],
		]);
		const processedIds = new Set(dto.documents!.map((d) => d.id));
		expect(listed.some((d) => processedIds.has(d.documentId))).toBe(false);
		const one = await api(
			s.sim,
			s.bearer,
			'GET',
			`${TRANSACTIONS}/${tx}/documents/${listed[1].documentId}`,
		);
		expect(one.status).toBe(200);
	});

	test('GetTransactionInfo lists documents while New and once Processed, not while Processing', async () => {
		const tx = s.sim.createTransaction(FIXTURE.documentSkillId);
		const doc = await newDocument(tx);
		await addSourceFiles(tx, doc, ['a']);
		expect((await info(s.sim, s.bearer, tx)).documents).toEqual([{ id: doc }]);
		await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/start`);
		expect(await info(s.sim, s.bearer, tx)).not.toHaveProperty('documents');
		const done = await info(s.sim, s.bearer, tx);
		expect(done.documents?.map((d) => d.id)).toEqual([doc]);
	});

	test('download errors are 404 ProblemDetails typed application/octet-stream', async () => {
		const tx = s.sim.createTransaction(FIXTURE.documentSkillId);
		await addFiles(s.sim, s.bearer, tx, [{ name: 'a' }]);
		for (const res of [
			await download(s.sim, s.bearer, tx, randomId()),
			await download(s.sim, s.bearer, randomId(), randomId()),
		]) {
			expect(res.status).toBe(404);
			expect(res.contentType).toBe('application/octet-stream');
			expect(JSON.parse(res.body.toString())).toMatchObject({
				status: 404,
				detail: 'Transaction or file not found',
			});
		}
		await api(s.sim, s.bearer, 'POST', `${TRANSACTIONS}/${tx}/start`);
		const dto = await settle(s.sim, s.bearer, tx);
		const doc = dto.documents![0].id;
		const wrong = await raw(
			`${s.sim.url}${TRANSACTIONS}/${tx}/documents/${doc}/sourceFiles/${randomId()}/download`,
			{ headers: { authorization: `Bearer ${s.bearer}` } },
		);
		expect(wrong.status).toBe(404);
		expect(wrong.headers['content-type']).toBe('application/octet-stream');
	});
});
