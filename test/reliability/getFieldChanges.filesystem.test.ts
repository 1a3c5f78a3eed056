/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: hashes n8n's binary store on disk */
/**
 * A huge QA report as a CSV File with n8n's filesystem binary mode (n8n 2's default): 500 000
 * rows stream from the simulator through the node into n8n's binary store on disk. Asserted here:
 * every row counted, the stored file byte for byte what Vantage served. What it costs in memory
 * is a claim of the benchmark (`npm run bench`, section 10), not of a test.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { BinaryDataService } from 'n8n-core';
import { request } from 'undici';

import { runNode } from '../harness/n8n';
import { token } from '../helpers/http';
import { useSimulator } from '../helpers/fixture';
import { qaParams } from '../helpers/params';
import { FIXTURE } from '../simulator/simulator';

// Read by n8n-core when the binary data service is first created, inside the first run.
// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';

const f = useSimulator();

const { Container } = createRequire(require.resolve('n8n-core'))('@n8n/di') as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};

async function digest(chunks: AsyncIterable<Buffer | Uint8Array>): Promise<[string, number]> {
	const hash = createHash('sha256');
	let size = 0;
	for await (const chunk of chunks) {
		hash.update(chunk);
		size += chunk.length;
	}
	return [hash.digest('hex'), size];
}

describe('Get Field Changes: a huge report on disk', () => {
	test('500 000 rows streamed into n8n’s binary store: every row counted, bytes as served', async () => {
		// 25 000 transactions × 2 documents × 10 fields.
		f.sim.seedCompletedTransactions(25_000, {
			skillId: FIXTURE.processSkillId,
			manualReview: true,
		});
		const result = await runNode({
			credentials: f.store,
			parameters: qaParams('getFieldChanges', { output: 'binary' }),
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json.rows).toBe(500_000);
		const binary = item.binary!.data;
		expect(binary.id).toMatch(/^filesystem/);

		const service = Container.get(BinaryDataService);
		const path = service.getPath(binary.id!);
		try {
			await compare();
		} finally {
			// 70 MB on disk: not left behind in the test user folder.
			await rm(path, { force: true });
			await rm(`${path}.metadata`, { force: true });
		}

		async function compare(): Promise<void> {
			const served = await request(
				`${f.sim.url}/api/reporting/v2/qa/process-skills/fields?startDate=2020-01-01T00:00:00.000Z&processSkillId=process-skill`,
				{ headers: { authorization: `Bearer ${await token(f.sim)}` } },
			);
			const [servedHash, servedSize] = await digest(served.body);
			const stored = await service.getAsStream(binary.id!);
			const [storedHash, storedSize] = await digest(stored as AsyncIterable<Buffer>);
			expect([storedHash, storedSize]).toEqual([servedHash, servedSize]);
			expect(item.json.fileSize).toBe(servedSize);
			expect(servedSize).toBeGreaterThan(50_000_000);
		}
	}, 120_000);

	test('a report garbled deep inside fails as the bytes pass, naming the line: no file is output', async () => {
		// 1 000 transactions × 2 documents × 10 fields; a gateway's error page after 15 000 lines.
		f.sim.seedCompletedTransactions(1_000, { skillId: FIXTURE.processSkillId });
		f.sim.injectFault('GetFieldsAsCsv', {
			kind: 'garble',
			afterLines: 15_000,
			text: '<html><body><h1>504 Gateway Time-out</h1></body></html>\r\n',
		});
		const result = await runNode({
			credentials: f.store,
			continueOnFail: true,
			parameters: qaParams('getFieldChanges', { output: 'binary' }),
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].binary).toBeUndefined();
		expect(result.items[0].json.error).toBe(
			'The field changes report was not complete: line 15001 has 1 cell where the header has 14 [item 0]',
		);
		expect(f.sim.requestsTo('GetFieldsAsCsv')).toHaveLength(1);
	}, 60_000);
});
