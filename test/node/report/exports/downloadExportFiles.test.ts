import type { IDataObject } from 'n8n-workflow';

import { readBinary, runNode } from '../../../harness/n8n';
import { maxInFlight, useSimulator } from '../../../helpers/fixture';
import { nodeParams } from '../../../helpers/params';
import { sampleCsv } from '../../../simulator/simulator';
import { createExport } from './exportkit';

const f = useSimulator();

describe('Download Export Files', () => {
	const download = (extra: IDataObject = {}) =>
		nodeParams('report', 'downloadExportFiles', { requestId: '={{ $json.id }}', ...extra });

	test('all files: one item per file, CSV as binary with the bytes the simulator served', async () => {
		const files = [sampleCsv(2, 'a'), sampleCsv(5, 'b'), 'Name,Stadt\r\nÄrzte,Zürich\r\n'];
		const id = await createExport(f, { path: ['Succeeded'], files });
		const result = await runNode({ credentials: f.store, items: [{ id }], parameters: download() });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		for (const [index, item] of result.items.entries()) {
			expect(item.json).toEqual({
				requestId: id,
				fileIndex: index,
				fileName: `export-${id}-${index}.csv`,
				totalFileCount: 3,
				fileSize: Buffer.byteLength(files[index]),
			});
			expect(item.binary!.data).toMatchObject({
				fileName: `export-${id}-${index}.csv`,
				mimeType: 'text/csv',
				fileExtension: 'csv',
			});
			expect((await readBinary(item)).toString('utf8')).toBe(files[index]);
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	test('items are downloaded concurrently under Auto (the default), one at a time when pinned to 1', async () => {
		const ids: string[] = [];
		for (let i = 0; i < 6; i++)
			ids.push(await createExport(f, { path: ['Succeeded'], files: [`f${i}`] }));
		f.sim.setLatency(30);
		for (const [options, concurrent] of [
			[{}, true],
			[{ concurrency: 1 }, false],
		] as const) {
			f.sim.clearLog();
			const result = await runNode({
				credentials: f.store,
				items: ids.map((id) => ({ id })),
				parameters: download({ options }),
			});
			const files = await Promise.all(
				result.items.map(async (item) => (await readBinary(item)).toString()),
			);
			expect(files).toEqual(ids.map((_, i) => `f${i}`));
			const downloads = f.sim.requestsTo('GetExportResult');
			expect(downloads).toHaveLength(6);
			if (concurrent) expect(maxInFlight(downloads)).toBeGreaterThan(1);
			else expect(maxInFlight(downloads)).toBe(1);
		}
	});

	test('one file by index, into a custom binary field', async () => {
		const id = await createExport(f, { path: ['Succeeded'], files: ['zero', 'one', 'two'] });
		const result = await runNode({
			credentials: f.store,
			items: [{ id }],
			parameters: download({ files: 'one', fileIndex: 1, binaryPropertyName: 'report' }),
		});
		expect(result.items).toHaveLength(1);
		expect((await readBinary(result.items[0], 'report')).toString('utf8')).toBe('one');
		expect(f.sim.requestsTo('GetExportResult').map((r) => r.params.fileIndex)).toEqual(['1']);
	});

	test('an index out of range is refused without downloading', async () => {
		const id = await createExport(f, { path: ['Succeeded'], files: ['zero', 'one'] });
		const result = await runNode({
			credentials: f.store,
			items: [{ id }],
			parameters: download({ files: 'one', fileIndex: 2 }),
		});
		expect(result.error?.message).toBe(
			`File Index 2 is out of range: export ${id} has 2 files (0–1) [item 0]`,
		);
		expect(f.sim.requestsTo('GetExportResult')).toHaveLength(0);
	});

	test('an export that has not succeeded gives a clear error, not an empty file', async () => {
		const id = await createExport(f, { path: ['Processing'] });
		const result = await runNode({ credentials: f.store, items: [{ id }], parameters: download() });
		expect(result.error?.message).toBe(
			`Export ${id} has no files to download: its status is Processing [item 0]`,
		);
		expect((result.error as { description?: string }).description).toBe(
			'Use Wait For Export before downloading.',
		);
		expect(f.sim.requestsTo('GetExportResult')).toHaveLength(0);
	});

	test('per-item pairing across several exports', async () => {
		const a = await createExport(f, { path: ['Succeeded'], files: ['a0', 'a1'] });
		const b = await createExport(f, { path: ['Succeeded'], files: ['b0'] });
		const result = await runNode({
			credentials: f.store,
			items: [{ id: a }, { id: b }],
			parameters: download(),
		});
		expect(result.items.map((i) => [i.json.requestId, i.json.fileIndex, i.pairedItem])).toEqual([
			[a, 0, { item: 0 }],
			[a, 1, { item: 0 }],
			[b, 0, { item: 1 }],
		]);
	});
});
